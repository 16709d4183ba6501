// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labreport.h"

#include <QJsonArray>

#include <array>
#include <utility>

namespace nb::lab {

namespace {

constexpr std::array<std::pair<UpEvent::Kind, const char *>, 6> kEventNames{{
    {UpEvent::Kind::Starting, "starting"},
    {UpEvent::Kind::Booting, "booting"},
    {UpEvent::Kind::Up, "up"},
    {UpEvent::Kind::Failed, "failed"},
    {UpEvent::Kind::Ready, "ready"},
    {UpEvent::Kind::Error, "error"},
}};

QJsonObject guestStatusJson(const GuestState &g)
{
    return QJsonObject{
        {QStringLiteral("name"), g.name},
        {QStringLiteral("adapter"), g.adapter},
        {QStringLiteral("device"), g.device},
        {QStringLiteral("driver"), g.driver},
        {QStringLiteral("address"), g.address},
        {QStringLiteral("state"), g.state},
        {QStringLiteral("pid"), g.pid},
        {QStringLiteral("tap"), g.tap},
        {QStringLiteral("port"), g.port},
        {QStringLiteral("mtu"), g.mtu},
        {QStringLiteral("link_speed_mbps"), g.speedMbps},
        {QStringLiteral("boot_seconds"), g.bootSeconds},
        {QStringLiteral("rss_kb"), g.rssKb},
    };
}

GuestState guestFromStatusJson(const QJsonObject &json)
{
    // The state file's fields (a status line has no mac, folder or start time), then the status's own.
    GuestState g = GuestState::fromJson(json);
    g.state = json.value(QStringLiteral("state")).toString();
    g.mtu = json.value(QStringLiteral("mtu")).toInt();
    g.speedMbps = json.value(QStringLiteral("link_speed_mbps")).toInteger(-1);
    g.bootSeconds = json.value(QStringLiteral("boot_seconds")).toDouble(-1);
    g.rssKb = json.value(QStringLiteral("rss_kb")).toInteger(-1);
    return g;
}

} // namespace

UpEvent UpEvent::starting(const LabState &lab, const QString &text)
{
    UpEvent e;
    e.kind = Kind::Starting;
    e.lab = lab;
    e.text = text;
    return e;
}

UpEvent UpEvent::booting(const GuestState &guest, const QString &text)
{
    UpEvent e;
    e.kind = Kind::Booting;
    e.guest = guest;
    e.text = text;
    return e;
}

UpEvent UpEvent::up(const GuestState &guest, double seconds, const QString &text)
{
    UpEvent e;
    e.kind = Kind::Up;
    e.guest = guest;
    e.seconds = seconds;
    e.text = text;
    return e;
}

UpEvent UpEvent::failed(const GuestState &guest, const QString &why, const QString &console)
{
    UpEvent e;
    e.kind = Kind::Failed;
    e.guest = guest;
    e.text = why;
    e.console = console;
    return e;
}

UpEvent UpEvent::ready(const QString &text)
{
    UpEvent e;
    e.kind = Kind::Ready;
    e.text = text;
    return e;
}

UpEvent UpEvent::error(const QString &text)
{
    UpEvent e;
    e.kind = Kind::Error;
    e.text = text;
    return e;
}

QJsonObject UpEvent::toJson() const
{
    QJsonObject o{{QStringLiteral("event"), QString()}};
    for (const auto &[k, name] : kEventNames) {
        if (k == kind)
            o.insert(QStringLiteral("event"), QString::fromLatin1(name));
    }
    if (kind == Kind::Starting)
        o.insert(QStringLiteral("lab"), statusJson(lab, {}));
    if (!guest.name.isEmpty())
        o.insert(QStringLiteral("guest"), guestStatusJson(guest));
    if (!text.isEmpty())
        o.insert(QStringLiteral("text"), text);
    if (!console.isEmpty())
        o.insert(QStringLiteral("console"), console);
    if (seconds >= 0)
        o.insert(QStringLiteral("seconds"), seconds);
    return o;
}

std::optional<UpEvent> UpEvent::fromJson(const QJsonObject &json)
{
    const QString name = json.value(QStringLiteral("event")).toString();
    for (const auto &[k, n] : kEventNames) {
        if (name != QLatin1String(n))
            continue;
        UpEvent e;
        e.kind = k;
        QString ignored;
        if (json.value(QStringLiteral("lab")).isObject())
            statusFromJson(json.value(QStringLiteral("lab")).toObject(), &e.lab, &ignored);
        e.guest = guestFromStatusJson(json.value(QStringLiteral("guest")).toObject());
        e.text = json.value(QStringLiteral("text")).toString();
        e.console = json.value(QStringLiteral("console")).toString();
        e.seconds = json.value(QStringLiteral("seconds")).toDouble(-1);
        return e;
    }
    return std::nullopt;
}

QJsonObject statusJson(const LabState &s, const QString &stateDirectory)
{
    QJsonArray guests;
    for (const GuestState &g : s.guests)
        guests.append(guestStatusJson(g));
    return QJsonObject{
        {QStringLiteral("state_directory"), stateDirectory},
        {QStringLiteral("netns"), s.netns},
        {QStringLiteral("bridge"), s.bridge},
        {QStringLiteral("host_address"), hostAddress()},
        {QStringLiteral("networking"), s.userNetworking ? QStringLiteral("user") : QStringLiteral("tap")},
        {QStringLiteral("accel"), s.accel},
        {QStringLiteral("kernel"), s.kernel},
        {QStringLiteral("mtu"), s.mtu},
        {QStringLiteral("cpus"), s.cpus},
        {QStringLiteral("memory_mb"), s.memoryMb},
        {QStringLiteral("guests"), guests},
    };
}

bool statusFromJson(const QJsonObject &json, LabState *out, QString *error)
{
    if (!json.value(QStringLiteral("guests")).isArray()) {
        *error = QStringLiteral("the lab's status has no guest list");
        return false;
    }
    LabState s;
    s.netns = json.value(QStringLiteral("netns")).toString();
    s.bridge = json.value(QStringLiteral("bridge")).toString();
    s.userNetworking = json.value(QStringLiteral("networking")).toString() == QLatin1String("user");
    s.accel = json.value(QStringLiteral("accel")).toString();
    s.kernel = json.value(QStringLiteral("kernel")).toString();
    s.mtu = json.value(QStringLiteral("mtu")).toInt(1500);
    s.cpus = json.value(QStringLiteral("cpus")).toInt(1);
    s.memoryMb = json.value(QStringLiteral("memory_mb")).toInt(256);
    for (const QJsonValue &v : json.value(QStringLiteral("guests")).toArray())
        s.guests.append(guestFromStatusJson(v.toObject()));
    *out = s;
    return true;
}

} // namespace nb::lab
