// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The agent protocol on the wire (docs/protocol.md §6): the greeting that tells a
// controller from an iperf3 client on the same port, the mutual challenge-response with
// HMAC-SHA256 over both sides' fresh nonces, and the sealed frames that follow (length,
// JSON, a MAC under a key of this session alone, numbered per direction). No I/O here: the
// agent's acceptor feeds bytes as they arrive (AgentHandshake), the controller reads with
// deadlines (protocol/agentchannel.h).

#include "protocol/protocol.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <cstddef>
#include <cstdint>

namespace nb::proto::agent {

// "NBAGENT1": its first byte is never one of an iperf3 cookie's (a-z, 2-7).
inline constexpr char Magic[] = "NBAGENT1";
constexpr int MagicSize = 8;
constexpr int NonceSize = 32;
constexpr int MacSize = 32; // HMAC-SHA256
constexpr int GreetingSize = MagicSize + NonceSize;
// What the agent answers the greeting with, before its nonce: not a state iperf3 or our
// server sends (ACCESS_DENIED -1, SERVER_ERROR -2, PARAM_EXCHANGE 9), so the controller
// tells "an agent", "busy", "not an agent" and "a stock iperf3" apart from one byte.
constexpr char AgentAnswer = 'A';
// The longest frame each side reads: the agent a controller's (a request, a heartbeat),
// the controller an agent's (the whole -J document of a long test at most).
constexpr std::uint32_t MaxControllerFrame = 64 * 1024;
constexpr std::uint32_t MaxAgentFrame = MaxJsonSize;
// Each side sends something at least this often during a test, and gives the other up
// after SilenceSecs without a frame.
constexpr double HeartbeatSecs = 1;
constexpr double SilenceSecs = 10;

enum class Role { Controller, Agent };

// Each frame is a JSON object whose "type" is one of these (docs/protocol.md §6.2).
namespace message {
// controller -> agent
inline constexpr char Run[] = "run";             // the request: target, options
inline constexpr char Stop[] = "stop";           // end the test now, keep what was measured
inline constexpr char Heartbeat[] = "heartbeat"; // either way: still here
// agent -> controller
inline constexpr char Accepted[] = "accepted"; // the test starts: the address it goes to
inline constexpr char Refused[] = "refused";   // "reason": one line; the connection then closes
inline constexpr char Text[] = "message";      // a progress line of the agent's client
inline constexpr char Started[] = "started";   // "result": the -J document's header
inline constexpr char Interval[] = "interval"; // "interval": one interval
inline constexpr char Finished[] = "finished"; // "result": the whole -J document
} // namespace message

// Whether a connection's first byte starts a greeting rather than an iperf3 cookie.
inline bool isGreetingStart(char c)
{
    return c == Magic[0];
}
// NonceSize bytes from the system's cryptographically secure generator.
QByteArray randomNonce();
// HMAC-SHA256(key, label of the role || controller nonce || agent nonce): what `who`
// sends to prove it holds the key. Each role has its own label, so an answer reflected
// back to its sender never passes.
QByteArray proof(const QByteArray &key, Role who, const QByteArray &controllerNonce, const QByteArray &agentNonce);
// The key that seals this session's frames, from both nonces.
QByteArray sessionKey(const QByteArray &key, const QByteArray &controllerNonce, const QByteArray &agentNonce);
// Compares two MACs in time that does not depend on where they differ.
bool sameMac(const QByteArray &a, const QByteArray &b);

// One direction of a session: each frame is its length (uint32, big-endian), the JSON
// and HMAC-SHA256(session key, the sender's label || frame number || JSON). Frames are
// numbered from 0 per direction, so none can be replayed, reordered or reflected.
class FrameSealer {
public:
    FrameSealer() = default;
    FrameSealer(QByteArray sessionKey, Role sender) : m_key(std::move(sessionKey)), m_sender(sender) {}
    QByteArray seal(const QJsonObject &message);

private:
    QByteArray m_key;
    Role m_sender = Role::Controller;
    std::uint64_t m_next = 0;
};

class FrameOpener {
public:
    enum class Status { NeedMore, Complete, Error };
    FrameOpener() = default;
    FrameOpener(QByteArray sessionKey, Role sender, std::uint32_t maxSize)
        : m_key(std::move(sessionKey))
        , m_sender(sender)
        , m_maxSize(maxSize)
    {
    }
    // Takes bytes of one frame (never more: *consumed says how many). Complete once the
    // frame is in and its MAC checked out; Error for a length over the cap (known from the
    // header alone, before the rest is read), a wrong MAC or text that is not a JSON object.
    Status feed(const char *data, std::size_t size, std::size_t *consumed);
    std::size_t bytesWanted() const;
    // The message of a complete frame; the opener then waits for the next one.
    QJsonObject take();
    QString error() const { return m_error; }

private:
    QByteArray m_key;
    Role m_sender = Role::Controller;
    std::uint32_t m_maxSize = MaxControllerFrame;
    std::uint64_t m_next = 0;
    QByteArray m_buffer;
    std::int64_t m_length = -1;
    QJsonObject m_message;
    QString m_error;
};

// Both directions of a session after the handshake, seen from one side.
struct Session {
    FrameSealer out;
    FrameOpener in;
};
Session sessionFor(Role me, const QByteArray &key, const QByteArray &controllerNonce, const QByteArray &agentNonce);

// The agent's half of the handshake, fed as bytes arrive:
//   controller: greeting (magic, its nonce)       agent: AgentAnswer, its nonce
//   controller: its proof                         agent: (checks it) its own proof
//   controller: the request, the first sealed frame
// Failed at the first wrong byte; nothing of the request is read before the proof.
class AgentHandshake {
public:
    enum class Status { NeedMore, Done, Failed };
    explicit AgentHandshake(QByteArray key) : m_key(std::move(key)) {}
    Status feed(const char *data, std::size_t size, std::size_t *consumed);
    std::size_t bytesWanted() const;
    // What to send now (taken once).
    QByteArray takeOutput();
    // A step ended, so the next message has a deadline of its own.
    bool stepChanged();
    // The controller proved it holds the key (the request may still be missing).
    bool authenticated() const { return m_step == Step::Request || m_step == Step::Done; }
    QJsonObject request() const { return m_request; }
    QString error() const { return m_error; }
    // After Done: the session's remaining frames.
    Session takeSession() { return std::move(m_session); }

private:
    enum class Step { Greeting, Proof, Request, Done, Failed };
    Status fail(const QString &why);
    Status finishGreeting();
    Status finishProof();

    QByteArray m_key;
    Step m_step = Step::Greeting;
    bool m_stepChanged = false;
    QByteArray m_buffer;
    QByteArray m_controllerNonce, m_agentNonce;
    QByteArray m_output;
    Session m_session;
    QJsonObject m_request;
    QString m_error;
};

} // namespace nb::proto::agent
