"""How flows.py runs each tool: one plan per (tool, workload), standard library only.

A plan is a dict:
  ports         how many consecutive free ports the run needs (base .. base+ports-1)
  server(base)  argv of the tool's own server; listen(base) the port to wait for (default base)
  client(base)  argv of the client
  parse(text)   client output -> dict(rate=..., plus optional extras: latency_p50_us, latency_p99_us,
                service demand, what the tool reports about its own CPU)
  server_exits  True when the server ends by itself after the client (neper): wait for it
  note          how the tool was run, for the report
rate is transactions/s (RR, CRR) or bits/s (stream), always the tool's own figure.
"""

import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import rr as rrbench  # noqa: E402  (sockperf plan)
import throughput as tpbench  # noqa: E402  (iperf3, qperf plans)


def _json_doc(text):
    i = text.find("{")
    if i < 0:
        raise ValueError("no JSON in output: " + text.strip()[-300:])
    return json.loads(text[i:])


def _keyvals(text):
    """neper prints one key=value per line; later keys win (the summary comes last)."""
    out = {}
    for line in text.splitlines():
        k, sep, v = line.partition("=")
        if sep and k and " " not in k:
            out[k.strip()] = v.strip()
    return out


# ---------------------------------------------------------------- nicbench

def nicbench_rr(cli, mode, flows, threads, dur, extra):
    """mode 'rr' or 'crr'. threads is None when nicbench-cli has no --threads."""
    thr = ["--threads", threads] if threads else []

    def client(p):
        a = [cli, "-c", bl.HOST, "-p", p, "--" + mode, "--request-size", 1, "--response-size", 1,
             "-t", dur, "-J"]
        if flows > 1:
            a += ["--connections", flows]
        return a + thr + extra

    def parse(text):
        d = _json_doc(text)
        nb = d.get("nicbench") or {}
        rr = nb.get("rr")
        if not rr or "transactions_per_second" not in rr:
            raise ValueError(d.get("error") or "no nicbench.rr.transactions_per_second in JSON")
        lat = rr.get("latency_us") or {}
        cpu = nb.get("cpu") or {}
        return dict(rate=float(rr["transactions_per_second"]), latency_p50_us=lat.get("p50"),
                    latency_p99_us=lat.get("p99"),
                    reported_local_us_per_tr=cpu.get("local_us_per_transaction"),
                    reported_remote_us_per_tr=cpu.get("remote_us_per_transaction"))

    return dict(ports=1, server=lambda p: [cli, "-s", "-p", p] + thr, client=client, parse=parse,
                note="--%s --connections %d%s" % (mode, flows, " --threads %s" % threads if threads else ""))


def nicbench_stream(cli, par, threads, dur, extra):
    thr = ["--threads", threads] if threads else []

    def client(p):
        a = [cli, "-c", bl.HOST, "-p", p, "-t", dur, "-J"]
        if par > 1:
            a += ["-P", par]
        return a + thr + extra

    def parse(text):
        bps, _ = tpbench.parse_iperf3_json(text)
        return dict(rate=bps)

    return dict(ports=1, server=lambda p: [cli, "-s", "-p", p] + thr, client=client, parse=parse,
                note="-P %d%s%s" % (par, " --threads %s" % threads if threads else "",
                                    (" " + " ".join(extra)) if extra else ""))


# ---------------------------------------------------------------- neper

def _neper(binary, flows, threads, dur, extra_client):
    """neper: -F is the TOTAL number of flows, spread over -T threads (neper's thread.c:
    flows_in_thread = F/T, the first F%T threads take one more); the client refuses F < T.
    Ports: control = base, data = base+1; the server ends by itself when the client says bye."""
    t = max(1, min(threads, flows))
    common = ["-F", flows, "-T", t, "--logtostderr"]  # else it leaves a log file per run in the cwd
    return dict(ports=2, listen=lambda p: p, server_exits=True, threads_used=t,
                server=lambda p: [binary, "-C", p, "-P", p + 1] + common,
                client=lambda p: [binary, "-c", "-H", bl.HOST, "-C", p, "-P", p + 1, "-l", dur]
                + common + extra_client)


def neper_rr(binary, flows, threads, dur):
    plan = _neper(binary, flows, threads, dur, ["-p", "50,99"])

    def parse(text):
        kv = _keyvals(text)
        if "throughput" not in kv:
            raise ValueError("no neper throughput= line: " + text.strip()[-300:])

        def us(key):
            return float(kv[key]) * 1e6 if key in kv else None  # neper prints seconds

        return dict(rate=float(kv["throughput"]), latency_p50_us=us("latency_p50"),
                    latency_p99_us=us("latency_p99"),
                    reported_client_maxrss_kb=int(kv["maxrss_end"]) if "maxrss_end" in kv else None)

    plan.update(parse=parse, note="tcp_rr -F %d -T %d" % (flows, plan["threads_used"]))
    return plan


