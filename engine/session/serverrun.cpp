// SPDX-License-Identifier: GPL-3.0-or-later
// One test on the server side (ServerRun): cookie, parameters, hello, streams, the run and
// the results, in the order of the iperf3 protocol. The listener and the loop that accepts
// control connections are in server.cpp.
#include "session/server_p.h"

#include "datapath/descriptorlimit.h"
#include "datapath/progresswatch.h"
#include "datapath/streamacceptor.h"
#include "datapath/udpstream.h"
#include "net/connect.h"
#include "platform/platform.h"
#include "protocol/protocol.h"
#include "session/authoptions.h"
#include "session/serverinfo.h"
#include "session/testsession.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <cerrno>
#include <chrono>

namespace nb {

using namespace std::chrono;

namespace {

// What our server adds to its results for a NicBench client (docs/protocol.md).
QJsonObject serverExtension(const TestResult &result, const StreamSet &streams, const TestAccounting &acc,
                            const LoadPhaseTracker *phases)
{
    QJsonObject o = accountingJson(acc);
    o.insert(QStringLiteral("version"), result.version);
    if (o.value(QStringLiteral("adapter")).isObject()) {
        // What a test needs of the adapter, as in the hello: no MAC address (docs/protocol.md §2.2).
        QJsonObject adapter = o.value(QStringLiteral("adapter")).toObject();
        adapter.remove(QStringLiteral("hardware_address"));
        o.insert(QStringLiteral("adapter"), adapter);
    }
    if (streams.isRequestResponse())
        o.insert(QStringLiteral("transactions"), double(streams.rrSummary().transactions));
    if (result.params.kind == TestKind::Crr)
        o.insert(QStringLiteral("crr_strangers"), double(streams.crrStrangers()));
    if (phases)
        o.insert(QStringLiteral("loaded_latency"), phases->serverJson());
    return o;
}

// One test on the server side, as a short script of phases like the client's ClientRun.
class ServerRun {
public:
    ServerRun(Server::Impl &server, ControlAcceptorHandshake handshake)
        : srv(server)
        , ctrl(std::move(handshake.ctrl))
        , peer(handshake.peer)
        , idle(server.options.idleTimeoutSecs)
        , cookie(std::move(handshake.cookie))
        , paramsJson(std::move(handshake.params))
    {
        result.isServerSide = true;
        result.version = QStringLiteral(NICBENCH_VERSION);
        result.timestampSecs = QDateTime::currentSecsSinceEpoch();
    }
    // False when the connection was an info query rather than a test.
    bool run();
    // What run() threw when the system refused a resource (memory, a thread): the client
    // hears "test initialization failed" with the system's errno; the server goes on.
    bool abandon(const QString &what, int sysErrno);

private:
    enum class Request { Test, InfoQuery, Failed };
    bool fail(ErrorCode code, const QString &message)
    {
        if (result.error.isEmpty()) {
            result.error = message;
            result.errorCode = code;
        }
        return false;
    }
    Request takeParams();
    bool refuse(const PolicyRefusal &refusal);
    bool greet();
    bool applyListenOptions();
    bool acceptStreams();
    bool acceptUdpStreams();
    void addStream(net::Socket data, const net::Address &dataPeer);
    bool runStreams();
    bool exchangeResults();
    bool finish();

