// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/formfields.h"

#include <core/hostport.h>
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

bool splitTarget(const QString &text, QString *host, int *port, QString *error)
{
    QString why;
    if (nb::splitHostPort(text, host, port, &why))
        return true;
    *error = QObject::tr("Target: %1").arg(why);
    return false;
}

QString joinTarget(const QString &host, int port)
{
    if (port <= 0)
        return host;
    return host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(host).arg(port)
                                           : QStringLiteral("%1:%2").arg(host).arg(port);
}

} // namespace nb::gui
