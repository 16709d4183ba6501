// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "host:port" as people type it, for the window's Target box and the CLI's --from.

#include <QString>

namespace nb {

// Splits "host:port", "[v6]:port" and "host"; a bare IPv6 address keeps its colons. *port is
// 0 when none is given. False with a one-line *error (the caller names the field) when a
// port is given but is not a whole number from 1 to 65535 ("127.0.0.1:99999"), so the text
// never goes to the resolver as a host name.
bool splitHostPort(const QString &text, QString *host, int *port, QString *error);

} // namespace nb
