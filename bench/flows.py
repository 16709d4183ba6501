#!/usr/bin/env python3
"""Many flows on loopback: nicbench-cli against netperf, neper, sockperf, iperf3 and qperf.

RR 1-byte at 1..10,000 connections, TCP_CRR at 1, stream at -P 1..128; every tool's own
figure, CPU per transaction / per byte measured independently, peak RSS at many connections.
Tools alternate within each round (the starting tool rotates), medians over the rounds, and
one table of ratios against the best anchor with the targets of NicBench issue 12.
netperf and neper come from build-anchors' cache (--anchors DIR); absent tools are skipped.
See bench/README.md.
"""

import argparse
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import flowtools as ft  # noqa: E402

# case -> kind, flows (RR connections or stream -P), target: (ratio, anchors it is measured against)
CASES = {
    "rr1": dict(kind="rr", flows=1, target=(1.0, ["netperf", "sockperf"])),
    "rr16": dict(kind="rr", flows=16, target=None),
    "rr128": dict(kind="rr", flows=128, target=(1.0, ["neper"])),
    "rr1024": dict(kind="rr", flows=1024, target=(1.0, ["neper"])),
    "rr10000": dict(kind="rr", flows=10000, target=None),
    "crr1": dict(kind="crr", flows=1, target=None),
    "stream1": dict(kind="stream", flows=1, target=(1.05, ["iperf3", "netperf", "qperf"])),
    "stream4": dict(kind="stream", flows=4, target=None),
    "stream16": dict(kind="stream", flows=16, target=None),
    "stream128": dict(kind="stream", flows=128, target=(1.0, ["iperf3"])),
}
ANCHORS = ["netperf", "sockperf", "neper", "iperf3", "qperf"]


def plans_for(case, a, env):
    """[(tool, plan factory)] for one case, only the tools that are present and apply."""
    c = CASES[case]
    kind, n, dur = c["kind"], c["flows"], a.duration
    t = min(a.threads, n)  # neper's client refuses fewer flows than threads; use the same T for both
    nb_threads = t if env["nb_threads"] else None
    have = env["have"]
    if kind == "stream":
        out = [("nicbench", lambda: ft.nicbench_stream(env["cli"], n, nb_threads, dur, env["nb_extra"]))]
    else:
        out = [("nicbench", lambda: ft.nicbench_rr(env["cli"], kind, n, nb_threads, dur, env["nb_extra"]))]
    if kind == "rr":
        if "tcp_rr" in have:
            out.append(("neper", lambda: ft.neper_rr(have["tcp_rr"], n, a.threads, dur)))
        if n == 1 and "netperf" in have:
            out.append(("netperf", lambda: ft.netperf_rr(have["netperf"], have["netserver"], "TCP_RR", dur)))
        if n == 1 and "sockperf" in have:
            out.append(("sockperf", lambda: ft.sockperf_pp(dur)))
    elif kind == "crr":
        if "netperf" in have:
            out.append(("netperf", lambda: ft.netperf_rr(have["netperf"], have["netserver"], "TCP_CRR", dur)))
    else:
        if "iperf3" in have:
            out.append(("iperf3", lambda: ft.iperf3_stream(n, dur)))
        if "tcp_stream" in have:
            out.append(("neper", lambda: ft.neper_stream(have["tcp_stream"], n, a.threads, dur)))
        if n == 1 and "netperf" in have:
            out.append(("netperf", lambda: ft.netperf_stream(have["netperf"], have["netserver"], dur)))
        if n == 1 and "qperf" in have:
            out.append(("qperf", lambda: ft.qperf_stream(dur)))
    return [(name, mk) for name, mk in out if name == "nicbench" or env["wanted"] is None or name in env["wanted"]]