    Server::Impl &srv;
    proto::ControlChannel ctrl;
    const net::Address peer;
    const double idle;
    QByteArray cookie;
    QJsonObject paramsJson; // as the client sent them
    TestResult result;
    TestParams params;
    ByteBudget budget; // -n for our senders (-R, --bidir); outlives the streams
    TestSession session{params, &result, srv.listener};
    StreamSet &streams = session.streams();
    QByteArray crrToken; // opens every CRR connection (docs/protocol.md §2.3)
    bool nbClient = false;
    bool optionsApplied = false;
    net::Socket crrListen;
    net::SocketOptions dataOptions;
    int total = 0;     // data connections the client opens
    int toReceive = 0; // of which the first ones send to us
    int accepted = 0;
    QString err;
};

bool ServerRun::run()
{
    result.cookie = QString::fromLatin1(cookie.constData());
    switch (takeParams()) {
    case Request::InfoQuery:
        srv.describeMachine(ctrl, peer);
        return false;
    case Request::Failed:
        return finish();
    case Request::Test:
        break;
    }

    if (const QString limit = checkDescriptorLimit(params, true); !limit.isEmpty()) {
        // Before CREATE_STREAMS: the client opens nothing. Its message carries iperf3's
        // "test initialization failed (Too many open files)"; ours names the limit.
        ctrl.sendError(proto::IeInitTest, EMFILE);
        fail(ErrorCode::Limit, limit);
        return finish();
    }
    if (greet() && applyListenOptions() && acceptStreams() && runStreams())
        exchangeResults();
    return finish();
}

// The cookie and parameters ControlAcceptor read (docs/protocol.md §2.9).
ServerRun::Request ServerRun::takeParams()
{
    // Before anything else is read from the parameters or set up: the info query too.
    if (QString user; !authorizeClient(srv.auth, paramsJson, &user, &err)) {
        ctrl.sendError(proto::IeAuthTest);
        return fail(ErrorCode::AuthFailed, err), Request::Failed;
    } else if (!user.isEmpty()) {
        srv.say(QStringLiteral("Authenticated user '%1'").arg(user));
    }
    if (isInfoQuery(paramsJson))
        return Request::InfoQuery;
    if (!TestParams::fromIperfParams(paramsJson, &params, &err)) {
        ctrl.sendError(proto::IeParams);
        return fail(ErrorCode::InvalidParams, QStringLiteral("bad test parameters: %1").arg(err)), Request::Failed;
    }
    params.host = peer.host();
    params.port = srv.boundPort;
    if (params.isLoadedLatency())
        session.enableLoadPhases(false);
    result.params = params;
    result.remoteVersion = paramsJson.value(QStringLiteral("client_version")).toString();
    // NicBench clients announce themselves with the "nicbench" parameter key.
    nbClient = paramsJson.value(QStringLiteral("nicbench")).isObject();
    srv.logLine(QStringLiteral("Client %1 runs %2")
                    .arg(peer.toString(), result.remoteVersion.isEmpty() ? QStringLiteral("an unnamed iperf3 client")
                                                                         : result.remoteVersion));
    const std::optional<double> bitrate = requestedBitrate(paramsJson);
    if (!bitrate) {
        ctrl.sendError(proto::IeParams);
        return fail(ErrorCode::InvalidParams, QStringLiteral("bad test parameters: 'bandwidth' is not a bitrate")),
               Request::Failed;
    }
    if (const PolicyRefusal r = checkParams(srv.options.policy, params, *bitrate); r.refused())
        return refuse(r), Request::Failed;
    // Clients that open CRR connections with a token say so; older ones get none.
    if (params.kind == TestKind::Crr &&
        paramsJson.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("crr_token")).toBool())
        crrToken = QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0');
    return Request::Test;
}

// A test the server's policy does not take: a NicBench client learns why from a hello that
// says so (docs/protocol.md §2.7); every client gets SERVER_ERROR with iperf3's number.
bool ServerRun::refuse(const PolicyRefusal &refusal)
{
    if (nbClient && ctrl.writeState(proto::NicbenchHello, net::deadlineIn(idle), &err) == net::IoStatus::Ok)
        ctrl.writeJson(helloJson(srv.options.policy, refusal.message), net::deadlineIn(idle), &err);
    ctrl.sendError(refusal.iperfError);
    return fail(ErrorCode::InvalidParams, QStringLiteral("refused: %1").arg(refusal.message));
}

// NicBench clients get NICBENCH_HELLO so they know what they talk to (stock clients never
// see it); for CRR it carries the port that takes one connection per transaction.
bool ServerRun::greet()
{
    if (!nbClient) {
        if (!params.isRequestResponse())
            return true;
        ctrl.sendError(proto::IeParams);
        return fail(ErrorCode::Unsupported,
                    QStringLiteral("request/response parameters without the NicBench extension"));
    }
    QJsonObject hello = helloJson(srv.options.policy);
    if (params.kind == TestKind::Crr) {
        const net::Address local = net::localAddress(ctrl.socket());
        // host() unmaps ::ffff:a.b.c.d, so the family follows the text, not the socket.
        const QString host = local.host();
        crrListen = net::listenTcp(host, 0, host.contains(QLatin1Char(':')) ? AddressFamily::IPv6 : AddressFamily::IPv4,
                                   {}, &err);
        if (!crrListen.valid()) {
            ctrl.sendError(proto::IeListen);
            return fail(ErrorCode::Io, err);
        }
        hello.insert(QStringLiteral("crr_port"), net::localPort(crrListen));
        if (!crrToken.isEmpty())
            hello.insert(QStringLiteral("crr_token"), QString::fromLatin1(crrToken));
        srv.say(QStringLiteral("CRR connections on port %1").arg(net::localPort(crrListen)));
    }
    if (ctrl.writeState(proto::NicbenchHello, net::deadlineIn(idle), &err) != net::IoStatus::Ok ||
        ctrl.writeJson(hello, net::deadlineIn(idle), &err) != net::IoStatus::Ok)
        return fail(ErrorCode::PeerClosed, err);
    return true;
}

// Options that must be on the listening socket before the SYN arrives.
bool ServerRun::applyListenOptions()
{
    dataOptions = socketOptions(params);
    if (params.window == 0 && params.mss == 0 && !params.noDelay)
        return true;
    net::SocketOptions listenOptions = dataOptions;
    listenOptions.congestion.clear();
    listenOptions.pacingBytesPerSecond = 0; // per connection (addStream)
    // Tried on a spare socket first: options the kernel refuses (an MSS out of its range)
    // are the client's error, and the listener is never closed for them.
    const net::Socket trial = net::openTcp(net::localAddress(ctrl.socket()).family());
    if (trial.valid() && !net::applyOptions(trial, listenOptions, &err)) {
        ctrl.sendError(proto::IeParams);
        return fail(ErrorCode::InvalidParams, QStringLiteral("bad socket options from the client: %1").arg(err));
    }
    if (!srv.reopenListener(listenOptions, &err)) {
        ctrl.sendError(proto::IeListen);
        return fail(ErrorCode::Io, err);
    }
    optionsApplied = true;
    return true;
}

bool ServerRun::acceptStreams()
{
    total = params.dataConnectionCount();
    toReceive = params.isBidir() ? params.streams : params.isReverse() ? 0 : params.streams;
    if (params.udp)
        return acceptUdpStreams();
    if (ctrl.writeState(proto::CreateStreams, net::deadlineIn(idle), &err) != net::IoStatus::Ok)
        return fail(ErrorCode::PeerClosed, err);
    if (crrListen.valid()) {
        // One listener per worker; the other streams only keep the ids the client knows.
        const int listeners = WorkerPool::workersFor(srv.options.threads, params.streams);
        for (int i = 0; i < params.streams; ++i)
            streams.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::CrrServer,
                                                     i < listeners ? crrListen.duplicate() : net::Socket()));
    }
    const double acceptDeadline = nowSecs() + idle;
    StreamAcceptor acceptor(srv.listenFd, ctrl.socket(), cookie, std::min(idle, proto::DataCookieTimeoutSecs));
    if (total > 0 && !acceptor.valid(&err)) {
        ctrl.sendError(proto::IeStreamAccept);
        return fail(ErrorCode::Io, err);
    }
    while (accepted < total) {
        if (srv.stop.load())
            return fail(ErrorCode::Stopped, QStringLiteral("server stopped"));
        if (nowSecs() > acceptDeadline) {
            ctrl.sendError(proto::IeStreamAccept);
            return fail(ErrorCode::Timeout,
                        QStringLiteral("the client opened %1 of %2 data streams").arg(accepted).arg(total));
        }
        StreamAcceptor::Step step = acceptor.wait(100);
        for (StreamAcceptor::Accepted &a : step.accepted)
            if (accepted < total)
                addStream(std::move(a.socket), a.peer);
        if (step.failed)
            return fail(ErrorCode::Io, QStringLiteral("cannot wait for the data streams"));
        if (step.controlReadable && accepted < total)
            return fail(ErrorCode::PeerClosed,
                        QStringLiteral("the client closed the control connection while opening streams"));
    }
    acceptor.turnAwayRest();
    if (acceptor.strangers() > 0)
        srv.say(QStringLiteral("Turned away %1 connection(s) without the test's cookie while streams opened")
                    .arg(acceptor.strangers()));
    if (optionsApplied) {
        if (!srv.reopenListener({}, &err))
            srv.say(err);
        optionsApplied = false;
    }
    return true;
}

