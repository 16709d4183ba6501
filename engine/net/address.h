// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Socket addresses without OS headers: the sockaddr bytes are kept opaque here and only
// address_linux.cpp (or a Windows file) looks inside.

#include <QList>
#include <QString>

#include <cstddef>

namespace nb {

// -4 / -6 / either: a test parameter and a socket property alike.
enum class AddressFamily { Any, IPv4, IPv6 };

namespace net {

class Address {
public:
    static constexpr std::size_t Capacity = 128; // sizeof(sockaddr_storage) on Linux and Windows

    bool valid() const { return m_length > 0; }
    AddressFamily family() const;
    QString host() const; // IPv4-mapped IPv6 addresses are shown as IPv4
    quint16 port() const;
    QString toString() const; // "127.0.0.1:5201" / "[::1]:5201"

    // For the OS files in engine/net only.
    void *raw() { return m_storage; }
    const void *raw() const { return m_storage; }
    unsigned length() const { return m_length; }
    void setLength(unsigned length) { m_length = length; }

private:
    alignas(8) unsigned char m_storage[Capacity] = {};
    unsigned m_length = 0;
};

// Resolves host:port to the first address of the wanted family; invalid on failure.
Address resolveAddress(const QString &host, quint16 port, AddressFamily family, QString *error);
// Every address of host (each A and AAAA record, as a DNS server lists a Kubernetes headless
// service's pods), in the resolver's order without repeats; empty with *error on failure.
QList<Address> resolveAllAddresses(const QString &host, quint16 port, AddressFamily family, QString *error);
// Resolves a numeric or named local address for binding (port 0); invalid on failure.
Address localAddressFor(const QString &host, AddressFamily family);

} // namespace net
} // namespace nb
