"""Shared helpers for the NicBench loopback benchmarks (standard library only).

Process handling rules: every server/client is a Popen we started ourselves; we stop
it by its own pid (SIGINT, then SIGKILL after a grace period) and never by name.
CPU cost is measured independently of what the tools report:
  * client: os.wait4() rusage of the child (user + system, all threads, plus any
    children it reaped);
  * server: the largest of /proc/<pid>/stat utime+stime+cutime+cstime of the server
    and of every live descendant just before we stop it, the per-pid utime+stime seen
    in samples while the client runs (Proc.wait(watch=...): keeps forked children that
    are never wait()ed for), and the wait4() rusage after it exits.
Peak memory is VmHWM sampled while a process runs (Proc.maxrss_kb).
"""

import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HOST = "127.0.0.1"
CLK_TCK = os.sysconf("SC_CLK_TCK")
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CLI = os.path.join(REPO_ROOT, "build", "bin", "nicbench-cli")


def resolve_cli(opt):
    """CLI path: --cli option, else $NICBENCH_CLI, else build/bin/nicbench-cli."""
    path = opt or os.environ.get("NICBENCH_CLI") or DEFAULT_CLI
    if not os.path.isabs(path) and not os.path.exists(path):
        path = os.path.join(REPO_ROOT, path)
    return path


def which(name):
    return shutil.which(name)


# ---------------------------------------------------------------- ports

