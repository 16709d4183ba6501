// SPDX-License-Identifier: GPL-3.0-or-later
// core/format: the one place where numbers become words for the CLI, the window, the report
// and the exports. One precision rule (3 significant digits, the unit chosen after rounding),
// one unknown rule ("-" for NaN, infinity and negative magnitudes), one unit vocabulary.
#include "core/format.h"

#include <QTest>

#include <cmath>
#include <limits>

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const QString kUnknown = QStringLiteral("-");
const QString kMicro = QStringLiteral("\u00b5s");

} // namespace

class TestFormat : public QObject {
    Q_OBJECT

private slots:
    void significant_data();
    void significant();
    void compact_data();
    void compact();
    void grouped_data();
    void grouped();
    void count();
    void fixed();
    void bitrate_data();
    void bitrate();
    void bytes_data();
    void bytes();
    void microseconds_data();
    void microseconds();
    void latencyChange_data();
    void latencyChange();
    void transactionsPerSecond_data();
    void transactionsPerSecond();
    void percent_data();
    void percent();
    void lossPercent_data();
    void lossPercent();
    void jitter_data();
    void jitter();
    void seconds_data();
    void seconds();
    void serviceDemandAndClock();
    void unknownHasNoUnit_data();
    void unknownHasNoUnit();
};

void TestFormat::significant_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("941") << 941.0 << QStringLiteral("941");
    QTest::newRow("12.34") << 12.34 << QStringLiteral("12.3");
    QTest::newRow("1.25") << 1.25 << QStringLiteral("1.25");
    QTest::newRow("0.512") << 0.512 << QStringLiteral("0.512");
    QTest::newRow("0.0123") << 0.0123 << QStringLiteral("0.0123");
    QTest::newRow("tiny") << 1.234e-7 << QStringLiteral("0.000000123");
    QTest::newRow("1 keeps its zeros") << 1.0 << QStringLiteral("1.00");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0");
    QTest::newRow("0.9999 rounds to 1.00") << 0.9999 << QStringLiteral("1.00");
    QTest::newRow("9.996 rounds to 10.0") << 9.996 << QStringLiteral("10.0");
    QTest::newRow("999.95 rounds to 1000") << 999.95 << QStringLiteral("1000");
    QTest::newRow("999.94 stays") << 999.4 << QStringLiteral("999");
    QTest::newRow("negative keeps its sign") << -12.34 << QStringLiteral("-12.3");
    QTest::newRow("above 3 digits keeps the integer") << 12345.0 << QStringLiteral("12345");
    QTest::newRow("huge") << 1.5e15 << QStringLiteral("1500000000000000");
    QTest::newRow("NaN") << kNan << kUnknown;
    QTest::newRow("inf") << kInf << kUnknown;
    QTest::newRow("-inf") << -kInf << kUnknown;
}

void TestFormat::significant()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatSignificant(value), expected);
}

void TestFormat::compact_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("2.5") << 2.5 << QStringLiteral("2.5");
    QTest::newRow("10") << 10.0 << QStringLiteral("10");
    QTest::newRow("0.25") << 0.25 << QStringLiteral("0.25");
    QTest::newRow("100 keeps its zeros") << 100.0 << QStringLiteral("100");
    QTest::newRow("0.9999") << 0.9999 << QStringLiteral("1");
    QTest::newRow("negative") << -2.50 << QStringLiteral("-2.5");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0");
    QTest::newRow("NaN") << kNan << kUnknown;
}

void TestFormat::compact()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatCompact(value), expected);
}

void TestFormat::grouped_data()
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
    QTest::newRow("NaN") << kNan << kUnknown;
    QTest::newRow("inf") << kInf << kUnknown;
}

void TestFormat::grouped()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatGrouped(value), expected);
}

void TestFormat::count()
{
    QCOMPARE(nb::formatCount(0), QStringLiteral("0"));
    QCOMPARE(nb::formatCount(999), QStringLiteral("999"));
    QCOMPARE(nb::formatCount(91008), QStringLiteral("91,008"));
    QCOMPARE(nb::formatCount(1234567), QStringLiteral("1,234,567"));
    QCOMPARE(nb::formatCount(18446744073709551615ULL), QStringLiteral("18,446,744,073,709,551,615"));
}

