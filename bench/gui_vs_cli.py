#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI vs CLI: the same loopback throughput test run from the window and from nicbench-cli.

Both clients talk to one separate `nicbench-cli -s` (not the window's built-in server), so
they measure the same thing, and they alternate (GUI first in odd rounds, CLI first in
even ones) so drift does not favour one side. The GUI runs as
    nicbench --run -c 127.0.0.1 -p PORT -t 20 --quit-when-done --json-out FILE
and its result JSON is read from FILE; the CLI runs with -J.

Targets (issue 4): median GUI throughput >= 0.97 x the CLI's, and GUI process CPU at most
the CLI's + 5 percentage points of one core. The CPU compared is what each client reports
for the test itself (end.cpu_utilization_percent.host_total, % of one core, as iperf3);
the whole-process figure from wait4() rusage (start-up, window, the 1.5 s pause before
--quit-when-done exits) is printed for information.

Needs an X display; without one the script re-runs itself under xvfb-run, so the window's
own process is the one measured (not Xvfb).

Usage: bench/gui_vs_cli.py [-t 20] [-r 3] [-P 1] [--gui PATH] [--cli PATH]
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

import benchlib as bl


def parse_result(text):
    i = text.find("{")
    if i < 0:
        raise ValueError("no JSON: " + text[:200])
    d = json.loads(text[i:])
    if d.get("error"):
        raise ValueError(d["error"])
    end = d["end"]
    return (float(end["sum_received"]["bits_per_second"]),
            float(end["cpu_utilization_percent"]["host_total"]))


def run_cli(cli, port, args):
    p = bl.Proc([cli, "-c", bl.HOST, "-p", port, "-t", args.time, "-P", args.parallel, "-J"])
    if not p.wait(float(args.time) + 30):
        raise RuntimeError("nicbench-cli did not finish")
    bps, cpu = parse_result(p.output())
    return bps, cpu, (p.rusage_cpu or 0.0)


def run_gui(gui, port, args, scratch):
    out = os.path.join(scratch, "gui.json")
    if os.path.exists(out):
        os.unlink(out)
    env_argv = [gui, "--run", "-c", bl.HOST, "-p", port, "-t", args.time, "-P", args.parallel,
                "--quit-when-done", "--json-out", out]
    p = bl.Proc(env_argv)
    if not p.wait(float(args.time) + 40):
        raise RuntimeError("nicbench (GUI) did not finish: " + p.output()[-300:])
    if p.returncode != 0:
        raise RuntimeError("nicbench (GUI) exited with %s: %s" % (p.returncode, p.output()[-300:]))
    with open(out) as f:
        bps, cpu = parse_result(f.read())
    return bps, cpu, (p.rusage_cpu or 0.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-t", "--time", default="20", help="seconds per test (default 20)")
    ap.add_argument("-r", "--rounds", type=int, default=3)
    ap.add_argument("-P", "--parallel", default="1")
    ap.add_argument("--cli", help="nicbench-cli (default build/bin/nicbench-cli or $NICBENCH_CLI)")
    ap.add_argument("--gui", help="nicbench (default next to the CLI, or $NICBENCH)")
    args = ap.parse_args()

    cli = bl.resolve_cli(args.cli)
    gui = args.gui or os.environ.get("NICBENCH") or os.path.join(os.path.dirname(cli), "nicbench")
    for path in (cli, gui):
        if not os.access(path, os.X_OK):
            sys.exit("gui_vs_cli.py: %s is not built" % path)

    if not os.environ.get("DISPLAY") and not os.environ.get("NICBENCH_BENCH_IN_XVFB"):
        if not shutil.which("xvfb-run"):
            sys.exit("gui_vs_cli.py: no DISPLAY and no xvfb-run (apt install xvfb)")
        os.environ["NICBENCH_BENCH_IN_XVFB"] = "1"
        argv = ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", sys.executable, os.path.abspath(__file__),
                "--cli", cli, "--gui", gui] + sys.argv[1:]
        os.execvp("xvfb-run", argv)

    scratch = tempfile.mkdtemp(prefix="nicbench-gui-bench-")
    # Fresh settings, so a saved window layout or preset does not change the test.
    os.environ["XDG_CONFIG_HOME"] = os.path.join(scratch, "config")
    port = str(bl.free_ports(1))
    server = bl.Proc([cli, "-s", "-p", port])
    if not bl.wait_listening(int(port), server.p):
        sys.exit("server did not start: " + server.output())

    rows, gui_runs, cli_runs = [], [], []
    try:
        for r in range(args.rounds):
            order = ("gui", "cli") if r % 2 == 0 else ("cli", "gui")
            for who in order:
                time.sleep(1)  # let the previous test's sockets drain
                if who == "gui":
                    res = run_gui(gui, port, args, scratch)
                    gui_runs.append(res)
                else:
                    res = run_cli(cli, port, args)
                    cli_runs.append(res)
                rows.append([r + 1, who, bl.fmt(res[0] / 1e9, ".2f"), bl.fmt(res[1], ".1f"),
                             bl.fmt(100.0 * res[2] / float(args.time), ".1f")])
                print("round %d %s: %.2f Gbit/s, process CPU %.1f%% of one core" % (r + 1, who, res[0] / 1e9, res[1]),
                      flush=True)
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)

    print()
    bl.print_table(["round", "client", "Gbit/s", "CPU % (in test)", "CPU % (whole process)"], rows)
    g_bps, c_bps = bl.med([x[0] for x in gui_runs]), bl.med([x[0] for x in cli_runs])
    g_cpu, c_cpu = bl.med([x[1] for x in gui_runs]), bl.med([x[1] for x in cli_runs])
    ratio = g_bps / c_bps if c_bps else float("nan")
    print()
    print("GUI throughput / CLI throughput (medians): %.3f  (target >= 0.97: %s)"
          % (ratio, "met" if ratio >= 0.97 else "NOT met"))
    print("GUI process CPU %.1f%% vs CLI %.1f%% of one core: difference %+.1f points  (target <= +5: %s)"
          % (g_cpu, c_cpu, g_cpu - c_cpu, "met" if g_cpu - c_cpu <= 5 else "NOT met"))
    # A client that moves more data spends more CPU doing it; per Gbit/s shows whether
    # the window itself costs anything when the throughputs differ.
    g_per, c_per = bl.med([x[1] / (x[0] / 1e9) for x in gui_runs]), bl.med([x[1] / (x[0] / 1e9) for x in cli_runs])
    print("CPU per Gbit/s (medians): GUI %.2f, CLI %.2f %% of one core per Gbit/s" % (g_per, c_per))
    return 0


if __name__ == "__main__":
    sys.exit(main())
