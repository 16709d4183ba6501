// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/throughputclient.h"

#include "core/sanitize.h"
#include "datapath/descriptorlimit.h"
#include "datapath/progresswatch.h"
#include "datapath/udpstream.h"
#include "model/parameters.h"
#include "model/peerresults.h"
#include "net/connect.h"
#include "net/udp.h"
#include "platform/platform.h"
#include "protocol/controlchannel.h"
#include "protocol/protocol.h"
#include "session/authoptions.h"
#include "session/loadphasesequence.h"
#include "session/testsession.h"

#include <QJsonObject>

#include <QDateTime>
#include <QtEndian>

#include <cmath>
#include <thread>

namespace nb {

using namespace std::chrono;

namespace {

// How long we wait for each control message outside the running phase.
constexpr double ControlTimeoutSecs = 10.0;
// A server that answers our cookie with nothing for this long does not speak iperf3.
constexpr double FirstStateTimeoutSecs = 5.0;

class ClientRun {
public:
    ClientRun(const TestParams &p, TestListener *l, std::atomic<bool> *stop)
        : params(p.normalized())
        , listener(l)
        , stop(stop)
    {
        result.params = params;
        if (params.isLoadedLatency())
            session.enableLoadPhases(true);
        result.params.password.clear(); // results are kept and written; the password never is
        result.version = QStringLiteral(NICBENCH_VERSION);
        result.timestampSecs = QDateTime::currentSecsSinceEpoch();
    }

    TestResult run();

private:
    bool fail(ErrorCode code, const QString &message)
    {
        if (result.error.isEmpty()) {
            result.error = message;
            result.errorCode = code;
        }
        return false;
    }
    void say(const QString &m)
    {
        if (listener)
            listener->message(m);
    }
    // Fails with the message for a state other than the awaited one.
    bool unexpected(std::int8_t state, const char *waitingFor)
    {
        const proto::ControlChannel::Unexpected u = ctrl.unexpectedState(state, waitingFor);
        return fail(u.kind == u.Busy || u.iErrno == proto::IeServerBusy ? ErrorCode::Busy
                    : u.iErrno == proto::IeAuthTest                     ? ErrorCode::AuthFailed
                    : u.kind == u.ServerError                           ? ErrorCode::ServerError
                    : u.kind == u.Terminated                            ? ErrorCode::PeerClosed
                                                                        : ErrorCode::Protocol,
                    u.message + (u.iErrno == proto::IeAuthTest ? authRefusalHint(params.username) : QString()));
    }
    bool handshake();
    bool createStreams();
    bool runPhase();
    bool byteCountReached() const;
    bool watchControl(int ms);
    bool exchangeResults();
    TestResult runIperf2();
    void finishLoadedLatency(const LoadPhaseTracker &phases);
    void finish();

