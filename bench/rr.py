#!/usr/bin/env python3
"""Loopback 1-byte TCP request/response: nicbench-cli --rr against sockperf ping-pong,
qperf tcp_lat, iperf2 --bounceback and netperf TCP_RR (whichever are installed).

Alternates the tools over R rounds, unpinned and with client and server both pinned to
one core (taskset -c CORE). Also checks nicbench's system-wide CPU figure
(nicbench.cpu.local.system_busy_pct) against /proc/stat sampled by this script.
See bench/README.md.
"""

import argparse
import json
import os
import re
import sys
import time

sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402


def nicbench_plan(cli, dur, req, resp):
    def parse(text):
        i = text.find("{")
        if i < 0:
            raise ValueError("no JSON: " + text[:200])
        d = json.loads(text[i:])
        nb = d.get("nicbench", {})
        rr = nb.get("rr")
        if not rr or "transactions_per_second" not in rr:
            raise ValueError("no nicbench.rr.transactions_per_second in JSON")
        cpu = (nb.get("cpu") or {}).get("local") or {}
        return float(rr["transactions_per_second"]), dict(
            reported_busy_pct=cpu.get("system_busy_pct"),
            reported_process_pct=cpu.get("process_pct"),
            latency_p50_us=(rr.get("latency_us") or {}).get("p50"))

    return dict(server=lambda p: [cli, "-s", "-p", p],
                client=lambda p: [cli, "-c", bl.HOST, "-p", p, "--rr", "--request-size", req,
                                  "--response-size", resp, "-t", dur, "-J"],
                parse=parse, note="%d/%d bytes" % (req, resp))


def sockperf_plan(dur, size):
    size = max(size, 14)  # sockperf's minimum message size is 14 (its header)

    def parse(text):
        m = re.search(r"RunTime=([\d.]+) sec; SentMessages=(\d+); ReceivedMessages=(\d+)", text)
        if m:
            return int(m.group(3)) / float(m.group(1)), {}
        m = re.search(r"Latency is ([\d.]+) usec", text)  # one-way = RTT/2
        if m:
            return 1e6 / (2 * float(m.group(1))), {}
        raise ValueError("no sockperf summary: " + text[-300:])

    return dict(server=lambda p: ["sockperf", "sr", "--tcp", "-i", bl.HOST, "-p", p],
                client=lambda p: ["sockperf", "pp", "--tcp", "-i", bl.HOST, "-p", p, "-t", dur, "-m", size],
                parse=parse, note="%d-byte messages (sockperf minimum 14)" % size)


_LAT = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "sec": 1e6, "s": 1e6}


def qperf_plan(dur, size):
    def parse(text):
        m = re.search(r"latency\s*=\s*([\d.]+)\s*(ns|us|ms|sec)", text)
        if not m:
            raise ValueError("no qperf latency: " + text[-300:])
        lat_us = float(m.group(1)) * _LAT[m.group(2)]  # qperf reports one-way latency = RTT/2
        return 1e6 / (2 * lat_us), dict(one_way_latency_us=lat_us)

    return dict(server=lambda p: ["qperf", "-lp", p],
                client=lambda p: ["qperf", "-lp", p, bl.HOST, "-t", dur, "-m", size, "-v", "tcp_lat"],
                parse=parse, note="%d-byte messages" % size)


def iperf2_plan(dur, size):
    def parse(text):
        m = re.search(r"BB cnt=.*?\s(\d+) rps", text, re.S)
        if not m:
            raise ValueError("no iperf2 bounceback rps: " + text[-300:])
        return float(m.group(1)), {}

    return dict(server=lambda p: ["iperf", "-s", "-p", p],
                client=lambda p: ["iperf", "-c", bl.HOST, "-p", p, "-t", dur, "--bounceback",
                                  "--bounceback-period", "0", "-l", size],
                parse=parse, note="%d-byte bounceback (iperf 2.1.8 hangs with -l 1)" % size)


def netperf_plan(dur, req, resp):
    def parse(text):
        for line in reversed(text.strip().splitlines()):
            f = line.split()
            if len(f) >= 6:
                try:
                    return float(f[5]), {}
                except ValueError:
                    continue
        raise ValueError("no netperf result: " + text[-300:])

    return dict(server=lambda p: ["netserver", "-D", "-f", "-p", p],
                client=lambda p: ["netperf", "-H", bl.HOST, "-p", p, "-l", dur, "-t", "TCP_RR", "-P", "0",
                                  "--", "-r", "%d,%d" % (req, resp)],
                parse=parse, note="%d/%d bytes" % (req, resp))


