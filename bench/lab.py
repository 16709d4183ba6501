#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The articles' adapter comparison in the lab (docs/lab.md): E1000 vs E1000E vs VMXNET3 vs
virtio-net, host -> guest, with nicbench-cli against iperf3 and netperf in the same guests.

Boots one QEMU guest per adapter with `nicbench-cli lab up` in a network namespace of its own
(all traffic stays in 198.18.0.0/15 inside it), then per round and per adapter (the adapter
order rotates each round) runs:
  stream1   one TCP stream, host -> guest         nicbench -t D (and with --rx-copy) | iperf3 -t D |
                                                  netperf TCP_STREAM
  p16       -P 16 -w 64K -l 128K (the articles')  nicbench      | iperf3
  rr        1-byte TCP request/response           nicbench --rr | netperf TCP_RR -r 1,1
Figures are medians over the rounds with the range; boot time and QEMU's resident memory come
from `lab status --json`. Needs root. Usage:
  bench/lab.py [--cli build/bin/nicbench-cli] [--rounds 3] [--duration 5] [--mtu 1500]
               [--adapters e1000,e1000e,vmxnet3,virtio] [--anchors DIR] [--out FILE.json]
netperf comes from the anchors cache (/work/shared/anchors/build-anchors; bench/README.md);
without it the netperf columns stay empty.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

NETNS = "nblabbench"


def sh(args, timeout=120, check=False, env=None):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    if check and p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(args), p.stderr.strip()[-500:]))
    return p


class Lab:
    def __init__(self, cli, runtime):
        self.cli = cli
        self.env = dict(os.environ, XDG_RUNTIME_DIR=runtime)

    def __call__(self, *args, timeout=600, check=True):
        return sh([self.cli, "lab", *args], timeout=timeout, check=check, env=self.env)

    def guest(self, name, *command, timeout=120):
        return self("exec", name, "--timeout", str(timeout), "--", *command, timeout=timeout + 10, check=False)


def host(*args, timeout=120):
    """A command on the host side of the lab's bridge (inside the lab's namespace)."""
    return sh(["ip", "netns", "exec", NETNS, *args], timeout=timeout)


def nicbench_json(text):
    i = text.find("{")
    if i < 0:
        raise ValueError("no JSON: " + text[:200])
    return json.loads(text[i:])


def measure(kind, tool, cli, addr, dur, netperf):
    """One measurement; returns (figure, extra) or raises."""
    d = str(dur)
    if tool in ("nicbench", "nicbench-copy"):
        args = {"stream1": [], "p16": ["-P", "16", "-w", "64K", "-l", "128K"], "rr": ["--rr"]}[kind]
        if tool == "nicbench-copy":
            args = ["--rx-copy"]
        p = host(cli, "-c", addr, "-t", d, "-J", *args, timeout=dur + 60)
        if p.returncode != 0:
            raise RuntimeError(p.stderr.strip()[-300:])
        j = nicbench_json(p.stdout)
        cpu = j.get("end", {}).get("cpu_utilization_percent", {})
        if kind == "rr":
            return j["nicbench"]["rr"]["transactions_per_second"], cpu.get("remote_total")
        return j["end"]["sum_received"]["bits_per_second"], cpu.get("remote_total")
    if tool == "iperf3":
        args = {"stream1": [], "p16": ["-P", "16", "-w", "64K", "-l", "128K"]}[kind]
        p = host("iperf3", "-c", addr, "-p", "5301", "-t", d, "-J", *args, timeout=dur + 60)
        j = json.loads(p.stdout) if p.stdout.strip().startswith("{") else {}
        if "end" not in j or "sum_received" not in j["end"]:
            raise RuntimeError((j.get("error") or p.stderr or p.stdout).strip()[-300:])
        return j["end"]["sum_received"]["bits_per_second"], j["end"].get("cpu_utilization_percent", {}).get(
            "remote_total")
    if tool == "netperf":
        if kind == "stream1":
            p = host(netperf, "-t", "TCP_STREAM", "-H", addr, "-l", d, "-f", "m", "-P", "0", timeout=dur + 60)
            f = last_numbers(p.stdout, 5)
            return f[4] * 1e6, None
        p = host(netperf, "-t", "TCP_RR", "-H", addr, "-l", d, "-P", "0", "--", "-r", "1,1", timeout=dur + 60)
        f = last_numbers(p.stdout, 6)
        return f[5], None
    raise ValueError(tool)


def last_numbers(text, minimum):
    for line in reversed(text.strip().splitlines()):
        f = line.split()
        if len(f) >= minimum:
            try:
                return [float(x) for x in f]
            except ValueError:
                continue
    raise RuntimeError("no netperf result: " + text.strip()[-300:])