    TestParams params;
    TestListener *listener;
    std::atomic<bool> *stop;
    TestResult result;
    proto::ControlChannel ctrl;
    QByteArray cookie;
    // -n for our senders. A member, not a local of runPhase: when a phase returns early (a
    // SERVER_ERROR, a stall) the worker threads still read it until session.finish() stops
    // them (UBSan caught the read of a dead stack frame after --max-duration ended a -n test).
    ByteBudget budget;
    TestSession session{params, &result, listener};
    StreamSet &streams = session.streams();
    QJsonObject hello;
    net::Address crrTarget;
    QByteArray crrToken;
};

bool ClientRun::handshake()
{
    QString err;
    // Credentials that cannot be sent (no password, an unreadable key) fail before connecting.
    if (QJsonObject probe; !addAuthToken(params.username, params.rsaPublicKeyPath, params.password, &probe, &err))
        return fail(ErrorCode::AuthFailed, err);
    say(QStringLiteral("Connecting to host %1, port %2").arg(params.host).arg(params.port));
    ErrorCode code = ErrorCode::None;
    ctrl = proto::ControlChannel(net::connectTcp(params.host, params.port, params.family, params.bindAddress, {},
                                                 params.connectTimeoutMs, &err, stop, &code));
    if (!ctrl.valid())
        return fail(code, err);
    net::setNoDelay(ctrl.socket());
    net::setKeepAlive(ctrl.socket(), proto::KeepAliveIdleSecs, proto::KeepAliveIntervalSecs, proto::KeepAliveProbes);
    cookie = proto::makeCookie();
    result.cookie = QString::fromLatin1(cookie.constData());
    if (const net::IoStatus st =
            ctrl.writeBytes(cookie.constData(), std::size_t(cookie.size()), net::deadlineIn(ControlTimeoutSecs), &err);
        st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("cannot send the cookie: %1").arg(err));
    std::int8_t state = 0;
    const auto s = ctrl.readState(&state, net::deadlineIn(FirstStateTimeoutSecs), &err, stop);
    if (s == net::IoStatus::Timeout)
        return fail(ErrorCode::Protocol,
                    QStringLiteral("the server at %1 port %2 accepted the connection but does not speak the iperf3 "
                                   "protocol (an iperf2 server? use --iperf2)")
                        .arg(params.host)
                        .arg(params.port));
    if (s != net::IoStatus::Ok)
        return fail(net::errorCodeOf(s),
                    s == net::IoStatus::Cancelled
                        ? QStringLiteral("stopped")
                        : QStringLiteral("the server closed the connection before the test started (a NicBench "
                                         "server does so to a client over its --rate-limit): %1")
                              .arg(err));
    if (state != proto::ParamExchange)
        return unexpected(state, "PARAM_EXCHANGE");
    if (params.udpDatagramSizeUnset()) // -u without -l: iperf3's UDP default
        result.params.blockSize = params.blockSize = udpDefaultDatagram(net::tcpMss(ctrl.socket()));
    QJsonObject iperfParams = params.toIperfParams();
    if (!addAuthToken(params.username, params.rsaPublicKeyPath, params.password, &iperfParams, &err))
        return fail(ErrorCode::AuthFailed, err);
    if (const net::IoStatus st = ctrl.writeJson(iperfParams, net::deadlineIn(ControlTimeoutSecs), &err);
        st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("cannot send the test parameters: %1").arg(err));
    if (const net::IoStatus st = ctrl.readState(&state, net::deadlineIn(ControlTimeoutSecs), &err, stop);
        st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("the server did not answer the test parameters: %1").arg(err));
    if (state == proto::NicbenchHello) {
        // Only a NicBench server sends this (docs/protocol.md); it carries the server's
        // capabilities and, for CRR, the port that takes one connection per transaction.
        if (const net::IoStatus st =
                ctrl.readJson(&hello, net::deadlineIn(ControlTimeoutSecs), &err, proto::MaxHelloJsonSize);
            st != net::IoStatus::Ok)
            return fail(net::errorCodeOf(st),
                        QStringLiteral("malformed NicBench greeting from the server: %1").arg(err));
        // What the server says of itself is printed and saved: no longer than a name needs.
        capJsonText(&hello, peer::MaxTextLength, peer::MaxListItems);
        result.peerIsNicbench = true;
        result.remoteVersion = hello.value(QStringLiteral("version")).toString();
        // The server's policy refused the test; SERVER_ERROR follows (docs/protocol.md §2.7).
        if (const QString refused = hello.value(QStringLiteral("refused")).toString(); !refused.isEmpty())
            return fail(ErrorCode::ServerError,
                        QStringLiteral("the server refused the test: %1").arg(printable(refused, 300)));
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
        if (const net::IoStatus st = ctrl.readState(&state, net::deadlineIn(ControlTimeoutSecs), &err, stop);
            st != net::IoStatus::Ok)
            return fail(net::errorCodeOf(st),
                        QStringLiteral("the server did not answer the test parameters: %1").arg(err));
    }
    if (state != proto::CreateStreams)
        return unexpected(state, "CREATE_STREAMS");
    if (!result.peerIsNicbench && params.streams > proto::MaxStreams) {
        // Stock iperf3 refuses -P above this in its own client; its server is not built for
        // more. Known only now (no hello came), before any data connection opens.
        ctrl.terminate(1, 0.05);
        return fail(ErrorCode::Unsupported,
                    QStringLiteral("%1 port %2 runs a stock iperf3 server, which takes at most %3 parallel streams; "
                                   "%4 were asked (-P). Use -P %3 or less, or start 'nicbench-cli -s' there "
                                   "(NicBench servers take up to %5)")
                        .arg(params.host)
                        .arg(params.port)
                        .arg(proto::MaxStreams)
                        .arg(params.streams)
                        .arg(param::parameter(param::Id::Streams).max));
    }
    if (params.isLoadedLatency() && !result.peerIsNicbench) {
        // The parameters asked for a bidirectional test the length of all phases, which a stock
        // server would run ungated: leave at once (ThroughputClient runs the phases one by one).
        ctrl.terminate(1, 0.05);
        return fail(ErrorCode::Unsupported, QStringLiteral("%1 port %2 runs a stock iperf3 server, which has no "
                                                           "request/response: the latency probe needs a NicBench "
                                                           "server ('nicbench-cli -s')")
                                                .arg(params.host)
                                                .arg(params.port));
    }
    if (params.isRequestResponse() && !result.peerIsNicbench) {
        // A stock iperf3 server: leave it clean (it resets on CLIENT_TERMINATE), ready for
        // a test started right after this one, and say why.
        ctrl.terminate(1, 0.05);
        return fail(ErrorCode::Unsupported,
                    QStringLiteral("request/response tests need a NicBench server; %1 port %2 runs a stock "
                                   "iperf3 server (start 'nicbench-cli -s' there)")
                        .arg(params.host)
                        .arg(params.port));
    }
    return true;
}

bool ClientRun::createStreams()
{
    const net::SocketOptions dataOptions = socketOptions(params);
    const int n = params.dataConnectionCount();
    if (params.kind == TestKind::Crr) {
        const auto crrPort = proto::toInt64(hello.value(QStringLiteral("crr_port")));
        if (!crrPort || *crrPort <= 0 || *crrPort > 65535)
            return fail(ErrorCode::Protocol,
                        QStringLiteral("the server offered no port for connect/request/response tests"));
        const net::Address peer = net::peerAddress(ctrl.socket());
        QString err;
        crrTarget = net::resolveAddress(peer.host(), quint16(*crrPort), peer.family(), &err);
        if (!crrTarget.valid())
            return fail(ErrorCode::Resolve, err);
        crrToken = hello.value(QStringLiteral("crr_token")).toString().toLatin1();
        if (crrToken.size() > 64)
            return fail(ErrorCode::Protocol, QStringLiteral("the server's CRR token is longer than 64 bytes"));
        for (int i = 0; i < params.streams; ++i)
            streams.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::CrrClient, net::Socket()));
    }
    for (int i = 0; i < n; ++i) {
        QString err;
        ErrorCode code = ErrorCode::None;
        // UDP streams introduce themselves with iperf3's UDP connect, TCP ones with the cookie.
        net::Socket fd =
            params.udp ? connectUdpStream(params.host, params.port, params.family, params.bindAddress, params.window,
                                          ControlTimeoutSecs, stop, &err, params.kind == TestKind::Rr)
                       : net::connectTcp(params.host, params.port, params.family, params.bindAddress, dataOptions,
                                         params.connectTimeoutMs, &err, stop, &code);
        if (!fd.valid())
            return fail(params.udp ? ErrorCode::Io : code,
                        QStringLiteral("cannot open data stream %1: %2").arg(i + 1).arg(err));
        if (const net::IoStatus st = params.udp ? net::IoStatus::Ok
                                                : net::writeAll(fd, cookie.constData(), std::size_t(cookie.size()),
                                                                net::deadlineIn(ControlTimeoutSecs), &err);
            st != net::IoStatus::Ok)
            return fail(net::errorCodeOf(st), QStringLiteral("cannot open data stream %1: %2").arg(i + 1).arg(err));
        const int id = streamIdForIndex(i);
        if (params.isLoadedLatency() && i == n - 1) {
            // The probe: the last connection, after the load of both directions.
            if (params.probeDscp > 0 && !net::setDscp(fd, params.probeDscp, &err))
                return fail(ErrorCode::Io, err);
            say(QStringLiteral("[%1] probe: local %2 connected to %3")
                    .arg(id)
                    .arg(net::localAddress(fd).toString(), net::peerAddress(fd).toString()));
            session.probe().add(std::make_unique<DataStream>(id, DataStream::Role::RrClient, std::move(fd)));
            continue;
        }
        const bool sender = params.isBidir() ? i < params.streams : !params.isReverse();
        const DataStream::Role role = params.kind == TestKind::Rr ? rrRole(true, params.udp)
                                      : params.udp                ? udpRole(sender)
                                      : sender                    ? DataStream::Role::Sender
                                                                  : DataStream::Role::Receiver;
        const net::Address local = net::localAddress(fd), peer = net::peerAddress(fd);
        result.connections.append({id, local.host(), local.port(), peer.host(), peer.port()});
        if (i == 0 && !params.udp)
            result.senderCongestion = net::congestion(fd);
        say(QStringLiteral("[%1] local %2 connected to %3").arg(id).arg(local.toString(), peer.toString()));
        streams.add(std::make_unique<DataStream>(id, role, std::move(fd)));
    }
    QString err;
    std::int8_t state = 0;
    for (std::int8_t expected : {std::int8_t(proto::TestStart), std::int8_t(proto::TestRunning)}) {
        if (const net::IoStatus st = ctrl.readState(&state, net::deadlineIn(ControlTimeoutSecs), &err, stop);
            st != net::IoStatus::Ok)
            return fail(net::errorCodeOf(st), QStringLiteral("the server did not start the test: %1").arg(err));
        if (state != expected)
            return unexpected(state, expected == proto::TestStart ? "TEST_START" : "TEST_RUNNING");
    }
    return true;
}

