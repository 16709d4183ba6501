// SPDX-License-Identifier: GPL-3.0-or-later
// One test an agent runs for a controller (docs/protocol.md §6): the request read with the
// command-line parser, the target rule and the server's policy, then the client test on a
// thread of its own while the server's thread relays its reports to the controller, watches
// the controller and turns other clients away, as during a test it serves.
#include "session/server_p.h"

#include "core/sanitize.h"
#include "net/address.h"
#include "platform/platform.h"
#include "protocol/agentchannel.h"
#include "session/agentpolicy.h"
#include "session/agentrequest.h"
#include "session/testsession.h"
#include "session/throughputclient.h"

#include <QJsonObject>

#include <deque>
#include <mutex>
#include <thread>

namespace nb {

namespace {

namespace msg = proto::agent::message;

QJsonObject frame(const char *type)
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(type)}};
}

// What the client test reports on its thread, kept for the server's thread to send.
class AgentRelay : public TestListener {
public:
    explicit AgentRelay(DrivenBy drivenBy) : m_drivenBy(std::move(drivenBy)) {}
    void testStarted(const TestResult &header) override
    {
        TestResult h = header;
        h.drivenBy = m_drivenBy;
        QJsonObject m = frame(msg::Started);
        m.insert(QStringLiteral("result"), h.toJson());
        push(m);
    }
    void intervalReady(const IntervalReport &report) override
    {
        QJsonObject m = frame(msg::Interval);
        m.insert(QStringLiteral("interval"), report.toJson());
        push(m);
    }
    void message(const QString &text) override
    {
        QJsonObject m = frame(msg::Text);
        m.insert(QStringLiteral("text"), text);
        push(m);
    }
    void testFinished(const TestResult &result) override
    {
        const std::lock_guard lock(m_mutex);
        m_result = result;
        m_result.drivenBy = m_drivenBy;
        m_finished = true;
    }
    std::deque<QJsonObject> take()
    {
        const std::lock_guard lock(m_mutex);
        return std::exchange(m_queue, {});
    }
    bool finished()
    {
        const std::lock_guard lock(m_mutex);
        return m_finished;
    }
    TestResult result()
    {
        const std::lock_guard lock(m_mutex);
        return m_result;
    }

private:
    void push(QJsonObject m)
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(m));
    }
    const DrivenBy m_drivenBy;
    std::mutex m_mutex;
    std::deque<QJsonObject> m_queue;
    bool m_finished = false;
    TestResult m_result;
};

class AgentRun {
public:
    AgentRun(Server::Impl &server, ControlAcceptorHandshake h)
        : srv(server)
        , ch(h.ctrl.takeSocket(), std::move(*h.agent))
        , controller(h.peer)
        , request(std::move(h.params))
        , idle(server.options.idleTimeoutSecs)
    {
    }
    // False when the request was refused.
    bool run(const std::function<void()> &beforeTest);

private:
    bool refuse(const QString &reason);
    bool accept();
    bool send(const QJsonObject &m);
    void stopTest(const QString &why);
    void relay(AgentRelay &relay);
    void readController();
    void finish(AgentRelay &relay);

    Server::Impl &srv;
    proto::agent::AgentChannel ch;
    const net::Address controller;
    const QJsonObject request;
    const double idle;
    TestParams params;
    std::unique_ptr<ThroughputClient> client;
    bool controllerGone = false;
    bool stopAsked = false;
    double lastSent = 0, lastHeard = 0;
    QString err;
};

bool AgentRun::send(const QJsonObject &m)
{
    if (controllerGone)
        return false;
    if (ch.write(m, net::deadlineIn(idle), &err) != net::IoStatus::Ok) {
        controllerGone = true;
        stopTest(QStringLiteral("cannot reach the controller (%1)").arg(err));
        return false;
    }
    lastSent = nowSecs();
    return true;
}

bool AgentRun::refuse(const QString &reason)
{
    QJsonObject m = frame(msg::Refused);
    m.insert(QStringLiteral("reason"), reason);
    send(m);
    srv.logRefusal(controller, QStringLiteral("agent request refused: %1").arg(reason));
    return false;
}

// The request as nicbench-cli -c would read it, a target within the rule, the policy's caps.
bool AgentRun::accept()
{
    if (request.value(QStringLiteral("type")).toString() != QLatin1String(msg::Run))
        return refuse(QStringLiteral("the request is not a test to run"));
    if (!testFromAgentRequest(request, &params, &err))
        return refuse(err);
    const net::Address target = net::resolveAddress(params.host, params.port, params.family, &err);
    if (!target.valid())
        return refuse(QStringLiteral("cannot resolve %1: %2").arg(printable(params.host, 100), err));
    const std::optional<QList<Subnet>> &given = srv.options.agentTargets;
    const QList<Subnet> networks = given ? *given : connectedSubnets(platform::listAdapters());
    if (const QString why = checkAgentTarget(QHostAddress(target.host()), networks, !given); !why.isEmpty())
        return refuse(why);
    // The address checked is the one tested: no second lookup that could answer otherwise.
    params.host = target.host();
    const double bitrate = requestedBitrate(params.toIperfParams()).value_or(0);
    if (const PolicyRefusal r = checkParams(srv.options.policy, params, bitrate); r.refused())
        return refuse(r.message);
    QJsonObject m = frame(msg::Accepted);
    m.insert(QStringLiteral("target"), params.host);
    m.insert(QStringLiteral("port"), params.port);
    return send(m);
}