def measure(plan, dur, flows):
    """One run: the tool's own server on fresh ports, its client, the server stopped by pid."""
    base = bl.free_ports(plan.get("ports", 1))
    srv = bl.Proc(plan["server"](base))
    rec = {"port": base, "server_argv": srv.argv}
    cli = None
    try:
        listen = plan.get("listen", lambda p: p)(base)
        if not bl.wait_listening(listen, srv.p):
            raise RuntimeError("server did not listen on %d: %s" % (listen, last_lines(srv.output())))
        t0 = time.monotonic()
        cli = bl.Proc(plan["client"](base))
        rec["client_argv"] = cli.argv
        exited = cli.wait(float(dur) + 20 + flows / 250.0, watch=(srv,))  # 10,000 connections open slowly
        rec["wall_s"] = time.monotonic() - t0
        if plan.get("server_exits"):
            srv.wait_exit(5.0)
        else:
            time.sleep(0.1)  # let the server finish its own end of the test
    finally:
        rec["cpu_server_s"] = srv.stop()
        rec["server_maxrss_kb"] = srv.maxrss_kb()
        if cli is not None and cli.returncode is None:
            cli.kill_hard()
    text = cli.output()
    rec.update(client_rc=cli.returncode, cpu_client_s=cli.rusage_cpu, client_maxrss_kb=cli.maxrss_kb())
    if not exited:
        raise RuntimeError("client did not finish within its time limit (killed): " + last_lines(text))
    if cli.returncode != 0:
        err = RuntimeError("client exit %s: %s" % (cli.returncode, last_lines(text)))
        err.text = text
        raise err
    rec.update(plan["parse"](text))
    return rec


def last_lines(text, n=2):
    """The end of a tool's output on one line, for error messages."""
    lines = [ln.strip() for ln in (text or "").strip().splitlines() if ln.strip()]
    return " | ".join(lines[-n:])[-300:] or "(no output)"


def add_cpu(rec, kind, dur):
    """CPU per unit from our own measurement: (client + server CPU s) / (rate x duration)."""
    cpu = (rec.get("cpu_client_s") or 0.0) + (rec.get("cpu_server_s") or 0.0)
    rec["cpu_total_s"] = cpu
    if kind == "stream":
        gb = rec["rate"] / 8 * dur / 1e9
        rec["cpu"] = cpu / gb if gb > 0 else None  # s/GB = ns/byte
    else:
        tr = rec["rate"] * dur
        rec["cpu"] = cpu * 1e6 / tr if tr > 0 else None  # us/transaction


def run(a, env, cases):
    results, refused = [], {}
    for rnd in range(a.rounds):
        for case in cases:
            c = CASES[case]
            tools = plans_for(case, a, env)
            if not tools:
                continue
            k = rnd % len(tools)
            for name, mk in tools[k:] + tools[:k]:  # alternate, starting tool rotates each round
                rec = dict(round=rnd, case=case, tool=name)
                if (case, name) in refused:
                    rec["refused"] = refused[(case, name)]
                    results.append(rec)
                    continue
                plan = mk()
                rec["note"] = plan.get("note", "")
                try:
                    rec.update(measure(plan, a.duration, c["flows"]))
                    add_cpu(rec, c["kind"], a.duration)
                    print("round %d %-9s %-8s %s  CPU %s%s" % (
                        rnd + 1, case, name, fmt_rate(c["kind"], rec["rate"]), fmt_cpu(c["kind"], rec["cpu"]),
                        fmt_lat(rec)), flush=True)
                except Exception as e:  # noqa: BLE001 - keep the run going, record the failure
                    text = getattr(e, "text", "")
                    if name == "nicbench" and text and ft.looks_refused(text):
                        msg = text.strip().splitlines()[-1][:160]
                        refused[(case, name)] = rec["refused"] = msg
                        print("round %d %-9s %-8s refused: %s" % (rnd + 1, case, name, msg), flush=True)
                    else:
                        rec["error"] = str(e)
                        print("round %d %-9s %-8s ERROR: %s" % (rnd + 1, case, name, e), flush=True)
                results.append(rec)
    return results


def fmt_rate(kind, v):
    if v is None:
        return "-"
    return "%.2f Gbit/s" % (v / 1e9) if kind == "stream" else "{:,.0f} tps".format(v)


def fmt_cpu(kind, v):
    if v is None:
        return "-"
    return "%.3f s/GB" % v if kind == "stream" else "%.2f us/tr" % v


def fmt_us(v):
    if v is None:
        return "-"
    return "%.0f us" % v if v < 10000 else "%.1f ms" % (v / 1000)


def fmt_lat(rec):
    if rec.get("latency_p99_us") is None:
        return ""
    return "  p50 %s p99 %s" % (fmt_us(rec.get("latency_p50_us")), fmt_us(rec["latency_p99_us"]))