// -n: our senders stop by themselves once the byte count is sent. With -R only the server
// sends (it stops at the count too); then the count is reached when we have received it,
// as iperf3's client decides. With --bidir both: our count sent and the server's received.
bool ClientRun::byteCountReached() const
{
    if (!params.endsOnBytes())
        return false;
    if (streams.anySender() && !streams.allSendersFinished())
        return false;
    return !params.isReverse() && !params.isBidir() ? true : streams.receivedBytes() >= params.bytes;
}

bool ClientRun::runPhase()
{
    if (params.bytes > 0) {
        budget.enabled = true;
        budget.remaining = std::int64_t(params.bytes);
    }
    DataStream::Config cfg = streamConfig(params);
    cfg.budget = &budget;
    cfg.crrTarget = crrTarget;
    cfg.crrBindAddress = params.bindAddress;
    cfg.crrToken = crrToken;
    const QString startError = session.start(cfg, ctrl.socket(), params.threads);
    if (!startError.isEmpty())
        return fail(ErrorCode::Io, startError);
    const bool timed = params.isTimed();
    if (timed)
        session.endAfterWarmup(params.duration);
    // --rcv-timeout: a stalled server or a partition ends the test with an error; the
    // intervals measured so far stay in the result.
    ProgressWatch progress(params.rcvTimeoutMs / 1000.0);
    for (;;) {
        const double now = nowSecs();
        if (stop->load() || session.timeUp(now))
            break;
        if (progress.stalled(session.progress(), now)) {
            session.endDataPhase(false);
            return fail(ErrorCode::Timeout,
                        QStringLiteral("no data moved for %1 s (--rcv-timeout %2): the server or the network stalled")
                            .arg(progress.limitSecs())
                            .arg(params.rcvTimeoutMs));
        }
        // -n ends the test even when a -t is also given (the first limit reached ends it).
        if (byteCountReached())
            break;
        if (now >= session.nextTick()) {
            session.tick(now);
            continue;
        }
        double wait = session.nextTick() - now;
        if (timed)
            wait = std::min(wait, session.endAt() - now);
        wait = std::min(wait, 0.05); // stay responsive to stop requests and -n completion
        if (!watchControl(std::max(1, int(wait * 1000))))
            return false;
        if (streams.allFinished() && !streams.empty()) {
            const QString e = streams.firstError();
            // With -n the senders end by themselves once the byte count is sent; if that
            // happened during the wait above it is the normal end, not a lost peer.
            if (e.isEmpty() && byteCountReached())
                break;
            // With an error the stream itself failed (a reset, or a datagram too large for the path).
            return fail(ErrorCode::PeerClosed, e.isEmpty()
                                                   ? QStringLiteral("the data connections were closed by the peer")
                                                   : QStringLiteral("a data stream failed: %1").arg(e));
        }
        if (params.bytes == 0 && streams.anySender() && !streams.firstError().isEmpty()) {
            if (streams.allSendersFinished())
                return fail(ErrorCode::PeerClosed,
                            QStringLiteral("lost the data connections: %1").arg(streams.firstError()));
        }
    }
    const bool omitting = session.omitting();
    const double end = session.endDataPhase(false);
    if (omitting)
        streams.markOmitEnd(end);
    return true;
}

