// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/protocol.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QRandomGenerator>
#include <QtEndian>

#include <chrono>
#include <cmath>
#include <cstring>

namespace nb::proto {

bool isKnownState(std::int8_t s)
{
    return (s >= TestStart && s <= IperfDone) || s == AccessDenied || s == ServerError || s == NicbenchHello;
}

QString stateName(std::int8_t s)
{
    static const char *names[] = {
        nullptr,          "TEST_START",       "TEST_RUNNING",     "RESULT_REQUEST",   "TEST_END",
        "STREAM_BEGIN",   "STREAM_RUNNING",   "STREAM_END",       "ALL_STREAMS_END",  "PARAM_EXCHANGE",
        "CREATE_STREAMS", "SERVER_TERMINATE", "CLIENT_TERMINATE", "EXCHANGE_RESULTS", "DISPLAY_RESULTS",
        "IPERF_START",    "IPERF_DONE"};
    if (s >= TestStart && s <= IperfDone)
        return QLatin1String(names[s]);
    if (s == AccessDenied)
        return QStringLiteral("ACCESS_DENIED");
    if (s == ServerError)
        return QStringLiteral("SERVER_ERROR");
    if (s == NicbenchHello)
        return QStringLiteral("NICBENCH_HELLO");
    return QStringLiteral("unknown state %1").arg(int(s));
}

QByteArray makeCookie()
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
    QByteArray cookie(CookieSize, '\0');
    auto *rng = QRandomGenerator::system();
    for (int i = 0; i < CookieSize - 1; ++i)
        cookie[i] = alphabet[rng->bounded(32)];
    return cookie;
}

bool isValidCookie(const QByteArray &cookie)
{
    return cookie.size() == CookieSize && cookie.at(CookieSize - 1) == '\0' &&
           std::strlen(cookie.constData()) == size_t(CookieSize - 1);
}

QByteArray frameJson(const QJsonObject &object)
{
    const QByteArray body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    QByteArray out(4, '\0');
    qToBigEndian<quint32>(quint32(body.size()), out.data());
    out += body;
    return out;
}

std::size_t JsonFrameDecoder::bytesWanted() const
{
    if (!m_length)
        return 4 - size_t(m_header.size());
    return *m_length - size_t(m_body.size());
}

JsonFrameDecoder::Status JsonFrameDecoder::feed(const char *data, std::size_t size, std::size_t *consumed)
{
    std::size_t used = 0;
    if (!m_error.isEmpty()) {
        *consumed = 0;
        return Status::Error;
    }
    if (!m_length) {
        const std::size_t take = std::min(size, 4 - size_t(m_header.size()));
        m_header.append(data, qsizetype(take));
        used += take;
        if (m_header.size() < 4) {
            *consumed = used;
            return Status::NeedMore;
        }
        const quint32 len = qFromBigEndian<quint32>(m_header.constData());
        if (len > m_maxSize) {
            m_error = QStringLiteral("JSON message of %1 bytes exceeds the limit of %2").arg(len).arg(m_maxSize);
            *consumed = used;
            return Status::Error;
        }
        if (len == 0) {
            m_error = QStringLiteral("empty JSON message");
            *consumed = used;
            return Status::Error;
        }
        m_length = len;
        m_body.reserve(qsizetype(len));
    }
    const std::size_t take = std::min(size - used, *m_length - size_t(m_body.size()));
    m_body.append(data + used, qsizetype(take));
    used += take;
    *consumed = used;
    if (size_t(m_body.size()) < *m_length)
        return Status::NeedMore;
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(m_body, &perr);
    if (perr.error != QJsonParseError::NoError) {
        m_error = QStringLiteral("malformed JSON: %1").arg(perr.errorString());
        return Status::Error;
    }
    if (!doc.isObject()) {
        m_error = QStringLiteral("JSON message is not an object");
        return Status::Error;
    }
    m_object = doc.object();
    return Status::Complete;
}

std::optional<std::int64_t> toInt64(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!std::isfinite(d))
        return std::nullopt;
    // 3.12 prints -1 as 2^64-1; anything >= 2^63 is a negative number printed unsigned.
    if (d >= 9223372036854775808.0) {
        const double wrapped = d - 18446744073709551616.0;
        return wrapped > -1.0 ? std::int64_t(-1) : std::int64_t(wrapped);
    }
    if (d < -9223372036854775808.0)
        return std::nullopt;
    return std::int64_t(d);
}

std::optional<double> toDouble(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!std::isfinite(d))
        return std::nullopt;
    return d;
}

// The texts are libiperf 3.12's iperf_strerror() for the same numbers (Debian 12's iperf3),
// shortened where it appends errno; tst_protocol checks them against the installed library.
QString iperfErrorText(int e)
{
    switch (e) {
    case 1:
        return QStringLiteral("cannot be both server and client");
    case 5:
        return QStringLiteral("test duration too long for this server");
    case 6:
        return QStringLiteral("number of parallel streams too large for this server");
    case 27:
        return QStringLiteral("total required bandwidth is larger than the server's limit");
    case 100:
        return QStringLiteral("unable to create a new test");
    case 101:
        return QStringLiteral("test initialization failed");
    case 102:
        return QStringLiteral("unable to start listener for connections");
    case 103:
        return QStringLiteral("unable to connect to server");
    case 104:
        return QStringLiteral("unable to accept connection from client");
    case 105:
        return QStringLiteral("unable to send cookie to server");
    case 106:
        return QStringLiteral("unable to receive cookie at server");
    case 107:
        return QStringLiteral("unable to write to the control socket");
    case 108:
        return QStringLiteral("unable to read from the control socket");
    case 109:
        return QStringLiteral("control socket has closed unexpectedly");
    case 110:
        return QStringLiteral("received an unknown control message");
    case 111:
        return QStringLiteral("unable to send control message");
    case 112:
        return QStringLiteral("unable to receive control message");
    case 113:
        return QStringLiteral("unable to send parameters to server");
    case 114:
        return QStringLiteral("unable to receive parameters from client");
    case 115:
        return QStringLiteral("unable to package results");
    case 116:
        return QStringLiteral("unable to send results");
    case 117:
        return QStringLiteral("unable to receive results");
    case 118:
        return QStringLiteral("select failed");
    case 119:
        return QStringLiteral("the client has terminated");
    case 120:
        return QStringLiteral("the server has terminated");
    case 121:
        return QStringLiteral("the server is busy running a test");
    case 142:
        return QStringLiteral("test authorization failed");
    case 144:
        return QStringLiteral("idle timeout for receiving data");
    case 200:
        return QStringLiteral("unable to create a new stream");
    case 201:
        return QStringLiteral("unable to initialize stream");
    case 202:
        return QStringLiteral("unable to start stream listener");
    case 203:
        return QStringLiteral("unable to connect stream");
    case 204:
        return QStringLiteral("unable to accept stream connection");
    case 205:
        return QStringLiteral("unable to write to stream socket");
    case 206:
        return QStringLiteral("unable to read from stream socket");
    case 207:
        return QStringLiteral("stream socket has closed unexpectedly");
    case 208:
        return QStringLiteral("stream has an invalid id");
    default:
        return QStringLiteral("iperf3 error %1").arg(e);
    }
}

} // namespace nb::proto
