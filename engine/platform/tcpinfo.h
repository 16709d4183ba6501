// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace nb::platform {

// What the kernel knows about one TCP connection. Fields are -1 where unknown.
struct TcpInfo {
    std::int64_t totalRetransmits = -1;
    std::int64_t cwndBytes = -1;
    std::int64_t rttUs = -1;
    std::int64_t rttVarUs = -1;
    std::int64_t pmtu = -1;
    std::int64_t sndMss = -1;
};

// Reads TCP_INFO (Linux) for a connected socket; false where the platform has none.
bool readTcpInfo(int fd, TcpInfo *out);

} // namespace nb::platform
