// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small helpers the test form's field groups share: ranges and tooltips from the
// parameter table, size fields typed the way iperf users write them, and "host:port".

#include <model/parameters.h>

#include <QString>

#include <cstdint>

class QLineEdit;

namespace nb::gui {

// 131072 -> "128K": the form an iperf user types; 0 (not set) is an empty field.
QString sizeFieldText(std::uint64_t bytes);

// Range and tooltip from the parameter table; a value that may be 0 for "none" gets 0.
template <typename Spin> void rangeFromTable(Spin *spin, nb::param::Id id, double scale = 1)
{
    const nb::param::Parameter &p = nb::param::parameter(id);
    spin->setRange(p.zeroIsNone ? 0 : p.min * scale, p.max * scale);
    spin->setToolTip(nb::param::toolTip(p));
}

// The table's largest value of a size row, as a byte count.
std::uint64_t sizeMax(nb::param::Id id);

// Reads a size field ("128K"); empty is 0. False with a one-line *error when it does not
// parse or exceeds max.
bool sizeField(const QLineEdit *edit, const QString &what, std::uint64_t max, std::uint64_t *out, QString *error);

// Splits "host:port" and "[v6]:port"; a bare IPv6 address keeps its colons. *port is 0 when
// none is given. False with a one-line *error when a port is given but is not a whole number
// from 1 to 65535 ("127.0.0.1:99999"): the text never goes to the resolver as a host name.
bool splitTarget(const QString &text, QString *host, int *port, QString *error);
// The reverse: "host:port", "[v6]:port"; the host alone for port 0.
QString joinTarget(const QString &host, int port);

} // namespace nb::gui
