// SPDX-License-Identifier: GPL-3.0-or-later
// delaylink: a point-to-point link with a known one-way delay, for kernels without netem.
//
// It creates one TUN device in each of two network namespaces (by entering each namespace
// with setns() before opening /dev/net/tun) and forwards every IP packet read from one TUN
// to the other after holding it for the configured one-way delay, optionally with jitter,
// random loss and a rate limit. One thread: epoll over both TUN file descriptors, a signalfd
// and a timerfd armed (absolute, CLOCK_MONOTONIC) for the earliest packet due.
//
//   delaylink --a NS:IFNAME --b NS:IFNAME [--delay 5ms] [--jitter 0] [--loss 0%]
//             [--rate 0] [--queue 1000] [--mtu 1500] [--ready-file PATH] [--stats]
//             [--realtime PRIO]
//
// The TUN devices are not persistent: they disappear when this process exits, which is how
// the testbed removes them. When both devices exist the program writes "ready" to stdout
// (and creates --ready-file if given); the caller then assigns addresses with ip(8).
// Used by scripts/testbed; see docs/testbed.md. Linux only, needs CAP_NET_ADMIN and
// CAP_SYS_ADMIN (setns).

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Nanos = std::int64_t;

Nanos nowNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return Nanos(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

[[noreturn]] void die(const std::string &what)
{
    std::fprintf(stderr, "delaylink: %s\n", what.c_str());
    std::exit(1);
}

std::string errnoText(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

// "5ms", "250us", "1.5s", "0" -> nanoseconds.
std::optional<Nanos> parseDuration(std::string_view s)
{
    double mult = 1e9; // bare numbers are seconds, as in tc
    auto ends = [&](std::string_view suf) { return s.size() > suf.size() && s.substr(s.size() - suf.size()) == suf; };
    if (ends("ns")) {
        mult = 1;
        s.remove_suffix(2);
    } else if (ends("us")) {
        mult = 1e3;
        s.remove_suffix(2);
    } else if (ends("ms")) {
        mult = 1e6;
        s.remove_suffix(2);
    } else if (ends("s")) {
        mult = 1e9;
        s.remove_suffix(1);
    }
    double v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0 || v > 3600)
        return std::nullopt;
    return Nanos(std::llround(v * mult));
}

// "100mbit", "1gbit", "500kbit", "0" (unlimited) -> bits per second, as tc spells rates.
std::optional<double> parseRate(std::string_view s)
{
    double mult = 1;
    auto ends = [&](std::string_view suf) { return s.size() > suf.size() && s.substr(s.size() - suf.size()) == suf; };
    if (ends("gbit")) {
        mult = 1e9;
        s.remove_suffix(4);
    } else if (ends("mbit")) {
        mult = 1e6;
        s.remove_suffix(4);
    } else if (ends("kbit")) {
        mult = 1e3;
        s.remove_suffix(4);
    } else if (ends("bit")) {
        s.remove_suffix(3);
    }
    double v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0)
        return std::nullopt;
    return v * mult;
}

// "0.1%" or "0.001" -> probability.
std::optional<double> parseLoss(std::string_view s)
{
    bool pct = false;
    if (!s.empty() && s.back() == '%') {
        pct = true;
        s.remove_suffix(1);
    }
    double v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0)
        return std::nullopt;
    if (pct)
        v /= 100.0;
    if (v > 1)
        return std::nullopt;
    return v;
}

struct Endpoint {
    std::string ns;     // network namespace name (/run/netns/NAME), empty = current
    std::string ifname; // TUN device name
    int fd = -1;
};

// Enters the namespace, creates the TUN device there, returns to the original namespace.
int openTunIn(const Endpoint &ep, int mtu)
{
    int origNs = -1;
    if (!ep.ns.empty()) {
        origNs = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
        if (origNs < 0)
            die(errnoText("open /proc/self/ns/net"));
        const std::string path = "/run/netns/" + ep.ns;
        const int nsFd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (nsFd < 0)
            die(errnoText("open " + path));
        if (setns(nsFd, CLONE_NEWNET) != 0)
            die(errnoText("setns " + path));
        close(nsFd);
    }
    const int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        die(errnoText("open /dev/net/tun"));
    ifreq ifr{};
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    if (ep.ifname.size() >= IFNAMSIZ)
        die("interface name too long: " + ep.ifname);
    std::memcpy(ifr.ifr_name, ep.ifname.c_str(), ep.ifname.size());
    if (ioctl(fd, TUNSETIFF, &ifr) != 0)
        die(errnoText("TUNSETIFF " + ep.ifname + " in namespace " + (ep.ns.empty() ? "(current)" : ep.ns)));
    // Set the MTU here too (the caller may also do it with ip link): a socket ioctl in the
    // device's namespace.
    if (mtu > 0) {
        const int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (s >= 0) {
            ifreq m{};
            std::memcpy(m.ifr_name, ep.ifname.c_str(), ep.ifname.size());
            m.ifr_mtu = mtu;
            if (ioctl(s, SIOCSIFMTU, &m) != 0)
                std::fprintf(stderr, "delaylink: warning: cannot set MTU %d on %s: %s\n", mtu, ep.ifname.c_str(),
                             std::strerror(errno));
            close(s);
        }
    }
    if (origNs >= 0) {
        if (setns(origNs, CLONE_NEWNET) != 0)
            die(errnoText("setns back to the original namespace"));
        close(origNs);
    }
    return fd;
}

