#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What driving a test through an agent costs (docs/protocol.md §6.7), as root.

Three network namespaces on a bridge, as tst_agentnamespaces builds them: a controller C
(198.18.0.1), an agent A (.2, nicbench-cli -s --agent-key) and a server B (.3, nicbench-cli -s).
Measured:
  * the handshake: `nicbench-cli -c B --from A -n 1K -V` prints how long the two proofs took;
  * the same test from A to B run locally on A (`ip netns exec A nicbench-cli -c B`) and
    driven from C through the agent, alternating (the order flips each round), R rounds:
    throughput or transactions/s, A's system CPU, and the wall time of the command.
Figures are medians over the rounds. Processes are ours and stopped by pid; namespaces are
deleted however the run ends.

  bench/agent.py [--cli PATH] [--rounds 5] [--duration 5] [--handshakes 20]
"""

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

NETS = benchlib.BridgedNamespaces("nbb", 3)
C, A, B = NETS.hosts
ADDR = {ns: NETS.address(i) for i, ns in enumerate(NETS.hosts)}


def start_server(cli, ns, extra):
    p = subprocess.Popen(["ip", "netns", "exec", ns, cli, "-s", *extra], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    line = p.stdout.readline()
    while line and "Server listening" not in line:
        line = p.stdout.readline()
    if not line:
        raise RuntimeError("server in %s did not start" % ns)
    return p


def stop(p):
    p.send_signal(2)
    try:
        p.wait(timeout=3)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def run(ns, args):
    t0 = time.monotonic()
    r = subprocess.run(["ip", "netns", "exec", ns, *args], capture_output=True, text=True, timeout=120)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout, wall


def figures(doc, rr):
    nb = doc["nicbench"]
    value = nb["rr"]["transactions_per_second"] if rr else doc["end"]["sum_received"]["bits_per_second"]
    return value, nb["cpu"]["local"]["system_pct"]


def main():
    # SIGTERM (timeout, a closed session) ends as Ctrl-C does: through the finally that stops
    # the agents and deletes the namespaces. Python's default would exit without it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--duration", type=float, default=5)
    ap.add_argument("--handshakes", type=int, default=20)
    opt = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("agent.py needs root (network namespaces)")
    cli = benchlib.resolve_cli(opt.cli)
    key_dir = tempfile.mkdtemp()
    key = os.path.join(key_dir, "agent.key")
    with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(os.urandom(32).hex() + "\n")
    procs = []
    try:
        NETS.create()
        procs.append(start_server(cli, B, ["-B", ADDR[B]]))
        procs.append(start_server(cli, A, ["--agent-key", key]))
        target = ["-c", ADDR[B], "-t", str(opt.duration), "-J"]
        through = ["--from", ADDR[A], "--agent-key", key]
        handshakes = []
        for _ in range(opt.handshakes):
            out, _ = run(C, [cli, "-c", ADDR[B], "-n", "1K", "-V", *through])
            m = re.search(r"hold the key in ([0-9.]+) ms", out)
            handshakes.append(float(m.group(1)))
        print("handshake: median %.2f ms, min %.2f, max %.2f (%d runs)" %
              (statistics.median(handshakes), min(handshakes), max(handshakes), len(handshakes)))
        rows = []
        for name, extra, rr in (("TCP stream", [], False), ("TCP_RR", ["--rr"], True)):
            got = {"local": [], "agent": []}
            for r in range(opt.rounds):
                order = ("local", "agent") if r % 2 == 0 else ("agent", "local")
                for how in order:
                    ns, args = (A, [cli, *target, *extra]) if how == "local" else (C, [cli, *target, *extra, *through])
                    out, wall = run(ns, args)
                    value, cpu = figures(json.loads(out), rr)
                    got[how].append((value, cpu, wall))
            med = {how: [statistics.median(x[i] for x in got[how]) for i in range(3)] for how in got}
            unit = 1 if rr else 1e9
            rows.append([name,
                         "%.3g" % (med["local"][0] / unit), "%.3g" % (med["agent"][0] / unit),
                         "%+.1f%%" % (100 * (med["agent"][0] / med["local"][0] - 1)),
                         "%.1f / %.1f" % (med["local"][1], med["agent"][1]),
                         "%.2f / %.2f" % (med["local"][2], med["agent"][2])])
        benchlib.print_table(["test (%g s, %d rounds)" % (opt.duration, opt.rounds), "local (Gbit/s | t/s)",
                              "via agent", "difference", "A's CPU % local / agent", "wall s local / agent"], rows)
    finally:
        for p in procs:
            stop(p)
        NETS.delete()
        os.unlink(key)
        os.rmdir(key_dir)


if __name__ == "__main__":
    main()