def summarize(results, cases):
    summary = {}
    for case in cases:
        c = CASES[case]
        tools = {}
        for name in ["nicbench"] + ANCHORS:
            recs = [r for r in results if r["case"] == case and r["tool"] == name]
            if not recs:
                continue
            ok = [r for r in recs if r.get("rate")]
            t = dict(runs=len(ok), refused=next((r["refused"] for r in recs if "refused" in r), None),
                     errors=[r["error"] for r in recs if "error" in r][:2],
                     note=next((r.get("note") for r in recs if r.get("note")), ""))
            if ok:
                rates = [r["rate"] for r in ok]
                t.update(rate_median=bl.med(rates), rate_min=min(rates), rate_max=max(rates),
                         cpu_median=bl.med([r.get("cpu") for r in ok]))
                for key in ("latency_p50_us", "latency_p99_us", "netperf_sd_local_us_per_kb",
                            "netperf_sd_remote_us_per_kb", "reported_local_us_per_tr", "reported_remote_us_per_tr",
                            "client_maxrss_kb", "server_maxrss_kb"):
                    v = bl.med([r.get(key) for r in ok])
                    if v is not None:
                        t[key] = v
            tools[name] = t
        summary[case] = s = dict(kind=c["kind"], flows=c["flows"], tools=tools)
        judge(s, c["target"])
    return summary


def judge(s, target):
    """Best anchor, ratios and the verdict of one case."""
    tools = s["tools"]
    anchors = {k: v for k, v in tools.items() if k != "nicbench" and v.get("rate_median")}
    pool = {k: v for k, v in anchors.items() if target and k in target[1]}
    no_target_anchor = bool(target) and not pool
    pool = pool or anchors  # rows without a rate target: the best of whatever ran
    nb = tools.get("nicbench", {})
    s["target"] = ("rate >= %.2fx best of %s; CPU <= 1.00x" % (target[0], "/".join(target[1]))
                   if target else "CPU <= 1.00x (no rate target)")
    if pool:
        best = max(pool, key=lambda k: pool[k]["rate_median"])
        s["best_anchor"] = best
    if nb.get("refused"):
        s["verdict"] = "refused"
        return
    if not nb.get("rate_median"):
        s["verdict"] = "no nicbench figure"
        return
    if not pool:
        s["verdict"] = "no anchor"
        return
    b = pool[s["best_anchor"]]
    s["ratio"] = nb["rate_median"] / b["rate_median"]
    if nb.get("cpu_median") and b.get("cpu_median"):
        s["cpu_ratio"] = nb["cpu_median"] / b["cpu_median"]
    if no_target_anchor:  # ratio against another anchor is shown, but it is not the target's
        s["verdict"] = "no target anchor (%s did not run)" % "/".join(target[1])
        return
    fails = []
    if target and s["ratio"] < target[0]:
        fails.append("rate")
    if s.get("cpu_ratio") is None:
        fails.append("CPU unknown")
    elif s["cpu_ratio"] > 1.0:
        fails.append("CPU")
    s["pass"] = not fails
    s["verdict"] = "PASS" if not fails else "FAIL (%s)" % ", ".join(fails)