struct Packet {
    Nanos due = 0; // when it leaves the link (is written to the other TUN)
    std::vector<std::uint8_t> data;
};

struct Config {
    Nanos delay = 0;
    Nanos jitter = 0;
    double loss = 0;
    double rateBps = 0;            // bits per second, 0 = unlimited
    std::size_t queueLimit = 1000; // packets waiting for the rate limiter, per direction
    int mtu = 0;
    bool stats = false;
    int realtime = 0; // SCHED_FIFO priority, 0 = normal scheduling
};

// One direction of the link: a FIFO whose due times never decrease (jitter does not
// reorder packets, as with netem's rate option), so the head is always the next to go.
struct Direction {
    int inFd = -1;
    int outFd = -1;
    const char *name = "";
    std::deque<Packet> queue;
    Nanos lastDue = 0; // due time of the packet most recently queued
    Nanos txFree = 0;  // rate limiter: when the emulated transmitter is next free
    std::uint64_t packetsIn = 0, packetsOut = 0, bytesOut = 0, dropsLoss = 0, dropsQueue = 0, writeErrors = 0;
    Nanos latenessSum = 0, latenessMax = 0; // how late packets left compared with their due time
};

class Link {
public:
    explicit Link(const Config &cfg) : m_cfg(cfg), m_rng(std::random_device{}()) {}

    void receive(Direction &d, const std::uint8_t *buf, std::size_t len, Nanos now)
    {
        ++d.packetsIn;
        if (m_cfg.loss > 0 && m_unit(m_rng) < m_cfg.loss) {
            ++d.dropsLoss;
            return;
        }
        Nanos leave = now; // when the last bit has been serialized onto the emulated wire
        if (m_cfg.rateBps > 0) {
            const Nanos start = std::max(now, d.txFree);
            // Tail drop when the emulated transmit queue holds more than queueLimit packets'
            // worth of time at the current packet size (a simple byte-time limit).
            const Nanos txTime = Nanos(double(len) * 8.0 * 1e9 / m_cfg.rateBps);
            if (start - now > txTime * Nanos(m_cfg.queueLimit)) {
                ++d.dropsQueue;
                return;
            }
            leave = start + txTime;
            d.txFree = leave;
        } else if (d.queue.size() >= m_cfg.queueLimit * 64) {
            ++d.dropsQueue; // unlimited rate: only a memory guard
            return;
        }
        Nanos due = leave + m_cfg.delay;
        if (m_cfg.jitter > 0) {
            // Uniform in [-jitter, +jitter], never before the packet arrived.
            const double j = (m_unit(m_rng) * 2.0 - 1.0) * double(m_cfg.jitter);
            due = std::max(leave, due + Nanos(j));
        }
        due = std::max(due, d.lastDue); // keep order
        d.lastDue = due;
        d.queue.push_back(Packet{due, std::vector<std::uint8_t>(buf, buf + len)});
    }

    // Writes every packet that is due; returns the earliest still-pending due time or -1.
    static Nanos flush(Direction &d, Nanos now)
    {
        while (!d.queue.empty() && d.queue.front().due <= now) {
            Packet &p = d.queue.front();
            // A TUN write hands the packet to the stack and does not block; should it fail
            // (EAGAIN, device down) the packet is dropped, never retried in a loop.
            const ssize_t w = write(d.outFd, p.data.data(), p.data.size());
            if (w < 0)
                ++d.writeErrors;
            else {
                ++d.packetsOut;
                d.bytesOut += p.data.size();
                const Nanos late = now - p.due;
                d.latenessSum += late;
                d.latenessMax = std::max(d.latenessMax, late);
            }
            d.queue.pop_front();
        }
        return d.queue.empty() ? -1 : d.queue.front().due;
    }

private:
    Config m_cfg;
    std::mt19937_64 m_rng;
    std::uniform_real_distribution<double> m_unit{0.0, 1.0};
};

