// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/agentwire.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QtEndian>

#include <algorithm>
#include <array>

namespace nb::proto::agent {

namespace {

// Labels: each MAC says what it is for, so no value made for one purpose passes for another.
constexpr char ControllerProofLabel[] = "nicbench-agent-1 controller proof";
constexpr char AgentProofLabel[] = "nicbench-agent-1 agent proof";
constexpr char SessionLabel[] = "nicbench-agent-1 session key";
constexpr char ControllerFrameLabel[] = "nicbench-agent-1 controller frame";
constexpr char AgentFrameLabel[] = "nicbench-agent-1 agent frame";

QByteArray hmac(const QByteArray &key, const char *label, const QByteArray &a, const QByteArray &b)
{
    QMessageAuthenticationCode mac(QCryptographicHash::Sha256, key);
    mac.addData(label, qsizetype(std::char_traits<char>::length(label)));
    mac.addData("\0", 1);
    mac.addData(a);
    mac.addData(b);
    return mac.result();
}

QByteArray frameNumber(std::uint64_t n)
{
    std::array<char, 8> bytes{};
    qToBigEndian(n, bytes.data());
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

QByteArray frameMac(const QByteArray &key, Role sender, std::uint64_t n, const QByteArray &json)
{
    return hmac(key, sender == Role::Controller ? ControllerFrameLabel : AgentFrameLabel, frameNumber(n), json);
}

} // namespace

QByteArray randomNonce()
{
    std::array<quint32, NonceSize / 4> words{};
    QRandomGenerator::system()->fillRange(words.data(), qsizetype(words.size()));
    return QByteArray(reinterpret_cast<const char *>(words.data()), NonceSize);
}

QByteArray proof(const QByteArray &key, Role who, const QByteArray &controllerNonce, const QByteArray &agentNonce)
{
    return hmac(key, who == Role::Controller ? ControllerProofLabel : AgentProofLabel, controllerNonce, agentNonce);
}

QByteArray sessionKey(const QByteArray &key, const QByteArray &controllerNonce, const QByteArray &agentNonce)
{
    return hmac(key, SessionLabel, controllerNonce, agentNonce);
}

bool sameMac(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

QByteArray FrameSealer::seal(const QJsonObject &message)
{
    const QByteArray json = QJsonDocument(message).toJson(QJsonDocument::Compact);
    std::array<char, 4> length{};
    qToBigEndian(quint32(json.size()), length.data());
    QByteArray frame(length.data(), 4);
    frame += json;
    frame += frameMac(m_key, m_sender, m_next++, json);
    return frame;
}

std::size_t FrameOpener::bytesWanted() const
{
    if (m_length < 0)
        return 4 - std::size_t(m_buffer.size());
    return std::size_t(m_length) + MacSize - std::size_t(m_buffer.size());
}

FrameOpener::Status FrameOpener::feed(const char *data, std::size_t size, std::size_t *consumed)
{
    *consumed = 0;
    if (!m_error.isEmpty())
        return Status::Error;
    if (m_length < 0) {
        const std::size_t take = std::min(size, bytesWanted());
        m_buffer.append(data, qsizetype(take));
        *consumed = take;
        if (m_buffer.size() < 4)
            return Status::NeedMore;
        const quint32 length = qFromBigEndian<quint32>(m_buffer.constData());
        m_buffer.clear();
        if (length > m_maxSize) {
            m_error = QStringLiteral("a frame of %1 bytes (at most %2)").arg(length).arg(m_maxSize);
            return Status::Error;
        }
        m_length = length;
        data += take;
        size -= take;
    }
    const std::size_t take = std::min(size, bytesWanted());
    m_buffer.append(data, qsizetype(take));
    *consumed += take;
    if (bytesWanted() > 0)
        return Status::NeedMore;
    const QByteArray json = m_buffer.left(qsizetype(m_length));
    if (!sameMac(m_buffer.mid(qsizetype(m_length)), frameMac(m_key, m_sender, m_next, json))) {
        m_error = QStringLiteral("a frame whose MAC is wrong (altered, replayed or out of order)");
        return Status::Error;
    }
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject()) {
        m_error = QStringLiteral("a frame that is not a JSON object");
        return Status::Error;
    }
    ++m_next;
    m_message = doc.object();
    m_buffer.clear();
    m_length = -1;
    return Status::Complete;
}

QJsonObject FrameOpener::take()
{
    return std::exchange(m_message, QJsonObject());
}

Session sessionFor(Role me, const QByteArray &key, const QByteArray &controllerNonce, const QByteArray &agentNonce)
{
    const QByteArray k = sessionKey(key, controllerNonce, agentNonce);
    const Role peer = me == Role::Controller ? Role::Agent : Role::Controller;
    return Session{FrameSealer(k, me),
                   FrameOpener(k, peer, me == Role::Controller ? MaxAgentFrame : MaxControllerFrame)};
}

std::size_t AgentHandshake::bytesWanted() const
{
    switch (m_step) {
    case Step::Greeting:
        return GreetingSize - std::size_t(m_buffer.size());
    case Step::Proof:
        return MacSize - std::size_t(m_buffer.size());
    case Step::Request:
        return m_session.in.bytesWanted();
    case Step::Done:
    case Step::Failed:
        break;
    }
    return 0;
}

AgentHandshake::Status AgentHandshake::fail(const QString &why)
{
    m_step = Step::Failed;
    m_error = why;
    return Status::Failed;
}

AgentHandshake::Status AgentHandshake::finishGreeting()
{
    m_controllerNonce = m_buffer.mid(MagicSize);
    m_agentNonce = randomNonce();
    m_output = QByteArray(1, AgentAnswer) + m_agentNonce;
    m_buffer.clear();
    m_step = Step::Proof;
    m_stepChanged = true;
    return Status::NeedMore;
}

AgentHandshake::Status AgentHandshake::finishProof()
{
    const QByteArray expected = proof(m_key, Role::Controller, m_controllerNonce, m_agentNonce);
    if (!sameMac(m_buffer, expected))
        return fail(QStringLiteral("its proof does not match this agent's key (a wrong or replayed handshake)"));
    m_output = proof(m_key, Role::Agent, m_controllerNonce, m_agentNonce);
    m_session = sessionFor(Role::Agent, m_key, m_controllerNonce, m_agentNonce);
    m_buffer.clear();
    m_step = Step::Request;
    m_stepChanged = true;
    return Status::NeedMore;
}

AgentHandshake::Status AgentHandshake::feed(const char *data, std::size_t size, std::size_t *consumed)
{
    *consumed = 0;
    while (size > 0 || m_step == Step::Done || m_step == Step::Failed) {
        if (m_step == Step::Done)
            return Status::Done;
        if (m_step == Step::Failed)
            return Status::Failed;
        if (m_step == Step::Request) {
            std::size_t used = 0;
            const FrameOpener::Status s = m_session.in.feed(data, size, &used);
            *consumed += used;
            if (s == FrameOpener::Status::Error)
                return fail(QStringLiteral("its request: %1").arg(m_session.in.error()));
            if (s == FrameOpener::Status::NeedMore)
                return Status::NeedMore;
            m_request = m_session.in.take();
            m_step = Step::Done;
            continue;
        }
        const std::size_t take = std::min(size, bytesWanted());
        m_buffer.append(data, qsizetype(take));
        *consumed += take;
        data += take;
        size -= take;
        // Not an agent's greeting: known from the magic, before the nonce.
        if (m_step == Step::Greeting && !QByteArrayView(Magic, MagicSize).startsWith(m_buffer.left(MagicSize)))
            return fail(QStringLiteral("neither an iperf3 cookie nor an agent greeting"));
        if (bytesWanted() > 0)
            return Status::NeedMore;
        const Status s = m_step == Step::Greeting ? finishGreeting() : finishProof();
        if (s != Status::NeedMore)
            return s;
    }
    return Status::NeedMore;
}

QByteArray AgentHandshake::takeOutput()
{
    return std::exchange(m_output, QByteArray());
}

bool AgentHandshake::stepChanged()
{
    return std::exchange(m_stepChanged, false);
}

} // namespace nb::proto::agent
