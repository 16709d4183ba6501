// SPDX-License-Identifier: GPL-3.0-or-later
// FlowSpread (min / median / max per flow and Jain's fairness index) against figures worked
// out by hand: J = (sum x)^2 / (n * sum x^2).
#include "core/flowspread.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>

using nb::FlowSpread;

class TestFlowSpread : public QObject {
    Q_OBJECT
private slots:
    void fromSamples_data();
    void fromSamples();
    void oneBusyFlowOfMany();
    void orderDoesNotMatter();
    void jsonRoundTrip();
    void jsonRejected_data();
    void jsonRejected();
};

void TestFlowSpread::fromSamples_data()
{
    QTest::addColumn<QList<double>>("samples");
    QTest::addColumn<int>("count");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("jain");

    QTest::newRow("empty") << QList<double>{} << 0 << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("single flow") << QList<double>{7} << 1 << 7.0 << 7.0 << 7.0 << 7.0 << 1.0;
    QTest::newRow("equal flows") << QList<double>{5, 5, 5} << 3 << 5.0 << 5.0 << 5.0 << 5.0 << 1.0;
    // 10^2 / (4 * 10^2) = 1/4: one of four flows did everything.
    QTest::newRow("one of four busy") << QList<double>{0, 10, 0, 0} << 4 << 0.0 << 0.0 << 10.0 << 2.5 << 0.25;
    // 10^2 / (4 * 30) = 100/120.
    QTest::newRow("1 2 3 4") << QList<double>{1, 2, 3, 4} << 4 << 1.0 << 2.5 << 4.0 << 2.5 << 100.0 / 120.0;
    // 4^2 / (2 * 10) = 0.8.
    QTest::newRow("1 and 3") << QList<double>{1, 3} << 2 << 1.0 << 2.0 << 3.0 << 2.0 << 0.8;
    // 16^2 / (4 * 72) = 256/288.
    QTest::newRow("2 4 4 6") << QList<double>{2, 4, 4, 6} << 4 << 2.0 << 4.0 << 6.0 << 4.0 << 256.0 / 288.0;
    // Odd count: the middle one. 9^2 / (3 * 35) = 81/105.
    QTest::newRow("1 3 5") << QList<double>{5, 1, 3} << 3 << 1.0 << 3.0 << 5.0 << 3.0 << 81.0 / 105.0;
    // Byte counts: (4e12)^2 / (2 * 10e24) = 0.8; squares near 1e25 must not lose it.
    QTest::newRow("bytes 3e12 and 1e12") << QList<double>{3e12, 1e12} << 2 << 1e12 << 2e12 << 3e12 << 2e12 << 0.8;
    QTest::newRow("equal large flows") << QList<double>{1e15, 1e15, 1e15, 1e15} << 4 << 1e15 << 1e15 << 1e15 << 1e15
                                       << 1.0;
    // Nothing moved anywhere: all flows equal.
    QTest::newRow("all idle") << QList<double>{0, 0} << 2 << 0.0 << 0.0 << 0.0 << 0.0 << 1.0;
    // A negative count (a counter that went backwards) is no flow's work: 0. 25 / (2 * 25).
    QTest::newRow("negative taken as 0") << QList<double>{-5, 5} << 2 << 0.0 << 2.5 << 5.0 << 2.5 << 0.5;
}

void TestFlowSpread::fromSamples()
{
    QFETCH(QList<double>, samples);
    QFETCH(int, count);
    QFETCH(double, min);
    QFETCH(double, median);
    QFETCH(double, max);
    QFETCH(double, mean);
    QFETCH(double, jain);
    const FlowSpread s = FlowSpread::fromSamples(samples);
    QCOMPARE(s.count, count);
    QCOMPARE(s.isEmpty(), count == 0);
    QCOMPARE(s.min, min);
    QCOMPARE(s.median, median);
    QCOMPARE(s.max, max);
    QVERIFY2(std::fabs(s.mean - mean) <= 1e-12 * std::max(1.0, mean), qPrintable(QString::number(s.mean, 'g', 17)));
    QVERIFY2(std::fabs(s.jain - jain) < 1e-12, qPrintable(QString::number(s.jain, 'g', 17)));
}

// 1/n for one busy flow among n, for the flow counts the tests use.
void TestFlowSpread::oneBusyFlowOfMany()
{
    for (int n : {2, 16, 128, 1024, 10000}) {
        QList<double> samples(n, 0.0);
        samples[n / 3] = 812;
        const FlowSpread s = FlowSpread::fromSamples(samples);
        QVERIFY2(std::fabs(s.jain - 1.0 / n) < 1e-12, qPrintable(QStringLiteral("n=%1 J=%2").arg(n).arg(s.jain)));
        QCOMPARE(s.min, 0.0);
        QCOMPARE(s.max, 812.0);
    }
}

void TestFlowSpread::orderDoesNotMatter()
{
    const FlowSpread a = FlowSpread::fromSamples({905, 812, 840, 833});
    const FlowSpread b = FlowSpread::fromSamples({812, 833, 840, 905});
    QCOMPARE(a, b);
    QCOMPARE(a.median, (833.0 + 840.0) / 2);
}

void TestFlowSpread::jsonRoundTrip()
{
    const FlowSpread s = FlowSpread::fromSamples({812, 840, 905, 1e12 / 3});
    const QJsonObject o = s.toJson();
    for (const char *key : {"flows", "min", "median", "max", "mean", "jain_index"})
        QVERIFY2(o.contains(QLatin1String(key)), key);
    FlowSpread back;
    QString error;
    QVERIFY2(FlowSpread::fromJson(o, &back, &error), qPrintable(error));
    QCOMPARE(back, s);
}

void TestFlowSpread::jsonRejected_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("no flows") << QStringLiteral("flows") << QJsonValue(0) << QStringLiteral("flows");
    QTest::newRow("flows missing") << QStringLiteral("flows") << QJsonValue(QJsonValue::Undefined)
                                   << QStringLiteral("missing");
    QTest::newRow("jain above 1") << QStringLiteral("jain_index") << QJsonValue(1.5) << QStringLiteral("jain_index");
    QTest::newRow("jain 0") << QStringLiteral("jain_index") << QJsonValue(0) << QStringLiteral("above 0");
    QTest::newRow("jain as text") << QStringLiteral("jain_index") << QJsonValue(QStringLiteral("1"))
                                  << QStringLiteral("jain_index");
    QTest::newRow("min above median") << QStringLiteral("min") << QJsonValue(900) << QStringLiteral("min <= median");
    QTest::newRow("negative max") << QStringLiteral("max") << QJsonValue(-1) << QStringLiteral("max");
}

void TestFlowSpread::jsonRejected()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, errorContains);
    QJsonObject o = FlowSpread::fromSamples({812, 840, 905}).toJson();
    if (value.isUndefined())
        o.remove(key);
    else
        o.insert(key, value);
    FlowSpread back;
    back.count = 99; // untouched on failure
    QString error;
    QVERIFY(!FlowSpread::fromJson(o, &back, &error));
    QVERIFY2(error.contains(errorContains), qPrintable(error));
    QCOMPARE(back.count, 99);
}

QTEST_GUILESS_MAIN(TestFlowSpread)
#include "tst_flowspread.moc"