void usage()
{
    std::fputs("usage: delaylink --a NS:IFNAME --b NS:IFNAME [--delay 5ms] [--jitter 0] [--loss 0%]\n"
               "                 [--rate 0] [--queue 1000] [--mtu 1500] [--ready-file PATH] [--stats]\n"
               "                 [--realtime PRIO]\n"
               "Creates TUN device IFNAME in each network namespace NS and forwards IP packets between\n"
               "them after the one-way --delay (each direction). --rate limits each direction (tc units:\n"
               "kbit, mbit, gbit; 0 = unlimited), --queue is the transmit queue in packets, --loss a\n"
               "random drop probability (0.1% or 0.001), --jitter a uniform +/- spread that never\n"
               "reorders packets, --realtime runs under SCHED_FIFO with that priority (1-99).\nRuns until "
               "SIGINT/SIGTERM; the TUN devices vanish when it exits.\n",
               stderr);
}

Endpoint parseEndpoint(const std::string &v)
{
    Endpoint e;
    const auto colon = v.find(':');
    if (colon == std::string::npos) {
        e.ifname = v;
    } else {
        e.ns = v.substr(0, colon);
        e.ifname = v.substr(colon + 1);
    }
    if (e.ifname.empty() || e.ns.find('/') != std::string::npos)
        die("bad endpoint '" + v + "' (want NAMESPACE:IFNAME)");
    return e;
}

} // namespace

