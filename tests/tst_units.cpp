// SPDX-License-Identifier: GPL-3.0-or-later
// Size, rate and duration parsing (the formatting is tests/tst_format.cpp).
#include "core/units.h"

#include <QTest>

#include <cstdint>

class TestUnits : public QObject {
    Q_OBJECT

private slots:
    void parseSize_data();
    void parseSize();
    void parseRate_data();
    void parseRate();
    void parseSeconds_data();
    void parseSeconds();
};

void TestUnits::parseSize_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<quint64>("expected");

    QTest::newRow("128K") << QStringLiteral("128K") << true << quint64(131072);
    QTest::newRow("64k lower case") << QStringLiteral("64k") << true << quint64(65536);
    QTest::newRow("1.5M") << QStringLiteral("1.5M") << true << quint64(1572864);
    QTest::newRow("1G") << QStringLiteral("1G") << true << quint64(1073741824);
    QTest::newRow("1T") << QStringLiteral("1T") << true << quint64(1099511627776);
    QTest::newRow("0") << QStringLiteral("0") << true << quint64(0);
    QTest::newRow("plain bytes") << QStringLiteral("1000") << true << quint64(1000);
    QTest::newRow("surrounding spaces") << QStringLiteral(" 10M ") << true << quint64(10485760);
    QTest::newRow("15E... just below 2^64") << QStringLiteral("16777215T") << true << quint64(18446742974197923840ull);

    QTest::newRow("empty") << QString() << false << quint64(0);
    QTest::newRow("blank") << QStringLiteral("   ") << false << quint64(0);
    QTest::newRow("negative") << QStringLiteral("-1") << false << quint64(0);
    QTest::newRow("negative with suffix") << QStringLiteral("-1K") << false << quint64(0);
    QTest::newRow("garbage") << QStringLiteral("abc") << false << quint64(0);
    QTest::newRow("unknown suffix") << QStringLiteral("12Q") << false << quint64(0);
    QTest::newRow("suffix only") << QStringLiteral("K") << false << quint64(0);
    QTest::newRow("two suffixes") << QStringLiteral("1KM") << false << quint64(0);
    QTest::newRow("double overflow") << QStringLiteral("1e400") << false << quint64(0);
    QTest::newRow("nan") << QStringLiteral("nan") << false << quint64(0);
    QTest::newRow("inf") << QStringLiteral("inf") << false << quint64(0);
    QTest::newRow("2^64 bytes") << QStringLiteral("18446744073709551616") << false << quint64(0);
    QTest::newRow("2^64 via suffix") << QStringLiteral("16777216T") << false << quint64(0);
    QTest::newRow("huge with suffix") << QStringLiteral("99999999999999999999G") << false << quint64(0);
}

void TestUnits::parseSize()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(quint64, expected);

    QString error;
    const auto v = nb::parseSize(text, &error);
    QCOMPARE(v.has_value(), valid);
    if (valid) {
        QCOMPARE(quint64(*v), expected);
        QVERIFY(error.isEmpty());
    } else {
        QVERIFY2(!error.isEmpty(), "an invalid size must come with a message");
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
        QVERIFY2(error.contains(text.trimmed().isEmpty() ? QStringLiteral("empty") : text), qPrintable(error));
    }
    // The error pointer is optional.
    QCOMPARE(nb::parseSize(text).has_value(), valid);
}

void TestUnits::parseRate_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("expected");

    // Rates use decimal multiples (1K = 1000), as iperf's -b does.
    QTest::newRow("100K") << QStringLiteral("100K") << true << 1e5;
    QTest::newRow("1.5M") << QStringLiteral("1.5M") << true << 1.5e6;
    QTest::newRow("10g") << QStringLiteral("10g") << true << 1e10;
    QTest::newRow("0") << QStringLiteral("0") << true << 0.0;
    QTest::newRow("plain") << QStringLiteral("1234.5") << true << 1234.5;
    QTest::newRow("empty") << QString() << false << 0.0;
    QTest::newRow("negative") << QStringLiteral("-1") << false << 0.0;
    QTest::newRow("garbage") << QStringLiteral("abc") << false << 0.0;
    QTest::newRow("unknown suffix") << QStringLiteral("12Q") << false << 0.0;
    QTest::newRow("overflow") << QStringLiteral("1e400") << false << 0.0;
    QTest::newRow("overflow with suffix") << QStringLiteral("1e308T") << false << 0.0;
}

void TestUnits::parseRate()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(double, expected);

    QString error;
    const auto v = nb::parseRate(text, &error);
    QCOMPARE(v.has_value(), valid);
    if (valid)
        QCOMPARE(*v, expected);
    else
        QVERIFY(!error.isEmpty() && !error.contains(QLatin1Char('\n')));
}

void TestUnits::parseSeconds_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("expected");

    QTest::newRow("10") << QStringLiteral("10") << true << 10.0;
    QTest::newRow("0.5") << QStringLiteral("0.5") << true << 0.5;
    QTest::newRow("0") << QStringLiteral("0") << true << 0.0;
    QTest::newRow("spaces") << QStringLiteral(" 2 ") << true << 2.0;
    QTest::newRow("empty") << QString() << false << 0.0;
    QTest::newRow("negative") << QStringLiteral("-1") << false << 0.0;
    QTest::newRow("garbage") << QStringLiteral("abc") << false << 0.0;
    QTest::newRow("unit suffix") << QStringLiteral("5s") << false << 0.0;
    QTest::newRow("size suffix") << QStringLiteral("12Q") << false << 0.0;
    QTest::newRow("overflow") << QStringLiteral("1e400") << false << 0.0;
    QTest::newRow("nan") << QStringLiteral("nan") << false << 0.0;
}

void TestUnits::parseSeconds()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(double, expected);

    QString error;
    const auto v = nb::parseSeconds(text, &error);
    QCOMPARE(v.has_value(), valid);
    if (valid)
        QCOMPARE(*v, expected);
    else
        QVERIFY(!error.isEmpty() && !error.contains(QLatin1Char('\n')));
}

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