// Waits up to ms for the control connection, which stays silent during a test: anything
// from the server now ends the test. iperf2 has no control connection: only the clock.
bool ClientRun::watchControl(int ms)
{
    if (!ctrl.valid()) {
        std::this_thread::sleep_for(milliseconds(ms));
        return true;
    }
    if (net::waitReadable(ctrl.socket(), ms) <= 0)
        return true;
    std::int8_t state = 0;
    QString err;
    if (const net::IoStatus st = ctrl.readState(&state, net::deadlineIn(1), &err); st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("the server closed the control connection during the test"));
    return unexpected(state, "nothing");
}

bool ClientRun::exchangeResults()
{
    QString err;
    const auto deadline = net::deadlineIn(ControlTimeoutSecs);
    if (const net::IoStatus st = ctrl.writeState(proto::TestEnd, deadline, &err); st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("cannot end the test: %1").arg(err));
    std::int8_t state = 0;
    if (const net::IoStatus st = ctrl.readState(&state, deadline, &err); st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("the server did not send its results: %1").arg(err));
    if (state != proto::ExchangeResults)
        return unexpected(state, "EXCHANGE_RESULTS");
    const ProcessCpuMeter::Percent c = session.readProcessCpu();
    const bool receiverOnly = params.isReverse();
    const QJsonObject mine = streams.resultsJson(c.total, c.user, c.system, receiverOnly, result.senderCongestion);
    if (const net::IoStatus st = ctrl.writeJson(mine, deadline, &err); st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("cannot send results: %1").arg(err));
    // The server's results hold at most one CPU sample per interval we took ourselves (and
    // the final partial one): anything beyond that size is refused before it is parsed.
    const int maxIntervals = int(result.intervals.size()) + 2;
    QJsonObject theirs;
    if (const net::IoStatus st =
            ctrl.readJson(&theirs, deadline, &err, proto::peerResultsJsonLimit(int(streams.size()), maxIntervals));
        st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("cannot read the server's results: %1").arg(err));
    PeerFigures figures;
    if (!streams.applyPeerResults(theirs, &err, &figures))
        return fail(ErrorCode::Protocol, err);
    result.cpu.remoteTotal = figures.cpuTotal;
    result.cpu.remoteUser = figures.cpuUser;
    result.cpu.remoteSystem = figures.cpuSystem;
    result.cpu.remoteKnown = figures.cpuKnown;
    result.receiverCongestion = theirs.value(QStringLiteral("congestion_used")).toString().left(peer::MaxTextLength);
    QString note;
    result.peerExtension = capPeerExtension(theirs.value(QStringLiteral("nicbench")).toObject(), maxIntervals, &note);
    if (!note.isEmpty())
        result.warnings.append(note);
    if (const net::IoStatus st = ctrl.readState(&state, deadline, &err); st != net::IoStatus::Ok)
        return fail(net::errorCodeOf(st), QStringLiteral("the server did not finish the test: %1").arg(err));
    if (state != proto::DisplayResults)
        return unexpected(state, "DISPLAY_RESULTS");
    ctrl.writeState(proto::IperfDone, deadline, &err);
    return true;
}