int main(int argc, char **argv)
{
    Config cfg;
    Endpoint a, b;
    std::string readyFile;
    bool haveA = false, haveB = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                die("option " + arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--a") {
            a = parseEndpoint(value());
            haveA = true;
        } else if (arg == "--b") {
            b = parseEndpoint(value());
            haveB = true;
        } else if (arg == "--delay") {
            const auto v = value();
            const auto d = parseDuration(v);
            if (!d)
                die("bad --delay " + v);
            cfg.delay = *d;
        } else if (arg == "--jitter") {
            const auto v = value();
            const auto d = parseDuration(v);
            if (!d)
                die("bad --jitter " + v);
            cfg.jitter = *d;
        } else if (arg == "--loss") {
            const auto v = value();
            const auto l = parseLoss(v);
            if (!l)
                die("bad --loss " + v);
            cfg.loss = *l;
        } else if (arg == "--rate") {
            const auto v = value();
            const auto r = parseRate(v);
            if (!r)
                die("bad --rate " + v);
            cfg.rateBps = *r;
        } else if (arg == "--queue") {
            const auto v = value();
            cfg.queueLimit = std::max<long>(1, std::atol(v.c_str()));
        } else if (arg == "--mtu") {
            cfg.mtu = std::atoi(value().c_str());
        } else if (arg == "--ready-file") {
            readyFile = value();
        } else if (arg == "--stats") {
            cfg.stats = true;
        } else if (arg == "--realtime") {
            cfg.realtime = std::clamp(std::atoi(value().c_str()), 0, 99);
        } else if (arg == "-h" || arg == "--help") {
            usage();
            return 0;
        } else {
            usage();
            die("unknown option " + arg);
        }
    }
    if (!haveA || !haveB) {
        usage();
        return 2;
    }

    // Timer slack: the default 50 us would be added to every wake-up.
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    // On a busy machine a normal-priority process can wait milliseconds for a CPU, which
    // would show up as delay and jitter. SCHED_FIFO makes the link wake on time; the loop
    // never spins (it sleeps in epoll_wait), and the kernel's RT throttling still applies.
    if (cfg.realtime > 0) {
        sched_param sp{};
        sp.sched_priority = cfg.realtime;
        if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
            std::fprintf(stderr, "delaylink: warning: no real-time scheduling (%s); delays may stretch under load\n",
                         std::strerror(errno));
        else
            mlockall(MCL_CURRENT | MCL_FUTURE);
    }

    // Signals through a signalfd, so the loop ends cleanly and the TUN devices go with us.
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, nullptr);
    const int sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
    if (sfd < 0)
        die(errnoText("signalfd"));

    a.fd = openTunIn(a, cfg.mtu);
    b.fd = openTunIn(b, cfg.mtu);

    const int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    const int ep = epoll_create1(EPOLL_CLOEXEC);
    if (tfd < 0 || ep < 0)
        die(errnoText("timerfd/epoll"));
    auto watch = [&](int fd) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0)
            die(errnoText("epoll_ctl"));
    };
    watch(a.fd);
    watch(b.fd);
    watch(tfd);
    watch(sfd);

    Direction ab;
    ab.inFd = a.fd;
    ab.outFd = b.fd;
    ab.name = "a->b";
    Direction ba;
    ba.inFd = b.fd;
    ba.outFd = a.fd;
    ba.name = "b->a";
    Link link(cfg);

    if (!readyFile.empty()) {
        const int f = open(readyFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (f >= 0) {
            const std::string pid = std::to_string(getpid()) + "\n";
            (void)!write(f, pid.data(), pid.size());
            close(f);
        }
    }
    std::printf("ready\n");
    std::fflush(stdout);

    std::vector<std::uint8_t> buf(65536);
    // Wake-up precision. A timer expiry reaches this process some time after it was due
    // (interrupt, scheduling: tens of microseconds on an idle machine, hundreds on a busy
    // one). `wakeLate` tracks that lateness (moving average of the last ~8 wake-ups); the
    // timer is armed that much (plus a margin) before the next packet is due and the rest
    // is spent spinning on the clock, so packets leave on time rather than late. Spinning is
    // capped by a budget of 5% of one CPU; without budget the timer is armed at the due time.
    constexpr Nanos kSpinMargin = 20'000;
    constexpr Nanos kMaxEarly = 1'000'000;
    constexpr Nanos kBudgetPerSecond = 50'000'000;
    Nanos wakeLate = 0;
    Nanos spinBudget = kBudgetPerSecond;
    Nanos budgetRefilled = nowNs();
    Nanos armed = -1; // the expiry programmed into the timer
    bool armedEarly = false;
    bool running = true;
    epoll_event events[8];
    auto headDue = [&]() {
        Nanos next = -1;
        if (!ab.queue.empty())
            next = ab.queue.front().due;
        if (!ba.queue.empty())
            next = next < 0 ? ba.queue.front().due : std::min(next, ba.queue.front().due);
        return next;
    };
    while (running) {
        const int n = epoll_wait(ep, events, 8, -1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            die(errnoText("epoll_wait"));
        }
        bool timerFired = false;
        for (int i = 0; i < n; ++i) {
            const int fd = events[i].data.fd;
            if (fd == sfd) {
                running = false;
            } else if (fd == tfd) {
                std::uint64_t expirations = 0;
                (void)!read(tfd, &expirations, sizeof expirations);
                timerFired = true;
            } else {
                Direction &d = fd == a.fd ? ab : ba;
                // Drain, but bounded so one busy direction cannot starve the other.
                for (int k = 0; k < 256; ++k) {
                    const ssize_t r = read(fd, buf.data(), buf.size());
                    if (r <= 0)
                        break;
                    link.receive(d, buf.data(), std::size_t(r), nowNs());
                }
            }
        }
        Nanos now = nowNs();
        {
            const Nanos refill = (now - budgetRefilled) * kBudgetPerSecond / 1'000'000'000;
            if (refill > 0) {
                spinBudget = std::min(kBudgetPerSecond, spinBudget + refill);
                budgetRefilled = now;
            }
        }
        if (timerFired && armed >= 0) {
            const Nanos late = std::clamp<Nanos>(now - armed, 0, kMaxEarly);
            wakeLate += (late - wakeLate) / 8;
            // Woken early on purpose: spin until the head packet is due.
            const Nanos due = headDue();
            if (armedEarly && due > now && due - now <= wakeLate + 2 * kSpinMargin && spinBudget > 0) {
                const Nanos spinStart = now;
                while (now < due)
                    now = nowNs();
                spinBudget -= now - spinStart;
            }
            armed = -1;
        }
        // Send whatever is due (a zero delay sends at once), then arm the timer for the next.
        Link::flush(ab, now);
        Link::flush(ba, now);
        const Nanos next = headDue();
        if (next >= 0) {
            const bool early = spinBudget > 0;
            const Nanos target = early ? next - std::min(wakeLate + kSpinMargin, kMaxEarly) : next;
            if (target != armed) {
                itimerspec its{};
                const Nanos t = std::max<Nanos>(target, 1);
                its.it_value.tv_sec = t / 1'000'000'000;
                its.it_value.tv_nsec = t % 1'000'000'000;
                timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, nullptr);
                armed = target;
                armedEarly = early;
            }
        }
    }

    if (cfg.stats) {
        for (const Direction *d : {&ab, &ba})
            std::fprintf(stderr,
                         "delaylink %s: in %llu out %llu bytes %llu lost %llu queue-drops %llu write-errors %llu "
                         "late-mean-us %.1f late-max-us %.1f\n",
                         d->name, static_cast<unsigned long long>(d->packetsIn),
                         static_cast<unsigned long long>(d->packetsOut), static_cast<unsigned long long>(d->bytesOut),
                         static_cast<unsigned long long>(d->dropsLoss), static_cast<unsigned long long>(d->dropsQueue),
                         static_cast<unsigned long long>(d->writeErrors),
                         d->packetsOut ? double(d->latenessSum) / 1e3 / double(d->packetsOut) : 0.0,
                         double(d->latenessMax) / 1e3);
    }
    close(a.fd);
    close(b.fd);
    if (!readyFile.empty())
        unlink(readyFile.c_str());
    return 0;
}
