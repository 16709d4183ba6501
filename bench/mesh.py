#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a mesh costs as it grows (README "Meshes", issue 28 item 6), as root.

N agents (nicbench-cli -s --agent-key) and a controller, each in a network namespace of its own
on one bridge (198.18.0.0/16). For each mesh asked for, `nicbench-cli mesh` runs in the
controller's namespace with a small test (-n 64K by default: the cost of the mesh itself, not of
the test) and no pause; measured: pairs, wall time, time per pair, the controller's peak RSS
(VmHWM of the mesh process) and the agents' peak RSS. At the end: every agent stopped by pid,
every namespace deleted, and a check that none of ours is left.

  bench/mesh.py [--cli PATH] [--agents 30] [--meshes ring,all] [--test "-n 64K"] [--parallel none]
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def start_agent(cli, ns, key):
    p = subprocess.Popen(["ip", "netns", "exec", ns, cli, "-s", "--agent-key", key], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    line = p.stdout.readline()
    while line and "Server listening" not in line:
        line = p.stdout.readline()
    if not line:
        raise RuntimeError("agent in %s did not start" % ns)
    return p


def stop(p):
    p.send_signal(2)
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def run_mesh(cli, ns, key, hosts, pairs, test, parallel, out):
    args = ["ip", "netns", "exec", ns, cli, "mesh", "--agent-key", key, "-o", out, "-q", "--pause", "0",
            "--hosts", ",".join(hosts), "--pairs", pairs, "--parallel", parallel, "--", *test]
    t0 = time.monotonic()
    # Output to files, not pipes: the loop below does not read while it samples the peak RSS,
    # and a full mesh's report (870 pairs at 30 agents) fills a pipe and blocks the mesh.
    with tempfile.TemporaryFile("w+") as out_file, tempfile.TemporaryFile("w+") as err_file:
        p = subprocess.Popen(args, stdout=out_file, stderr=err_file, text=True)
        hwm = 0
        while p.poll() is None:
            hwm = max(hwm, benchlib.vm_hwm_kb(p.pid) or 0)
            time.sleep(0.05)
        wall = time.monotonic() - t0
        out_file.seek(0)
        err_file.seek(0)
        stdout, stderr = out_file.read(), err_file.read()
    if p.returncode not in (0, 2):
        raise RuntimeError("mesh %s: exit %d: %s" % (pairs, p.returncode, stderr.strip()))
    failures = [line.strip() for line in stdout.splitlines() if "failed:" in line]
    for line in failures[:5]:
        print("  %s: %s" % (pairs, line), flush=True)
    failed = len(failures)
    return wall, hwm, p.returncode, failed


def main():
    # SIGTERM (timeout, a closed session) ends as Ctrl-C does: through the finally that stops
    # the agents and deletes the namespaces. Python's default would exit without it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli")
    ap.add_argument("--agents", type=int, default=30)
    ap.add_argument("--meshes", default="ring,all")
    ap.add_argument("--test", default="-n 64K")
    ap.add_argument("--parallel", default="none")
    opt = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("mesh.py needs root (network namespaces)")
    cli = benchlib.resolve_cli(opt.cli)
    nets = benchlib.BridgedNamespaces("nbm", opt.agents + 1)
    key_dir = tempfile.mkdtemp()
    key = os.path.join(key_dir, "agent.key")
    with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(os.urandom(32).hex() + "\n")
    agents = []
    rows = []
    try:
        t0 = time.monotonic()
        nets.create()
        for ns in nets.hosts[1:]:
            agents.append(start_agent(cli, ns, key))
        setup = time.monotonic() - t0
        hosts = [nets.address(i) for i in range(1, opt.agents + 1)]
        for pairs in opt.meshes.split(","):
            out = os.path.join(key_dir, "mesh-%s.nicbench" % pairs)
            wall, hwm, code, failed = run_mesh(cli, nets.hosts[0], key, hosts, pairs, opt.test.split(),
                                               opt.parallel, out)
            n = opt.agents * (opt.agents - 1) if pairs == "all" else opt.agents
            rows.append([pairs, str(n), "%.1f" % wall, "%.0f" % (1000 * wall / n), "%.1f" % (hwm / 1024),
                         "%.1f" % (os.path.getsize(out) / 1e6), str(failed)])
            # Each mesh as it ends: a long full mesh cut short still leaves the ones before it.
            print("mesh %s: %s pairs, %s s, %s ms per pair, controller peak RSS %s MiB, snapshot %s MB, "
                  "failed runs %s" % tuple(rows[-1]), flush=True)
        agent_hwm = max(benchlib.vm_hwm_kb(a.pid) or 0 for a in agents)
        print("%d agents, set-up (namespaces and agents) %.1f s, test %r, --parallel %s; agents' peak RSS %.1f MiB"
              % (opt.agents, setup, opt.test, opt.parallel, agent_hwm / 1024))
        benchlib.print_table(["pairs", "count", "wall s", "ms per pair", "controller peak RSS MiB", "snapshot MB",
                              "failed runs"], rows)
    finally:
        for a in agents:
            stop(a)
        t0 = time.monotonic()
        nets.delete()
        left = [ns for ns in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
                if ns.startswith("nbm%d" % os.getpid())]
        print("cleanup %.1f s; namespaces of ours left: %d; agents still running: %d"
              % (time.monotonic() - t0, len(left), sum(1 for a in agents if a.poll() is None)))
        for name in os.listdir(key_dir):
            os.unlink(os.path.join(key_dir, name))
        os.rmdir(key_dir)


if __name__ == "__main__":
    main()