def print_report(summary, rounds):
    print("\n=== Ratios (medians over %d round%s; CPU measured by this script: client rusage + server /proc)"
          % (rounds, "" if rounds == 1 else "s"))
    rows = []
    for case, s in summary.items():
        kind, nb = s["kind"], s["tools"].get("nicbench", {})
        best = s.get("best_anchor")
        b = s["tools"].get(best, {}) if best else {}
        nb_txt = "refused" if nb.get("refused") else fmt_rate(kind, nb.get("rate_median"))
        rows.append([case, nb_txt, "%s %s" % (best, fmt_rate(kind, b.get("rate_median"))) if best else "-",
                     bl.fmt(s.get("ratio"), ".3f") + ("x" if s.get("ratio") else ""),
                     fmt_cpu(kind, nb.get("cpu_median")), fmt_cpu(kind, b.get("cpu_median")),
                     bl.fmt(s.get("cpu_ratio"), ".3f") + ("x" if s.get("cpu_ratio") else ""),
                     s["target"], s["verdict"]])
    bl.print_table(["case", "nicbench", "best anchor", "ratio", "CPU nicbench", "CPU anchor", "CPU ratio",
                    "target", "verdict"], rows)

    print("\n=== Every tool (median, min-max; CPU per transaction or per GB)")
    rows = []
    for case, s in summary.items():
        kind = s["kind"]
        for name, t in s["tools"].items():
            if t.get("rate_median") is None:
                fig, why = ("refused", t["refused"]) if t.get("refused") else ("ERROR", "; ".join(t["errors"]))
                rows.append([case, name, 0, fig, "-", why[:110], t["note"]])
                continue
            extra = []
            if t.get("latency_p99_us") is not None:
                extra.append("p50/p99 %s/%s" % (fmt_us(t.get("latency_p50_us")), fmt_us(t["latency_p99_us"])))
            if t.get("netperf_sd_local_us_per_kb") is not None:
                extra.append("netperf SD %.3f/%.3f us/KB (local/remote, = %.3f/%.3f s/GB)" % (
                    t["netperf_sd_local_us_per_kb"], t["netperf_sd_remote_us_per_kb"],
                    t["netperf_sd_local_us_per_kb"] * 1e3 / 1024, t["netperf_sd_remote_us_per_kb"] * 1e3 / 1024))
            if t.get("reported_local_us_per_tr") is not None:
                extra.append("own CPU figure local/remote %s/%s us/tr" % (
                    bl.fmt(t["reported_local_us_per_tr"]), bl.fmt(t.get("reported_remote_us_per_tr"))))
            lo, hi = fmt_rate(kind, t["rate_min"]), fmt_rate(kind, t["rate_max"])
            rows.append([case, name, t["runs"], "%s (%s - %s)" % (fmt_rate(kind, t["rate_median"]), lo.split()[0],
                                                                   hi.split()[0]),
                         fmt_cpu(kind, t.get("cpu_median")), "; ".join(extra) or "-", t["note"]])
    bl.print_table(["case", "tool", "runs", "rate median (min - max)", "CPU", "latency, tool's own CPU figure, errors",
                    "how"], rows)
    print_rss(summary)


def rss_summary(summary):
    """Peak RSS of client and server for nicbench and neper at the largest RR case measured."""
    rr = [(s["flows"], case) for case, s in summary.items() if s["kind"] == "rr"]
    if not rr:
        return None
    flows, case = max(rr)
    base = summary.get("rr1", {}).get("tools", {})
    out = dict(case=case, flows=flows, tools={})
    for name in ("nicbench", "neper"):
        t = summary[case]["tools"].get(name)
        if not t:
            continue
        if t.get("client_maxrss_kb") is None or t.get("server_maxrss_kb") is None:
            out["tools"][name] = dict(status=("refused: " + t["refused"]) if t.get("refused") else "no figure")
            continue
        total = t["client_maxrss_kb"] + t["server_maxrss_kb"]
        r = dict(client_mb=t["client_maxrss_kb"] / 1024, server_mb=t["server_maxrss_kb"] / 1024,
                 total_mb=total / 1024, kb_per_connection=total / flows)
        b = base.get(name, {})
        if flows > 1 and b.get("client_maxrss_kb") and b.get("server_maxrss_kb"):
            r["marginal_kb_per_connection"] = (total - b["client_maxrss_kb"] - b["server_maxrss_kb"]) / (flows - 1)
        out["tools"][name] = r
    return out


def print_rss(summary):
    r = rss_summary(summary)
    if not r:
        return
    print("\n=== Peak RSS at %s RR connections (%s; VmHWM sampled while running, client + server, medians)"
          % ("{:,}".format(r["flows"]), r["case"]))
    if r["flows"] < 10000:
        print("note: the 10,000-connection case was not run (--cases); this is the largest RR case measured")
    for name, t in r["tools"].items():
        if "status" in t:
            print("%-8s %s" % (name, t["status"]))
            continue
        line = "%-8s client %.1f MB + server %.1f MB = %.1f MB total, %.1f KB per connection" % (
            name, t["client_mb"], t["server_mb"], t["total_mb"], t["kb_per_connection"])
        if "marginal_kb_per_connection" in t:
            line += " (%.1f KB per added connection vs rr1)" % t["marginal_kb_per_connection"]
        print(line)


