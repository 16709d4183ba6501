// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/hostport.h"

namespace nb {

namespace {

bool portFromText(const QString &text, int *port, QString *error)
{
    bool ok = false;
    const int p = text.toInt(&ok);
    if (!ok || p < 1 || p > 65535) {
        *error = QStringLiteral("port '%1' must be a whole number from 1 to 65535").arg(text);
        return false;
    }
    *port = p;
    return true;
}

} // namespace

bool splitHostPort(const QString &text, QString *host, int *port, QString *error)
{
    *port = 0;
    *host = text.trimmed();
    if (host->startsWith(QLatin1Char('['))) {
        const qsizetype close = host->indexOf(QLatin1Char(']'));
        if (close < 0) {
            *error = QStringLiteral("'%1' has no closing ']'").arg(*host);
            return false;
        }
        const QString rest = host->mid(close + 1);
        *host = host->mid(1, close - 1);
        if (rest.isEmpty())
            return true;
        if (!rest.startsWith(QLatin1Char(':'))) {
            *error = QStringLiteral("'%1' after ']' is not ':port'").arg(rest);
            return false;
        }
        return portFromText(rest.mid(1), port, error);
    }
    if (host->count(QLatin1Char(':')) != 1)
        return true;
    const qsizetype colon = host->indexOf(QLatin1Char(':'));
    if (!portFromText(host->mid(colon + 1), port, error))
        return false;
    host->truncate(colon);
    return true;
}

} // namespace nb