void TestFormat::fixed()
{
    QCOMPARE(nb::formatFixed(0.0334, 3), QStringLiteral("0.033"));
    QCOMPARE(nb::formatFixed(10, 2), QStringLiteral("10.00"));
    QCOMPARE(nb::formatFixed(-1.26, 1), QStringLiteral("-1.3"));
    QCOMPARE(nb::formatFixed(kNan, 2), kUnknown);
}

void TestFormat::bitrate_data()
{
    QTest::addColumn<double>("bps");
    QTest::addColumn<QString>("expected");
    QTest::newRow("941 Mbit/s") << 941e6 << QStringLiteral("941 Mbit/s");
    QTest::newRow("95.6 Mbit/s") << 95.64e6 << QStringLiteral("95.6 Mbit/s");
    QTest::newRow("12.3 Gbit/s") << 12.34e9 << QStringLiteral("12.3 Gbit/s");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0 bit/s");
    QTest::newRow("tiny") << 0.5 << QStringLiteral("0.500 bit/s");
    QTest::newRow("999 bit/s") << 999.0 << QStringLiteral("999 bit/s");
    QTest::newRow("1 Kbit/s") << 1000.0 << QStringLiteral("1.00 Kbit/s");
    QTest::newRow("1.23 Kbit/s") << 1234.0 << QStringLiteral("1.23 Kbit/s");
    QTest::newRow("exact giga") << 1e9 << QStringLiteral("1.00 Gbit/s");
    QTest::newRow("1.5 Tbit/s") << 1.5e12 << QStringLiteral("1.50 Tbit/s");
    QTest::newRow("huge stays in Tbit/s") << 2.5e15 << QStringLiteral("2500 Tbit/s");
    // Rounding to 3 digits must not produce "1000 Mbit/s": that is 1.00 Gbit/s.
    QTest::newRow("999.95 rounds up to next unit") << 999.95e6 << QStringLiteral("1.00 Gbit/s");
    QTest::newRow("999.7 rounds up to next unit") << 999.7e6 << QStringLiteral("1.00 Gbit/s");
    QTest::newRow("just below rounding") << 999.4e6 << QStringLiteral("999 Mbit/s");
    // One rule for what cannot be a rate (issue 26: formatBitrate said "nan bit/s" and
    // "-941 Mbit/s" where the window's formatRate said "0 bit/s").
    QTest::newRow("NaN") << kNan << kUnknown;
    QTest::newRow("inf") << kInf << kUnknown;
    QTest::newRow("negative") << -941e6 << kUnknown;
}

void TestFormat::bitrate()
{
    QFETCH(double, bps);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatBitrate(bps), expected);
}

void TestFormat::bytes_data()
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
    QTest::newRow("NaN") << kNan << kUnknown;
    QTest::newRow("negative") << -1024.0 << kUnknown;
}

void TestFormat::bytes()
{
    QFETCH(double, bytes);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatBytes(bytes), expected);
}

void TestFormat::microseconds_data()
{
    QTest::addColumn<double>("us");
    QTest::addColumn<QString>("unicode");
    QTest::addColumn<QString>("ascii");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0 ") + kMicro << QStringLiteral("0 us");
    QTest::newRow("sub-us") << 0.25 << QStringLiteral("0.250 ") + kMicro << QStringLiteral("0.250 us");
    QTest::newRow("us") << 41.53 << QStringLiteral("41.5 ") + kMicro << QStringLiteral("41.5 us");
    QTest::newRow("just below ms") << 999.4 << QStringLiteral("999 ") + kMicro << QStringLiteral("999 us");
    QTest::newRow("999.95 rounds to ms") << 999.95 << QStringLiteral("1.00 ms") << QStringLiteral("1.00 ms");
    QTest::newRow("ms") << 1234.0 << QStringLiteral("1.23 ms") << QStringLiteral("1.23 ms");
    QTest::newRow("28.1 ms") << 28134.0 << QStringLiteral("28.1 ms") << QStringLiteral("28.1 ms");
    QTest::newRow("rounds to s") << 999960.0 << QStringLiteral("1.00 s") << QStringLiteral("1.00 s");
    QTest::newRow("s") << 2500000.0 << QStringLiteral("2.50 s") << QStringLiteral("2.50 s");
    QTest::newRow("huge stays in s") << 5e9 << QStringLiteral("5000 s") << QStringLiteral("5000 s");
    QTest::newRow("NaN") << kNan << kUnknown << kUnknown;
    QTest::newRow("negative") << -3.0 << kUnknown << kUnknown;
}

