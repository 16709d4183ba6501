// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/throughputclient.h"

#include "platform/processcpu.h"
#include "protocol/protocol.h"
#include "net/socketio.h"
#include "test/streamset.h"
#include "test/testaccounting.h"

#include <QJsonObject>

#include <QDateTime>
#include <QtEndian>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cmath>
#include <thread>

namespace nb {

using namespace std::chrono;

namespace {

double nowSecs()
{
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// How long we wait for each control message outside the running phase.
constexpr double ControlTimeoutSecs = 10.0;
// A server that answers our cookie with nothing for this long does not speak iperf3.
constexpr double FirstStateTimeoutSecs = 5.0;

QString congestionOf(int fd)
{
#ifdef TCP_CONGESTION
    char name[32] = {};
    socklen_t len = sizeof name;
    if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len) == 0)
        return QString::fromLatin1(name);
#endif
    return {};
}

// Reads the two int32 that follow SERVER_ERROR (3.12's auth path sends only one).
QString readServerError(int fd)
{
    unsigned char buf[8] = {};
    QString err;
    const auto s1 = net::readExact(fd, buf, 4, net::deadlineIn(2), &err);
    if (s1 != net::IoStatus::Ok)
        return QStringLiteral("the server reported an error");
    const int iErrno = int(qFromBigEndian<qint32>(buf));
    QString text = QStringLiteral("the server reported an error: %1").arg(proto::iperfErrorText(iErrno));
    if (net::readExact(fd, buf + 4, 4, net::deadlineIn(1), &err) == net::IoStatus::Ok) {
        const int sysErrno = int(qFromBigEndian<qint32>(buf + 4));
        if (sysErrno != 0)
            text += QStringLiteral(" (%1)").arg(QString::fromLocal8Bit(strerror(sysErrno)));
    }
    return text;
}

// Turns an unexpected state byte into the message a user should read.
QString unexpectedState(std::int8_t state, int fd, const char *waitingFor)
{
    switch (state) {
    case proto::AccessDenied:
        return QStringLiteral("the server is busy running a test; try again later");
    case proto::ServerError:
        return readServerError(fd);
    case proto::ServerTerminate:
        return QStringLiteral("the server terminated the test");
    default:
        return QStringLiteral("protocol error: expected %1 from the server, got %2")
            .arg(QLatin1String(waitingFor), proto::stateName(state));
    }
}

class ClientRun {
public:
    ClientRun(const TestParams &p, TestListener *l, std::atomic<bool> *stop) : params(p), listener(l), stop(stop)
    {
        result.params = p;
        result.version = QStringLiteral(NICBENCH_VERSION);
        result.timestampSecs = QDateTime::currentSecsSinceEpoch();
    }

    TestResult run();

private:
    bool fail(const QString &message)
    {
        if (result.error.isEmpty())
            result.error = message;
        return false;
    }
    void say(const QString &m)
    {
        if (listener)
            listener->message(m);
    }
    bool handshake();
    bool createStreams();
    bool runPhase();
    bool exchangeResults();
    TestResult runIperf2();
    void finish();

