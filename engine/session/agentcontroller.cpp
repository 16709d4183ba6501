// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/agentcontroller.h"

#include "core/sanitize.h"
#include "net/connect.h"
#include "protocol/agentchannel.h"
#include "session/agentkey.h"
#include "session/agentrequest.h"
#include "session/testsession.h"

#include <QDateTime>
#include <QSysInfo>

namespace nb {

namespace {

namespace agent = proto::agent;
namespace msg = proto::agent::message;

// How long one frame may take once its first byte is in, and the whole handshake.
constexpr double FrameSecs = 10;
constexpr double HandshakeSecs = 10;

class ControllerRun {
public:
    ControllerRun(const CommandLine &cl, TestListener *listener, const std::atomic<bool> &stop)
        : cl(cl)
        , listener(listener)
        , stop(stop)
        , agentName(QStringLiteral("%1 port %2").arg(cl.fromHost).arg(cl.fromPort))
    {
        result.params = cl.params.normalized();
        result.version = QStringLiteral(NICBENCH_VERSION);
        result.timestampSecs = QDateTime::currentSecsSinceEpoch();
    }
    TestResult run(double *handshakeSecs);

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
    bool connectAndAuthenticate(double *handshakeSecs);
    bool handshakeFailed(agent::HandshakeResult r, const QString &why);
    bool send(const QJsonObject &m);
    bool follow();
    // One frame from the agent: true to read on, false when the test is over (done or failed).
    bool take(const QJsonObject &m, bool *done);
    bool lost(const QString &how);