void TestFormat::microseconds()
{
    QFETCH(double, us);
    QFETCH(QString, unicode);
    QFETCH(QString, ascii);
    QCOMPARE(nb::formatMicroseconds(us), unicode);
    QCOMPARE(nb::formatMicroseconds(us, nb::UnitSpelling::Ascii), ascii);
}

void TestFormat::latencyChange_data()
{
    QTest::addColumn<double>("us");
    QTest::addColumn<QString>("unicode");
    QTest::addColumn<QString>("ascii");
    QTest::newRow("up") << 1234.0 << QStringLiteral("+1.23 ms") << QStringLiteral("+1.23 ms");
    QTest::newRow("small up") << 45.0 << QStringLiteral("+45.0 ") + kMicro << QStringLiteral("+45.0 us");
    QTest::newRow("zero") << 0.0 << QStringLiteral("+0 ") + kMicro << QStringLiteral("+0 us");
    QTest::newRow("down") << -2.0 << QStringLiteral("\u22122.00 ") + kMicro << QStringLiteral("-2.00 us");
    QTest::newRow("down a lot") << -0.26 << QStringLiteral("\u22120.260 ") + kMicro << QStringLiteral("-0.260 us");
    QTest::newRow("NaN") << kNan << kUnknown << kUnknown;
    QTest::newRow("-inf") << -kInf << kUnknown << kUnknown;
}

void TestFormat::latencyChange()
{
    QFETCH(double, us);
    QFETCH(QString, unicode);
    QFETCH(QString, ascii);
    QCOMPARE(nb::formatLatencyChange(us), unicode);
    QCOMPARE(nb::formatLatencyChange(us, nb::UnitSpelling::Ascii), ascii);
}

void TestFormat::transactionsPerSecond_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0/s");
    QTest::newRow("small") << 31.24 << QStringLiteral("31.2/s");
    QTest::newRow("hundreds") << 950.0 << QStringLiteral("950/s");
    QTest::newRow("999.6 rounds into thousands") << 999.6 << QStringLiteral("1,000/s");
    QTest::newRow("1250") << 1250.0 << QStringLiteral("1,250/s");
    QTest::newRow("thousands") << 28134.0 << QStringLiteral("28,100/s");
    QTest::newRow("999.96 k rounds up to M") << 999960.0 << QStringLiteral("1.00 M/s");
    QTest::newRow("millions") << 1.2e6 << QStringLiteral("1.20 M/s");
    QTest::newRow("NaN") << kNan << kUnknown;
    QTest::newRow("negative") << -5.0 << kUnknown;
}

void TestFormat::transactionsPerSecond()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatTransactionsPerSecond(value), expected);
}

void TestFormat::percent_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0%");
    QTest::newRow("below 0.05") << 0.04 << QStringLiteral("0%");
    QTest::newRow("0.25") << 0.25 << QStringLiteral("0.25%");
    QTest::newRow("9.5") << 9.5 << QStringLiteral("9.5%");
    QTest::newRow("44") << 44.0 << QStringLiteral("44%");
    QTest::newRow("99.96 rounds to 100") << 99.96 << QStringLiteral("100%");
    QTest::newRow("265") << 265.0 << QStringLiteral("265%");
    QTest::newRow("unknown link") << -1.0 << kUnknown;
    QTest::newRow("NaN") << kNan << kUnknown;
}

void TestFormat::percent()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatPercent(value), expected);
}

