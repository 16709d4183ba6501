// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/server.h"

#include "platform/hostenvironment.h"
#include "platform/processcpu.h"
#include "protocol/protocol.h"
#include "test/serverinfo.h"
#include "net/socketio.h"
#include "test/streamset.h"
#include "test/testaccounting.h"

#include <QDateTime>
#include <QJsonArray>
#include <QtEndian>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <chrono>

namespace nb {

using namespace std::chrono;

namespace {

double nowSecs()
{
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// iperf3 error numbers we send in SERVER_ERROR.
constexpr int IeRecvCookie = 106;
constexpr int IeRecvParams = 111;
constexpr int IeParams = 112;
constexpr int IeStreamAccept = 204;
constexpr int IeCtrlClose = 109;
constexpr int IeTimeout = 118;

// What our server adds to its results for a NicBench client (docs/protocol.md).
QJsonObject serverExtension(const TestResult &result, const StreamSet &streams, const TestAccounting &acc)
{
    QJsonObject o = accountingJson(acc);
    o.insert(QStringLiteral("version"), result.version);
    if (streams.isRequestResponse())
        o.insert(QStringLiteral("transactions"), double(streams.rrSummary().transactions));
    return o;
}

// The hello every NicBench client gets (docs/protocol.md §2.2): what we can do and, since
// the info query, the machine we run on. Read fresh each time: addresses change.
QJsonObject helloJson()
{
    QJsonObject hello;
    hello.insert(QStringLiteral("version"), QStringLiteral(NICBENCH_VERSION));
    hello.insert(QStringLiteral("capabilities"), QJsonArray{QStringLiteral("stream"), QStringLiteral("rr"),
                                                           QStringLiteral("crr"), QStringLiteral("system_cpu"),
                                                           QStringLiteral("info")});
    hello.insert(QStringLiteral("host"), helloHostJson(HostEnvironment::local()));
    return hello;
}

} // namespace

struct Server::Impl {
    ServerOptions options;
    TestListener *listener = nullptr;
    net::Fd listenFd;
    quint16 boundPort = 0;
    std::atomic<bool> stop{false};