def measure(plan, dur, prefix, cpu_check):
    base = bl.free_ports(1)
    srv = bl.Proc(plan["server"](base), prefix)
    rec = {"port": base, "server_argv": srv.argv}
    try:
        if not bl.wait_listening(base, srv.p):
            raise RuntimeError("server did not listen on %d: %s" % (base, srv.output()[-300:]))
        cli = bl.Proc(plan["client"](base), prefix)
        before = bl.read_proc_stat()
        t0 = time.monotonic()
        exited = cli.wait(float(dur) + 20)
        after = bl.read_proc_stat()
        rec["wall_s"] = time.monotonic() - t0
        rec["client_argv"] = cli.argv
        text = cli.output()
        rec["client_rc"] = cli.returncode
        rec["cpu_client_s"] = cli.rusage_cpu
    finally:
        rec["cpu_server_s"] = srv.stop()
    if not exited:
        raise RuntimeError("client did not finish within duration + 20 s (killed)")
    if cli.returncode != 0:
        raise RuntimeError("client exit %s: %s" % (cli.returncode, text.strip()[-300:]))
    tps, extra = plan["parse"](text)
    rec["tps"] = tps
    rec.update(extra)
    if cpu_check:
        rec["procstat_busy_pct"] = bl.busy_pct(before, after)
        if extra.get("reported_busy_pct") is not None:
            rec["busy_diff_pp"] = extra["reported_busy_pct"] - rec["procstat_busy_pct"]
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", help="nicbench-cli path (default $NICBENCH_CLI or build/bin/nicbench-cli)")
    ap.add_argument("--rounds", "-r", type=int, default=5)
    ap.add_argument("--duration", "-t", type=int, default=5, help="seconds per run (default 5)")
    ap.add_argument("--size", type=int, default=1, help="request and response size (default 1)")
    ap.add_argument("--iperf2-size", type=int, default=100,
                    help="iperf2 bounceback size (default 100, its own default; 1 hangs in 2.1.8)")
    ap.add_argument("--core", default="0", help="core for the pinned mode (default 0)")
    ap.add_argument("--modes", default="unpinned,pinned")
    ap.add_argument("--tools", help="comma list of other tools (default: all installed)")
    ap.add_argument("--anchors", help="netperf cache built by build-anchors (default %s), used when netperf "
                    "is not on PATH" % bl.default_anchors_dir())
    ap.add_argument("--out", help="write raw results + summary as JSON here")
    a = ap.parse_args()
    anchors_note = bl.put_anchors_on_path(a.anchors)

    cli = bl.resolve_cli(a.cli)
    have_cli = os.access(cli, os.X_OK)
    modes = [m for m in a.modes.split(",") if m]
    wanted = set(a.tools.split(",")) if a.tools else None
    notes = [anchors_note] if anchors_note else []
    tools = []
    if have_cli:
        tools.append(("nicbench", lambda: nicbench_plan(cli, a.duration, a.size, a.size)))
    else:
        notes.append("nicbench-cli not found at %s: nicbench RR not available" % cli)
    others = [("sockperf", "sockperf", lambda: sockperf_plan(a.duration, a.size)),
              ("qperf", "qperf", lambda: qperf_plan(a.duration, a.size)),
              ("iperf2", "iperf", lambda: iperf2_plan(a.duration, a.iperf2_size)),
              ("netperf", "netperf", lambda: netperf_plan(a.duration, a.size, a.size))]
    for name, binary, mk in others:
        if wanted is not None and name not in wanted:
            continue
        if bl.which(binary) and (name != "netperf" or bl.which("netserver")):
            tools.append((name, mk))
        else:
            notes.append("%s: not installed (%s not on PATH), skipped" % (name, binary))
    if "pinned" in modes and not bl.which("taskset"):
        notes.append("taskset not found: pinned mode skipped")
        modes = [m for m in modes if m != "pinned"]

    print("nicbench-cli: %s" % cli)
    print("tools: %s" % ", ".join(t for t, _ in tools))
    for n in notes:
        print("note: " + n)
    print("rounds=%d duration=%ds size=%d modes=%s (load avg %s)" % (
        a.rounds, a.duration, a.size, ",".join(modes), open("/proc/loadavg").read().split()[0]))

    results, nb_unavailable = [], False
    for rnd in range(a.rounds):
        for mode in modes:
            prefix = ["taskset", "-c", a.core] if mode == "pinned" else None
            order = tools[rnd % len(tools):] + tools[:rnd % len(tools)]
            for name, mk in order:
                if name == "nicbench" and nb_unavailable:
                    continue
                rec = dict(round=rnd, mode=mode, tool=name)
                plan = mk()
                rec["note"] = plan["note"]
                try:
                    rec.update(measure(plan, a.duration, prefix, cpu_check=(name == "nicbench")))
                    line = "round %d %-8s %-8s %10.0f trans/s" % (rnd + 1, mode, name, rec["tps"])
                    if "busy_diff_pp" in rec:
                        line += "  CPU busy: nicbench %.1f%% /proc/stat %.1f%% (diff %+.1f pp)" % (
                            rec["reported_busy_pct"], rec["procstat_busy_pct"], rec["busy_diff_pp"])
                    print(line, flush=True)
                except Exception as e:  # noqa: BLE001
                    msg = str(e)
                    rec["error"] = msg
                    if name == "nicbench" and re.search(r"unknown|unrecogni[sz]ed|invalid|not supported|--rr",
                                                        msg, re.I):
                        nb_unavailable = True
                        print("nicbench RR not available (%s)" % msg.splitlines()[-1] if msg else "", flush=True)
                    else:
                        print("round %d %-8s %-8s ERROR: %s" % (rnd + 1, mode, name, msg), flush=True)
                results.append(rec)

    summary = {}
    for mode in modes:
        rows, meds = [], {}
        for name, _ in tools:
            ok = [r["tps"] for r in results if r["mode"] == mode and r["tool"] == name and r.get("tps")]
            if not ok:
                continue
            meds[name] = bl.med(ok)
            note = next(r["note"] for r in results if r["tool"] == name)
            rows.append([name, len(ok), "%.0f" % meds[name], "%.0f-%.0f" % (min(ok), max(ok)), note])
        s = dict(medians=meds)
        print("\n=== %s%s (target: nicbench >= 1.0x best other)" % (
            mode, " (client and server on core %s)" % a.core if mode == "pinned" else ""))
        bl.print_table(["tool", "runs", "trans/s median", "min-max", "message"], rows)
        othr = {k: v for k, v in meds.items() if k != "nicbench"}
        if "nicbench" in meds and othr:
            best = max(othr, key=othr.get)
            s.update(best_other=best, ratio=meds["nicbench"] / othr[best])
            s["pass"] = s["ratio"] >= 1.0
            print("nicbench / %s (best other): %.3fx  %s" % (best, s["ratio"], "PASS" if s["pass"] else "MISS"))
        elif "nicbench" not in meds:
            print("nicbench RR not available: no ratio")
        diffs = [r["busy_diff_pp"] for r in results if r["mode"] == mode and "busy_diff_pp" in r]
        if diffs:
            worst = max(diffs, key=abs)
            s.update(cpu_diff_pp_median=bl.med(diffs), cpu_diff_pp_worst=worst, cpu_pass=abs(worst) <= 5)
            print("CPU check (nicbench.cpu.local.system_busy_pct - /proc/stat busy): median %+.1f pp, "
                  "worst %+.1f pp  %s (target within 5 pp)" % (s["cpu_diff_pp_median"], worst,
                                                               "PASS" if s["cpu_pass"] else "MISS"))
        elif "nicbench" in meds:
            print("CPU check: nicbench JSON has no nicbench.cpu.local.system_busy_pct")
        summary[mode] = s

    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(cli=cli, rounds=a.rounds, duration=a.duration, size=a.size, modes=modes,
                           tools=[t for t, _ in tools], notes=notes, results=results, summary=summary,
                           timestamp=time.strftime("%Y-%m-%dT%H:%M:%S%z")), f, indent=1)
        print("\nraw results: %s" % a.out)


if __name__ == "__main__":
    main()