    TestParams params;
    TestListener *listener;
    std::atomic<bool> *stop;
    TestResult result;
    net::Fd ctrl;
    QByteArray cookie;
    StreamSet streams;
    net::SocketOptions dataOptions;
    QJsonObject hello;
    net::Address crrTarget;
    ProcessCpuMeter cpu;
    TestAccounting accounting;
    double t0 = 0;
    bool started = false;
};

bool ClientRun::handshake()
{
    QString err;
    say(QStringLiteral("Connecting to host %1, port %2").arg(params.host).arg(params.port));
    ctrl = net::connectTcp(params.host, params.port, params.family, params.bindAddress, {}, params.connectTimeoutMs,
                           &err, stop);
    if (!ctrl.valid())
        return fail(err);
    const int one = 1;
    setsockopt(ctrl.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    cookie = proto::makeCookie();
    result.cookie = QString::fromLatin1(cookie.constData());
    if (net::writeAll(ctrl.get(), cookie.constData(), std::size_t(cookie.size()), net::deadlineIn(ControlTimeoutSecs),
                      &err) != net::IoStatus::Ok)
        return fail(QStringLiteral("cannot send the cookie: %1").arg(err));
    std::int8_t state = 0;
    const auto s = net::readState(ctrl.get(), &state, net::deadlineIn(FirstStateTimeoutSecs), &err, stop);
    if (s == net::IoStatus::Timeout)
        return fail(QStringLiteral("the server at %1 port %2 accepted the connection but does not speak the iperf3 "
                                   "protocol (an iperf2 server? use --iperf2)")
                        .arg(params.host)
                        .arg(params.port));
    if (s != net::IoStatus::Ok)
        return fail(s == net::IoStatus::Cancelled ? QStringLiteral("stopped") : QStringLiteral("the server closed the connection before the test started: %1").arg(err));
    if (state != proto::ParamExchange)
        return fail(unexpectedState(state, ctrl.get(), "PARAM_EXCHANGE"));
    if (net::writeJson(ctrl.get(), params.toIperfParams(), net::deadlineIn(ControlTimeoutSecs), &err) !=
        net::IoStatus::Ok)
        return fail(QStringLiteral("cannot send the test parameters: %1").arg(err));
    if (net::readState(ctrl.get(), &state, net::deadlineIn(ControlTimeoutSecs), &err, stop) != net::IoStatus::Ok)
        return fail(QStringLiteral("the server did not answer the test parameters: %1").arg(err));
    if (state == proto::NicbenchHello) {
        // Only a NicBench server sends this (docs/protocol.md); it carries the server's
        // capabilities and, for CRR, the port that takes one connection per transaction.
        if (net::readJson(ctrl.get(), &hello, net::deadlineIn(ControlTimeoutSecs), &err) != net::IoStatus::Ok)
            return fail(QStringLiteral("malformed NicBench greeting from the server: %1").arg(err));
        result.peerIsNicbench = true;
        result.remoteVersion = hello.value(QStringLiteral("version")).toString();
        // Servers that know the info query describe their machine in every hello; keeping
        // it lets a result say what ran at the other end (older servers send none).
        if (hello.value(QStringLiteral("host")).isObject()) {
            HostEnvironment host;
            if (HostEnvironment::fromJson(hello.value(QStringLiteral("host")).toObject(), &host, &err)) {
                host.known = true;
                result.remoteHost = host;
            } else {
                say(QStringLiteral("Ignored the server's machine description: %1").arg(err));
            }
        }
        if (net::readState(ctrl.get(), &state, net::deadlineIn(ControlTimeoutSecs), &err, stop) != net::IoStatus::Ok)
            return fail(QStringLiteral("the server did not answer the test parameters: %1").arg(err));
    }
    if (state != proto::CreateStreams)
        return fail(unexpectedState(state, ctrl.get(), "CREATE_STREAMS"));
    if (params.isRequestResponse() && !result.peerIsNicbench) {
        // A stock iperf3 server: leave it clean (it resets on CLIENT_TERMINATE), ready for
        // a test started right after this one, and say why.
        proto::terminateControl(ctrl.get(), 1, 0.05);
        ctrl.reset();
        return fail(QStringLiteral("request/response tests need a NicBench server; %1 port %2 runs a stock "
                                   "iperf3 server (start 'nicbench-cli -s' there)")
                        .arg(params.host)
                        .arg(params.port));
    }
    return true;
}

bool ClientRun::createStreams()
{
    dataOptions.window = params.window;
    dataOptions.mss = params.mss;
    dataOptions.noDelay = params.noDelay;
    dataOptions.congestion = params.congestion;
    const int n = params.dataConnectionCount();
    if (params.kind == TestKind::Crr) {
        const auto crrPort = proto::toInt64(hello.value(QStringLiteral("crr_port")));
        if (!crrPort || *crrPort <= 0 || *crrPort > 65535)
            return fail(QStringLiteral("the server offered no port for connect/request/response tests"));
        const net::Address peer = net::peerAddress(ctrl.get());
        QString err;
        crrTarget = net::resolveAddress(peer.host(), quint16(*crrPort), peer.family(), &err);
        if (crrTarget.length == 0)
            return fail(err);
        for (int i = 0; i < params.streams; ++i)
            streams.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::CrrClient, net::Fd()));
    }
    for (int i = 0; i < n; ++i) {
        QString err;
        net::Fd fd = net::connectTcp(params.host, params.port, params.family, params.bindAddress, dataOptions,
                                     params.connectTimeoutMs, &err, stop);
        if (!fd.valid())
            return fail(QStringLiteral("cannot open data stream %1: %2").arg(i + 1).arg(err));
        if (net::writeAll(fd.get(), cookie.constData(), std::size_t(cookie.size()),
                          net::deadlineIn(ControlTimeoutSecs), &err) != net::IoStatus::Ok)
            return fail(QStringLiteral("cannot open data stream %1: %2").arg(i + 1).arg(err));
        const bool sender = params.isBidir() ? i < params.streams : !params.isReverse();
        const int id = streamIdForIndex(i);
        const DataStream::Role role = params.kind == TestKind::Rr ? DataStream::Role::RrClient
                                      : sender                    ? DataStream::Role::Sender
                                                                  : DataStream::Role::Receiver;
        const net::Address local = net::localAddress(fd.get()), peer = net::peerAddress(fd.get());
        result.connections.append({id, local.host(), local.port(), peer.host(), peer.port()});
        if (i == 0)
            result.senderCongestion = congestionOf(fd.get());
        say(QStringLiteral("[%1] local %2 connected to %3").arg(id).arg(local.toString(), peer.toString()));
        streams.add(std::make_unique<DataStream>(id, role, std::move(fd)));
    }
    QString err;
    std::int8_t state = 0;
    for (std::int8_t expected : {std::int8_t(proto::TestStart), std::int8_t(proto::TestRunning)}) {
        if (net::readState(ctrl.get(), &state, net::deadlineIn(ControlTimeoutSecs), &err, stop) != net::IoStatus::Ok)
            return fail(QStringLiteral("the server did not start the test: %1").arg(err));
        if (state != expected)
            return fail(unexpectedState(state, ctrl.get(), expected == proto::TestStart ? "TEST_START" : "TEST_RUNNING"));
    }
    return true;
}