// UDP: each stream's socket finds its client by iperf3's UDP connect (test/udpstream.h);
// the first socket is bound before CREATE_STREAMS tells the client to send its hello.
bool ServerRun::acceptUdpStreams()
{
    UdpStreamAcceptor acceptor(net::localAddress(srv.listenFd), params.window, params.kind == TestKind::Rr ? 3 : 1);
    if (!acceptor.valid(&err)) {
        ctrl.sendError(proto::IeStreamAccept);
        return fail(ErrorCode::Io, err);
    }
    if (ctrl.writeState(proto::CreateStreams, net::deadlineIn(idle), &err) != net::IoStatus::Ok)
        return fail(ErrorCode::PeerClosed, err);
    err = acceptor.acceptAll(total, idle, ctrl.socket(), peer, srv.stop,
                             [this](net::Socket s, const net::Address &from) { addStream(std::move(s), from); });
    if (acceptor.strangers() > 0)
        srv.say(QStringLiteral("Ignored %1 UDP hello(s) from other addresses than the client's %2")
                    .arg(acceptor.strangers())
                    .arg(peer.host()));
    if (err.isEmpty())
        return true;
    ctrl.sendError(proto::IeStreamAccept);
    return fail(ErrorCode::Timeout, err);
}

// A data connection that showed the test's cookie (StreamAcceptor turns the others away).
void ServerRun::addStream(net::Socket data, const net::Address &dataPeer)
{
    // Set per connection: congestion control, and the pacing rate of a TCP -b test.
    net::SocketOptions afterAccept;
    afterAccept.congestion = dataOptions.congestion;
    afterAccept.pacingBytesPerSecond = dataOptions.pacingBytesPerSecond;
    QString optionError;
    if ((!afterAccept.congestion.isEmpty() || afterAccept.pacingBytesPerSecond > 0) &&
        !net::applyOptions(data, afterAccept, &optionError))
        srv.say(optionError);
    const int id = streamIdForIndex(accepted);
    if (params.isLoadedLatency() && accepted == total - 1) {
        // The client's last connection is the latency probe; it answers on its own worker.
        session.probe().add(std::make_unique<DataStream>(id, DataStream::Role::RrServer, std::move(data)));
        ++accepted;
        return;
    }
    const bool sender = accepted >= toReceive;
    const DataStream::Role role = params.kind == TestKind::Rr ? rrRole(false, params.udp)
                                  : params.udp                ? udpRole(sender)
                                  : sender                    ? DataStream::Role::Sender
                                                              : DataStream::Role::Receiver;
    const net::Address local = net::localAddress(data);
    result.connections.append({id, local.host(), local.port(), dataPeer.host(), dataPeer.port()});
    streams.add(std::make_unique<DataStream>(id, role, std::move(data)));
    ++accepted;
}

