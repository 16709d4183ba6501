// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter table is the one source of flags, ranges and keys: every reader (command
// line, validate, iperf3 parameter JSON, snapshot JSON, --help) must agree with it.

#include "model/parameters.h"
#include "model/testparams.h"
#include "session/commandline.h"

#include <QJsonObject>
#include <QSet>
#include <QTest>

namespace param = nb::param;

class TestParameters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void flagsUnique();
    void helpListsEveryRow();
    void readersShareRanges_data();
    void readersShareRanges();
    void streamAndConnectionLimits();
    void endRule();
    void flagsRoundTripThroughJson();
    void numbersRoundTripThroughJson();
};

void TestParameters::flagsUnique()
{
    QSet<QString> seen;
    for (const param::Parameter &p : param::parameters()) {
        const QString l = QLatin1String(p.longFlag);
        QVERIFY2(!seen.contains(l), qPrintable(l));
        seen.insert(l);
        if (p.shortFlag) {
            const QString s = QString(QLatin1Char(p.shortFlag));
            QVERIFY2(!seen.contains(s), qPrintable(s));
            seen.insert(s);
        }
        QVERIFY(p.help && *p.help);
        QCOMPARE(&param::parameter(p.id), &p); // each Id names exactly its row
    }
}

void TestParameters::helpListsEveryRow()
{
    const QString help = nb::commandLineHelp(QStringLiteral("nicbench-cli"));
    for (const param::Parameter &p : param::parameters())
        QVERIFY2(help.contains(QStringLiteral("--") + QLatin1String(p.longFlag)), p.longFlag);
    QVERIFY(help.contains(
        QStringLiteral("parallel streams, 1 to 1024 (default 1); a stock iperf3 server takes up to 128")));
}

void TestParameters::readersShareRanges_data()
{
    QTest::addColumn<int>("id");
    QTest::addColumn<int>("kind");
    QTest::newRow("streams") << int(param::Id::Streams) << int(nb::TestKind::Stream);
    QTest::newRow("duration") << int(param::Id::Duration) << int(nb::TestKind::Stream);
    QTest::newRow("omit") << int(param::Id::Omit) << int(nb::TestKind::Stream);
    QTest::newRow("interval") << int(param::Id::Interval) << int(nb::TestKind::Stream);
    QTest::newRow("length") << int(param::Id::BlockSize) << int(nb::TestKind::Stream);
    QTest::newRow("mss") << int(param::Id::Mss) << int(nb::TestKind::Stream);
    QTest::newRow("in-flight") << int(param::Id::InFlight) << int(nb::TestKind::Rr);
    QTest::newRow("connections") << int(param::Id::Connections) << int(nb::TestKind::Rr);
    QTest::newRow("connections (crr)") << int(param::Id::Connections) << int(nb::TestKind::Crr);
}

// Just above the maximum is refused by every reader, the maximum itself accepted.
void TestParameters::readersShareRanges()
{
    QFETCH(int, id);
    QFETCH(int, kind);
    const param::Parameter &p = param::parameter(param::Id(id));
    const double over = p.max + (p.type == param::Type::Seconds ? 0.5 : 1);
    nb::TestParams base;
    base.host = QStringLiteral("h");
    base.kind = nb::TestKind(kind);

    nb::TestParams t = base;
    param::setNumericValue(&t, p, p.max);
    QVERIFY2(t.validate().isEmpty(), qPrintable(t.validate()));
    param::setNumericValue(&t, p, over);
    QVERIFY2(!t.validate().isEmpty(), "validate");

    QStringList args = {QStringLiteral("-c"), QStringLiteral("h"),
                        QStringLiteral("--%1").arg(QLatin1String(p.longFlag)), QString::number(over, 'g', 12)};
    if (kind == int(nb::TestKind::Rr))
        args << QStringLiteral("--rr");
    if (kind == int(nb::TestKind::Crr))
        args << QStringLiteral("--crr");
    nb::CommandLine cl;
    QString error;
    QVERIFY2(!nb::parseCommandLine(args, &cl, &error), "command line");
    QVERIFY2(error.contains(param::flagName(p)), qPrintable(error));

    nb::TestParams back;
    QVERIFY(!nb::TestParams::fromJson(t.toJson(), &back, &error));
    QVERIFY2(error.contains(QLatin1String(p.jsonKey)), qPrintable(error));
    if (p.iperfKey) {
        QVERIFY(!nb::TestParams::fromIperfParams(t.toIperfParams(), &back, &error));
        QVERIFY2(error.contains(QStringLiteral("out of range")), qPrintable(error));
    }
}

