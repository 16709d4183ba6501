// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The controller's side of a test an agent runs (nicbench-cli -c B --from A --agent-key FILE,
// docs/protocol.md §6): the handshake, the request, then the agent's reports handed to the
// listener as they arrive, and the agent's whole result.

#include "model/results.h"
#include "model/testlistener.h"
#include "protocol/agentchannel.h"
#include "session/commandline.h"

#include <atomic>

namespace nb {

class AgentController {
public:
    // cl: a client command line with --from and --agent-key (parseCommandLine checked it).
    AgentController(CommandLine cl, TestListener *listener = nullptr);
    // Blocks until the agent's test ends. On success the agent's result with driven_by; on
    // failure the error, and what the agent reported before (its header and intervals).
    TestResult run();
    // From any thread: asks the agent to end the test now, keeping what was measured.
    void requestStop() { m_stop.store(true); }
    // The handshake's duration (connected to authenticated both ways), once run() got there.
    double handshakeSeconds() const { return m_handshakeSecs; }

private:
    CommandLine m_cl;
    TestListener *m_listener;
    std::atomic<bool> m_stop{false};
    double m_handshakeSecs = -1;
};

// The controller's one line for a handshake that did not end Ok ("the agent A port P
// refused the key: FILE is not the key the agent was started with"); *code its kind.
// agentName is "HOST port PORT", `why` the detail of a Failed handshake.
QString agentHandshakeError(proto::agent::HandshakeResult r, const QString &agentName, const QString &keyPath,
                            const QString &why, ErrorCode *code = nullptr);

} // namespace nb