def _bindable(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind((HOST, port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def free_ports(count=1):
    """A base port such that base..base+count-1 are all bindable on 127.0.0.1."""
    for _ in range(200):
        base = random.randint(20000, 60000 - count)
        if all(_bindable(base + i) for i in range(count)):
            return base
    raise RuntimeError("no free port range found")


def _listening_ports():
    ports = set()
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(path) as f:
                next(f)
                for line in f:
                    parts = line.split()
                    if parts[3] == "0A":  # TCP_LISTEN
                        ports.add(int(parts[1].rsplit(":", 1)[1], 16))
        except OSError:
            pass
    return ports


def wait_listening(port, proc, timeout=5.0):
    """Wait until something listens on port (checked in /proc/net/tcp, no probe
    connection, so the server does not see a bogus client)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if port in _listening_ports():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.02)
    return False


# ---------------------------------------------------------------- /proc CPU

def _stat_fields(pid):
    with open("/proc/%d/stat" % pid) as f:
        data = f.read()
    return data[data.rindex(")") + 2:].split()


def proc_cpu_seconds(pid):
    """utime+stime+cutime+cstime of one process, in seconds (None if gone)."""
    try:
        f = _stat_fields(pid)
    except (OSError, ValueError):
        return None
    return (int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])) / CLK_TCK


def descendants(pid):
    children = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            ppid = int(_stat_fields(int(d))[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def tree_cpu_seconds(pid):
    total = 0.0
    for p in [pid] + descendants(pid):
        v = proc_cpu_seconds(p)
        if v is not None:
            total += v
    return total


def vm_hwm_kb(pid):
    """Peak resident set size (VmHWM, kB) of a live process, None if unreadable."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def read_proc_stat():
    """(busy, total) jiffies summed over all CPUs from the first line of /proc/stat."""
    with open("/proc/stat") as f:
        vals = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal guest guest_nice
    total = sum(vals[:8])  # guest time is already included in user/nice
    idle = vals[3] + (vals[4] if len(vals) > 4 else 0)
    return total - idle, total


def busy_pct(before, after):
    db, dt = after[0] - before[0], after[1] - before[1]
    return 100.0 * db / dt if dt > 0 else float("nan")


# ---------------------------------------------------------------- processes

class Proc:
    """A child process with output captured to a temp file (no pipe deadlocks)."""

    def __init__(self, argv, prefix=None):
        self.argv = list(prefix or []) + [str(a) for a in argv]
        self.out = tempfile.TemporaryFile(mode="w+b")
        self.p = subprocess.Popen(self.argv, stdout=self.out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)
        self.pid = self.p.pid
        self.rusage_cpu = None
        self.rusage_maxrss_kb = None
        self.hwm_kb = None
        self.own_cpu = {}  # pid -> utime+stime last seen, for this process and its descendants
        self.returncode = None

    def _reap(self, flags):
        try:
            pid, status, ru = os.wait4(self.pid, flags)
        except ChildProcessError:
            self.returncode = self.p.poll() if self.p.returncode is None else self.p.returncode
            return True
        if pid == 0:
            return False
        self.rusage_cpu = ru.ru_utime + ru.ru_stime
        self.rusage_maxrss_kb = ru.ru_maxrss  # kB; includes the forked Python's size before exec
        self.returncode = os.waitstatus_to_exitcode(status)
        self.p.returncode = self.returncode  # keep Popen from waiting again
        return True

    def sample(self, tree=True):
        """Record VmHWM and (with tree) the CPU of this process and every live descendant.
        Servers that fork a child per test and never wait() for it (netserver without -f)
        lose that child's CPU from cutime; the per-pid samples keep it (up to one period)."""
        if self.returncode is not None:
            return
        hwm = vm_hwm_kb(self.pid)
        if hwm:
            self.hwm_kb = max(self.hwm_kb or 0, hwm)
        for p in [self.pid] + (descendants(self.pid) if tree else []):
            try:
                f = _stat_fields(p)
            except (OSError, ValueError):
                continue
            self.own_cpu[p] = max(self.own_cpu.get(p, 0.0), (int(f[11]) + int(f[12])) / CLK_TCK)

    def wait(self, timeout, watch=(), period=0.5):
        """Wait for a normal exit; on timeout SIGKILL it. Returns True if it exited by itself.
        Every `period` seconds it samples itself (peak RSS) and the Procs in `watch` (servers)."""
        deadline = time.monotonic() + timeout
        next_sample = time.monotonic() + 0.05
        while time.monotonic() < deadline:
            if self._reap(os.WNOHANG):
                return True
            if time.monotonic() >= next_sample:
                self.sample(tree=False)
                for w in watch:
                    w.sample()
                next_sample = time.monotonic() + period
            time.sleep(0.02)
        self.kill_hard()
        return False

    def wait_exit(self, timeout):
        """Give a process that ends by itself (neper's server) up to timeout seconds; never kills."""
        self.sample()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._reap(os.WNOHANG):
                return True
            time.sleep(0.02)
        return False

    def maxrss_kb(self):
        """Peak resident memory in kB: VmHWM sampled while it ran. ru_maxrss from wait4() only as
        a fallback: on Linux it carries over the forked Python's peak from before exec()."""
        return self.hwm_kb or self.rusage_maxrss_kb

    def stop(self, grace=2.0):
        """Sample the CPU of the process tree, then SIGINT (then SIGKILL) our own pid.
        Returns CPU seconds: the largest of the tree sample (with cutime), the per-pid samples
        summed, and the wait4() rusage."""
        if self.returncode is not None:
            return max(self.rusage_cpu or 0.0, sum(self.own_cpu.values()))
        self.sample()
        sampled = max(tree_cpu_seconds(self.pid), sum(self.own_cpu.values()))
        kids = descendants(self.pid)
        try:
            os.kill(self.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            if self._reap(os.WNOHANG):
                break
            time.sleep(0.02)
        else:
            self.kill_hard()
        for k in kids:  # forked per-connection children of a server we started
            try:
                os.kill(k, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        return max(sampled, self.rusage_cpu or 0.0)

    def kill_hard(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._reap(0)

    def output(self):
        self.out.seek(0)
        return self.out.read().decode("utf-8", "replace")


# ---------------------------------------------------------------- stats

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(v, spec=".2f", none="-"):
    return none if v is None else format(v, spec)


def print_table(headers, rows, out=sys.stdout):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h))
              for i, h in enumerate(headers)]
    line = "  ".join(str(h).ljust(w) for h, w in zip(headers, widths))
    out.write(line + "\n" + "-" * len(line) + "\n")
    for r in rows:
        out.write("  ".join(str(c).ljust(w) for c, w in zip(r, widths)) + "\n")
    out.flush()


# ---------------------------------------------------------------- anchors (netperf, neper)

ANCHORS_BUILDER = "/work/shared/anchors/build-anchors"
ANCHOR_BINARIES = {  # name -> path inside the anchors directory (as build-anchors lays it out)
    "netperf": "netperf/src/netperf",
    "netserver": "netperf/src/netserver",
    "tcp_rr": "neper/tcp_rr",
    "tcp_stream": "neper/tcp_stream",
}


def default_anchors_dir():
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "nicbench-anchors")


def find_anchors(opt):
    """{name: path} of the anchor binaries present under --anchors DIR (default: build-anchors' cache).
    Missing binaries are left out; nothing is ever built here."""
    root = opt or default_anchors_dir()
    found = {}
    for name, rel in ANCHOR_BINARIES.items():
        path = os.path.join(root, rel)
        if os.access(path, os.X_OK):
            found[name] = path
    return root, found


def put_anchors_on_path(opt):
    """Let the older scripts (rr.py, throughput.py) find netperf/netserver from the anchors cache:
    prepend their directory to PATH (children inherit it). Returns a note, or None."""
    root, found = find_anchors(opt)
    if "netperf" in found and "netserver" in found and not which("netperf"):
        os.environ["PATH"] = os.path.dirname(found["netperf"]) + os.pathsep + os.environ.get("PATH", "")
        return "netperf/netserver from the anchors cache %s" % root
    return None


# ---------------------------------------------------------------- limits

def raise_nofile(wanted):
    """Raise the soft RLIMIT_NOFILE to the hard limit (children inherit it).
    Returns (soft, hard, note): note says when soft is still below `wanted` descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, wanted)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    note = None
    if soft != resource.RLIM_INFINITY and soft < wanted:
        note = ("open-file limit %d (hard %d) is below the %d descriptors the largest case needs per "
                "process: raise the hard limit (ulimit -Hn, /etc/security/limits.conf) or expect refusals"
                % (soft, hard, wanted))
    return soft, hard, note


def _read_int_file(path):
    try:
        with open(path) as f:
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return None


def kernel_limits(flows):
    """Kernel settings that matter for `flows` loopback connections, read only (never changed).
    Returns (values, advice): advice lists what an operator may want to tune, with the command."""
    vals = {
        "net.core.somaxconn": _read_int_file("/proc/sys/net/core/somaxconn"),
        "net.ipv4.tcp_max_syn_backlog": _read_int_file("/proc/sys/net/ipv4/tcp_max_syn_backlog"),
        "net.ipv4.ip_local_port_range": _read_int_file("/proc/sys/net/ipv4/ip_local_port_range"),
        "net.ipv4.tcp_tw_reuse": _read_int_file("/proc/sys/net/ipv4/tcp_tw_reuse"),
        "fs.nr_open": _read_int_file("/proc/sys/fs/nr_open"),
        "fs.file-max": _read_int_file("/proc/sys/fs/file-max"),
    }
    vals = {k: (v[0] if v and len(v) == 1 else v) for k, v in vals.items()}
    advice = []
    ports = vals["net.ipv4.ip_local_port_range"]
    if isinstance(ports, list) and len(ports) == 2 and ports[1] - ports[0] + 1 < flows:
        advice.append("ephemeral port range %d-%d holds fewer than %d ports: "
                      "sysctl -w net.ipv4.ip_local_port_range='1024 65535'" % (ports[0], ports[1], flows))
    if isinstance(vals["fs.nr_open"], int) and vals["fs.nr_open"] < flows + 64:
        advice.append("fs.nr_open %d < %d: sysctl -w fs.nr_open=%d" % (vals["fs.nr_open"], flows + 64,
                                                                      2 * flows))
    if isinstance(vals["fs.file-max"], int) and vals["fs.file-max"] < 2 * flows + 1024:
        advice.append("fs.file-max %d is below both ends' %d sockets: sysctl -w fs.file-max=%d"
                      % (vals["fs.file-max"], 2 * flows, 4 * flows))
    return vals, advice


def cli_help(cli):
    """nicbench-cli --help text ('' if it cannot be run)."""
    try:
        r = subprocess.run([cli, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=10)
        return r.stdout.decode("utf-8", "replace")
    except (OSError, subprocess.TimeoutExpired):
        return ""


# --- network namespaces on one bridge (agent.py, mesh.py; root) -------------------------

def _ip(*args):
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


class BridgedNamespaces:
    """Hosts on one switch: a namespace per host, each with a veth into a bridge that lives in
    a namespace of its own, host i at 198.18.0.(i + 1)/16 (198.18.1.x from the 250th), no route out.
    delete() removes them all (the veths go with them); use it in a finally."""

    def __init__(self, prefix, count):
        tag = "%s%d" % (prefix, os.getpid())
        self.bridge = tag + "x"
        self.hosts = ["%sh%d" % (tag, i) for i in range(count)]
        self.created = []

    @staticmethod
    def address(i):
        return "198.18.%d.%d" % divmod(i + 1, 250)

    def create(self):
        for ns in [self.bridge] + self.hosts:
            _ip("netns", "add", ns)
            self.created.append(ns)
            _ip("-n", ns, "link", "set", "lo", "up")
        _ip("-n", self.bridge, "link", "add", "br0", "type", "bridge")
        _ip("-n", self.bridge, "link", "set", "br0", "up")
        for i, ns in enumerate(self.hosts):
            port = "p%d" % i
            _ip("link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", port, "netns", self.bridge)
            _ip("-n", self.bridge, "link", "set", port, "master", "br0", "up")
            _ip("-n", ns, "addr", "add", self.address(i) + "/16", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up")

    def delete(self):
        for ns in reversed(self.created):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.created = []