bool ClientRun::runPhase()
{
    ByteBudget budget;
    if (params.bytes > 0) {
        budget.enabled = true;
        budget.remaining = std::int64_t(params.bytes);
    }
    DataStream::Config cfg;
    cfg.blockSize = params.blockSize;
    cfg.skipRxCopy = params.skipRxCopy;
    cfg.zeroCopy = params.zeroCopy;
    cfg.budget = &budget;
    cfg.requestSize = params.requestSize;
    cfg.responseSize = params.responseSize;
    cfg.inFlight = params.inFlight;
    cfg.crrTarget = crrTarget;
    cfg.crrBindAddress = params.bindAddress;
    t0 = nowSecs();
    cpu.start();
    accounting.begin(streams.empty() || streams.at(0).fd() < 0 ? ctrl.get() : streams.at(0).fd());
    streams.markStart(t0);
    streams.startAll(cfg);
    started = true;
    if (listener)
        listener->testStarted(result);

    const bool timed = params.isTimed();
    const double omitEnd = t0 + params.omit;
    double endAt = omitEnd + params.duration;
    bool omitting = params.omit > 0;
    // Intervals restart at the end of the warm-up, as in iperf3.
    double nextTick = t0 + std::min(params.interval, omitting ? params.omit : params.interval);
    for (;;) {
        const double now = nowSecs();
        if (stop->load())
            break;
        if (timed && now >= endAt)
            break;
        // -n: our senders stop by themselves once the byte count is sent, which ends the
        // test even when a -t is also given (the first limit reached ends it).
        if ((!timed || (params.endsOnBytes() && streams.anySender())) && streams.allSendersFinished())
            break;
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
                // Counting starts at this tick, which may come late on a busy machine:
                // measure the full -t from here.
                endAt = now + params.duration;
            }
            nextTick = omitting ? std::min(now + params.interval, omitEnd) : now + params.interval;
            if (timed)
                nextTick = std::min(nextTick, endAt);
            continue;
        }
        double wait = nextTick - now;
        if (timed)
            wait = std::min(wait, endAt - now);
        wait = std::min(wait, 0.05); // stay responsive to stop requests and -n completion
        const int w = net::waitReadable(ctrl.get(), std::max(1, int(wait * 1000)));
        if (w > 0) {
            std::int8_t state = 0;
            QString err;
            if (net::readState(ctrl.get(), &state, net::deadlineIn(1), &err) != net::IoStatus::Ok)
                return fail(QStringLiteral("the server closed the control connection during the test"));
            return fail(unexpectedState(state, ctrl.get(), "nothing"));
        }
        if (streams.allFinished() && !streams.empty()) {
            const QString e = streams.firstError();
            // With -n the senders end by themselves once the byte count is sent; if that
            // happened during the wait above it is the normal end, not a lost peer.
            if (params.endsOnBytes() && e.isEmpty() && streams.allSendersFinished())
                break;
            return fail(QStringLiteral("the data connections were closed by the peer%1")
                            .arg(e.isEmpty() ? QString() : QStringLiteral(": ") + e));
        }
        if (params.bytes == 0 && streams.anySender() && !streams.firstError().isEmpty()) {
            if (streams.allSendersFinished())
                return fail(QStringLiteral("lost the data connections: %1").arg(streams.firstError()));
        }
    }
    // Close the last (partial) interval if it carries a meaningful share of time.
    const double end = nowSecs();
    streams.stopSenders();
    streams.joinSenders();
    streams.freeze(end);
    IntervalReport last = streams.takeInterval(end, omitting);
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
    if (omitting)
        streams.markOmitEnd(end);
    return true;
}

