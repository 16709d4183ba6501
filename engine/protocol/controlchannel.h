// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The iperf3 control connection as one object, used by the client, the server and the
// info query alike: state bytes, length-prefixed JSON, SERVER_ERROR both ways, and the
// polite CLIENT_TERMINATE exit.

#include "net/io.h"
#include "protocol/protocol.h"

#include <QJsonObject>
#include <QString>

#include <atomic>
#include <cstdint>

namespace nb::proto {

// Length-prefixed JSON on any connected socket (ControlChannel uses these; so do tests
// that play a scripted peer). A frame larger than maxSize is refused at once, before any
// of it is read.
net::IoStatus readJson(const net::Socket &s, QJsonObject *object, net::Deadline deadline, QString *error,
                       std::uint32_t maxSize = MaxJsonSize);
net::IoStatus writeJson(const net::Socket &s, const QJsonObject &object, net::Deadline deadline, QString *error);

class ControlChannel {
public:
    ControlChannel() = default;
    explicit ControlChannel(net::Socket socket) : m_socket(std::move(socket)) {}

    bool valid() const { return m_socket.valid(); }
    const net::Socket &socket() const { return m_socket; }
    void close() { m_socket.reset(); }
    net::Socket takeSocket() { return std::move(m_socket); }

    net::IoStatus readBytes(void *buffer, std::size_t size, net::Deadline deadline, QString *error,
                            const std::atomic<bool> *cancel = nullptr) const;
    net::IoStatus writeBytes(const void *data, std::size_t size, net::Deadline deadline, QString *error) const;
    net::IoStatus readState(std::int8_t *state, net::Deadline deadline, QString *error,
                            const std::atomic<bool> *cancel = nullptr) const;
    net::IoStatus writeState(std::int8_t state, net::Deadline deadline, QString *error) const;
    net::IoStatus readJson(QJsonObject *object, net::Deadline deadline, QString *error,
                           std::uint32_t maxSize = MaxJsonSize) const
    {
        return proto::readJson(m_socket, object, deadline, error, maxSize);
    }
    net::IoStatus writeJson(const QJsonObject &object, net::Deadline deadline, QString *error) const
    {
        return proto::writeJson(m_socket, object, deadline, error);
    }

    // Reads the two int32 that follow SERVER_ERROR (3.12's auth path sends only the first)
    // and returns "the server reported an error: TEXT (errno text)". *iErrno is -1 when
    // not even the first arrived.
    QString readServerError(net::Deadline deadline, int *iErrno = nullptr) const;
    // Sends SERVER_ERROR with iperf3's i_errno and errno (server side).
    void sendError(int iErrno, int sysErrno = 0) const;

    // What went wrong when a state other than the awaited one arrived.
    struct Unexpected {
        enum Kind { Busy, ServerError, Terminated, Protocol } kind = Protocol;
        QString message;
        int iErrno = -1; // ServerError only
    };
    // Turns an unexpected state byte into the message a user should read (reading the
    // SERVER_ERROR payload when that is what came).
    Unexpected unexpectedState(std::int8_t state, const char *waitingFor) const;

    // Client side: abandons the exchange with CLIENT_TERMINATE and returns once the server
    // has hung up (at most maxSeconds), then waits graceSeconds more, and closes. A stock
    // iperf3 3.12 server closes the control connection, then closes and reopens its
    // listening socket; a connection that arrives in between (the caller's next test,
    // started at once) is reset. A few milliseconds cover that on an idle machine; the
    // grace is for a busy one.
    void terminate(double maxSeconds, double graceSeconds = 0);

private:
    net::Socket m_socket;
};

} // namespace nb::proto
