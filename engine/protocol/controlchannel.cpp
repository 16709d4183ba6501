// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/controlchannel.h"

#include <QtEndian>

#include <algorithm>
#include <chrono>
#include <thread>

namespace nb::proto {

net::IoStatus ControlChannel::readBytes(void *buffer, std::size_t size, net::Deadline deadline, QString *error,
                                        const std::atomic<bool> *cancel) const
{
    return net::readExact(m_socket, buffer, size, deadline, error, cancel);
}

net::IoStatus ControlChannel::writeBytes(const void *data, std::size_t size, net::Deadline deadline,
                                         QString *error) const
{
    return net::writeAll(m_socket, data, size, deadline, error);
}

net::IoStatus ControlChannel::readState(std::int8_t *state, net::Deadline deadline, QString *error,
                                        const std::atomic<bool> *cancel) const
{
    char c = 0;
    const net::IoStatus s = readBytes(&c, 1, deadline, error, cancel);
    if (s == net::IoStatus::Ok)
        *state = std::int8_t(c);
    return s;
}

net::IoStatus ControlChannel::writeState(std::int8_t state, net::Deadline deadline, QString *error) const
{
    const char c = char(state);
    return writeBytes(&c, 1, deadline, error);
}

net::IoStatus readJson(const net::Socket &s, QJsonObject *object, net::Deadline deadline, QString *error,
                       std::uint32_t maxSize)
{
    JsonFrameDecoder decoder(maxSize);
    char buf[65536];
    // A peer that answers with SERVER_ERROR where a message belongs (a server refusing our
    // results) would otherwise read as a "JSON message of 4261412864 bytes": its state byte
    // (-2) and the top of its error number make the length.
    char header[4];
    const net::IoStatus headerStatus = net::readExact(s, header, sizeof header, deadline, error);
    if (headerStatus != net::IoStatus::Ok)
        return headerStatus;
    if (header[0] == char(ServerError) && qFromBigEndian<quint32>(header) > maxSize) {
        unsigned char rest[5] = {};
        QString ignored;
        const bool whole = net::readExact(s, rest, sizeof rest, std::min(deadline, net::deadlineIn(0.5)), &ignored) ==
                           net::IoStatus::Ok;
        const unsigned char code[4] = {static_cast<unsigned char>(header[1]), static_cast<unsigned char>(header[2]),
                                       static_cast<unsigned char>(header[3]), rest[0]};
        *error = whole ? QStringLiteral("the peer reported an error instead: %1")
                             .arg(iperfErrorText(int(qFromBigEndian<qint32>(code))))
                       : QStringLiteral("the peer reported an error instead");
        return net::IoStatus::Error;
    }
    std::size_t used = 0;
    if (decoder.feed(header, sizeof header, &used) == JsonFrameDecoder::Status::Error) {
        *error = decoder.error();
        return net::IoStatus::Error;
    }
    for (;;) {
        const std::size_t want = std::min(decoder.bytesWanted(), sizeof buf);
        const net::IoStatus status = net::readExact(s, buf, want, deadline, error);
        if (status != net::IoStatus::Ok)
            return status;
        std::size_t used = 0;
        switch (decoder.feed(buf, want, &used)) {
        case JsonFrameDecoder::Status::NeedMore:
            continue;
        case JsonFrameDecoder::Status::Complete:
            *object = decoder.object();
            return net::IoStatus::Ok;
        case JsonFrameDecoder::Status::Error:
            *error = decoder.error();
            return net::IoStatus::Error;
        }
    }
}

net::IoStatus writeJson(const net::Socket &s, const QJsonObject &object, net::Deadline deadline, QString *error)
{
    const QByteArray frame = frameJson(object);
    return net::writeAll(s, frame.constData(), std::size_t(frame.size()), deadline, error);
}

QString ControlChannel::readServerError(net::Deadline deadline, int *iErrno) const
{
    unsigned char buf[8] = {};
    QString err;
    if (iErrno)
        *iErrno = -1;
    if (readBytes(buf, 4, deadline, &err) != net::IoStatus::Ok)
        return QStringLiteral("the server reported an error");
    const int code = int(qFromBigEndian<qint32>(buf));
    if (iErrno)
        *iErrno = code;
    QString text = QStringLiteral("the server reported an error: %1").arg(iperfErrorText(code));
    if (readBytes(buf + 4, 4, std::min(deadline, net::deadlineIn(0.5)), &err) == net::IoStatus::Ok) {
        const int sysErrno = int(qFromBigEndian<qint32>(buf + 4));
        if (sysErrno != 0)
            text += QStringLiteral(" (%1)").arg(net::systemErrorText(sysErrno));
    }
    return text;
}

void ControlChannel::sendError(int iErrno, int sysErrno) const
{
    unsigned char buf[9];
    buf[0] = static_cast<unsigned char>(ServerError);
    qToBigEndian<qint32>(iErrno, buf + 1);
    qToBigEndian<qint32>(sysErrno, buf + 5);
    QString ignored;
    writeBytes(buf, sizeof buf, net::deadlineIn(1), &ignored);
}

ControlChannel::Unexpected ControlChannel::unexpectedState(std::int8_t state, const char *waitingFor) const
{
    switch (state) {
    case AccessDenied:
        // A server's allow-list (--allow) answers clients it does not take the same way.
        return {Unexpected::Busy, QStringLiteral("the server is busy running a test (or does not take clients from "
                                                 "this address); try again later")};
    case ServerError: {
        Unexpected u{Unexpected::ServerError, {}};
        u.message = readServerError(net::deadlineIn(2), &u.iErrno);
        return u;
    }
    case ServerTerminate:
        return {Unexpected::Terminated, QStringLiteral("the server terminated the test")};
    default:
        return {Unexpected::Protocol, QStringLiteral("protocol error: expected %1 from the server, got %2")
                                          .arg(QLatin1String(waitingFor), stateName(state))};
    }
}

void ControlChannel::terminate(double maxSeconds, double graceSeconds)
{
    const net::Deadline until = net::deadlineIn(maxSeconds);
    QString ignored;
    if (writeState(ClientTerminate, until, &ignored) != net::IoStatus::Ok) {
        close();
        return;
    }
    char drain[256];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - net::Clock::now()).count();
        if (left <= 0 || net::waitReadable(m_socket, int(left)) <= 0) {
            close();
            return; // still connected: no point in a grace
        }
        const net::Transfer t = net::receiveSome(m_socket, drain, sizeof drain);
        if (t.status == net::IoStatus::Closed || t.status == net::IoStatus::Error)
            break; // hung up (or reset): the server is past this exchange
    }
    close();
    const auto left = until - net::Clock::now();
    const auto grace = std::chrono::duration_cast<net::Clock::duration>(std::chrono::duration<double>(graceSeconds));
    if (left > net::Clock::duration::zero() && grace > net::Clock::duration::zero())
        std::this_thread::sleep_for(std::min(left, grace));
}

} // namespace nb::proto