bool ClientRun::exchangeResults()
{
    QString err;
    const auto deadline = net::deadlineIn(ControlTimeoutSecs);
    if (net::writeState(ctrl.get(), proto::TestEnd, deadline, &err) != net::IoStatus::Ok)
        return fail(QStringLiteral("cannot end the test: %1").arg(err));
    std::int8_t state = 0;
    if (net::readState(ctrl.get(), &state, deadline, &err) != net::IoStatus::Ok)
        return fail(QStringLiteral("the server did not send its results: %1").arg(err));
    if (state != proto::ExchangeResults)
        return fail(unexpectedState(state, ctrl.get(), "EXCHANGE_RESULTS"));
    const ProcessCpuMeter::Percent c = cpu.read();
    result.cpu.hostTotal = c.total;
    result.cpu.hostUser = c.user;
    result.cpu.hostSystem = c.system;
    const bool receiverOnly = params.isReverse();
    const QJsonObject mine = streams.resultsJson(c.total, c.user, c.system, receiverOnly, result.senderCongestion);
    if (net::writeJson(ctrl.get(), mine, deadline, &err) != net::IoStatus::Ok)
        return fail(QStringLiteral("cannot send results: %1").arg(err));
    QJsonObject theirs;
    if (net::readJson(ctrl.get(), &theirs, deadline, &err) != net::IoStatus::Ok)
        return fail(QStringLiteral("cannot read the server's results: %1").arg(err));
    if (!streams.applyPeerResults(theirs, &err))
        return fail(err);
    result.cpu.remoteTotal = proto::toDouble(theirs.value(QStringLiteral("cpu_util_total"))).value_or(0);
    result.cpu.remoteUser = proto::toDouble(theirs.value(QStringLiteral("cpu_util_user"))).value_or(0);
    result.cpu.remoteSystem = proto::toDouble(theirs.value(QStringLiteral("cpu_util_system"))).value_or(0);
    result.cpu.remoteKnown = theirs.contains(QStringLiteral("cpu_util_total"));
    result.receiverCongestion = theirs.value(QStringLiteral("congestion_used")).toString();
    result.peerExtension = theirs.value(QStringLiteral("nicbench")).toObject();
    if (net::readState(ctrl.get(), &state, deadline, &err) != net::IoStatus::Ok)
        return fail(QStringLiteral("the server did not finish the test: %1").arg(err));
    if (state != proto::DisplayResults)
        return fail(unexpectedState(state, ctrl.get(), "DISPLAY_RESULTS"));
    net::writeState(ctrl.get(), proto::IperfDone, deadline, &err);
    return true;
}

