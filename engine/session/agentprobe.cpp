// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/agentprobe.h"

#include "net/connect.h"
#include "protocol/agentchannel.h"
#include "session/agentcontroller.h"
#include "session/agentkey.h"
#include "session/serverinfo.h"
#include "session/testsession.h"

namespace nb {

namespace {

// The info query's failures that say nothing listens there: the handshake would only wait
// for the same answer again.
bool nothingListens(ErrorCode code)
{
    return code == ErrorCode::Refused || code == ErrorCode::Unreachable || code == ErrorCode::Resolve ||
           code == ErrorCode::Timeout || code == ErrorCode::Stopped;
}

void checkKey(const AgentProbe &probe, AgentStatus *status)
{
    const QString agentName = QStringLiteral("%1 port %2").arg(probe.host).arg(probe.port);
    const auto failed = [status](ErrorCode code, const QString &why) {
        status->key = AgentStatus::Key::Failed;
        status->keyCode = code;
        status->keyError = why;
    };
    QByteArray key;
    QString err;
    if (!loadAgentKey(probe.keyPath, &key, &err))
        return failed(ErrorCode::InvalidParams, err);
    const int timeoutMs = int(probe.timeoutSeconds * 1000);
    ErrorCode code = ErrorCode::None;
    net::Socket s = net::connectTcp(probe.host, probe.port, AddressFamily::Any, QString(), {}, timeoutMs, &err,
                                    probe.cancel, &code);
    if (!s.valid())
        return failed(code, QStringLiteral("agent: %1").arg(err));
    const double t0 = nowSecs();
    proto::agent::Session session;
    const proto::agent::HandshakeResult r =
        proto::agent::controllerHandshake(s, key, net::deadlineIn(probe.timeoutSeconds), &session, &err);
    if (r != proto::agent::HandshakeResult::Ok) {
        const QString why = agentHandshakeError(r, agentName, probe.keyPath, err, &code);
        return failed(code, why);
    }
    status->handshakeSeconds = nowSecs() - t0;
    status->key = AgentStatus::Key::Accepted;
    // Closing before the request: the agent drops the connection as one that went quiet in
    // its handshake, which is no refusal and no strike against this address.
}

// An answer of any kind: a refusal, a busy server or a wrong protocol came from something
// listening there.
bool somethingAnswered(ErrorCode code)
{
    return code == ErrorCode::Busy || code == ErrorCode::Protocol || code == ErrorCode::ServerError ||
           code == ErrorCode::Unsupported || code == ErrorCode::AuthFailed || code == ErrorCode::PeerClosed;
}

} // namespace

bool AgentStatus::reachable() const
{
    return infoOk || key == Key::Accepted || (key == Key::Failed && somethingAnswered(keyCode)) ||
           somethingAnswered(infoCode);
}

QString AgentStatus::problem() const
{
    if (key == Key::Failed)
        return keyError;
    if (!infoOk)
        return infoError;
    return {};
}

AgentStatus probeAgent(const AgentProbe &probe)
{
    AgentStatus status;
    ServerInfoQuery query;
    query.host = probe.host;
    query.port = probe.port;
    query.timeoutSeconds = probe.timeoutSeconds;
    query.cancel = probe.cancel;
    status.infoOk = queryServerInfo(query, &status.info, &status.infoError, &status.infoCode);
    if (probe.keyPath.isEmpty() || (!status.infoOk && nothingListens(status.infoCode)))
        return status;
    if (probe.cancel && probe.cancel->load())
        return status;
    checkKey(probe, &status);
    return status;
}

} // namespace nb
