// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two -J documents of one UDP run, one from each side, checked against each other
// (tst_udpinterop with stock iperf3, tst_udp between NicBench ends).
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

namespace nbtest {

// The rate each stream of these tests asks (-b 20M): far below what loopback carries.
inline constexpr double UdpTestRateBits = 20e6;

inline QStringList modeArgs(const QString &mode)
{
    return mode.isEmpty() ? QStringList() : mode.split(QLatin1Char(' '));
}

inline QJsonObject endOf(const QJsonObject &doc)
{
    return doc.value(QStringLiteral("end")).toObject();
}

inline QJsonObject parseJson(QByteArray text, QString *error)
{
    text = text.mid(text.indexOf('{')); // our server prints a banner first
    QJsonParseError perr;
    const QJsonDocument d = QJsonDocument::fromJson(text, &perr);
    if (perr.error != QJsonParseError::NoError || !d.isObject()) {
        *error = perr.errorString() + QStringLiteral(": ") + QString::fromUtf8(text.left(300));
        return {};
    }
    return d.object();
}

// The sum keys of each direction, and whether the client sends in it.
inline QList<std::pair<QString, bool>> directions(const QString &mode)
{
    if (mode == QLatin1String("-R"))
        return {{QString(), false}};
    if (mode == QLatin1String("--bidir"))
        return {{QString(), true}, {QStringLiteral("_bidir_reverse"), false}};
    return {{QString(), true}};
}

inline double num(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toDouble(-1);
}

// Both documents of one run: every direction's figures agree between them. A stock 3.12
// server prints zeros in its -J for the figures of the other end (stock client or not:
// sum_sent of a test it received, sum_received of one it sent), so what a stock document
// says of its peer is compared only where it says something; ours must always say it.
inline void compareUdpDocuments(const QJsonObject &clientDoc, const QJsonObject &serverDoc, const QString &mode,
                                int streamsPerDirection, bool stockClient)
{
    const QJsonObject ce = endOf(clientDoc), se = endOf(serverDoc);
    for (const auto &[suffix, clientSends] : directions(mode)) {
        const QJsonObject &senderEnd = clientSends ? ce : se;
        const QJsonObject &receiverEnd = clientSends ? se : ce;
        const QJsonObject sent = senderEnd.value(QStringLiteral("sum_sent") + suffix).toObject();
        const QJsonObject received = receiverEnd.value(QStringLiteral("sum_received") + suffix).toObject();
        // What the receiver told the sender in the results exchange, as the sender printed it.
        const QJsonObject receivedAtSender = senderEnd.value(QStringLiteral("sum_received") + suffix).toObject();
        const QString where =
            QStringLiteral("direction %1 (client sends: %2): sent %3 received %4 told %5")
                .arg(suffix.isEmpty() ? QStringLiteral("primary") : suffix)
                .arg(clientSends)
                .arg(QString::fromUtf8(QJsonDocument(sent).toJson(QJsonDocument::Compact)),
                     QString::fromUtf8(QJsonDocument(received).toJson(QJsonDocument::Compact)),
                     QString::fromUtf8(QJsonDocument(receivedAtSender).toJson(QJsonDocument::Compact)));
        const double packetsSent = num(sent, "packets");
        const double packetsReceived = num(received, "packets");
        const double lost = num(received, "lost_packets");
        QVERIFY2(packetsSent > 0 && packetsReceived > 0 && lost >= 0, qPrintable(where));
        // iperf3's UDP sums: sum_sent is the sender's, sum_received the receiver's, in
        // either side's document (both tools alike).
        for (const QJsonObject &e : {ce, se}) {
            QVERIFY2(e.value(QStringLiteral("sum_sent") + suffix).toObject().value(QStringLiteral("sender")) == true,
                     qPrintable(where));
            QVERIFY2(e.value(QStringLiteral("sum_received") + suffix).toObject().value(QStringLiteral("sender")) ==
                         false,
                     qPrintable(where));
        }
        // The receiver's count is the highest sequence number it saw: never beyond what was sent.
        QVERIFY2(packetsReceived <= packetsSent, qPrintable(where));
        QVERIFY2(lost <= packetsReceived, qPrintable(where));
        // The figures crossed in the exchange are the same on both sides.
        const bool stockSender = clientSends == stockClient;
        if (!stockSender || num(receivedAtSender, "packets") != 0) {
            QCOMPARE(num(receivedAtSender, "packets"), packetsReceived);
            QCOMPARE(num(receivedAtSender, "lost_packets"), lost);
            QVERIFY2(std::fabs(num(receivedAtSender, "jitter_ms") - num(received, "jitter_ms")) < 1e-6,
                     qPrintable(where));
        }
        const QJsonObject sentAtReceiver = receiverEnd.value(QStringLiteral("sum_sent") + suffix).toObject();
        if (stockSender || num(sentAtReceiver, "packets") != 0) {
            QCOMPARE(num(sentAtReceiver, "packets"), packetsSent);
            QCOMPARE(num(sentAtReceiver, "bytes"), num(sent, "bytes"));
        }
        QVERIFY2(std::fabs(num(received, "lost_percent") - (packetsReceived > 0 ? 100 * lost / packetsReceived : 0)) <
                     1e-6,
                 qPrintable(where));
        // A jitter on loopback is well under a second.
        QVERIFY2(num(received, "jitter_ms") >= 0 && num(received, "jitter_ms") < 1000, qPrintable(where));
        // The rate asked: generous bounds (a loaded 2-core machine), the figure is in the notes.
        const double bps = num(sent, "bits_per_second");
        QVERIFY2(bps > 0.7 * UdpTestRateBits * streamsPerDirection && bps < 1.3 * UdpTestRateBits * streamsPerDirection,
                 qPrintable(where));
    }
}

} // namespace nbtest