void ClientRun::finish()
{
    const bool started = session.started();
    session.finish();
    if (started) {
        if (result.hasRr) {
            result.rr.requestSize = params.requestSize;
            result.rr.responseSize = params.responseSize;
            result.rr.connections = params.connections();
            result.rr.inFlight = params.inFlight;
        }
        if (!result.peerExtension.isEmpty())
            applyRemoteAccounting(result.peerExtension, &result);
        if (const QString beyond = transactionsBeyondPeer(result, result.peerExtension);
            result.error.isEmpty() && !beyond.isEmpty()) {
            result.error = beyond;
            result.errorCode = ErrorCode::Protocol;
        }
        if (const LoadPhaseTracker *phases = session.loadPhases())
            finishLoadedLatency(*phases);
        if (const auto strangers = proto::toInt64(result.peerExtension.value(QStringLiteral("crr_strangers")));
            result.hasRr && strangers && *strangers >= 0) {
            result.rr.crrStrangers = std::uint64_t(*strangers);
            if (*strangers > 0)
                result.warnings.append(QStringLiteral("the server dropped %1 connection(s) to its CRR port that did "
                                                      "not carry this test's token (another host?)")
                                           .arg(*strangers));
        }
    }
    ctrl.close();
}

// The phases' figures; a probe that ran through the whole test without one transaction
// measured nothing (as an RR test that completes none).
void ClientRun::finishLoadedLatency(const LoadPhaseTracker &phases)
{
    QString warning, impossible;
    result.loadedLatency = phases.result(
        params, result.peerExtension.value(QStringLiteral("loaded_latency")).toObject(), &warning, &impossible);
    if (!warning.isEmpty())
        result.warnings.append(warning);
    if (result.error.isEmpty() && !impossible.isEmpty()) {
        result.error = impossible;
        result.errorCode = ErrorCode::Protocol;
    }
    std::uint64_t transactions = 0;
    for (const LoadPhaseResult &p : result.loadedLatency->phases)
        transactions += p.transactions;
    if (result.error.isEmpty() && transactions == 0) {
        result.error = QStringLiteral("the latency probe completed no transaction: the test has no latency result");
        result.errorCode = ErrorCode::NoData;
    }
}

