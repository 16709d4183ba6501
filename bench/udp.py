#!/usr/bin/env python3
"""Loopback UDP pacing: nicbench-cli -u against stock iperf3 -u at the same -b and -l.

For each asked rate (default 1M,10M,100M,1000M) and each tool, alternating over R rounds,
it starts the tool's own server fresh, runs `-c 127.0.0.1 -u -b RATE -l LEN -t D -J` and
reads from the tool's own -J document the sender's and the receiver's bit/s, the lost
datagrams and the jitter. It also measures the client process's CPU (wait4() rusage: user +
system over the run) so the cost of pacing at low rates shows: a sender that busy-waits
costs a whole core (100%) whatever the rate. See bench/README.md.
"""

import argparse
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

UNITS = {"K": 1e3, "M": 1e6, "G": 1e9}


def rate_bps(text):
    text = text.strip()
    if text and text[-1].upper() in UNITS:
        return float(text[:-1]) * UNITS[text[-1].upper()]
    return float(text)


def parse_udp_json(text):
    """Sender and receiver bit/s, lost/total datagrams and jitter (ms) from an iperf3-style
    -J document (both tools put them in the same place)."""
    i = text.find("{")
    if i < 0:
        raise ValueError("no JSON: " + text[:200])
    end = json.loads(text[i:]).get("end") or {}
    sent = end.get("sum_sent") or {}
    got = end.get("sum_received") or {}
    total = end.get("sum") or {}
    if not sent or not got:
        raise ValueError("no end.sum_sent / end.sum_received in -J")
    return dict(sent_bps=float(sent["bits_per_second"]), received_bps=float(got["bits_per_second"]),
                lost=int(total.get("lost_packets", got.get("lost_packets", 0))),
                packets=int(total.get("packets", got.get("packets", 0))),
                jitter_ms=float(total.get("jitter_ms", got.get("jitter_ms", 0.0))))


def plan(tool, cli):
    if tool == "nicbench":
        return dict(server=lambda p: [cli, "-s", "-p", p], client=[cli])
    return dict(server=lambda p: ["iperf3", "-s", "-p", p], client=["iperf3"])


def measure(tool, cli, rate, length, dur):
    pl = plan(tool, cli)
    port = bl.free_ports(1)
    srv = bl.Proc(pl["server"](port))
    rec = dict(tool=tool, rate=rate, port=port)
    try:
        if not bl.wait_listening(port, srv.p):
            raise RuntimeError("server did not listen on %d: %s" % (port, srv.output()[-300:]))
        c = bl.Proc(pl["client"] + ["-c", bl.HOST, "-p", port, "-u", "-b", rate, "-l", length,
                                    "-t", dur, "-J"])
        exited = c.wait(float(dur) + 20)
        text = c.output()
        rec["client_cpu_s"] = c.rusage_cpu
    finally:
        rec["server_cpu_s"] = srv.stop()
    if not exited:
        raise RuntimeError("client did not finish within duration + 20 s (killed)")
    if c.returncode != 0:
        raise RuntimeError("client exit %s: %s" % (c.returncode, text.strip()[-300:]))
    rec.update(parse_udp_json(text))
    rec["client_cpu_pct"] = 100.0 * rec["client_cpu_s"] / float(dur)
    asked = rate_bps(rate)
    if asked > 0:
        rec["sent_error_pct"] = 100.0 * (rec["sent_bps"] / asked - 1)
        rec["received_error_pct"] = 100.0 * (rec["received_bps"] / asked - 1)
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", help="nicbench-cli path (default $NICBENCH_CLI or build/bin/nicbench-cli)")
    ap.add_argument("--rounds", "-r", type=int, default=3)
    ap.add_argument("--duration", "-t", type=int, default=5, help="seconds per run (default 5)")
    ap.add_argument("--rates", default="1M,10M,100M,1000M", help="comma list of -b values")
    ap.add_argument("--length", "-l", type=int, default=1460, help="datagram size -l (default 1460)")
    ap.add_argument("--tools", default="nicbench,iperf3")
    ap.add_argument("--out", help="write raw results + summary as JSON here")
    a = ap.parse_args()

    cli = bl.resolve_cli(a.cli)
    tools, notes = [], []
    for t in a.tools.split(","):
        if t == "nicbench" and not os.access(cli, os.X_OK):
            notes.append("nicbench-cli not found at %s" % cli)
        elif t == "iperf3" and not bl.which("iperf3"):
            notes.append("iperf3 not installed, skipped")
        elif t in ("nicbench", "iperf3"):
            tools.append(t)
    rates = [r for r in a.rates.split(",") if r]
    print("nicbench-cli: %s\ntools: %s" % (cli, ", ".join(tools)))
    for n in notes:
        print("note: " + n)
    print("rounds=%d duration=%ds -l %d rates=%s (load avg %s)" % (
        a.rounds, a.duration, a.length, ",".join(rates), open("/proc/loadavg").read().split()[0]))

    results = []
    for rnd in range(a.rounds):
        for rate in rates:
            order = tools[rnd % len(tools):] + tools[:rnd % len(tools)]
            for tool in order:
                rec = dict(round=rnd, tool=tool, rate=rate)
                try:
                    rec.update(measure(tool, cli, rate, a.length, a.duration))
                    print("round %d %-8s -b %-6s sent %9.3f Mbit/s (%+.2f%%) received %9.3f Mbit/s, lost %d/%d, "
                          "jitter %.3f ms, client CPU %.1f%%" % (
                              rnd + 1, tool, rate, rec["sent_bps"] / 1e6, rec.get("sent_error_pct", 0.0),
                              rec["received_bps"] / 1e6, rec["lost"], rec["packets"], rec["jitter_ms"],
                              rec["client_cpu_pct"]), flush=True)
                except Exception as e:  # noqa: BLE001
                    rec["error"] = str(e)
                    print("round %d %-8s -b %-6s ERROR: %s" % (rnd + 1, tool, rate, e), flush=True)
                results.append(rec)

    rows, summary = [], {}
    for rate in rates:
        for tool in tools:
            ok = [r for r in results if r["tool"] == tool and r["rate"] == rate and "error" not in r]
            if not ok:
                continue
            m = {k: bl.med([r.get(k) for r in ok]) for k in
                 ("sent_bps", "received_bps", "sent_error_pct", "received_error_pct", "client_cpu_pct",
                  "jitter_ms")}
            m["lost_pct"] = bl.med([100.0 * r["lost"] / r["packets"] if r["packets"] else None for r in ok])
            summary.setdefault(rate, {})[tool] = m
            rows.append([rate, tool, len(ok), bl.fmt(m["sent_bps"] / 1e6, ".3f"),
                         bl.fmt(m["sent_error_pct"], "+.2f"), bl.fmt(m["received_bps"] / 1e6, ".3f"),
                         bl.fmt(m["lost_pct"], ".2f"), bl.fmt(m["jitter_ms"], ".3f"),
                         bl.fmt(m["client_cpu_pct"], ".1f")])
    print("\n=== medians (target: nicbench sends the asked rate within 1%; client CPU well below 100% at "
          "low rates)")
    bl.print_table(["-b", "tool", "runs", "sent Mbit/s", "sent vs asked %", "received Mbit/s", "lost %",
                    "jitter ms", "client CPU %"], rows)

    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(cli=cli, rounds=a.rounds, duration=a.duration, length=a.length, rates=rates,
                           tools=tools, notes=notes, results=results, summary=summary,
                           timestamp=time.strftime("%Y-%m-%dT%H:%M:%S%z")), f, indent=1)
        print("\nraw results: %s" % a.out)


if __name__ == "__main__":
    main()
