#!/usr/bin/env python3
"""Loopback TCP throughput: nicbench-cli against iperf3, iperf2, qperf, nuttcp, netperf.

Alternates the tools over R rounds in one run; each measurement starts the tool's own
server fresh on a free port and stops it afterwards (by its own pid). Throughput comes
from each tool's own report; CPU cost is measured independently (client + server CPU
seconds / bytes moved). See bench/README.md.
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

# name, -l (None = tool default), parallel streams, target ratio
SCENARIOS = {
    "defaults": (None, 1, 1.05),
    "16K-P1": (16384, 1, 1.0),
    "16K-P4": (16384, 4, 1.0),
    "128K-P1": (131072, 1, 1.0),
    "128K-P4": (131072, 4, 1.0),
}
SCENARIO_ORDER = ["defaults", "16K-P1", "16K-P4", "128K-P1", "128K-P4"]


class Skip(Exception):
    pass


# Each tool: plan(length, parallel, duration, extra) -> dict(ports, server(base), client(base), parse(text))
# parse returns (bits_per_second, bytes_moved).

def plan_nicbench(cli, length, par, dur, extra):
    def client(p):
        a = [cli, "-c", bl.HOST, "-p", p, "-t", dur, "-J"]
        if length:
            a += ["-l", length]
        if par > 1:
            a += ["-P", par]
        return a + extra

    return dict(ports=1, server=lambda p: [cli, "-s", "-p", p], client=client, parse=parse_iperf3_json)


def plan_iperf3(length, par, dur):
    def client(p):
        a = ["iperf3", "-c", bl.HOST, "-p", p, "-t", dur, "-J"]
        if length:
            a += ["-l", length]
        if par > 1:
            a += ["-P", par]
        return a

    return dict(ports=1, server=lambda p: ["iperf3", "-s", "-p", p], client=client, parse=parse_iperf3_json)


def parse_iperf3_json(text):
    # nicbench-cli -J and iperf3 -J: end.sum_received (the receiver's figures).
    i = text.find("{")
    if i < 0:
        raise ValueError("no JSON in output: " + text[:200])
    d = json.loads(text[i:])
    if "error" in d and "end" not in d:
        raise ValueError(d["error"])
    s = d["end"]["sum_received"]
    return float(s["bits_per_second"]), float(s["bytes"])


def plan_iperf2(length, par, dur):
    def client(p):
        a = ["iperf", "-c", bl.HOST, "-p", p, "-t", dur, "-f", "b"]
        if length:
            a += ["-l", length]
        if par > 1:
            a += ["-P", par]
        return a

    def parse(text):
        rows = re.findall(r"^\[\s*(\w+)\].*?sec\s+(\d+) Bytes\s+(\d+) bits/sec", text, re.M)
        if not rows:
            raise ValueError("no iperf2 summary line: " + text[-300:])
        sums = [r for r in rows if r[0] == "SUM"]
        if sums:
            r = sums[-1]
            return float(r[2]), float(r[1])
        if par > 1:  # no [SUM] line: add the streams up
            return sum(float(r[2]) for r in rows), sum(float(r[1]) for r in rows)
        return float(rows[-1][2]), float(rows[-1][1])

    return dict(ports=1, server=lambda p: ["iperf", "-s", "-p", p], client=client, parse=parse)


_QUNITS = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def plan_qperf(length, par, dur):
    if par > 1:
        raise Skip("qperf has no parallel streams")

    def client(p):
        a = ["qperf", "-lp", p, bl.HOST, "-t", dur, "-v"]
        if length:
            a += ["-m", length]
        return a + ["tcp_bw"]

    def parse(text):
        m = re.search(r"\bbw\s*=\s*([\d.]+)\s*([KMGT]?)B/sec", text)
        t = re.search(r"\btime\s*=\s*([\d.]+)\s*sec", text)
        if not m:
            raise ValueError("no qperf bw: " + text[-300:])
        bps = float(m.group(1)) * _QUNITS[m.group(2)]  # qperf: decimal units, bytes
        secs = float(t.group(1)) if t else float(dur)
        return bps * 8, bps * secs

    return dict(ports=1, server=lambda p: ["qperf", "-lp", p], client=client, parse=parse)


def plan_nuttcp(length, par, dur):
    # control port = base, data ports = base+1 .. base+par
    def client(p):
        a = ["nuttcp", "-P%d" % p, "-p%d" % (p + 1), "-T%d" % int(dur), "-fparse"]
        if length:
            a.append("-l%d" % length)
        if par > 1:
            a.append("-N%d" % par)
        return a + [bl.HOST]

    def parse(text):
        m = re.search(r"megabytes=([\d.]+)\s+real_seconds=([\d.]+)\s+rate_Mbps=([\d.]+)", text)
        if not m:
            raise ValueError("no nuttcp summary: " + text[-300:])
        return float(m.group(3)) * 1e6, float(m.group(1)) * 1048576

    return dict(ports=1 + max(par, 1), client=client, parse=parse,
                server=lambda p: ["nuttcp", "-1", "--nofork", "-P%d" % p, "-p%d" % (p + 1)])


def plan_netperf(length, par, dur):
    if par > 1:
        raise Skip("netperf TCP_STREAM is one stream per process")

    def client(p):
        a = ["netperf", "-H", bl.HOST, "-p", p, "-l", dur, "-t", "TCP_STREAM", "-f", "b", "-P", "0"]
        if length:
            a += ["--", "-m", length]
        return a

    def parse(text):
        # one result line: recv_sock send_sock msg_size elapsed throughput(bits/s)
        for line in reversed(text.strip().splitlines()):
            f = line.split()
            if len(f) >= 5:
                try:
                    secs, bps = float(f[3]), float(f[4])
                    return bps, bps * secs / 8
                except ValueError:
                    continue
        raise ValueError("no netperf result: " + text[-300:])

    return dict(ports=1, server=lambda p: ["netserver", "-D", "-f", "-p", p], client=client, parse=parse)


OTHER_TOOLS = [
    ("iperf3", "iperf3", plan_iperf3),
    ("iperf2", "iperf", plan_iperf2),
    ("qperf", "qperf", plan_qperf),
    ("nuttcp", "nuttcp", plan_nuttcp),
    ("netperf", "netperf", plan_netperf),
]


def measure(plan, dur):
    base = bl.free_ports(plan["ports"])
    srv = bl.Proc(plan["server"](base))
    rec = {"port": base, "server_argv": srv.argv}
    try:
        if not bl.wait_listening(base, srv.p):
            raise RuntimeError("server did not listen on %d: %s" % (base, srv.output()[-300:]))
        t0 = time.monotonic()
        cli = bl.Proc(plan["client"](base))
        rec["client_argv"] = cli.argv
        exited = cli.wait(float(dur) + 20, watch=(srv,))  # per-pid samples: forking servers
        rec["wall_s"] = time.monotonic() - t0
        text = cli.output()
        rec["client_rc"] = cli.returncode
        rec["cpu_client_s"] = cli.rusage_cpu
        time.sleep(0.1)  # let the server finish its own end of the test
    finally:
        rec["cpu_server_s"] = srv.stop()
    if not exited:
        raise RuntimeError("client did not finish within duration + 20 s (killed)")
    if cli.returncode != 0:
        raise RuntimeError("client exit %s: %s" % (cli.returncode, text.strip()[-300:]))
    bps, nbytes = plan["parse"](text)
    rec.update(bps=bps, bytes=nbytes)
    cpu = (rec["cpu_client_s"] or 0.0) + (rec["cpu_server_s"] or 0.0)
    rec["cpu_total_s"] = cpu
    rec["cpu_ns_per_byte"] = cpu * 1e9 / nbytes if nbytes > 0 else None
    rec["cpu_s_per_gb"] = cpu / (nbytes / 1e9) if nbytes > 0 else None
    return rec


def summarize(results, scenarios, tools):
    summary = {}
    for sc in scenarios:
        rows = {}
        for t in tools:
            ok = [r for r in results if r["scenario"] == sc and r["tool"] == t and r.get("bps")]
            if not ok:
                continue
            g = [r["bps"] / 1e9 for r in ok]
            rows[t] = dict(n=len(ok), gbps_median=bl.med(g), gbps_min=min(g), gbps_max=max(g),
                           cpu_s_per_gb_median=bl.med([r["cpu_s_per_gb"] for r in ok]))
        others = {t: v for t, v in rows.items() if t != "nicbench"}
        s = dict(tools=rows, target=SCENARIOS[sc][2])
        if "nicbench" in rows and others:
            best = max(others, key=lambda t: others[t]["gbps_median"])
            nb = rows["nicbench"]
            s["best_other"] = best
            s["throughput_ratio"] = nb["gbps_median"] / others[best]["gbps_median"]
            cpus = {t: v["cpu_s_per_gb_median"] for t, v in others.items() if v["cpu_s_per_gb_median"]}
            if nb["cpu_s_per_gb_median"] and others[best]["cpu_s_per_gb_median"]:
                s["cpu_ratio_vs_best"] = nb["cpu_s_per_gb_median"] / others[best]["cpu_s_per_gb_median"]
            if nb["cpu_s_per_gb_median"] and cpus:
                leanest = min(cpus, key=cpus.get)
                s["leanest_other"] = leanest
                s["cpu_ratio_vs_leanest"] = nb["cpu_s_per_gb_median"] / cpus[leanest]
            s["pass"] = bool(s["throughput_ratio"] >= s["target"] and
                             s.get("cpu_ratio_vs_best", 99) <= 1.0)
        summary[sc] = s
    return summary


def print_summary(summary, out=sys.stdout):
    for sc, s in summary.items():
        length, par, target = SCENARIOS[sc]
        out.write("\n=== %s  (-l %s, %d stream%s; target >= %.2fx and CPU/GB <= best other)\n" % (
            sc, length or "tool default", par, "s" if par > 1 else "", target))
        rows = [[t, v["n"], "%.2f (%.2f-%.2f)" % (v["gbps_median"], v["gbps_min"], v["gbps_max"]),
                 bl.fmt(v["cpu_s_per_gb_median"], ".3f")] for t, v in s["tools"].items()]
        bl.print_table(["tool", "runs", "Gbit/s median (min-max)", "CPU s/GB (= ns/byte)"], rows, out)
        if "throughput_ratio" in s:
            out.write("nicbench / %s (best other): throughput %.3fx, CPU per byte %sx"
                      % (s["best_other"], s["throughput_ratio"], bl.fmt(s.get("cpu_ratio_vs_best"), ".3f")))
            if "leanest_other" in s:
                out.write("; CPU per byte vs leanest (%s) %.3fx" % (s["leanest_other"], s["cpu_ratio_vs_leanest"]))
            out.write("\n%s\n" % ("PASS" if s["pass"] else "MISS"))
        else:
            out.write("no ratio (nicbench or every other tool missing)\n")
    out.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", help="nicbench-cli path (default $NICBENCH_CLI or build/bin/nicbench-cli)")
    ap.add_argument("--rounds", "-r", type=int, default=5)
    ap.add_argument("--duration", "-t", type=int, default=5, help="seconds per run (default 5)")
    ap.add_argument("--scenarios", default=",".join(SCENARIO_ORDER),
                    help="comma list from: " + ",".join(SCENARIO_ORDER))
    ap.add_argument("--tools", help="comma list of other tools to include (default: all installed)")
    ap.add_argument("--nicbench-args", default="",
                    help="extra nicbench-cli client flags, e.g. '--rx-copy -R' (space separated)")
    ap.add_argument("--anchors", help="netperf cache built by build-anchors (default %s), used when netperf "
                    "is not on PATH" % bl.default_anchors_dir())
    ap.add_argument("--out", help="write raw results + summary as JSON here")
    a = ap.parse_args()
    anchors_note = bl.put_anchors_on_path(a.anchors)

    cli = bl.resolve_cli(a.cli)
    if not os.access(cli, os.X_OK):
        sys.exit("nicbench-cli not found/executable at %s (use --cli or NICBENCH_CLI)" % cli)
    scenarios = [s for s in a.scenarios.split(",") if s]
    for s in scenarios:
        if s not in SCENARIOS:
            sys.exit("unknown scenario %s" % s)
    wanted = set(a.tools.split(",")) if a.tools else None
    tools, notes = [("nicbench", None)], [anchors_note] if anchors_note else []
    for name, binary, planner in OTHER_TOOLS:
        if wanted is not None and name not in wanted:
            continue
        if bl.which(binary) and (name != "netperf" or bl.which("netserver")):
            tools.append((name, planner))
        else:
            notes.append("%s: not installed (%s not on PATH), skipped" % (name, binary))
    extra = a.nicbench_args.split()
    print("nicbench-cli: %s %s" % (cli, " ".join(extra)))
    print("tools: %s" % ", ".join(t for t, _ in tools))
    for n in notes:
        print("note: " + n)
    print("rounds=%d duration=%ds scenarios=%s (load avg %s)" % (
        a.rounds, a.duration, ",".join(scenarios), open("/proc/loadavg").read().split()[0]))

    results = []
    for rnd in range(a.rounds):
        for sc in scenarios:
            length, par, _ = SCENARIOS[sc]
            order = tools[rnd % len(tools):] + tools[:rnd % len(tools)]  # rotate who goes first
            for name, planner in order:
                rec = dict(round=rnd, scenario=sc, tool=name)
                try:
                    plan = (plan_nicbench(cli, length, par, a.duration, extra) if name == "nicbench"
                            else planner(length, par, a.duration))
                    rec.update(measure(plan, a.duration))
                    print("round %d %-8s %-8s %7.2f Gbit/s  CPU %.3f s/GB (client %.2fs server %.2fs)" % (
                        rnd + 1, sc, name, rec["bps"] / 1e9, rec["cpu_s_per_gb"],
                        rec["cpu_client_s"] or 0, rec["cpu_server_s"] or 0), flush=True)
                except Skip as e:
                    rec["skipped"] = str(e)
                    if rnd == 0:
                        print("round %d %-8s %-8s skipped: %s" % (rnd + 1, sc, name, e), flush=True)
                except Exception as e:  # noqa: BLE001 - keep the run going, record the failure
                    rec["error"] = str(e)
                    print("round %d %-8s %-8s ERROR: %s" % (rnd + 1, sc, name, e), flush=True)
                results.append(rec)

    summary = summarize(results, scenarios, [t for t, _ in tools])
    print_summary(summary)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(cli=cli, nicbench_args=extra, rounds=a.rounds, duration=a.duration,
                           tools=[t for t, _ in tools], notes=notes, results=results, summary=summary,
                           timestamp=time.strftime("%Y-%m-%dT%H:%M:%S%z")), f, indent=1)
        print("\nraw results: %s" % a.out)


if __name__ == "__main__":
    main()