    const CommandLine &cl;
    TestListener *listener;
    const std::atomic<bool> &stop;
    const QString agentName;
    agent::AgentChannel ch;
    TestResult result;
    bool started = false;
    double lastSent = 0;
    QString err;
};

bool ControllerRun::handshakeFailed(agent::HandshakeResult r, const QString &why)
{
    if (r == agent::HandshakeResult::Ok)
        return true;
    ErrorCode code = ErrorCode::Protocol;
    const QString message = agentHandshakeError(r, agentName, cl.agentKeyPath, why, &code);
    return fail(code, message);
}

bool ControllerRun::connectAndAuthenticate(double *handshakeSecs)
{
    QByteArray key;
    if (!loadAgentKey(cl.agentKeyPath, &key, &err))
        return fail(ErrorCode::InvalidParams, err);
    say(QStringLiteral("Connecting to agent %1, port %2").arg(cl.fromHost).arg(cl.fromPort));
    ErrorCode code = ErrorCode::None;
    net::Socket s = net::connectTcp(cl.fromHost, cl.fromPort, AddressFamily::Any, QString(), {},
                                    cl.params.connectTimeoutMs, &err, &stop, &code);
    if (!s.valid())
        return fail(code, QStringLiteral("agent: %1").arg(err));
    net::setNoDelay(s);
    net::setKeepAlive(s, proto::KeepAliveIdleSecs, proto::KeepAliveIntervalSecs, proto::KeepAliveProbes);
    const double t0 = nowSecs();
    agent::Session session;
    const agent::HandshakeResult r = agent::controllerHandshake(s, key, net::deadlineIn(HandshakeSecs), &session, &err);
    if (r != agent::HandshakeResult::Ok)
        return handshakeFailed(r, err);
    *handshakeSecs = nowSecs() - t0;
    say(QStringLiteral("Agent %1 and this controller proved they hold the key in %2 ms")
            .arg(agentName)
            .arg(*handshakeSecs * 1000, 0, 'f', 2));
    ch = agent::AgentChannel(std::move(s), std::move(session));
    return send(agentRequestJson(cl, QSysInfo::machineHostName()));
}

bool ControllerRun::send(const QJsonObject &m)
{
    if (ch.write(m, net::deadlineIn(FrameSecs), &err) != net::IoStatus::Ok)
        return lost(err);
    lastSent = nowSecs();
    return true;
}

bool ControllerRun::lost(const QString &how)
{
    return fail(ErrorCode::PeerClosed,
                QStringLiteral("the agent %1 disappeared %2 (%3)%4")
                    .arg(agentName, started ? QStringLiteral("during the test") : QStringLiteral("before the test"),
                         how.isEmpty() ? QStringLiteral("connection closed") : how,
                         started ? QStringLiteral(": kept the %1 interval(s) received").arg(result.intervals.size())
                                 : QString()));
}

bool ControllerRun::take(const QJsonObject &m, bool *done)
{
    const QString type = m.value(QStringLiteral("type")).toString();
    if (type == QLatin1String(msg::Refused)) {
        return fail(ErrorCode::InvalidParams,
                    QStringLiteral("the agent %1 refused the test: %2")
                        .arg(agentName, printable(m.value(QStringLiteral("reason")).toString(), 300)));
    }
    if (type == QLatin1String(msg::Accepted)) {
        say(QStringLiteral("Agent %1 tests toward %2 port %3")
                .arg(agentName, printable(m.value(QStringLiteral("target")).toString(), 100))
                .arg(m.value(QStringLiteral("port")).toInt()));
    } else if (type == QLatin1String(msg::Text)) {
        say(m.value(QStringLiteral("text")).toString());
    } else if (type == QLatin1String(msg::Started) || type == QLatin1String(msg::Finished)) {
        TestResult r;
        if (!TestResult::fromJson(m.value(QStringLiteral("result")).toObject(), &r, &err))
            return fail(ErrorCode::Protocol,
                        QStringLiteral("the agent %1 sent a result that cannot be read: %2").arg(agentName, err));
        if (!r.drivenBy)
            r.drivenBy = DrivenBy();
        r.drivenBy->agent = QStringLiteral("%1:%2").arg(cl.fromHost).arg(cl.fromPort);
        if (type == QLatin1String(msg::Finished)) {
            result = r;
            *done = true;
            return false;
        }
        result = r;
        started = true;
        if (listener)
            listener->testStarted(result);
    } else if (type == QLatin1String(msg::Interval)) {
        IntervalReport ir;
        if (!started || !IntervalReport::fromJson(m.value(QStringLiteral("interval")).toObject(), &ir, &err))
            return fail(ErrorCode::Protocol,
                        QStringLiteral("the agent %1 sent an interval that cannot be read: %2").arg(agentName, err));
        result.intervals.append(ir);
        if (listener)
            listener->intervalReady(ir);
    }
    return true; // heartbeats, and kinds a newer agent may send
}

// The agent's frames until its result: heartbeats both ways, a stop passed on, and a silent
// or vanished agent given up with what it reported so far.
bool ControllerRun::follow()
{
    double lastHeard = nowSecs();
    bool stopSent = false;
    for (;;) {
        const double now = nowSecs();
        if (stop.load() && !stopSent) {
            QJsonObject m{{QStringLiteral("type"), QLatin1String(msg::Stop)}};
            if (!send(m))
                return false;
            stopSent = true;
        }
        if (now - lastSent >= agent::HeartbeatSecs &&
            !send(QJsonObject{{QStringLiteral("type"), QLatin1String(msg::Heartbeat)}}))
            return false;
        if (now - lastHeard > agent::SilenceSecs)
            return lost(QStringLiteral("nothing heard for %1 s").arg(agent::SilenceSecs));
        const int ready = net::waitReadable(ch.socket(), 200);
        if (ready < 0)
            return lost(QStringLiteral("the connection failed"));
        if (ready == 0)
            continue;
        QJsonObject m;
        const net::IoStatus st = ch.read(&m, net::deadlineIn(FrameSecs), &err);
        if (st == net::IoStatus::Closed)
            return lost(QString());
        if (st != net::IoStatus::Ok)
            return lost(err);
        lastHeard = nowSecs();
        bool done = false;
        if (!take(m, &done))
            return done;
    }
}

TestResult ControllerRun::run(double *handshakeSecs)
{
    if (connectAndAuthenticate(handshakeSecs))
        follow();
    ch.close();
    if (listener)
        listener->testFinished(result);
    return result;
}

} // namespace

QString agentHandshakeError(proto::agent::HandshakeResult r, const QString &agentName, const QString &keyPath,
                            const QString &why, ErrorCode *code)
{
    using H = proto::agent::HandshakeResult;
    const auto say = [code](ErrorCode c, const QString &m) {
        if (code)
            *code = c;
        return m;
    };
    switch (r) {
    case H::Ok:
        break;
    case H::Busy:
        return say(ErrorCode::Busy, QStringLiteral("the agent %1 is busy running a test (or its --allow leaves this "
                                                   "address out); try again when it is done")
                                        .arg(agentName));
    case H::NotAgent:
        return say(ErrorCode::Protocol,
                   QStringLiteral("%1 takes no agent requests: its server runs without --agent-key").arg(agentName));
    case H::StockIperf3:
        return say(ErrorCode::Protocol,
                   QStringLiteral("%1 runs an iperf3 server, not a NicBench agent (nicbench-cli -s --agent-key FILE)")
                       .arg(agentName));
    case H::Closed:
        return say(ErrorCode::PeerClosed,
                   QStringLiteral("the agent %1 closed the connection at once (over its --rate-limit, or refusing "
                                  "this address for a while after failed handshakes)")
                       .arg(agentName));
    case H::Refused:
        return say(ErrorCode::AuthFailed,
                   QStringLiteral("the agent %1 refused the key: %2 is not the key the agent was started with")
                       .arg(agentName, keyPath));
    case H::BadProof:
        return say(ErrorCode::AuthFailed,
                   QStringLiteral("%1 did not prove it holds the key in %2: another key, or not the agent you meant")
                       .arg(agentName, keyPath));
    case H::Failed:
        return say(ErrorCode::Protocol,
                   QStringLiteral("the handshake with the agent %1 failed: %2").arg(agentName, why));
    }
    return {};
}

AgentController::AgentController(CommandLine cl, TestListener *listener) : m_cl(std::move(cl)), m_listener(listener) {}

TestResult AgentController::run()
{
    ControllerRun run(m_cl, m_listener, m_stop);
    return run.run(&m_handshakeSecs);
}

} // namespace nb
