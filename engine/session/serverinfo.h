// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Asking a NicBench server about its machine (OS, kernel, CPU, adapters and their
// addresses) without running a test: the "info" query of the protocol extension
// (docs/protocol.md §2.6). A stock iperf3 server cannot answer; the query then fails with a
// clear message and leaves that server ready for its next client.

#include "core/errorcode.h"
#include "model/testparams.h"
#include "platform/hostenvironment.h"

#include <QJsonObject>
#include <QString>

#include <atomic>

namespace nb {

struct ServerInfoQuery {
    QString host;
    quint16 port = 5201;
    QString bindAddress;                       // -B; empty lets the routing table choose
    double timeoutSeconds = 5;                 // whole query, connect included
    AddressFamily family = AddressFamily::Any; // -4 / -6
    const std::atomic<bool> *cancel = nullptr; // optional: set it to abandon the query
    // Credentials for a server that requires authentication (test/authoptions.h); it
    // refuses the query without them, as it refuses a test.
    QString username, rsaPublicKeyPath, password;
};

// Blocking; bounded by timeoutSeconds. On success fills `out` (known = true); on failure
// *error is the message and *code (when given) its kind (Stopped when cancelled).
bool queryServerInfo(const ServerInfoQuery &query, HostEnvironment *out, QString *error, ErrorCode *code = nullptr);

// Wire format shared by the client and our server (docs/protocol.md §2.6).
// The iperf3 parameter JSON of an info query: a well-formed one-stream test, so that a
// stock iperf3 server answers it as usual (with CREATE_STREAMS), plus nicbench.test "info".
QJsonObject infoQueryParameters();
// True when a received parameter JSON asks for the info query instead of a test.
bool isInfoQuery(const QJsonObject &iperfParams);
// The hello's "host" object: the machine with its adapters (no counters), at most
// MaxHelloAdapters of them so the hello stays small on hosts with hundreds of veths.
constexpr int MaxHelloAdapters = 256;
QJsonObject helloHostJson(const HostEnvironment &host);

} // namespace nb
