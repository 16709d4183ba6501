// SPDX-License-Identifier: GPL-3.0-or-later
// Size, rate and duration parsing and the number formatting used in every report.
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
    void formatSignificant_data();
    void formatSignificant();
    void formatGrouped_data();
    void formatGrouped();
    void formatMicroseconds_data();
    void formatMicroseconds();
    void formatBitrate_data();
    void formatBitrate();
    void formatBytes_data();
    void formatBytes();
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

void TestUnits::formatSignificant_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");

    QTest::newRow("941") << 941.0 << QStringLiteral("941");
    QTest::newRow("12.34") << 12.34 << QStringLiteral("12.3");
    QTest::newRow("1.25") << 1.25 << QStringLiteral("1.25");
    QTest::newRow("0.512") << 0.512 << QStringLiteral("0.512");
    QTest::newRow("0.0123") << 0.0123 << QStringLiteral("0.0123");
    QTest::newRow("1") << 1.0 << QStringLiteral("1.00");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0");
    QTest::newRow("0.9999 rounds to 1.00") << 0.9999 << QStringLiteral("1.00");
    QTest::newRow("9.996 rounds to 10.0") << 9.996 << QStringLiteral("10.0");
    QTest::newRow("negative") << -12.34 << QStringLiteral("-12.3");
    QTest::newRow("above 3 digits keeps integer") << 12345.0 << QStringLiteral("12345");
}

void TestUnits::formatSignificant()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatSignificant(value), expected);
}

void TestUnits::formatGrouped_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("transactions") << 78776.0 << QStringLiteral("78,800");
    QTest::newRow("24.1k") << 24123.0 << QStringLiteral("24,100");
    QTest::newRow("millions") << 1234567.0 << QStringLiteral("1,230,000");
    QTest::newRow("rounds up to 1000") << 999.7 << QStringLiteral("1,000");
    QTest::newRow("below 1000") << 941.2 << QStringLiteral("941");
    QTest::newRow("fraction") << 0.5123 << QStringLiteral("0.512");
    QTest::newRow("negative") << -45678.0 << QStringLiteral("-45,700");
    QTest::newRow("1234 -> 1,230") << 1234.0 << QStringLiteral("1,230");
    QTest::newRow("12.34") << 12.34 << QStringLiteral("12.3");
    QTest::newRow("1 keeps 3 digits") << 1.0 << QStringLiteral("1.00");
    QTest::newRow("1.5 million") << 1.5e6 << QStringLiteral("1,500,000");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0");
}

void TestUnits::formatGrouped()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatGrouped(value), expected);
}

void TestUnits::formatMicroseconds_data()
{
    QTest::addColumn<double>("us");
    QTest::addColumn<QString>("expected");
    QTest::newRow("us") << 41.53 << QStringLiteral("41.5 \u00b5s");
    QTest::newRow("just below ms") << 999.4 << QStringLiteral("999 \u00b5s");
    QTest::newRow("rounds to ms") << 999.7 << QStringLiteral("1.00 ms");
    QTest::newRow("ms") << 1234.0 << QStringLiteral("1.23 ms");
    QTest::newRow("s") << 2500000.0 << QStringLiteral("2.50 s");
    QTest::newRow("sub-us") << 0.25 << QStringLiteral("0.250 \u00b5s");
}

void TestUnits::formatMicroseconds()
{
    QFETCH(double, us);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatMicroseconds(us), expected);
}

void TestUnits::formatBitrate_data()
{
    QTest::addColumn<double>("bps");
    QTest::addColumn<QString>("expected");

    QTest::newRow("941 Mbit/s") << 941e6 << QStringLiteral("941 Mbit/s");
    QTest::newRow("12.3 Gbit/s") << 12.3e9 << QStringLiteral("12.3 Gbit/s");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0 bit/s");
    QTest::newRow("999 bit/s") << 999.0 << QStringLiteral("999 bit/s");
    QTest::newRow("1 Kbit/s") << 1000.0 << QStringLiteral("1.00 Kbit/s");
    QTest::newRow("1.5 Tbit/s") << 1.5e12 << QStringLiteral("1.50 Tbit/s");
    // Rounding to 3 digits must not produce "1000 Mbit/s": that is 1.00 Gbit/s.
    QTest::newRow("rounds up to next unit") << 999.9e6 << QStringLiteral("1.00 Gbit/s");
    QTest::newRow("just below rounding") << 999.4e6 << QStringLiteral("999 Mbit/s");
}

void TestUnits::formatBitrate()
{
    QFETCH(double, bps);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatBitrate(bps), expected);
}

void TestUnits::formatBytes_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("expected");

    QTest::newRow("1.25 GBytes") << 1.25 * 1024 * 1024 * 1024 << QStringLiteral("1.25 GBytes");
    QTest::newRow("512 KBytes") << 512.0 * 1024 << QStringLiteral("512 KBytes");
    QTest::newRow("100 Bytes") << 100.0 << QStringLiteral("100 Bytes");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0 Bytes");
    QTest::newRow("1023 Bytes stays") << 1023.0 << QStringLiteral("1023 Bytes");
    QTest::newRow("1 KBytes") << 1024.0 << QStringLiteral("1.00 KBytes");
    QTest::newRow("128K block") << 131072.0 << QStringLiteral("128 KBytes");
    // 1023.9 KiB rounds to 1024 with 3 significant digits: print the next unit instead.
    QTest::newRow("rounds up to next unit") << 1023.9 * 1024 << QStringLiteral("1.00 MBytes");
}

void TestUnits::formatBytes()
{
    QFETCH(double, bytes);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatBytes(bytes), expected);
}

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