void ClientRun::finish()
{
    if (started) {
        streams.freeze(nowSecs());
        result.streams = streams.summaries();
        if (params.isRequestResponse()) {
            result.hasRr = true;
            result.rr = streams.rrSummary();
            result.rr.kind = params.kind;
            result.rr.requestSize = params.requestSize;
            result.rr.responseSize = params.responseSize;
            result.rr.connections = params.connections();
            result.rr.inFlight = params.inFlight;
        }
        applyAccounting(accounting, &result);
        if (!result.peerExtension.isEmpty())
            applyRemoteAccounting(result.peerExtension, &result);
    }
    streams.abortAll();
    ctrl.reset();
}

// iperf2 servers take plain TCP connections and count what arrives; there is no control
// channel, so the figures are the sender's own (bytes handed to the kernel).
TestResult ClientRun::runIperf2()
{
    dataOptions.window = params.window;
    dataOptions.mss = params.mss;
    dataOptions.noDelay = params.noDelay;
    dataOptions.congestion = params.congestion;
    say(QStringLiteral("Connecting to iperf2 server %1, port %2").arg(params.host).arg(params.port));
    for (int i = 0; i < params.streams; ++i) {
        QString err;
        net::Fd fd = net::connectTcp(params.host, params.port, params.family, params.bindAddress, dataOptions,
                                     params.connectTimeoutMs, &err, stop);
        if (!fd.valid()) {
            fail(err);
            finish();
            return result;
        }
        // iperf 2.1 servers read the first 32-bit word of each connection as header flags
        // (Listener::apply_client_settings_tcp). Random payload there switches on modes
        // such as bounce-back and the server resets the connection; a zero word is what a
        // plain (legacy) iperf2 client sends.
        static const char noHeaderFlags[4] = {};
        if (net::writeAll(fd.get(), noHeaderFlags, sizeof noHeaderFlags, net::deadlineIn(ControlTimeoutSecs), &err) !=
            net::IoStatus::Ok) {
            fail(QStringLiteral("cannot start data stream %1: %2").arg(i + 1).arg(err));
            finish();
            return result;
        }
        const int id = streamIdForIndex(i);
        const net::Address local = net::localAddress(fd.get()), peer = net::peerAddress(fd.get());
        result.connections.append({id, local.host(), local.port(), peer.host(), peer.port()});
        streams.add(std::make_unique<DataStream>(id, true, std::move(fd)));
    }
    // No control connection: use a socketpair that never becomes readable in runPhase.
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == 0) {
        ctrl.reset(sp[0]);
        net::Fd keep(sp[1]);
        params.skipRxCopy = true;
        const bool ran = runPhase();
        // iperf2 times the test until the FIN: close at once so its figures and ours
        // cover the same span (the counts are frozen already).
        streams.abortAll();
        if (ran) {
            const ProcessCpuMeter::Percent c = cpu.read();
            result.cpu.hostTotal = c.total;
            result.cpu.hostUser = c.user;
            result.cpu.hostSystem = c.system;
            result.warnings.append(QStringLiteral("iperf2 server: receiver figures are not reported back; "
                                                  "bytes received are the bytes this side sent"));
        }
    } else {
        fail(QStringLiteral("cannot create internal socket pair"));
    }
    finish();
    for (StreamSummary &s : result.streams) {
        s.bytesReceived = s.bytesSent;
        s.receiverSeconds = s.seconds;
    }
    return result;
}

TestResult ClientRun::run()
{
    const QString invalid = params.validate();
    if (!invalid.isEmpty()) {
        fail(invalid);
        return result;
    }
    if (params.protocol == PeerProtocol::Iperf2)
        return runIperf2();
    if (handshake() && createStreams() && runPhase())
        exchangeResults();
    if (!result.error.isEmpty() && ctrl.valid()) {
        // Tell the server we are leaving so it does not wait for its watchdog.
        QString ignored;
        net::writeState(ctrl.get(), proto::ClientTerminate, net::deadlineIn(0.5), &ignored);
    }
    finish();
    return result;
}

} // namespace

ThroughputClient::ThroughputClient(TestParams params, TestListener *listener)
    : m_params(std::move(params)), m_listener(listener)
{
}

TestResult ThroughputClient::run()
{
    ClientRun run(m_params, m_listener, &m_stop);
    TestResult r = run.run();
    if (m_listener)
        m_listener->testFinished(r);
    return r;
}

} // namespace nb