void TestFormat::lossPercent_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("digits");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << 0.0 << 3 << QStringLiteral("0%");
    QTest::newRow("small") << 0.0134 << 3 << QStringLiteral("0.0134%");
    QTest::newRow("tiny, no exponent") << 0.00001 << 3 << QStringLiteral("0.00001%");
    QTest::newRow("some") << 1.8 << 3 << QStringLiteral("1.8%");
    QTest::newRow("big") << 42.24 << 3 << QStringLiteral("42.2%");
    QTest::newRow("all") << 100.0 << 3 << QStringLiteral("100%");
    // The CLI keeps iperf3's two digits in its UDP columns.
    QTest::newRow("cli") << 2.597 << 2 << QStringLiteral("2.6%");
    QTest::newRow("cli all") << 100.0 << 2 << QStringLiteral("100%");
    QTest::newRow("NaN") << kNan << 3 << kUnknown;
    QTest::newRow("negative") << -1.0 << 3 << kUnknown;
}

void TestFormat::lossPercent()
{
    QFETCH(double, value);
    QFETCH(int, digits);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatLossPercent(value, digits), expected);
}

void TestFormat::jitter_data()
{
    QTest::addColumn<double>("ms");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0.000 ms");
    QTest::newRow("small") << 0.0134 << QStringLiteral("0.013 ms");
    QTest::newRow("some") << 1.8 << QStringLiteral("1.80 ms");
    QTest::newRow("big") << 42.24 << QStringLiteral("42.2 ms");
    QTest::newRow("NaN") << kNan << kUnknown;
}

void TestFormat::jitter()
{
    QFETCH(double, ms);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatJitterMs(ms), expected);
}

void TestFormat::seconds_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("whole") << 8.0 << QStringLiteral("8");
    QTest::newRow("half") << 2.5 << QStringLiteral("2.5");
    QTest::newRow("quarter") << 0.25 << QStringLiteral("0.25");
    QTest::newRow("long") << 3600.0 << QStringLiteral("3600");
    QTest::newRow("4 digits") << 12.3456 << QStringLiteral("12.35");
    QTest::newRow("negative") << -1.0 << kUnknown;
}

void TestFormat::seconds()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(nb::formatSeconds(value), expected);
}

void TestFormat::serviceDemandAndClock()
{
    QCOMPARE(nb::formatServiceDemand(0.5834, QStringLiteral("KB")), QStringLiteral("0.583 \u00b5s/KB"));
    QCOMPARE(nb::formatServiceDemand(12.34, QStringLiteral("transaction")), QStringLiteral("12.3 \u00b5s/transaction"));
    QCOMPARE(nb::formatServiceDemand(kNan, QStringLiteral("KB")), kUnknown);
    QCOMPARE(nb::formatClock(3.4e9), QStringLiteral("3.40 GHz"));
    QCOMPARE(nb::formatClock(-1), kUnknown);
}

// Whatever the kind, an unknown figure is the same mark with no unit beside it.
void TestFormat::unknownHasNoUnit_data()
{
    QTest::addColumn<double>("value");
    QTest::newRow("NaN") << kNan;
    QTest::newRow("inf") << kInf;
    QTest::newRow("-inf") << -kInf;
}

void TestFormat::unknownHasNoUnit()
{
    QFETCH(double, value);
    const QString all[] = {nb::formatSignificant(value),
                           nb::formatCompact(value),
                           nb::formatGrouped(value),
                           nb::formatFixed(value, 2),
                           nb::formatBitrate(value),
                           nb::formatBytes(value),
                           nb::formatMicroseconds(value),
                           nb::formatLatencyChange(value),
                           nb::formatTransactionsPerSecond(value),
                           nb::formatServiceDemand(value, QStringLiteral("KB")),
                           nb::formatJitterMs(value),
                           nb::formatPercent(value),
                           nb::formatLossPercent(value),
                           nb::formatSeconds(value),
                           nb::formatClock(value)};
    for (const QString &text : all)
        QCOMPARE(text, nb::unknownText());
}

QTEST_GUILESS_MAIN(TestFormat)
#include "tst_format.moc"
