// SPDX-License-Identifier: GPL-3.0-or-later
// net::Address over the system's sockaddr_storage, and looking names up with getaddrinfo:
// the same calls on Linux and Windows. What differs (getaddrinfo's error text, starting
// Winsock) is in address_linux.cpp and address_windows.cpp.
#include "net/address.h"
#include "net/connect.h"
#include "net/resolve_p.h"

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#endif

#include <QStringList>
#include <cstring>

namespace nb::net {

static_assert(sizeof(sockaddr_storage) <= Address::Capacity);

namespace {
const sockaddr_storage &storageOf(const Address &a)
{
    return *static_cast<const sockaddr_storage *>(a.raw());
}
} // namespace

AddressFamily Address::family() const
{
    const int f = storageOf(*this).ss_family;
    return f == AF_INET ? AddressFamily::IPv4 : f == AF_INET6 ? AddressFamily::IPv6 : AddressFamily::Any;
}

QString Address::host() const
{
    char buf[INET6_ADDRSTRLEN] = {};
    const sockaddr_storage &s = storageOf(*this);
    if (s.ss_family == AF_INET) {
        auto *a = reinterpret_cast<const sockaddr_in *>(&s);
        inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf);
    } else if (s.ss_family == AF_INET6) {
        auto *a = reinterpret_cast<const sockaddr_in6 *>(&s);
        if (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr))
            inet_ntop(AF_INET, &a->sin6_addr.s6_addr[12], buf, sizeof buf);
        else
            inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof buf);
    }
    return QString::fromLatin1(buf);
}

quint16 Address::port() const
{
    const sockaddr_storage &s = storageOf(*this);
    if (s.ss_family == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in *>(&s)->sin_port);
    if (s.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6 *>(&s)->sin6_port);
    return 0;
}

QString Address::toString() const
{
    const QString h = host();
    return h.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(h).arg(port())
                                        : QStringLiteral("%1:%2").arg(h).arg(port());
}

int familyHint(AddressFamily f)
{
    return f == AddressFamily::IPv4 ? AF_INET : f == AddressFamily::IPv6 ? AF_INET6 : AF_UNSPEC;
}

bool resolve(const QString &host, quint16 port, int family, bool passive, addrinfo **out, QString *error)
{
    detail::prepareResolver();
    addrinfo hints{};
    hints.ai_family = family;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    const QByteArray h = host.toUtf8();
    const QByteArray p = QByteArray::number(port);
    const int rc = ::getaddrinfo(h.isEmpty() ? nullptr : h.constData(), p.constData(), &hints, out);
    if (rc != 0) {
        *error = QStringLiteral("cannot resolve '%1': %2").arg(host, detail::resolveErrorText(rc));
        return false;
    }
    return true;
}

static void copyAddress(Address *a, const addrinfo *ai)
{
    std::memcpy(a->raw(), ai->ai_addr, ai->ai_addrlen);
    a->setLength(unsigned(ai->ai_addrlen));
}

Address localAddressFor(const QString &host, AddressFamily family)
{
    Address a;
    addrinfo *res = nullptr;
    QString err;
    const int f = familyHint(family);
    if (!resolve(host, 0, f, true, &res, &err))
        return a;
    for (addrinfo *ai = res; ai; ai = ai->ai_next) {
        if (ai->ai_family == f && ai->ai_addrlen <= Address::Capacity) {
            copyAddress(&a, ai);
            break;
        }
    }
    freeaddrinfo(res);
    return a;
}

Address resolveAddress(const QString &host, quint16 port, AddressFamily family, QString *error)
{
    Address a;
    addrinfo *res = nullptr;
    if (!resolve(host, port, familyHint(family), false, &res, error))
        return a;
    if (res && res->ai_addrlen <= Address::Capacity)
        copyAddress(&a, res);
    freeaddrinfo(res);
    return a;
}

QList<Address> resolveAllAddresses(const QString &host, quint16 port, AddressFamily family, QString *error)
{
    QList<Address> all;
    addrinfo *res = nullptr;
    if (!resolve(host, port, familyHint(family), false, &res, error))
        return all;
    QStringList seen;
    for (const addrinfo *ai = res; ai; ai = ai->ai_next) {
        Address a;
        if (ai->ai_addrlen > Address::Capacity)
            continue;
        copyAddress(&a, ai);
        if (a.valid() && !seen.contains(a.toString())) {
            seen.append(a.toString());
            all.append(a);
        }
    }
    freeaddrinfo(res);
    if (all.isEmpty() && error)
        *error = QStringLiteral("%1 has no address").arg(host);
    return all;
}

// getsockname / getpeername: socklen_t is an int on Windows, as its calls want.
static Address nameOf(const Socket &s, bool peer)
{
    Address a;
    socklen_t len = socklen_t(Address::Capacity);
    auto *p = static_cast<sockaddr *>(a.raw());
    if ((peer ? ::getpeername(s.handle(), p, &len) : ::getsockname(s.handle(), p, &len)) == 0)
        a.setLength(unsigned(len));
    return a;
}

Address localAddress(const Socket &s)
{
    return nameOf(s, false);
}

Address peerAddress(const Socket &s)
{
    return nameOf(s, true);
}

quint16 localPort(const Socket &s)
{
    return localAddress(s).port();
}

} // namespace nb::net