void AgentRun::stopTest(const QString &why)
{
    if (stopAsked)
        return;
    stopAsked = true;
    if (client)
        client->requestStop();
    srv.say(QStringLiteral("Ending the test for controller %1: %2").arg(controller.host(), why));
}

void AgentRun::readController()
{
    QJsonObject m;
    if (ch.read(&m, net::deadlineIn(idle), &err) != net::IoStatus::Ok) {
        controllerGone = true;
        stopTest(QStringLiteral("the controller disappeared (%1)").arg(err.isEmpty() ? QStringLiteral("closed") : err));
        return;
    }
    lastHeard = nowSecs();
    if (m.value(QStringLiteral("type")).toString() == QLatin1String(msg::Stop))
        stopTest(QStringLiteral("the controller asked to stop it"));
}

// Until the client test ends: its reports out, heartbeats both ways, other clients turned
// away, and the test stopped when the controller is gone or silent.
void AgentRun::relay(AgentRelay &relay)
{
    lastSent = lastHeard = nowSecs();
    const double maxDuration = srv.options.policy.maxDurationSecs;
    const double durationCap = !params.isTimed() && maxDuration > 0 ? nowSecs() + maxDuration : 0;
    for (;;) {
        // Finished is set after the last report was queued: seen first, nothing is left behind.
        const bool finished = relay.finished();
        for (const QJsonObject &m : relay.take())
            send(m);
        if (finished)
            return;
        const double now = nowSecs();
        if (!controllerGone && now - lastSent >= proto::agent::HeartbeatSecs)
            send(frame(msg::Heartbeat));
        if (!controllerGone && now - lastHeard > proto::agent::SilenceSecs) {
            controllerGone = true;
            stopTest(QStringLiteral("the controller sent nothing for %1 s").arg(proto::agent::SilenceSecs));
        }
        if (srv.stop.load())
            stopTest(QStringLiteral("the agent is stopping"));
        if (durationCap > 0 && now > durationCap)
            stopTest(durationReached(srv.options.policy).message);
        const int ready = controllerGone ? (net::waitReadable(srv.listenFd, 50) > 0 ? 2 : 0)
                                         : net::waitEither(ch.socket(), srv.listenFd, 50);
        if (ready > 0 && (ready & 2))
            srv.denyPending();
        if (ready > 0 && (ready & 1))
            readController();
        srv.flushLog();
    }
}

// The whole -J document, then a moment for the controller to close first: closing with its
// heartbeats unread would reset the connection and could lose the document on its way.
void AgentRun::finish(AgentRelay &relay)
{
    const TestResult result = relay.result();
    QJsonObject m = frame(msg::Finished);
    m.insert(QStringLiteral("result"), result.toJson());
    if (send(m)) {
        const net::Deadline until = net::deadlineIn(2);
        QJsonObject ignored;
        while (net::Clock::now() < until && ch.read(&ignored, until, &err) == net::IoStatus::Ok) {
        }
    }
    srv.say(result.ok() ? QStringLiteral("Ran a test for controller %1 toward %2 port %3")
                              .arg(controller.host(), params.host)
                              .arg(params.port)
                        : QStringLiteral("The test for controller %1 toward %2 port %3 ended with an error: %4")
                              .arg(controller.host(), params.host)
                              .arg(params.port)
                              .arg(result.error));
}

bool AgentRun::run(const std::function<void()> &beforeTest)
{
    net::setKeepAlive(ch.socket(), proto::KeepAliveIdleSecs, proto::KeepAliveIntervalSecs, proto::KeepAliveProbes);
    if (!accept())
        return false;
    beforeTest();
    srv.say(QStringLiteral("Controller %1 runs a %2 test toward %3 port %4")
                .arg(controller.host(), testKindName(params.kind), params.host)
                .arg(params.port));
    const QString host = printable(request.value(QStringLiteral("controller_host")).toString(), 255);
    AgentRelay relayed(DrivenBy{controller.host(), host, QString()});
    client = std::make_unique<ThroughputClient>(params, &relayed);
    // Joined however this ends: the test is stopped first, so the join is bounded.
    struct Joiner {
        std::thread thread;
        ThroughputClient *client;
        ~Joiner()
        {
            if (thread.joinable()) {
                client->requestStop();
                thread.join();
            }
        }
    } worker{std::thread([this] { client->run(); }), client.get()};
    relay(relayed);
    worker.thread.join();
    finish(relayed);
    return true;
}

} // namespace

bool Server::Impl::runAgentTest(ControlAcceptorHandshake handshake, const std::function<void()> &beforeTest)
{
    AgentRun run(*this, std::move(handshake));
    try {
        return run.run(beforeTest);
    } catch (const std::bad_alloc &) {
        say(QStringLiteral("An agent test was abandoned: out of memory"));
    } catch (const std::system_error &e) {
        say(QStringLiteral("An agent test was abandoned: the system refused a resource: %1")
                .arg(QString::fromLocal8Bit(e.what())));
    }
    return true;
}

} // namespace nb
