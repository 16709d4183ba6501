// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/agentchannel.h"

#include <vector>

namespace nb::proto::agent {

net::IoStatus AgentChannel::write(const QJsonObject &message, net::Deadline deadline, QString *error)
{
    const QByteArray frame = m_session.out.seal(message);
    return net::writeAll(m_socket, frame.constData(), std::size_t(frame.size()), deadline, error);
}

net::IoStatus AgentChannel::read(QJsonObject *message, net::Deadline deadline, QString *error)
{
    char header[4];
    const net::IoStatus h = net::readExact(m_socket, header, sizeof header, deadline, error);
    if (h != net::IoStatus::Ok)
        return h;
    std::size_t used = 0;
    FrameOpener::Status s = m_session.in.feed(header, sizeof header, &used);
    if (s == FrameOpener::Status::NeedMore) {
        // The length is known and within the cap here: the rest is read in one go.
        std::vector<char> rest(m_session.in.bytesWanted());
        const net::IoStatus r = net::readExact(m_socket, rest.data(), rest.size(), deadline, error);
        if (r != net::IoStatus::Ok)
            return r;
        s = m_session.in.feed(rest.data(), rest.size(), &used);
    }
    if (s != FrameOpener::Status::Complete) {
        *error = m_session.in.error();
        return net::IoStatus::Error;
    }
    *message = m_session.in.take();
    return net::IoStatus::Ok;
}

HandshakeResult controllerHandshake(const net::Socket &socket, const QByteArray &key, net::Deadline deadline,
                                    Session *session, QString *error)
{
    const QByteArray controllerNonce = randomNonce();
    const QByteArray greeting = QByteArray(Magic, MagicSize) + controllerNonce;
    if (net::writeAll(socket, greeting.constData(), std::size_t(greeting.size()), deadline, error) != net::IoStatus::Ok)
        return HandshakeResult::Failed;
    char first = 0;
    const net::IoStatus f = net::readExact(socket, &first, 1, deadline, error);
    if (f == net::IoStatus::Closed)
        return HandshakeResult::Closed;
    if (f != net::IoStatus::Ok)
        return HandshakeResult::Failed;
    if (first != AgentAnswer) {
        return first == char(AccessDenied)  ? HandshakeResult::Busy
               : first == char(ServerError) ? HandshakeResult::NotAgent
               : first == char(ParamExchange)
                   ? HandshakeResult::StockIperf3
                   : (*error = QStringLiteral("an answer that is no agent's"), HandshakeResult::Failed);
    }
    QByteArray agentNonce(NonceSize, '\0');
    if (net::readExact(socket, agentNonce.data(), NonceSize, deadline, error) != net::IoStatus::Ok)
        return HandshakeResult::Failed;
    const QByteArray mine = proof(key, Role::Controller, controllerNonce, agentNonce);
    if (net::writeAll(socket, mine.constData(), std::size_t(mine.size()), deadline, error) != net::IoStatus::Ok)
        return HandshakeResult::Failed;
    QByteArray theirs(MacSize, '\0');
    const net::IoStatus p = net::readExact(socket, theirs.data(), MacSize, deadline, error);
    if (p == net::IoStatus::Closed)
        return HandshakeResult::Refused;
    if (p != net::IoStatus::Ok)
        return HandshakeResult::Failed;
    if (!sameMac(theirs, proof(key, Role::Agent, controllerNonce, agentNonce)))
        return HandshakeResult::BadProof;
    *session = sessionFor(Role::Controller, key, controllerNonce, agentNonce);
    return HandshakeResult::Ok;
}

} // namespace nb::proto::agent
