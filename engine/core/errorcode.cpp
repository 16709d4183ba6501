// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/errorcode.h"

#include <array>
#include <utility>

namespace nb {

namespace {
struct Entry {
    ErrorCode code;
    const char *name;
    const char *message;
};
constexpr std::array<Entry, 16> entries{{
    {ErrorCode::None, "", ""},
    {ErrorCode::Stopped, "stopped", "stopped"},
    {ErrorCode::Busy, "busy", "the server is busy running a test"},
    {ErrorCode::Refused, "refused", "the connection was refused"},
    {ErrorCode::Unreachable, "unreachable", "the host is unreachable"},
    {ErrorCode::Resolve, "resolve", "the host name does not resolve"},
    {ErrorCode::Timeout, "timeout", "the peer did not answer in time"},
    {ErrorCode::Protocol, "protocol", "the peer broke the protocol"},
    {ErrorCode::PeerClosed, "peer_closed", "the peer closed the connection"},
    {ErrorCode::Unsupported, "unsupported", "the peer cannot run this test"},
    {ErrorCode::InvalidParams, "invalid_params", "invalid test parameters"},
    {ErrorCode::ServerError, "server_error", "the server reported an error"},
    {ErrorCode::Io, "io", "a network error occurred"},
    {ErrorCode::Limit, "limit", "a system limit is too low for this test"},
    {ErrorCode::AuthFailed, "auth_failed", "authentication failed"},
    {ErrorCode::NoData, "no_data", "the test moved no data"},
}};
} // namespace

QString errorCodeMessage(ErrorCode code)
{
    return QLatin1String(entries[std::size_t(code)].message);
}

QString errorCodeName(ErrorCode code)
{
    return QLatin1String(entries[std::size_t(code)].name);
}

ErrorCode errorCodeFromName(const QString &name)
{
    for (const Entry &e : entries)
        if (!name.isEmpty() && name == QLatin1String(e.name))
            return e.code;
    return ErrorCode::None;
}

} // namespace nb
