// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// tst_testbed's reference for request/response over a testbed link (Linux, root).

#include <QString>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

namespace testbed {

// The reference for request/response: a plain blocking TCP ping-pong of one byte between
// two threads of this process, each moved into its namespace with setns(), with
// TCP_NODELAY and, like the nicbench-cli processes here, SCHED_FIFO 5. Whatever the machine
// adds to a 20 ms round trip (wake-ups after 10 ms asleep, the delay link's timer) it adds
// to both; what NicBench adds beyond that is what the test is about.
struct PingPong {
    double p50Us = 0;
    double meanUs = 0;
    double tps = 0;
    int transactions = 0;
    QString error;
};

class ThreadNetns {
public:
    // Moves the calling thread into network namespace `ns` (ip netns: /var/run/netns/NS).
    static QString enter(const QString &ns)
    {
        const QByteArray path = QStringLiteral("/var/run/netns/%1").arg(ns).toLocal8Bit();
        const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return QStringLiteral("cannot open %1").arg(QString::fromLocal8Bit(path));
        const int rc = ::setns(fd, CLONE_NEWNET);
        ::close(fd);
        return rc == 0 ? QString() : QStringLiteral("setns(%1) failed").arg(ns);
    }
};

inline void makeRealtime(bool on)
{
    if (!on)
        return;
    sched_param sp{};
    sp.sched_priority = 5;
    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

// Waits up to `ms` for `fd` to be readable; false on timeout or error.
inline bool readableWithin(int fd, int ms)
{
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, ms) == 1;
}

inline PingPong plainPingPong(const QString &clientNs, const QString &serverNs, const char *serverAddr, quint16 port,
                              double seconds, bool realtime)
{
    using Clock = std::chrono::steady_clock;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    inet_pton(AF_INET, serverAddr, &addr.sin_addr);

    std::promise<QString> listening;
    std::future<QString> listeningFuture = listening.get_future();
    std::thread server([&] {
        QString error = ThreadNetns::enter(serverNs);
        const int l = error.isEmpty() ? ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
        const int one = 1;
        if (l >= 0) {
            ::setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
            if (::bind(l, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) != 0 || ::listen(l, 1) != 0)
                error =
                    QStringLiteral("ping-pong server cannot listen on %1:%2").arg(QLatin1String(serverAddr)).arg(port);
        } else if (error.isEmpty()) {
            error = QStringLiteral("ping-pong server: no socket");
        }
        listening.set_value(error);
        if (!error.isEmpty()) {
            if (l >= 0)
                ::close(l);
            return;
        }
        makeRealtime(realtime);
        const int c = readableWithin(l, 10000) ? ::accept4(l, nullptr, nullptr, SOCK_CLOEXEC) : -1;
        ::close(l);
        if (c < 0)
            return;
        ::setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        char b = 0;
        // Bounded: every wait has a deadline, and the client's close ends the loop.
        while (readableWithin(c, 5000) && ::recv(c, &b, 1, 0) == 1 && ::send(c, &b, 1, MSG_NOSIGNAL) == 1) {
        }
        ::close(c);
    });

    PingPong r;
    r.error = listeningFuture.get();
    if (r.error.isEmpty()) {
        std::thread client([&] {
            r.error = ThreadNetns::enter(clientNs);
            const int s = r.error.isEmpty() ? ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
            if (s < 0 || ::connect(s, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) != 0) {
                if (r.error.isEmpty())
                    r.error = QStringLiteral("ping-pong client cannot connect to %1").arg(QLatin1String(serverAddr));
                if (s >= 0)
                    ::close(s);
                return;
            }
            const int one = 1;
            ::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            makeRealtime(realtime);
            std::vector<double> us;
            const Clock::time_point start = Clock::now();
            const Clock::time_point end =
                start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
            char b = 'p';
            Clock::time_point now = start;
            while (now < end) {
                const Clock::time_point t0 = Clock::now();
                if (::send(s, &b, 1, MSG_NOSIGNAL) != 1 || !readableWithin(s, 5000) || ::recv(s, &b, 1, 0) != 1) {
                    r.error = QStringLiteral("ping-pong transaction %1 failed").arg(us.size() + 1);
                    break;
                }
                now = Clock::now();
                us.push_back(std::chrono::duration<double, std::micro>(now - t0).count());
            }
            ::close(s);
            if (us.empty())
                return;
            r.transactions = int(us.size());
            r.tps = double(us.size()) / std::chrono::duration<double>(now - start).count();
            double sum = 0;
            for (double u : us)
                sum += u;
            r.meanUs = sum / double(us.size());
            std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
            r.p50Us = us[us.size() / 2];
        });
        client.join();
    }
    server.join();
    if (r.error.isEmpty() && r.transactions == 0)
        r.error = QStringLiteral("the ping-pong made no transaction");
    return r;
}

} // namespace testbed
