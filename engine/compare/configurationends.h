// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which adapter and which server carried each configuration (review M10): a comparison of an
// E1000 guest with a VMXNET3 guest has two servers, and the report, the Environment tab and
// the CLI report must name both, per configuration, with the adapters the runs recorded
// (not every adapter the client has).

#include "compare/comparison.h"
#include "platform/adapterinfo.h"
#include "platform/hostenvironment.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace nb {

// "eth0: VMware VMXNET3, vmxnet3, 10 Gbit/s, MTU 1500, 198.18.0.12/24"
QString adapterText(const AdapterInfo &adapter);
// "guest-e1000, Debian GNU/Linux 12 (bookworm), 1 CPU"; empty when nothing is known.
QString hostText(const HostEnvironment &host);

struct ConfigurationEnds {
    int configIndex = 0;
    QString agent;          // the agent that ran the tests (Configuration::from), or empty
    QStringList client;     // adapterText of each client adapter the runs used (usually one)
    QStringList server;     // adapterText of each server adapter
    QStringList serverHost; // hostText of each server machine
};

// One per configuration, in order, from its runs (failed runs that got that far included).
QList<ConfigurationEnds> configurationEnds(const Comparison &c);
// True when the configurations' runs went to more than one server machine.
bool serversDiffer(const QList<ConfigurationEnds> &ends);
// "E1000: client lo: loopback, MTU 65536 -> server guest-e1000 (Debian, 1 CPU), eth0: ..."
// per configuration; "unknown" for an end no run recorded.
QStringList configurationEndsLines(const Comparison &c);

} // namespace nb