    void say(const QString &m)
    {
        if (listener)
            listener->message(m);
    }
    bool reopenListener(const net::SocketOptions &o, QString *error)
    {
        listenFd.reset();
        listenFd = net::listenTcp(options.bindAddress, boundPort, options.family, o, error);
        return listenFd.valid();
    }
    // Refuses a connection that arrives while a test runs, as iperf3 does: one
    // ACCESS_DENIED byte, nothing read, then close.
    void denyPending()
    {
        for (;;) {
            net::Fd extra = net::acceptTcp(listenFd.get(), 0);
            if (!extra.valid())
                return;
            const char denied = char(proto::AccessDenied);
            ::send(extra.get(), &denied, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            say(QStringLiteral("Refused a connection from %1: a test is running")
                    .arg(net::peerAddress(extra.get()).toString()));
        }
    }
    // Waits until the control socket is readable, turning other clients away meanwhile.
    // 1 readable, 0 timeout, -1 error or stop.
    int waitControl(int ctrlFd, int timeoutMs)
    {
        const auto deadline = steady_clock::now() + milliseconds(timeoutMs);
        for (;;) {
            if (stop.load())
                return -1;
            pollfd p[2] = {{ctrlFd, POLLIN, 0}, {listenFd.get(), POLLIN, 0}};
            const auto left = duration_cast<milliseconds>(deadline - steady_clock::now()).count();
            if (left <= 0)
                return 0;
            const int rc = ::poll(p, 2, int(std::min<long long>(left, 100)));
            if (rc < 0 && errno != EINTR)
                return -1;
            if (rc <= 0)
                continue;
            // The control socket first: a client that ends its test (IPERF_DONE) or query
            // and at once connects again must find us listening, not be turned away.
            if (p[0].revents & (POLLIN | POLLHUP | POLLERR))
                return 1;
            if (p[1].revents & POLLIN)
                denyPending();
        }
    }
    void sendError(int ctrlFd, int iErrno, int sysErrno = 0)
    {
        unsigned char buf[9];
        buf[0] = static_cast<unsigned char>(proto::ServerError);
        qToBigEndian<qint32>(iErrno, buf + 1);
        qToBigEndian<qint32>(sysErrno, buf + 5);
        QString ignored;
        net::writeAll(ctrlFd, buf, sizeof buf, net::deadlineIn(1), &ignored);
    }
    // False when the connection was an info query rather than a test.
    bool runTest(net::Fd ctrl, const net::Address &peer);
    void describeMachine(int ctrlFd, const net::Address &peer);
};

// The info query (docs/protocol.md §2.6): the hello and nothing else. It is not a test: no
// result, no listener callbacks, and a one-off server goes on waiting for its test.
void Server::Impl::describeMachine(int ctrlFd, const net::Address &peer)
{
    const double idle = std::min(options.idleTimeoutSecs, 5.0);
    QString err;
    if (net::writeState(ctrlFd, proto::NicbenchHello, net::deadlineIn(idle), &err) != net::IoStatus::Ok ||
        net::writeJson(ctrlFd, helloJson(), net::deadlineIn(idle), &err) != net::IoStatus::Ok) {
        say(QStringLiteral("Cannot describe this machine to %1: %2").arg(peer.toString(), err));
        return;
    }
    // The client reads the hello, then sends CLIENT_TERMINATE and closes at once. Taking
    // that byte lets the connection close cleanly. Only the control socket is watched:
    // whoever connects meanwhile (often the same client, now for a test) waits in the
    // backlog for a moment instead of getting ACCESS_DENIED from an idle server.
    std::int8_t state = 0;
    if (net::waitReadable(ctrlFd, 1000) > 0)
        net::readState(ctrlFd, &state, net::deadlineIn(0.5), &err);
    say(QStringLiteral("Described this machine to %1").arg(peer.toString()));
}

bool Server::Impl::runTest(net::Fd ctrl, const net::Address &peer)
{
    TestResult result;
    result.isServerSide = true;
    result.version = QStringLiteral(NICBENCH_VERSION);
    result.timestampSecs = QDateTime::currentSecsSinceEpoch();
    StreamSet streams;
    TestAccounting accounting;
    TestParams params;
    bool started = false;
    bool optionsApplied = false;
    QString err;
    const double idle = options.idleTimeoutSecs;

    auto finish = [&](const QString &error) -> bool {
        if (!error.isEmpty() && result.error.isEmpty())
            result.error = error;
        if (started) {
            streams.freeze(nowSecs());
            result.streams = streams.summaries();
            if (params.isRequestResponse()) {
                result.hasRr = true;
                result.rr = streams.rrSummary();
                result.rr.kind = params.kind;
            }
            applyAccounting(accounting, &result);
        }
        streams.abortAll();
        if (optionsApplied) {
            QString e2;
            reopenListener({}, &e2);
        }
        if (listener)
            listener->testFinished(result);
        if (!result.error.isEmpty())
            say(QStringLiteral("Test from %1 ended with an error: %2").arg(peer.toString(), result.error));
        return true;
    };

    say(QStringLiteral("Accepted connection from %1").arg(peer.toString()));
    const int one = 1;
    setsockopt(ctrl.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

    // Cookie
    QByteArray cookie(proto::CookieSize, '\0');
    if (waitControl(ctrl.get(), int(idle * 1000)) <= 0 ||
        net::readExact(ctrl.get(), cookie.data(), std::size_t(cookie.size()), net::deadlineIn(idle), &err) !=
            net::IoStatus::Ok) {
        return finish(QStringLiteral("no cookie from the client: %1").arg(err.isEmpty() ? QStringLiteral("timed out") : err));
    }
    if (!proto::isValidCookie(cookie)) {
        sendError(ctrl.get(), IeRecvCookie);
        return finish(QStringLiteral("malformed cookie from the client"));
    }
    result.cookie = QString::fromLatin1(cookie.constData());

    // Parameters
    if (net::writeState(ctrl.get(), proto::ParamExchange, net::deadlineIn(idle), &err) != net::IoStatus::Ok)
        return finish(err);
    QJsonObject paramsJson;
    if (waitControl(ctrl.get(), int(idle * 1000)) <= 0 ||
        net::readJson(ctrl.get(), &paramsJson, net::deadlineIn(idle), &err) != net::IoStatus::Ok) {
        sendError(ctrl.get(), IeRecvParams);
        return finish(QStringLiteral("cannot read test parameters: %1").arg(err.isEmpty() ? QStringLiteral("timed out") : err));
    }
    if (isInfoQuery(paramsJson)) {
        describeMachine(ctrl.get(), peer);
        return false;
    }
    if (!TestParams::fromIperfParams(paramsJson, &params, &err)) {
        sendError(ctrl.get(), IeParams);
        return finish(QStringLiteral("bad test parameters: %1").arg(err));
    }
    params.host = peer.host();
    params.port = boundPort;
    result.params = params;
    result.remoteVersion = paramsJson.value(QStringLiteral("client_version")).toString();

    // NicBench clients announce themselves with the "nicbench" parameter key; we answer
    // with NICBENCH_HELLO so they know what they talk to (stock clients never see it).
    const bool nbClient = paramsJson.value(QStringLiteral("nicbench")).isObject();
    net::Fd crrListen;
    if (nbClient) {
        QJsonObject hello = helloJson();
        if (params.kind == TestKind::Crr) {
            const net::Address local = net::localAddress(ctrl.get());
            // host() unmaps ::ffff:a.b.c.d, so the family follows the text, not the socket.
            const QString host = local.host();
            crrListen = net::listenTcp(host, 0, host.contains(QLatin1Char(':')) ? AddressFamily::IPv6 : AddressFamily::IPv4,
                                       {}, &err);
            if (!crrListen.valid()) {
                sendError(ctrl.get(), 202);
                return finish(err);
            }
            hello.insert(QStringLiteral("crr_port"), net::localPort(crrListen.get()));
        }
        if (net::writeState(ctrl.get(), proto::NicbenchHello, net::deadlineIn(idle), &err) != net::IoStatus::Ok ||
            net::writeJson(ctrl.get(), hello, net::deadlineIn(idle), &err) != net::IoStatus::Ok)
            return finish(err);
    } else if (params.isRequestResponse()) {
        sendError(ctrl.get(), IeParams);
        return finish(QStringLiteral("request/response parameters without the NicBench extension"));
    }

    net::SocketOptions dataOptions;
    dataOptions.window = params.window;
    dataOptions.mss = params.mss;
    dataOptions.noDelay = params.noDelay;
    dataOptions.congestion = params.congestion;
    if (params.window > 0 || params.mss > 0 || params.noDelay) {
        // Options that must be on the listening socket before the SYN arrives.
        net::SocketOptions listenOptions = dataOptions;
        listenOptions.congestion.clear();
        if (!reopenListener(listenOptions, &err)) {
            sendError(ctrl.get(), 202);
            return finish(err);
        }
        optionsApplied = true;
    }

    // Streams
    if (net::writeState(ctrl.get(), proto::CreateStreams, net::deadlineIn(idle), &err) != net::IoStatus::Ok)
        return finish(err);
    const int total = params.dataConnectionCount();
    if (crrListen.valid()) {
        for (int i = 0; i < params.streams; ++i)
            streams.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::CrrServer,
                                                     net::Fd(::fcntl(crrListen.get(), F_DUPFD_CLOEXEC, 0))));
    }
    const int toReceive = params.isBidir() ? params.streams : params.isReverse() ? 0 : params.streams;
    const double acceptDeadline = nowSecs() + idle;
    int accepted = 0;
    while (accepted < total) {
        if (stop.load())
            return finish(QStringLiteral("server stopped"));
        if (nowSecs() > acceptDeadline) {
            sendError(ctrl.get(), IeStreamAccept);
            return finish(QStringLiteral("the client opened %1 of %2 data streams").arg(accepted).arg(total));
        }
        pollfd p[2] = {{listenFd.get(), POLLIN, 0}, {ctrl.get(), POLLIN, 0}};
        if (::poll(p, 2, 100) <= 0)
            continue;
        if (p[1].revents) {
            return finish(QStringLiteral("the client closed the control connection while opening streams"));
        }
        net::Address dpeer;
        net::Fd data = net::acceptTcp(listenFd.get(), 0, &dpeer);
        if (!data.valid())
            continue;
        QByteArray dcookie(proto::CookieSize, '\0');
        QString cerr;
        if (net::readExact(data.get(), dcookie.data(), std::size_t(dcookie.size()), net::deadlineIn(5), &cerr) !=
                net::IoStatus::Ok ||
            dcookie != cookie) {
            const char denied = char(proto::AccessDenied);
            ::send(data.get(), &denied, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            continue;
        }
        QString oerr;
        if (!dataOptions.congestion.isEmpty() && !net::applyOptions(data.get(), {0, 0, false, dataOptions.congestion}, &oerr))
            say(oerr);
        const int id = streamIdForIndex(accepted);
        const bool sender = accepted >= toReceive;
        const DataStream::Role role = params.kind == TestKind::Rr ? DataStream::Role::RrServer
                                      : sender                    ? DataStream::Role::Sender
                                                                  : DataStream::Role::Receiver;
        const net::Address local = net::localAddress(data.get());
        result.connections.append({id, local.host(), local.port(), dpeer.host(), dpeer.port()});
        streams.add(std::make_unique<DataStream>(id, role, std::move(data)));
        ++accepted;
    }
    if (optionsApplied) {
        if (!reopenListener({}, &err))
            say(err);
        optionsApplied = false;
    }

    // Running
    const auto d = net::deadlineIn(idle);
    if (net::writeState(ctrl.get(), proto::TestStart, d, &err) != net::IoStatus::Ok ||
        net::writeState(ctrl.get(), proto::TestRunning, d, &err) != net::IoStatus::Ok)
        return finish(err);
    DataStream::Config cfg;
    cfg.blockSize = params.blockSize;
    cfg.skipRxCopy = params.skipRxCopy; // true for stock clients; NicBench clients choose
    cfg.requestSize = params.requestSize;
    cfg.responseSize = params.responseSize;
    cfg.inFlight = params.inFlight;
    const double t0 = nowSecs();
    ProcessCpuMeter cpu;
    cpu.start();
    accounting.begin(streams.empty() || streams.at(0).fd() < 0 ? ctrl.get() : streams.at(0).fd());
    streams.markStart(t0);
    streams.startAll(cfg);
    started = true;
    if (listener)
        listener->testStarted(result);

    // The client decides when the test ends; the watchdog only catches a vanished client.
    const double watchdog = params.isTimed() ? t0 + params.omit + params.duration + 40 : 0;
    bool omitting = params.omit > 0;
    const double omitEnd = t0 + params.omit;
    double nextTick = t0 + (omitting ? std::min(params.interval, params.omit) : params.interval);
    std::int8_t state = 0;
    for (;;) {
        const double now = nowSecs();
        if (watchdog > 0 && now > watchdog) {
            sendError(ctrl.get(), IeTimeout);
            return finish(QStringLiteral("the client did not end the test in time"));
        }
        if (now >= nextTick) {
            IntervalReport r = streams.takeInterval(now, omitting);
            r.hasCpu = true;
            r.cpu = accounting.sampleInterval();
            result.intervals.append(r);
            if (listener)
                listener->intervalReady(r);
            if (omitting && now >= omitEnd - 1e-6) {
                omitting = false;
                streams.markOmitEnd(now);
                cpu.start();
                accounting.restart();
            }
            nextTick = omitting ? std::min(now + params.interval, omitEnd) : now + params.interval;
            continue;
        }
        const int w = waitControl(ctrl.get(), std::max(1, int((nextTick - now) * 1000)));
        if (w < 0)
            return finish(QStringLiteral("server stopped"));
        if (w == 0) {
            if (streams.allFinished())
                return finish(QStringLiteral("the client disappeared: all data connections closed"));
            continue;
        }
        if (net::readState(ctrl.get(), &state, net::deadlineIn(1), &err) != net::IoStatus::Ok)
            return finish(QStringLiteral("the client disappeared during the test"));
        if (state == proto::TestEnd)
            break;
        if (state == proto::ClientTerminate)
            return finish(QStringLiteral("the client terminated the test"));
        sendError(ctrl.get(), IeCtrlClose);
        return finish(QStringLiteral("unexpected %1 from the client").arg(proto::stateName(state)));
    }

    // Results
    const double end = nowSecs();
    streams.stopSenders();
    streams.joinSenders();
    streams.freeze(end);
    IntervalReport last = streams.takeInterval(end, omitting);
    // Close the data connections before EXCHANGE_RESULTS, as iperf3 does (A.4). A stock
    // 3.12 client receiving in -R/--bidir drains its blocking data sockets with a read that
    // wants a whole block; our sender may have stopped mid-block, and without the FIN that
    // read never returns and the client never reads EXCHANGE_RESULTS. The counts are
    // frozen above, so nothing measured is lost.
    streams.abortAll();
    const bool keepLast = !last.streams.isEmpty() && last.streams.first().seconds() > 0.05 * params.interval;
    if (keepLast) {
        last.hasCpu = true;
        last.cpu = accounting.sampleInterval();
    }
    accounting.end();
    if (keepLast) {
        result.intervals.append(last);
        if (listener)
            listener->intervalReady(last);
    }
    const ProcessCpuMeter::Percent c = cpu.read();
    result.cpu.hostTotal = c.total;
    result.cpu.hostUser = c.user;
    result.cpu.hostSystem = c.system;
    const auto rd = net::deadlineIn(idle);
    if (net::writeState(ctrl.get(), proto::ExchangeResults, rd, &err) != net::IoStatus::Ok)
        return finish(err);
    QJsonObject theirs;
    if (net::readJson(ctrl.get(), &theirs, rd, &err) != net::IoStatus::Ok)
        return finish(QStringLiteral("cannot read the client's results: %1").arg(err));
    if (!streams.applyPeerResults(theirs, &err)) {
        sendError(ctrl.get(), 208);
        return finish(err);
    }
    result.cpu.remoteTotal = proto::toDouble(theirs.value(QStringLiteral("cpu_util_total"))).value_or(0);
    result.cpu.remoteUser = proto::toDouble(theirs.value(QStringLiteral("cpu_util_user"))).value_or(0);
    result.cpu.remoteSystem = proto::toDouble(theirs.value(QStringLiteral("cpu_util_system"))).value_or(0);
    result.cpu.remoteKnown = true;
    const bool receiverOnly = toReceive == total;
    QJsonObject mine = streams.resultsJson(c.total, c.user, c.system, receiverOnly, QString());
    if (nbClient)
        mine.insert(QStringLiteral("nicbench"), serverExtension(result, streams, accounting));
    if (net::writeJson(ctrl.get(), mine, rd, &err) != net::IoStatus::Ok ||
        net::writeState(ctrl.get(), proto::DisplayResults, rd, &err) != net::IoStatus::Ok)
        return finish(QStringLiteral("cannot send results: %1").arg(err));
    // IPERF_DONE, or the client just closing, ends the test.
    if (waitControl(ctrl.get(), 5000) > 0)
        net::readState(ctrl.get(), &state, net::deadlineIn(1), &err);
    return finish(QString());
}

Server::Server(ServerOptions options, TestListener *listener) : d(std::make_unique<Impl>())
{
    d->options = std::move(options);
    d->listener = listener;
}

Server::~Server() = default;

bool Server::listen(QString *error)
{
    d->listenFd = net::listenTcp(d->options.bindAddress, d->options.port, d->options.family, {}, error);
    if (!d->listenFd.valid())
        return false;
    d->boundPort = net::localPort(d->listenFd.get());
    return true;
}

quint16 Server::port() const
{
    return d->boundPort;
}

int Server::serve()
{
    if (!d->listenFd.valid())
        return 1;
    while (!d->stop.load()) {
        net::Address peer;
        net::Fd ctrl = net::acceptTcp(d->listenFd.get(), 100, &peer);
        if (!ctrl.valid())
            continue;
        if (!d->runTest(std::move(ctrl), peer))
            continue; // an info query: not a test, and it leaves the listener as it was
        m_testsServed.fetch_add(1);
        if (d->options.oneOff)
            break;
        if (!d->listenFd.valid()) {
            QString err;
            if (!d->reopenListener({}, &err)) {
                d->say(err);
                return 2;
            }
        }
    }
    return 0;
}

void Server::stop()
{
    d->stop.store(true);
}

} // namespace nb