// The client decides when the test ends; the watchdog only catches a vanished client.
bool ServerRun::runStreams()
{
    const auto d = net::deadlineIn(idle);
    if (ctrl.writeState(proto::TestStart, d, &err) != net::IoStatus::Ok ||
        ctrl.writeState(proto::TestRunning, d, &err) != net::IoStatus::Ok)
        return fail(ErrorCode::PeerClosed, err);
    DataStream::Config cfg = streamConfig(params);
    cfg.zeroCopy = false; // -Z is the client's choice for its own sends
    cfg.crrToken = crrToken;
    if (params.endsOnBytes()) {
        budget.enabled = true;
        budget.remaining = std::int64_t(params.bytes);
        cfg.budget = &budget;
    }
    const QString startError = session.start(cfg, ctrl.socket(), srv.options.threads);
    if (!startError.isEmpty()) {
        // Threads, pollers or memory refused (a task limit): this test only (issue 30).
        ctrl.sendError(proto::IeInitStream, EAGAIN);
        return fail(ErrorCode::Io, startError);
    }
    const double watchdog = params.isTimed() ? nowSecs() + params.omit + params.duration + 40 : 0;
    // A -n test is as long as its bytes take: --max-duration ends it (timed ones were checked).
    const double maxDuration = srv.options.policy.maxDurationSecs;
    const double durationCap = !params.isTimed() && maxDuration > 0 ? nowSecs() + maxDuration : 0;
    // --rcv-timeout: a test in which nothing moves for this long has lost its client
    // (silent, vanished, or behind a partition); byte-count tests have no other end.
    ProgressWatch progress(srv.options.rcvTimeoutMs / 1000.0);
    for (;;) {
        const double now = nowSecs();
        if (watchdog > 0 && now > watchdog) {
            ctrl.sendError(proto::IeTimeout);
            return fail(ErrorCode::Timeout, QStringLiteral("the client did not end the test in time"));
        }
        if (durationCap > 0 && now > durationCap) {
            const PolicyRefusal r = durationReached(srv.options.policy);
            ctrl.sendError(r.iperfError);
            return fail(ErrorCode::Timeout, r.message);
        }
        if (progress.stalled(session.progress(), now)) {
            ctrl.sendError(proto::IeTimeout);
            return fail(ErrorCode::Timeout, QStringLiteral("no data moved for %1 s (--rcv-timeout %2): ended the test")
                                                .arg(progress.limitSecs())
                                                .arg(srv.options.rcvTimeoutMs));
        }
        if (now >= session.nextTick()) {
            session.tick(now);
            continue;
        }
        const double wakeAt = durationCap > 0 ? std::min(session.nextTick(), durationCap) : session.nextTick();
        const int w = srv.waitControl(ctrl, std::max(1, int((wakeAt - now) * 1000)));
        if (w < 0)
            return fail(ErrorCode::Stopped, QStringLiteral("server stopped"));
        if (w == 0) {
            // Senders that spent the -n budget end by themselves; the client ends the test.
            const bool budgetSpent = budget.enabled && budget.remaining.load() <= 0 && streams.firstError().isEmpty();
            if (streams.allFinished() && !budgetSpent) {
                // A UDP stream of ours failed (its sender's EMSGSIZE with -R): the client hears
                // why. A TCP stream's error here is the client's reset: it disappeared.
                if (const QString e = streams.firstError(); params.udp && !e.isEmpty()) {
                    ctrl.sendError(toReceive < total ? proto::IeStreamWrite : proto::IeStreamRead);
                    return fail(ErrorCode::Io, e);
                }
                return fail(ErrorCode::PeerClosed,
                            QStringLiteral("the client disappeared: all data connections closed"));
            }
            continue;
        }
        std::int8_t state = 0;
        if (ctrl.readState(&state, net::deadlineIn(1), &err) != net::IoStatus::Ok)
            return fail(ErrorCode::PeerClosed, QStringLiteral("the client disappeared during the test"));
        if (state == proto::TestEnd) {
            // What the client sent before TEST_END and the kernel holds already counts.
            if (toReceive > 0)
                streams.settleReceivers(500);
            return true;
        }
        if (state == proto::ClientTerminate)
            return fail(ErrorCode::Stopped, QStringLiteral("the client terminated the test"));
        ctrl.sendError(proto::IeCtrlClose);
        return fail(ErrorCode::Protocol, QStringLiteral("unexpected %1 from the client").arg(proto::stateName(state)));
    }
}