// iperf2 servers take plain TCP connections and count what arrives; there is no control
// channel, so the figures are the sender's own (bytes handed to the kernel).
TestResult ClientRun::runIperf2()
{
    const net::SocketOptions dataOptions = socketOptions(params);
    say(QStringLiteral("Connecting to iperf2 server %1, port %2").arg(params.host).arg(params.port));
    for (int i = 0; i < params.streams; ++i) {
        QString err;
        ErrorCode code = ErrorCode::None;
        net::Socket fd = net::connectTcp(params.host, params.port, params.family, params.bindAddress, dataOptions,
                                         params.connectTimeoutMs, &err, stop, &code);
        if (!fd.valid()) {
            fail(code, err);
            finish();
            return result;
        }
        // iperf 2.1 servers read the first 32-bit word of each connection as header flags
        // (Listener::apply_client_settings_tcp). Random payload there switches on modes
        // such as bounce-back and the server resets the connection; a zero word is what a
        // plain (legacy) iperf2 client sends.
        static const char noHeaderFlags[4] = {};
        if (net::writeAll(fd, noHeaderFlags, sizeof noHeaderFlags, net::deadlineIn(ControlTimeoutSecs), &err) !=
            net::IoStatus::Ok) {
            fail(ErrorCode::Io, QStringLiteral("cannot start data stream %1: %2").arg(i + 1).arg(err));
            finish();
            return result;
        }
        const int id = streamIdForIndex(i);
        const net::Address local = net::localAddress(fd), peer = net::peerAddress(fd);
        result.connections.append({id, local.host(), local.port(), peer.host(), peer.port()});
        streams.add(std::make_unique<DataStream>(id, DataStream::Role::Sender, std::move(fd)));
    }
    // No control connection: runPhase only watches the clock and the streams.
    params.skipRxCopy = true;
    const bool ran = runPhase();
    // iperf2 times the test until the FIN: close at once so its figures and ours
    // cover the same span (the counts are frozen already).
    streams.abortAll();
    if (ran) {
        session.readProcessCpu();
        result.warnings.append(QStringLiteral("iperf2 server: receiver figures are not reported back; "
                                              "bytes received are the bytes this side sent"));
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
        fail(ErrorCode::InvalidParams, invalid);
        return result;
    }
    if (const QString limit = checkDescriptorLimit(params, false); !limit.isEmpty()) {
        fail(ErrorCode::Limit, limit);
        return result;
    }
    if (params.protocol == PeerProtocol::Iperf2)
        return runIperf2();
    if (handshake() && createStreams() && runPhase())
        exchangeResults();
    if (!result.error.isEmpty() && ctrl.valid()) {
        // Tell the server we are leaving so it does not wait for its watchdog.
        QString ignored;
        ctrl.writeState(proto::ClientTerminate, net::deadlineIn(0.5), &ignored);
    }
    finish();
    return result;
}

} // namespace

ThroughputClient::ThroughputClient(TestParams params, TestListener *listener)
    : m_params(std::move(params))
    , m_listener(listener)
{
}

TestResult ThroughputClient::run()
{
    ClientRun run(m_params, m_listener, &m_stop);
    TestResult r = run.run();
    // The costs with this machine's clock, once, here where the work was done.
    measureCpuCosts(&r, platform::cpuClockHz());
    // A stock iperf3 server: the load phases still run, one by one, without the probe.
    if (m_params.isLoadedLatency() && r.errorCode == ErrorCode::Unsupported && !r.peerIsNicbench)
        r = runLoadPhasesWithoutProbe(m_params.normalized(), r.error, m_listener, &m_stop);
    if (m_listener)
        m_listener->testFinished(r);
    return r;
}

} // namespace nb