PLAN = [("stream1", "nicbench"), ("stream1", "nicbench-copy"), ("stream1", "iperf3"), ("stream1", "netperf"),
        ("p16", "nicbench"), ("p16", "iperf3"),
        ("rr", "nicbench"), ("rr", "netperf")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli")
    ap.add_argument("--adapters", default="e1000,e1000e,vmxnet3,virtio")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--mtu", type=int, default=1500)
    ap.add_argument("--memory", type=int, default=256)
    ap.add_argument("--anchors")
    ap.add_argument("--out")
    a = ap.parse_args()
    cli = os.path.abspath(bl.resolve_cli(a.cli))
    _, anchors = bl.find_anchors(a.anchors)
    netperf = anchors.get("netperf")
    netserver = anchors.get("netserver")
    runtime = tempfile.mkdtemp(prefix="nblab-bench-")
    # SIGTERM and Ctrl-C still take the lab down (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bench/lab.py: stopped"))
    lab = Lab(cli, runtime)
    results = {}
    t0 = time.monotonic()
    try:
        up = lab("up", "--adapters", a.adapters, "--mtu", str(a.mtu), "--memory", str(a.memory), "--netns", NETNS,
                 check=False)
        sys.stderr.write(up.stdout)
        if up.returncode != 0:
            sys.exit("lab up failed: " + up.stderr)
        up_seconds = time.monotonic() - t0
        status = json.loads(lab("status", "--json").stdout)
        guests = status["guests"]
        for g in guests:
            # Stock servers beside nicbench-cli -s (5201): iperf3 on 5301, netserver on 12865.
            lab.guest(g["name"], "iperf3", "-s", "-D", "-p", "5301")
            if netserver:
                lab.guest(g["name"], netserver, "-p", "12865")
        time.sleep(1)
        for r in range(a.rounds):
            order = guests[r % len(guests):] + guests[:r % len(guests)]
            for g in order:
                for kind, tool in PLAN:
                    if tool == "netperf" and not netperf:
                        continue
                    key = "%s/%s/%s" % (g["name"], kind, tool)
                    try:
                        fig, remote_cpu = measure(kind, tool, cli, g["address"], a.duration, netperf)
                    except Exception as e:  # one failed run is a gap, not the end of the bench
                        sys.stderr.write("round %d %s: %s\n" % (r + 1, key, e))
                        continue
                    results.setdefault(key, []).append(dict(value=fig, remote_cpu_pct=remote_cpu))
                    sys.stderr.write("round %d %-28s %12.1f\n" % (r + 1, key, fig / 1e6 if kind != "rr" else fig))
                    time.sleep(0.5)
        status = json.loads(lab("status", "--json").stdout)
    finally:
        lab("down", check=False)
    report(a, status, up_seconds, results)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(status=status, up_seconds=up_seconds, results=results,
                           args=vars(a)), f, indent=1)


def cell(results, key, scale, spec):
    runs = results.get(key) or []
    if not runs:
        return "-"
    xs = [x["value"] / scale for x in runs]
    m = statistics.median(xs)
    if len(xs) > 1:
        return ("%s (%s-%s)" % (spec, spec, spec)) % (m, min(xs), max(xs))
    return spec % m


def report(a, status, up_seconds, results):
    print("\nLab: %d guests, %s, %d vCPU, %d MB each, MTU %d; all guests up %.1f s after lab up; "
          "%d rounds x %d s per figure, median (min-max)\n"
          % (len(status["guests"]), status["accel"].upper(), status["cpus"], status["memory_mb"], a.mtu,
             up_seconds, a.rounds, a.duration))
    head = ["adapter", "driver", "boot s (guest)", "QEMU RSS MB",
            "1 flow Gbit/s: nicbench", "nicbench --rx-copy", "iperf3", "netperf",
            "-P16 -w64K -l128K: nicbench", "iperf3",
            "TCP_RR tr/s: nicbench", "netperf", "guest CPU % (nicbench 1 flow)"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for g in status["guests"]:
        n = g["name"]
        cpu = [x["remote_cpu_pct"] for x in results.get(n + "/stream1/nicbench", []) if x["remote_cpu_pct"] is not None]
        row = [n, g["driver"], "%.1f" % g["boot_seconds"], "%d" % (g["rss_kb"] // 1024),
               cell(results, n + "/stream1/nicbench", 1e9, "%.2f"),
               cell(results, n + "/stream1/nicbench-copy", 1e9, "%.2f"),
               cell(results, n + "/stream1/iperf3", 1e9, "%.2f"),
               cell(results, n + "/stream1/netperf", 1e9, "%.2f"),
               cell(results, n + "/p16/nicbench", 1e9, "%.2f"),
               cell(results, n + "/p16/iperf3", 1e9, "%.2f"),
               cell(results, n + "/rr/nicbench", 1, "%.0f"),
               cell(results, n + "/rr/netperf", 1, "%.0f"),
               "%.0f" % statistics.median(cpu) if cpu else "-"]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
