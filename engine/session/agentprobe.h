// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Is an agent there, and does it take our key? What the window's Hosts view shows per agent:
// its machine and adapters from the info query (docs/protocol.md §2.6), then the agent
// handshake alone (§6.3): both ends prove they hold the key and the controller closes
// before any request, so nothing runs. Each step has a deadline; the whole probe is bounded.

#include "core/errorcode.h"
#include "platform/hostenvironment.h"

#include <QString>

#include <atomic>

namespace nb {

struct AgentProbe {
    QString host;
    quint16 port = 5201;
    QString keyPath;                           // empty: the key is not checked
    double timeoutSeconds = 5;                 // each step's deadline, connect included
    const std::atomic<bool> *cancel = nullptr; // optional: set it to abandon the probe
};

struct AgentStatus {
    enum class Key { NotChecked, Accepted, Failed };

    bool infoOk = false;
    HostEnvironment info; // the machine and its adapters when infoOk
    QString infoError;    // why not ("cannot connect to HOST port PORT: Connection refused")
    ErrorCode infoCode = ErrorCode::None;
    Key key = Key::NotChecked;
    QString keyError; // why not (a wrong key, not an agent, busy, ...)
    ErrorCode keyCode = ErrorCode::None;
    double handshakeSeconds = -1; // connected to both proofs checked, when Accepted

    // Something answered on the agent's port (the info query, or the handshake got that far).
    bool reachable() const;
    // Ready to run tests: it answered and took the key (or no key was checked).
    bool ok() const { return reachable() && key != Key::Failed; }
    // The first thing wrong, in one line (a failed key check before a failed info query);
    // empty when both steps that ran succeeded.
    QString problem() const;
};

// Blocking: at most two steps of timeoutSeconds. The handshake is skipped when the info
// query could not connect at all (nothing listens, no route, no such name, no answer).
AgentStatus probeAgent(const AgentProbe &probe);

} // namespace nb