bool ServerRun::exchangeResults()
{
    // Close the data connections before EXCHANGE_RESULTS, as iperf3 does (A.4). A stock
    // 3.12 client receiving in -R/--bidir drains its blocking data sockets with a read that
    // wants a whole block; our sender may have stopped mid-block, and without the FIN that
    // read never returns and the client never reads EXCHANGE_RESULTS. The counts are
    // frozen first, so nothing measured is lost.
    session.endDataPhase(true);
    const ProcessCpuMeter::Percent c = session.readProcessCpu();
    const auto rd = net::deadlineIn(idle);
    if (ctrl.writeState(proto::ExchangeResults, rd, &err) != net::IoStatus::Ok)
        return fail(ErrorCode::PeerClosed, err);
    QJsonObject theirs;
    if (ctrl.readJson(&theirs, rd, &err, proto::resultsJsonLimit(streams.size())) != net::IoStatus::Ok)
        return fail(ErrorCode::PeerClosed, QStringLiteral("cannot read the client's results: %1").arg(err));
    PeerFigures figures;
    if (!streams.applyPeerResults(theirs, &err, &figures)) {
        ctrl.sendError(proto::IeStreamId);
        return fail(ErrorCode::Protocol, err);
    }
    result.cpu.remoteTotal = figures.cpuTotal;
    result.cpu.remoteUser = figures.cpuUser;
    result.cpu.remoteSystem = figures.cpuSystem;
    result.cpu.remoteKnown = figures.cpuKnown;
    const bool receiverOnly = toReceive == total;
    QJsonObject mine = streams.resultsJson(c.total, c.user, c.system, receiverOnly, QString());
    if (nbClient)
        mine.insert(QStringLiteral("nicbench"),
                    serverExtension(result, streams, session.accounting(), session.loadPhases()));
    if (ctrl.writeJson(mine, rd, &err) != net::IoStatus::Ok ||
        ctrl.writeState(proto::DisplayResults, rd, &err) != net::IoStatus::Ok)
        return fail(ErrorCode::PeerClosed, QStringLiteral("cannot send results: %1").arg(err));
    // IPERF_DONE, or the client just closing, ends the test.
    std::int8_t state = 0;
    if (srv.waitControl(ctrl, 5000) > 0)
        ctrl.readState(&state, net::deadlineIn(1), &err);
    return true;
}

