// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/formfields.h"

#include <core/units.h>

#include <QLineEdit>
#include <QObject>

#include <limits>

namespace nb::gui {

QString sizeFieldText(std::uint64_t bytes)
{
    return bytes == 0 ? QString() : nb::param::sizeText(double(bytes));
}

std::uint64_t sizeMax(nb::param::Id id)
{
    // 2^64 - 1 as a double rounds up to 2^64, which does not convert back.
    const double max = nb::param::parameter(id).max;
    return max >= 18446744073709551615.0 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(max);
}

bool sizeField(const QLineEdit *edit, const QString &what, std::uint64_t max, std::uint64_t *out, QString *error)
{
    const QString text = edit->text().trimmed();
    if (text.isEmpty()) {
        *out = 0;
        return true;
    }
    QString why;
    const auto v = nb::parseSize(text, &why);
    if (!v || *v > max) {
        *error = v ? QObject::tr("%1 '%2' is too large").arg(what, text) : QStringLiteral("%1: %2").arg(what, why);
        return false;
    }
    *out = *v;
    return true;
}

namespace {

bool targetPort(const QString &text, int *port, QString *error)
{
    bool ok = false;
    const int p = text.toInt(&ok);
    if (!ok || p < 1 || p > 65535) {
        *error = QObject::tr("Target: port '%1' must be a whole number from 1 to 65535").arg(text);
        return false;
    }
    *port = p;
    return true;
}

} // namespace

bool splitTarget(const QString &text, QString *host, int *port, QString *error)
{
    *port = 0;
    *host = text.trimmed();
    if (host->startsWith(QLatin1Char('['))) {
        const qsizetype close = host->indexOf(QLatin1Char(']'));
        if (close < 0) {
            *error = QObject::tr("Target: '%1' has no closing ']'").arg(*host);
            return false;
        }
        const QString rest = host->mid(close + 1);
        *host = host->mid(1, close - 1);
        if (rest.isEmpty())
            return true;
        if (!rest.startsWith(QLatin1Char(':'))) {
            *error = QObject::tr("Target: '%1' after ']' is not ':port'").arg(rest);
            return false;
        }
        return targetPort(rest.mid(1), port, error);
    }
    if (host->count(QLatin1Char(':')) != 1)
        return true;
    const qsizetype colon = host->indexOf(QLatin1Char(':'));
    if (!targetPort(host->mid(colon + 1), port, error))
        return false;
    host->truncate(colon);
    return true;
}

} // namespace nb::gui