def environment(a, cases):
    """Tools present, nicbench-cli features, limits. Prints what it finds; changes no sysctl."""
    cli = bl.resolve_cli(a.cli)
    help_text = bl.cli_help(cli) if os.access(cli, os.X_OK) else ""
    root, have = bl.find_anchors(a.anchors)
    if "--rr" not in help_text:
        sys.exit("flows.py: %s is not a runnable nicbench-cli with --rr (use --cli PATH or $NICBENCH_CLI)" % cli)
    notes = []
    for tool, needs in (("netperf", ["netperf", "netserver"]), ("neper", ["tcp_rr", "tcp_stream"])):
        missing = [b for b in needs if b not in have]
        if missing:
            notes.append("%s: %s not in %s, skipped (build with %s %s)" % (
                tool, ", ".join(missing), root, bl.ANCHORS_BUILDER, root))
    for tool in ("sockperf", "iperf3", "qperf"):
        if bl.which(tool):
            have[tool] = bl.which(tool)
        else:
            notes.append("%s: not installed, skipped" % tool)
    if "netserver" not in have:
        have.pop("netperf", None)
    max_flows = max(CASES[c]["flows"] for c in cases)
    soft, hard, nofile_note = bl.raise_nofile(max_flows + 64)
    if nofile_note:
        notes.append(nofile_note)
    kvals, advice = bl.kernel_limits(max_flows)
    wanted = set(a.tools.split(",")) if a.tools else None
    return dict(cli=cli, nb_threads="--threads" in help_text, have=have,
                anchors_dir=root, notes=notes, nofile=(soft, hard), kernel=kvals, advice=advice,
                wanted=wanted, nb_extra=a.nicbench_args.split())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", help="nicbench-cli path (default $NICBENCH_CLI or build/bin/nicbench-cli)")
    ap.add_argument("--anchors", help="netperf/neper cache built by build-anchors (default %s)"
                    % bl.default_anchors_dir())
    ap.add_argument("--rounds", "-r", type=int, default=3)
    ap.add_argument("--duration", "-t", type=int, default=5, help="seconds per run (default 5)")
    ap.add_argument("--threads", "-T", type=int, default=os.cpu_count() or 1,
                    help="worker threads for nicbench (if it has --threads) and neper (default: cores)")
    ap.add_argument("--cases", default=",".join(CASES), help="comma list from: " + ",".join(CASES))
    ap.add_argument("--tools", help="comma list of anchors to run (default all present): " + ",".join(ANCHORS))
    ap.add_argument("--nicbench-args", default="", help="extra nicbench-cli client flags (use the = form)")
    ap.add_argument("--out", help="write raw results + summary as JSON here")
    a = ap.parse_args()
    cases = [c for c in a.cases.split(",") if c]
    bad = [c for c in cases if c not in CASES]
    if bad or not cases:
        sys.exit("flows.py: unknown case %s (choose from %s)" % (",".join(bad) or "''", ",".join(CASES)))
    unknown = [t for t in (a.tools or "").split(",") if t and t not in ANCHORS]
    if unknown:
        sys.exit("flows.py: unknown tool %s (choose from %s)" % (",".join(unknown), ",".join(ANCHORS)))
    if a.rounds < 1 or a.duration < 1 or a.threads < 1:
        sys.exit("flows.py: --rounds, --duration and --threads must be at least 1")

    env = environment(a, cases)
    print("nicbench-cli: %s (%s)" % (env["cli"], "--threads %d" % a.threads if env["nb_threads"]
                                     else "no --threads option: not passed"))
    print("anchors: %s" % ", ".join("%s=%s" % kv for kv in sorted(env["have"].items())))
    for n in env["notes"]:
        print("note: " + n)
    print("open files: soft %s hard %s (soft raised to hard for this script and its children)" % env["nofile"])
    print("kernel (read only): " + ", ".join("%s=%s" % kv for kv in env["kernel"].items()))
    for adv in env["advice"]:
        print("kernel advice (not applied): " + adv)
    print("rounds=%d duration=%ds threads=%d cases=%s (load avg %s)" % (
        a.rounds, a.duration, a.threads, ",".join(cases), open("/proc/loadavg").read().split()[0]))

    results = run(a, env, cases)
    summary = summarize(results, cases)
    print_report(summary, a.rounds)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(cli=env["cli"], anchors_dir=env["anchors_dir"], tools=env["have"],
                           nicbench_threads_option=env["nb_threads"], threads=a.threads, rounds=a.rounds,
                           duration=a.duration, cases=cases, notes=env["notes"], kernel=env["kernel"],
                           nofile=env["nofile"], results=results, summary=summary,
                           rss=rss_summary(summary), timestamp=time.strftime("%Y-%m-%dT%H:%M:%S%z")),
                      f, indent=1)
        print("\nraw results: %s" % a.out)


if __name__ == "__main__":
    main()