bool ServerRun::finish()
{
    session.finish();
    measureCpuCosts(&result, platform::cpuClockHz()); // this machine did the work
    if (const std::uint64_t strangers = streams.crrStrangers(); strangers > 0)
        srv.say(QStringLiteral("Dropped %1 connection(s) to the CRR port without the test's token").arg(strangers));
    if (const std::uint64_t rejected = streams.udpRejected(); rejected > 0)
        srv.say(
            QStringLiteral("Dropped %1 UDP datagram(s) numbered beyond what the client can have sent").arg(rejected));
    if (optionsApplied) {
        QString ignored;
        srv.reopenListener({}, &ignored);
    }
    if (srv.listener)
        srv.listener->testFinished(result);
    if (!result.error.isEmpty())
        srv.logLine(QStringLiteral("Test from %1 ended with an error: %2").arg(peer.toString(), result.error));
    return true;
}

} // namespace

bool ServerRun::abandon(const QString &what, int sysErrno)
{
    ctrl.sendError(proto::IeInitTest, sysErrno);
    fail(ErrorCode::Limit, QStringLiteral("refused: %1").arg(what));
    try {
        return finish();
    } catch (const std::exception &) {
        return true; // the test is gone either way; the server takes the next one
    }
}

bool Server::Impl::runTest(ControlAcceptorHandshake handshake)
{
    ServerRun run(*this, std::move(handshake));
    try {
        return run.run();
    } catch (const std::bad_alloc &) {
        return run.abandon(QStringLiteral("out of memory"), ENOMEM);
    } catch (const std::system_error &e) {
        return run.abandon(QStringLiteral("the system refused a resource: %1").arg(QString::fromLocal8Bit(e.what())),
                           EAGAIN);
    }
}

} // namespace nb