// -P and --connections fill one field with their own limits: 10,000 connections is a valid
// request/response test for every reader, 10,000 streams no stream test.
void TestParameters::streamAndConnectionLimits()
{
    QCOMPARE(param::parameter(param::Id::Streams).max, 1024.0);
    QCOMPARE(param::parameter(param::Id::Connections).max, 10000.0);
    nb::TestParams rr;
    rr.host = QStringLiteral("h");
    rr.kind = nb::TestKind::Rr;
    rr.streams = 10000;
    QVERIFY2(rr.validate().isEmpty(), qPrintable(rr.validate()));
    nb::TestParams back;
    QString error;
    QVERIFY2(nb::TestParams::fromJson(rr.toJson(), &back, &error), qPrintable(error));
    QCOMPARE(back.streams, 10000);
    back = {};
    QVERIFY2(nb::TestParams::fromIperfParams(rr.toIperfParams(), &back, &error), qPrintable(error));
    QCOMPARE(back.streams, 10000);
    QCOMPARE(back.kind, nb::TestKind::Rr);

    nb::TestParams stream = rr;
    stream.kind = nb::TestKind::Stream;
    QVERIFY(stream.validate().contains(QStringLiteral("-P")));
    QVERIFY(!nb::TestParams::fromJson(stream.toJson(), &back, &error));
    QVERIFY(!nb::TestParams::fromIperfParams(stream.toIperfParams(), &back, &error));
    stream.streams = 1024;
    QVERIFY2(stream.validate().isEmpty(), qPrintable(stream.validate()));
    QVERIFY2(nb::TestParams::fromIperfParams(stream.toIperfParams(), &back, &error), qPrintable(error));
    QCOMPARE(back.streams, 1024);
}

// What ends the test, and how many data connections it opens.
void TestParameters::endRule()
{
    nb::TestParams p;
    QVERIFY(p.isTimed() && !p.endsOnBytes());
    p.bytes = 1;
    QVERIFY(p.isTimed() && p.endsOnBytes());
    p.duration = 0;
    QVERIFY(!p.isTimed() && p.endsOnBytes());
    QVERIFY(p.toIperfParams().value(QStringLiteral("time")).toDouble() == 0);
    p.streams = 3;
    QCOMPARE(p.dataConnectionCount(), 3);
    p.direction = nb::Direction::Bidirectional;
    QCOMPARE(p.dataConnectionCount(), 6);
    p.kind = nb::TestKind::Crr;
    QCOMPARE(p.dataConnectionCount(), 0);
    QCOMPARE(p.connections(), 3);
}

// Every on/off row with a JSON key comes back from the snapshot JSON as it went in (a UDP
// test, so the UDP rows are written too), whatever the rows' Written rules say.
void TestParameters::flagsRoundTripThroughJson()
{
    int checked = 0;
    for (const param::Parameter &row : param::parameters()) {
        const auto flag = std::get_if<bool nb::TestParams::*>(&row.field);
        if (!row.jsonKey || !flag)
            continue;
        for (const auto &[kind, bit] :
             {std::pair{nb::TestKind::Stream, param::Stream}, std::pair{nb::TestKind::Rr, param::Rr}}) {
            if (!(row.kinds & bit)) // the row's own kinds (appliesTo also takes rows no kind claims)
                continue;
            nb::TestParams t;
            t.host = QStringLiteral("h");
            t.kind = kind;
            t.udp = true;
            t.*(*flag) = true;
            nb::TestParams back;
            QString error;
            QVERIFY2(nb::TestParams::fromJson(t.toJson(), &back, &error), qPrintable(error));
            QVERIFY2(back.*(*flag), row.longFlag);
            ++checked;
        }
    }
    QVERIFY(checked >= 5);
}

// Every numeric row with a JSON key comes back from the snapshot JSON as it went in, for
// each kind the row belongs to, with a value other than its default (the top of its range):
// a row the writer leaves out reads back as the default. --threads did (issue 26).
void TestParameters::numbersRoundTripThroughJson()
{
    int checked = 0;
    for (const param::Parameter &row : param::parameters()) {
        if (!row.jsonKey || !param::isNumeric(row))
            continue;
        for (const auto &[kind, bit] :
             {std::pair{nb::TestKind::Stream, param::Stream}, std::pair{nb::TestKind::Rr, param::Rr},
              std::pair{nb::TestKind::Crr, param::Crr}, std::pair{nb::TestKind::LoadedLatency, param::LoadedLatency}}) {
            if (!(row.kinds & bit))
                continue;
            for (const bool udp : {false, true}) {
                if (udp && kind != nb::TestKind::Stream && kind != nb::TestKind::Rr)
                    continue;
                nb::TestParams t;
                t.host = QStringLiteral("h");
                t.kind = kind;
                t.udp = udp;
                t.tcpPaced = true; // so a TCP stream's rate is written as well
                const double value = std::min(row.max, 1e9);
                param::setNumericValue(&t, row, value);
                if (param::numericValue(t, row) == param::numericValue(nb::TestParams(), row))
                    continue; // the top of the range is the default: nothing to tell apart
                const QJsonObject json = t.toJson();
                // UDP's own timers mean nothing to a TCP test and are left out of its JSON.
                const QString flag = QLatin1String(row.longFlag);
                if (!udp && (flag == QLatin1String("pacing-timer") || flag == QLatin1String("udp-rr-timeout"))) {
                    QVERIFY2(!json.contains(QLatin1String(row.jsonKey)), row.jsonKey);
                    continue;
                }
                nb::TestParams back;
                QString error;
                QVERIFY2(nb::TestParams::fromJson(json, &back, &error), qPrintable(error));
                QVERIFY2(param::numericValue(back, row) == param::numericValue(t, row),
                         qPrintable(QStringLiteral("--%1 (%2, udp %3): wrote %4, read %5")
                                        .arg(QLatin1String(row.longFlag), nb::testKindName(kind))
                                        .arg(udp)
                                        .arg(param::numericValue(t, row))
                                        .arg(param::numericValue(back, row))));
                ++checked;
            }
        }
    }
    QVERIFY(checked >= 20);
}

QTEST_GUILESS_MAIN(TestParameters)
#include "tst_parameters.moc"
