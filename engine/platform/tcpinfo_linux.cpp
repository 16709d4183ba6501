// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/tcpinfo.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace nb::platform {

bool readTcpInfo(int fd, TcpInfo *out)
{
    tcp_info info{};
    socklen_t len = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) < 0)
        return false;
    out->totalRetransmits = info.tcpi_total_retrans;
    out->cwndBytes = std::int64_t(info.tcpi_snd_cwnd) * info.tcpi_snd_mss;
    out->rttUs = info.tcpi_rtt;
    out->rttVarUs = info.tcpi_rttvar;
    out->pmtu = info.tcpi_pmtu;
    out->sndMss = info.tcpi_snd_mss;
    return true;
}

} // namespace nb::platform
