// SPDX-License-Identifier: GPL-3.0-or-later
#include "datapath/descriptorlimit.h"

#include "datapath/workerpool.h"
#include "platform/platform.h"

#include <algorithm>

namespace nb {

namespace {

int flowCount(const TestParams &params)
{
    return params.kind == TestKind::Crr ? params.connections() : params.dataConnectionCount();
}

} // namespace

int dataDescriptorsNeeded(const TestParams &params, bool serverSide)
{
    const int flows = flowCount(params);
    // Each worker holds an epoll and a wake-up descriptor; a CRR server also a listener.
    const int workers = WorkerPool::workersFor(params.threads, flows);
    const int perWorker = params.kind == TestKind::Crr && serverSide ? 3 : 2;
    return flows + perWorker * workers;
}

QString checkDescriptorLimit(const TestParams &params, bool serverSide)
{
    const int data = dataDescriptorsNeeded(params, serverSide);
    const int open = std::max(0, platform::openFileCount());
    const std::int64_t needed = std::int64_t(data) + open + DescriptorMargin;
    platform::FileLimit limit = platform::fileLimit();
    if (limit.soft >= 0 && limit.soft < needed && limit.hard > limit.soft)
        limit = platform::raiseFileLimit();
    if (limit.soft < 0 || limit.soft >= needed)
        return {};
    // A round figure comfortably above the need, for the command the user copies.
    const std::int64_t suggest = (needed / 1024 + 1) * 1024;
    return QStringLiteral(
               "this test needs about %1 open files (%2 for %8 data connections and their threads, %3 open already, "
               "%4 spare) but "
               "this process may open only %5 (RLIMIT_NOFILE; hard limit %6). Raise the limit where "
               "NicBench starts: 'ulimit -n %7' in its shell (above the hard limit needs root, e.g. "
               "/etc/security/limits.conf), or LimitNOFILE=%7 in its systemd unit")
        .arg(needed)
        .arg(data)
        .arg(open)
        .arg(DescriptorMargin)
        .arg(limit.soft)
        .arg(limit.hard)
        .arg(suggest)
        .arg(flowCount(params));
}

} // namespace nb
