#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The articles' adapter comparison in the lab (docs/lab.md): E1000 vs E1000E vs VMXNET3 vs
virtio-net, with nicbench-cli against iperf3, netperf and sockperf run in the same guests.

Boots QEMU guests with `nicbench-cli lab up` in a network namespace of its own (all traffic stays
in 198.18.0.0/15 inside it). Four placements, each a question our users ask:
  h2g  host -> guest: the host's client sends, the guest's server receives (the guest is the server)
  g2h  guest -> host: the same servers, the client asks them to send (-R, netperf TCP_MAERTS)
  gc   the guest is the client: its client sends to, or asks, servers on the host
  g2g  guest -> guest on the lab's bridge (the articles' VM-to-VM on one vSwitch): a second
       guest with the same adapter runs the client (booted only when g2g is asked for)
and the test kinds:
  stream1  one TCP stream           nicbench (and --rx-copy) | iperf3 | netperf TCP_STREAM/MAERTS
  p16      -P 16 -w 64K -l 128K      nicbench | iperf3            (the articles' command)
  rr       TCP request/response      nicbench --rr | netperf TCP_RR -r 1,1 | sockperf pp --tcp
  urr      UDP request/response      nicbench -u --rr | netperf UDP_RR -r 1,1 | sockperf pp (UDP)
  lul      latency under load        nicbench --latency-under-load (idle, download, upload) |
                                     netperf TCP_RR's p50/p99 while iperf3 -R loads the link
Each round runs every (adapter, placement, kind, tool) once, adapters in a rotating order and the
tools of one cell one after the other, so tools compared in a cell ran seconds apart; odd rounds
run a cell's tools in the reverse order, so no tool always goes first (use an even --rounds). A figure is
the mean over the rounds with its 95% confidence interval (Student's t) and the runs' range; the
ratio column is nicbench over the best other tool of the same round (median of the rounds, with
--rx-copy where it ran: the same copy to user space as the others); the guest's CPU per Gbit/s
is nicbench's own report of the guest's whole CPU (system busy of its vCPUs) per Gbit/s. Boot time and QEMU's
resident memory come from `lab status --json`. Needs root. Usage:
  bench/lab.py [--cli build/bin/nicbench-cli] [--rounds 3] [--duration 5] [--mtu 1500]
               [--adapters e1000,e1000e,vmxnet3,virtio] [--placements h2g,g2h,gc,g2g]
               [--kinds stream1,p16,rr,urr,lul] [--anchors DIR] [--out FILE.json] [--pin]
--pin binds each guest's QEMU (all its threads) to one host CPU: the serving guests to the last
CPU, g2g's client guests ("NAME-2") to the first, so the two ends of a guest -> guest test never
share a core or move between cores (a question about the host's scheduling, docs/lab.md).
netperf comes from the anchors cache (/work/shared/anchors/build-anchors; bench/README.md) and
sockperf from Debian's package; without one, its columns stay empty.
"""
import argparse
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import flowtools as ft  # noqa: E402

NETNS = "nblabbench"
HOST_ADDRESS = "198.18.0.1"
# Stock servers beside nicbench-cli -s (5201), on the host (in the namespace) and in each guest.
IPERF3_PORT, NETSERVER_PORT, SOCKPERF_TCP_PORT, SOCKPERF_UDP_PORT = "5301", "12865", "11111", "11112"
SOCKPERF_SIZE = "14"  # sockperf's smallest message (its header); the others send 1 byte
ARTICLES = ["-P", "16", "-w", "64K", "-l", "128K"]

PLACEMENTS = {
    "h2g": "host -> guest (guest is the server, receives)",
    "g2h": "guest -> host (guest is the server, sends)",
    "gc": "guest is the client -> host",
    "g2g": "guest -> guest (client in a second guest of the same adapter)",
}
# (placement, kind) -> the tools run, in order.
PLAN = {
    ("h2g", "stream1"): ["nicbench", "nicbench-copy", "iperf3", "netperf"],
    ("h2g", "p16"): ["nicbench", "iperf3"],
    ("h2g", "rr"): ["nicbench", "netperf", "sockperf"],
    ("h2g", "urr"): ["nicbench", "netperf", "sockperf"],
    ("h2g", "lul"): ["nicbench", "netperf+iperf3"],
    ("g2h", "stream1"): ["nicbench", "nicbench-copy", "iperf3", "netperf"],
    ("g2h", "p16"): ["nicbench", "iperf3"],
    ("gc", "stream1"): ["nicbench", "nicbench-copy", "iperf3", "netperf"],
    ("gc", "rr"): ["nicbench", "netperf", "sockperf"],
    ("gc", "urr"): ["nicbench", "netperf", "sockperf"],
    ("g2g", "stream1"): ["nicbench", "nicbench-copy", "iperf3", "netperf"],
    ("g2g", "rr"): ["nicbench", "netperf", "sockperf"],
}
# Two-sided 95% Student t for n-1 degrees of freedom.
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23}


def sh(args, timeout=120, env=None):
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        raise RuntimeError("%s: no answer in %d s" % (" ".join(args[:4]), timeout)) from e


class Lab:
    def __init__(self, cli, runtime):
        self.cli = cli
        self.env = dict(os.environ, XDG_RUNTIME_DIR=runtime)

    def __call__(self, *args, timeout=900, check=True):
        p = sh([self.cli, "lab", *args], timeout=timeout, env=self.env)
        if check and p.returncode != 0:
            raise RuntimeError("lab %s: %s" % (args[0], p.stderr.strip()[-500:]))
        return p

    def guest(self, name, *command, timeout=120):
        return self("exec", name, "--timeout", str(timeout), "--", *command, timeout=timeout + 15, check=False)


class Runner:
    """Runs one tool's client where the placement puts it: on the host side (in the namespace) or
    in a guest (lab exec)."""

    def __init__(self, lab, client_guest=None):
        self.lab = lab
        self.client_guest = client_guest

    def __call__(self, *args, timeout=120):
        if self.client_guest:
            return self.lab.guest(self.client_guest, *args, timeout=timeout)
        return sh(["ip", "netns", "exec", NETNS, *args], timeout=timeout)


def json_doc(text):
    i = text.find("{")
    if i < 0:
        raise RuntimeError("no JSON: " + text.strip()[-300:])
    return json.loads(text[i:])


def last_numbers(text, minimum, sep=None):
    """The numeric result line of `netperf -P 0` (with -o: comma-separated)."""
    return ft.netperf_result_fields(text.replace(",", " ") if sep == "," else text, minimum)


def sockperf_rate(text):
    for line in text.splitlines():
        if "RunTime=" in line and "ReceivedMessages=" in line:
            fields = dict(kv.split("=") for kv in line.replace(";", " ").split() if "=" in kv)
            return float(fields["ReceivedMessages"]) / float(fields["RunTime"].rstrip("sec"))
    raise RuntimeError("no sockperf summary: " + text.strip()[-300:])


def guest_cpu_per_gbps(j, guest_is_client):
    """The guest's whole CPU (system busy, of its one vCPU) per Gbit/s, as nicbench reports it."""
    cpu = j.get("nicbench", {}).get("cpu", {})
    return cpu.get("local_cpu_pct_per_gbps" if guest_is_client else "remote_cpu_pct_per_gbps")


def measure(placement, kind, tool, run, cli, server, dur, anchors):
    """One run: returns dict(value=..., guest_cpu_per_gbps=..., extra=...) or raises."""
    d = str(dur)
    reverse = placement == "g2h"
    guest_is_client = placement in ("gc", "g2g")
    wait = dur + 60
    if tool in ("nicbench", "nicbench-copy"):
        args = {"stream1": [], "p16": ARTICLES, "rr": ["--rr"], "urr": ["-u", "--rr"],
                "lul": ["--latency-under-load", "--phases", "idle,download,upload", "--phase-seconds", d]}[kind]
        if tool == "nicbench-copy":
            args = args + ["--rx-copy"]
        if reverse:
            args = args + ["-R"]
        timing = [] if kind == "lul" else ["-t", d]
        p = run(cli, "-c", server, *timing, "-J", *args, timeout=wait + (3 * dur if kind == "lul" else 0))
        if p.returncode != 0:
            raise RuntimeError((p.stderr or p.stdout).strip()[-300:])
        j = json_doc(p.stdout)
        cpu = guest_cpu_per_gbps(j, guest_is_client)
        if kind in ("rr", "urr"):
            return dict(value=j["nicbench"]["rr"]["transactions_per_second"], guest_cpu_per_gbps=cpu)
        if kind == "lul":
            phases = {ph["name"]: ph for ph in j["nicbench"]["loaded_latency"]["phases"]}
            down = phases["download"]["latency_us"]
            return dict(value=down["p99"], guest_cpu_per_gbps=cpu,
                        extra=dict(idle_p50_us=phases["idle"]["latency_us"]["p50"], download_p50_us=down["p50"],
                                   upload_p99_us=phases["upload"]["latency_us"]["p99"],
                                   download_bps=phases["download"]["download_bits_per_second"]))
        return dict(value=j["end"]["sum_received"]["bits_per_second"], guest_cpu_per_gbps=cpu)
    if tool == "iperf3":
        args = {"stream1": [], "p16": ARTICLES}[kind] + (["-R"] if reverse else [])
        p = run("iperf3", "-c", server, "-p", IPERF3_PORT, "-t", d, "-J", *args, timeout=wait)
        j = json.loads(p.stdout) if p.stdout.strip().startswith("{") else {}
        if "end" not in j or "sum_received" not in j["end"]:
            raise RuntimeError((j.get("error") or p.stderr or p.stdout).strip()[-300:])
        return dict(value=j["end"]["sum_received"]["bits_per_second"], guest_cpu_per_gbps=None)
    if tool == "netperf":
        netperf = anchors["netperf"]
        common = ["-H", server, "-p", NETSERVER_PORT, "-l", d, "-P", "0"]
        if kind == "stream1":
            test = "TCP_MAERTS" if reverse else "TCP_STREAM"
            p = run(netperf, "-t", test, *common, "-f", "m", timeout=wait)
            return dict(value=last_numbers(p.stdout, 5)[4] * 1e6, guest_cpu_per_gbps=None)
        test = {"rr": "TCP_RR", "urr": "UDP_RR"}[kind]
        p = run(netperf, "-t", test, *common, "--", "-r", "1,1", timeout=wait)
        return dict(value=last_numbers(p.stdout, 6)[5], guest_cpu_per_gbps=None)
    if tool == "sockperf":
        proto = (["--tcp"], SOCKPERF_TCP_PORT) if kind == "rr" else ([], SOCKPERF_UDP_PORT)
        p = run("sockperf", "pp", *proto[0], "-i", server, "-p", proto[1], "-t", d, "-m", SOCKPERF_SIZE, timeout=wait)
        return dict(value=sockperf_rate(p.stdout), guest_cpu_per_gbps=None)
    if tool == "netperf+iperf3":
        # What users do today: a stock load (iperf3 -R: the server sends, as nicbench's download
        # phase) and a stock latency probe at the same time.
        netperf = anchors["netperf"]
        load = subprocess.Popen(["ip", "netns", "exec", NETNS, "iperf3", "-c", server, "-p", IPERF3_PORT, "-R",
                                 "-t", str(dur + 2)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(1)
            p = run(netperf, "-t", "TCP_RR", "-H", server, "-p", NETSERVER_PORT, "-l", d, "-P", "0", "--",
                    "-r", "1,1", "-o", "P50_LATENCY,P99_LATENCY,THROUGHPUT", timeout=wait)
        finally:
            try:
                load.wait(timeout=dur + 30)
            except subprocess.TimeoutExpired:
                load.kill()
                load.wait()
        f = last_numbers(p.stdout, 3, sep=",")
        return dict(value=f[1], guest_cpu_per_gbps=None, extra=dict(download_p50_us=f[0], transactions_per_second=f[2]))
    raise ValueError(tool)


def tool_available(tool, anchors):
    if tool in ("netperf", "netperf+iperf3"):
        return "netperf" in anchors and "netserver" in anchors
    if tool == "sockperf":
        return shutil.which("sockperf") is not None
    return True


def start_servers(lab, guests, anchors, host_procs, want_host):
    """iperf3, netserver and sockperf beside nicbench-cli -s in each guest and, for the gc
    placement, on the host side of the bridge too."""
    servers = [["iperf3", "-s", "-D", "-p", IPERF3_PORT]]
    if "netserver" in anchors:
        servers.append([anchors["netserver"], "-p", NETSERVER_PORT])
    if shutil.which("sockperf"):
        servers += [["sockperf", "sr", "--tcp", "-p", SOCKPERF_TCP_PORT, "--daemonize"],
                    ["sockperf", "sr", "-p", SOCKPERF_UDP_PORT, "--daemonize"]]
    for g in guests:
        for s in servers:
            lab.guest(g["name"], *s)
    if want_host:
        host_servers = [[lab.cli, "-s", "-B", HOST_ADDRESS], ["iperf3", "-s", "-p", IPERF3_PORT]]
        if "netserver" in anchors:
            host_servers.append([anchors["netserver"], "-D", "-p", NETSERVER_PORT])
        if shutil.which("sockperf"):
            host_servers += [["sockperf", "sr", "--tcp", "-i", HOST_ADDRESS, "-p", SOCKPERF_TCP_PORT],
                             ["sockperf", "sr", "-i", HOST_ADDRESS, "-p", SOCKPERF_UDP_PORT]]
        for s in host_servers:
            host_procs.append(subprocess.Popen(["ip", "netns", "exec", NETNS, *s], stdout=subprocess.DEVNULL,
                                               stderr=subprocess.DEVNULL))
    time.sleep(2)


def stop_host(procs):
    for p in procs:  # our own children, stopped by their own pid
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli")
    ap.add_argument("--adapters", default="e1000,e1000e,vmxnet3,virtio")
    ap.add_argument("--placements", default="h2g,g2h,gc,g2g")
    ap.add_argument("--kinds", default="stream1,p16,rr,urr,lul")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--mtu", type=int, default=1500)
    ap.add_argument("--memory", type=int, default=256)
    ap.add_argument("--anchors")
    ap.add_argument("--out")
    ap.add_argument("--pin", action="store_true")
    a = ap.parse_args()
    adapters = [x for x in a.adapters.split(",") if x]
    placements = [x for x in a.placements.split(",") if x]
    kinds = [x for x in a.kinds.split(",") if x]
    for p in placements:
        if p not in PLACEMENTS:
            sys.exit("unknown placement %s: %s" % (p, ", ".join(PLACEMENTS)))
    cli = os.path.abspath(bl.resolve_cli(a.cli))
    _, anchors = bl.find_anchors(a.anchors)
    runtime = tempfile.mkdtemp(prefix="nblab-bench-")
    # SIGTERM and Ctrl-C still take the lab down (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bench/lab.py: stopped"))
    lab = Lab(cli, runtime)
    # With g2g each adapter boots twice: "virtio" serves, "virtio-2" is the client.
    boot = adapters + (adapters if "g2g" in placements else [])
    results, host_procs, status, up_seconds = {}, [], None, 0.0
    t0 = time.monotonic()
    try:
        up = lab("up", "--adapters", ",".join(boot), "--mtu", str(a.mtu), "--memory", str(a.memory),
                 "--netns", NETNS, check=False, timeout=1800)
        sys.stderr.write(up.stdout)
        if up.returncode != 0:
            sys.exit("lab up failed: " + up.stderr)
        up_seconds = time.monotonic() - t0
        status = json.loads(lab("status", "--json").stdout)
        guests = status["guests"]
        by_name = {g["name"]: g for g in guests}
        servers = [by_name[n] for n in adapters]
        if a.pin:
            pin_guests(guests)
        start_servers(lab, guests, anchors, host_procs, "gc" in placements)
        for r in range(a.rounds):
            order = servers[r % len(servers):] + servers[:r % len(servers)]
            for g in order:
                for placement in placements:
                    for kind in kinds:
                        tools = PLAN.get((placement, kind), [])
                        for tool in (tools if r % 2 == 0 else tools[::-1]):
                            if not tool_available(tool, anchors):
                                continue
                            run_one(lab, cli, a.duration, anchors, results, r, g, placement, kind, tool)
        status = json.loads(lab("status", "--json").stdout)
    finally:
        stop_host(host_procs)
        lab("down", check=False)
    if status:
        report(a, status, adapters, placements, kinds, up_seconds, results, anchors)
    if a.out and status:
        with open(a.out, "w") as f:
            json.dump(dict(status=status, up_seconds=up_seconds, results=results, args=vars(a)), f, indent=1)


def pin_guests(guests):
    cpus = sorted(os.sched_getaffinity(0))
    for g in guests:
        cpu = cpus[0] if g["name"].endswith("-2") else cpus[-1]
        # -a: every thread of the QEMU (vCPU, I/O, RCU), not only its first.
        r = sh(["taskset", "-a", "-p", "-c", str(cpu), str(g["pid"])])
        if r.returncode != 0:
            sys.exit("taskset (util-linux) could not pin %s: %s" % (g["name"], r.stderr.strip()))
        sys.stderr.write("pinned %s (QEMU %d) to CPU %d\n" % (g["name"], g["pid"], cpu))


def run_one(lab, cli, dur, anchors, results, r, g, placement, kind, tool):
    if placement == "gc":
        run, server = Runner(lab, g["name"]), HOST_ADDRESS
    elif placement == "g2g":
        run, server = Runner(lab, g["name"] + "-2"), g["address"]
    else:
        run, server = Runner(lab), g["address"]
    key = "%s/%s/%s/%s" % (g["name"], placement, kind, tool)
    try:
        res = measure(placement, kind, tool, run, cli, server, dur, anchors)
    except Exception as e:  # one failed run is a gap, not the end of the bench
        sys.stderr.write("round %d %s: %s\n" % (r + 1, key, str(e).replace("\n", " ")[:300]))
        return
    res["round"] = r
    results.setdefault(key, []).append(res)
    unit = 1e6 if kind in ("stream1", "p16") else 1
    sys.stderr.write("round %d %-36s %12.1f\n" % (r + 1, key, res["value"] / unit))
    time.sleep(0.5)


def summary(runs, scale):
    """mean ± 95% CI half-width (min-max), or '-'."""
    xs = [x["value"] / scale for x in runs]
    if not xs:
        return "-"
    m = statistics.fmean(xs)
    spec = "%.2f" if m < 10 else "%.0f"
    if len(xs) == 1:
        return spec % m
    half = T95.get(len(xs) - 1, 1.96) * statistics.stdev(xs) / math.sqrt(len(xs))
    return ("%s ± %s (%s-%s)" % (spec, spec, spec, spec)) % (m, half, min(xs), max(xs))


UNITS = {"stream1": (1e9, "Gbit/s"), "p16": (1e9, "Gbit/s"), "rr": (1, "transactions/s"),
         "urr": (1, "transactions/s"), "lul": (1, "download p99 us (lower is better)")}


def report(a, status, adapters, placements, kinds, up_seconds, results, anchors):
    by_name = {g["name"]: g for g in status["guests"]}
    print("\nLab: %d guests, %s, %d vCPU, %d MB each, MTU %d; all guests up %.1f s after lab up; "
          "%d rounds x %d s per figure; mean ± 95%% CI (min-max)\n"
          % (len(status["guests"]), status["accel"].upper(), status["cpus"], status["memory_mb"], a.mtu,
             up_seconds, a.rounds, a.duration))
    print("| adapter | driver | boot s (guest) | QEMU RSS MB |\n|---|---|---|---|")
    for n in adapters:
        g = by_name[n]
        print("| %s | %s | %.1f | %d |" % (n, g["driver"], g["boot_seconds"], g["rss_kb"] // 1024))
    for placement in placements:
        for kind in kinds:
            tools = [t for t in PLAN.get((placement, kind), []) if tool_available(t, anchors)]
            if not tools:
                continue
            scale, unit = UNITS[kind]
            print("\n**%s, %s** (%s)\n" % (PLACEMENTS[placement], kind, unit))
            head = ["adapter"] + tools + ["nicbench / best other, per round"]
            if kind in ("stream1", "p16"):
                head.append("guest CPU %/Gbit/s (nicbench)")
            print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
            for n in adapters:
                runs_by_tool = {t: results.get("%s/%s/%s/%s" % (n, placement, kind, t), []) for t in tools}
                row = [n] + [summary(runs_by_tool[t], scale) for t in tools] + [paired_ratio(kind, runs_by_tool)]
                if kind in ("stream1", "p16"):
                    runs = results.get("%s/%s/%s/nicbench" % (n, placement, kind), [])
                    per = [x["guest_cpu_per_gbps"] for x in runs if x.get("guest_cpu_per_gbps") is not None]
                    row.append("%.0f" % statistics.median(per) if per else "-")
                print("| " + " | ".join(row) + " |")


def paired_ratio(kind, runs_by_tool):
    """nicbench against the best other tool of the same round, so both ran seconds apart: the
    median of the rounds' ratios (min-max). Same work: where --rx-copy ran, that is what is
    compared with the tools that copy. For latency lower is better, so the ratio is other/nicbench."""
    ours_tool = "nicbench-copy" if runs_by_tool.get("nicbench-copy") else "nicbench"
    per_round = {}
    for tool, runs in runs_by_tool.items():
        for x in runs:
            per_round.setdefault(x["round"], {})[tool] = x["value"]
    ratios = []
    for figures in per_round.values():
        ours = figures.get(ours_tool)
        others = [v for t, v in figures.items() if not t.startswith("nicbench") and v]
        if not ours or not others:
            continue
        ratios.append(min(others) / ours if kind == "lul" else ours / max(others))
    if not ratios:
        return "-"
    if len(ratios) == 1:
        return "%.2fx" % ratios[0]
    return "%.2fx (%.2f-%.2f)" % (statistics.median(ratios), min(ratios), max(ratios))


if __name__ == "__main__":
    main()
