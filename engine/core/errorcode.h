// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Why a test or query failed, as a code callers can branch on. The detailed message that
// goes with it (TestResult::error) is for people; no caller should parse it.

#include <QString>

namespace nb {

enum class ErrorCode {
    None,
    Stopped,       // the user stopped it before there was anything to keep
    Busy,          // the server is running another test (ACCESS_DENIED, iperf3 error 121)
    Refused,       // nothing listens at that address and port
    Unreachable,   // no route to the host or network
    Resolve,       // the host name does not resolve
    Timeout,       // the peer did not answer in time
    Protocol,      // the peer does not speak the protocol we expected, or broke it
    PeerClosed,    // the peer closed or reset a connection we needed
    Unsupported,   // the peer cannot run this kind of test (RR against stock iperf3)
    InvalidParams, // the parameters were refused before anything was sent
    ServerError,   // the server reported an error (SERVER_ERROR)
    Io,            // another system error on a socket
    Limit,         // a limit of this machine is too low for the test (open files)
    AuthFailed,    // authentication failed (iperf3 error 142) or its options are unusable
    NoData,        // the test ran but moved no data or completed no transaction
};

// A sentence for the code alone ("the server is busy running a test").
QString errorCodeMessage(ErrorCode code);
// Stable lower-case name for files and JSON ("busy"); errorCodeFromName reads it back
// (None for an empty or unknown name, so older files load).
QString errorCodeName(ErrorCode code);
ErrorCode errorCodeFromName(const QString &name);

} // namespace nb