def neper_stream(binary, flows, threads, dur):
    plan = _neper(binary, flows, threads, dur, [])

    def parse(text):
        # Only the reading side (the server) measures; the client prints the server's figure
        # as remote_throughput (bits/s) after the final handshake.
        kv = _keyvals(text)
        if "remote_throughput" not in kv or float(kv["remote_throughput"]) <= 0:
            raise ValueError("no neper remote_throughput= line: " + text.strip()[-300:])
        return dict(rate=float(kv["remote_throughput"]))

    plan.update(parse=parse, note="tcp_stream -F %d -T %d" % (flows, plan["threads_used"]))
    return plan


# ---------------------------------------------------------------- netperf
# netserver -f: serve the test in the process we started instead of a forked child that it never
# wait()s for (that child's CPU would vanish from the server's cutime/cstime).

def netperf_result_fields(text, minimum):
    """The numeric result line of `netperf -P 0` (the last line with enough numbers)."""
    for line in reversed(text.strip().splitlines()):
        f = line.split()
        if len(f) >= minimum:
            try:
                return [float(x) for x in f]
            except ValueError:
                continue
    raise ValueError("no netperf result line: " + text.strip()[-300:])


def netperf_rr(netperf, netserver, test, dur):
    """TCP_RR or TCP_CRR, 1-byte request and response, one flow (netperf is one flow per process).
    Result line: send_sock recv_sock req resp elapsed trans/s."""

    def parse(text):
        f = netperf_result_fields(text, 6)
        return dict(rate=f[5])

    return dict(ports=1, server=lambda p: [netserver, "-D", "-f", "-p", p],
                client=lambda p: [netperf, "-t", test, "-H", bl.HOST, "-p", p, "-l", dur, "-P", "0",
                                  "--", "-r", "1,1"],
                parse=parse, note="%s -r 1,1" % test)


def netperf_stream(netperf, netserver, dur):
    """TCP_STREAM with -c -C: result line recv_sock send_sock msg elapsed 10^6bits/s local% remote%
    local_sd remote_sd, service demand in us/KB (KB = 1024 bytes, netlib.c calc_service_demand).
    -f m, not -f b: with -f b netperf 2.7.1 prints a service demand that does not match its own
    utilisation and throughput (checked by hand: 100% of 2 CPUs at 1.16 Gbit/s printed 1.758 us/KB)."""

    def parse(text):
        f = netperf_result_fields(text, 9)
        return dict(rate=f[4] * 1e6, netperf_util_local_pct=f[5], netperf_util_remote_pct=f[6],
                    netperf_sd_local_us_per_kb=f[7], netperf_sd_remote_us_per_kb=f[8])

    return dict(ports=1, server=lambda p: [netserver, "-D", "-f", "-p", p],
                client=lambda p: [netperf, "-t", "TCP_STREAM", "-H", bl.HOST, "-p", p, "-l", dur,
                                  "-c", "-C", "-f", "m", "-P", "0"],
                parse=parse, note="TCP_STREAM -c -C (service demand)")


# ---------------------------------------------------------------- tools the older scripts know

def sockperf_pp(dur):
    plan = rrbench.sockperf_plan(dur, 1)
    parse = plan["parse"]

    def wrapped(text):
        tps, _ = parse(text)
        return dict(rate=tps)

    plan.update(ports=1, parse=wrapped)
    return plan


def iperf3_stream(par, dur):
    plan = tpbench.plan_iperf3(None, par, dur)
    parse = plan["parse"]
    plan.update(parse=lambda text: dict(rate=parse(text)[0]), note="-P %d" % par)
    return plan


def qperf_stream(dur):
    plan = tpbench.plan_qperf(None, 1, dur)
    parse = plan["parse"]
    plan.update(parse=lambda text: dict(rate=parse(text)[0]), note="tcp_bw (64K messages)")
    return plan


# ---------------------------------------------------------------- refusals

_REFUSAL = re.compile(r"must be|unknown option|unrecogni[sz]ed option|invalid (value|option|argument)|"
                      r"not supported|at most \d", re.I)


def looks_refused(text):
    """nicbench-cli refusing the parameters (e.g. --connections above its cap) rather than failing a run."""
    return bool(_REFUSAL.search(text or ""))
