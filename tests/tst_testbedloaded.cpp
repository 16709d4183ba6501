// SPDX-License-Identifier: GPL-3.0-or-later
// Ground truth for latency under load (issue 16, docs/testbed.md): on a tbf-shaped link the
// probe's loaded p50 is the time the queue ahead of it takes to drain. The queue is read
// from the kernel while the test runs (`tc -s qdisc` backlog, sampled about every 20 ms in
// both namespaces), so the check does not depend on how full TCP keeps it: the increase of
// the p50 over idle must equal the median backlog x 8 / rate within 10%, on two links with
// different rates and queue sizes. The unshaped-link case (within idle + 1 ms) is
// tst_loadedlatency's, on loopback.

#include "testbedfixture.h"

#include <QDateTime>

#include <algorithm>

namespace {

constexpr double kPhaseSeconds = 4;

struct Link {
    const char *name;
    double rateBps;
    int limitBytes;
};
// 125000 B at 50 Mbit/s: up to 20 ms of queue; 50000 B at 20 Mbit/s: up to 20 ms too, at
// another rate; the queue's actual fill is measured, not assumed.
const Link kLinks[] = {{"q50", 50e6, 125000}, {"q20", 20e6, 50000}};

// Samples the backlog of `dev`'s root qdisc in `ns` until stopped (at most 40 s): lines
// "T <ns since the epoch>" followed by tc's output.
class BacklogSampler {
public:
    // The samples go to a file: a pipe nobody reads while the client runs would fill and stall tc.
    void start(const QString &ns, const QString &dev, const QString &file)
    {
        m_file = file;
        m_child.setStandardOutputFile(file);
        m_child.start(QStringLiteral("ip"),
                      {QStringLiteral("netns"), QStringLiteral("exec"), ns, QStringLiteral("sh"), QStringLiteral("-c"),
                       QStringLiteral("i=0; while [ $i -lt 2000 ]; do echo T $(date +%s%N); tc -s qdisc show dev %1; "
                                      "i=$((i+1)); sleep 0.01; done")
                           .arg(dev)});
    }
    // The median backlog in bytes between two wall-clock times (the p50's counterpart) (ms since the epoch); -1
    // with too few samples.
    double medianBacklog(qint64 fromMs, qint64 toMs, int *samples)
    {
        QFile f(m_file);
        if (f.open(QIODevice::ReadOnly))
            m_out = f.readAll();
        std::vector<double> values;
        qint64 t = 0;
        bool want = false;
        for (const QByteArray &line : m_out.split('\n')) {
            if (line.startsWith("T ")) {
                t = line.mid(2).trimmed().toLongLong() / 1'000'000;
                want = t >= fromMs && t <= toMs;
                continue;
            }
            const qsizetype at = line.indexOf(" backlog ");
            if (want && at >= 0) {
                const QByteArray b = line.mid(at + 9).split('b').first();
                values.push_back(b.toDouble());
                want = false; // the root qdisc's line comes first
            }
        }
        *samples = int(values.size());
        if (values.size() < 20)
            return -1;
        std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
        return values[values.size() / 2];
    }
    void stop()
    {
        if (m_child.state() != QProcess::NotRunning) {
            m_child.kill();
            m_child.waitForFinished(3000);
        }
    }
    ~BacklogSampler() { stop(); }

private:
    QProcess m_child;
    QString m_file;
    QByteArray m_out;
};

} // namespace

class TestTestbedLoaded : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void loadedLatencyIsTheQueue_data();
    void loadedLatencyIsTheQueue();

private:
    QString m_skipReason;
};

void TestTestbedLoaded::initTestCase()
{
    if (const QString why = testbedUnavailable(); !why.isEmpty())
        noteUnavailable(why, &m_skipReason);
}

void TestTestbedLoaded::loadedLatencyIsTheQueue_data()
{
    QTest::addColumn<int>("link");
    QTest::newRow("50 Mbit/s, 125000 B queue") << 0;
    QTest::newRow("20 Mbit/s, 50000 B queue") << 1;
}

void TestTestbedLoaded::loadedLatencyIsTheQueue()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    QFETCH(int, link);
    const Link &l = kLinks[link];
    Testbed bed(QStringLiteral("ll%1").arg(link));
    QString error;
    const QString profile = QStringLiteral("%1 rate=%2bit mtu=1500 limit=%3\n")
                                .arg(QLatin1String(l.name))
                                .arg(qint64(l.rateBps))
                                .arg(l.limitBytes);
    QVERIFY2(bed.up(profile, &error), qPrintable(error));
    QVERIFY2(bed.startServer(&error), qPrintable(error));
    // idle, download (the server's egress queue fills), upload (the client's).
    const struct {
        int phase;
        const char *name;
        bool serverQueue;
    } loaded[] = {{1, "download", true}, {2, "upload", false}};
    const Attempt a = retryWithinTolerance(kAttempts, kPauseMs, [&](int attempt) {
        QTemporaryDir dir;
        BacklogSampler serverQueue, clientQueue;
        serverQueue.start(bed.serverNs(), QLatin1String(l.name), dir.filePath(QStringLiteral("server")));
        clientQueue.start(bed.clientNs(), QLatin1String(l.name), dir.filePath(QStringLiteral("client")));
        QTest::qWait(200);
        const qint64 launched = QDateTime::currentMSecsSinceEpoch();
        QJsonObject doc;
        QString err;
        // Eight flows keep the queue busy however one of them backs off.
        if (!bed.client({QStringLiteral("-c"), QStringLiteral("198.18.1.2"), QStringLiteral("--latency-under-load"),
                         QStringLiteral("--phases"), QStringLiteral("idle,download,upload"),
                         QStringLiteral("--phase-seconds"), QString::number(kPhaseSeconds), QStringLiteral("-P"),
                         QStringLiteral("8")},
                        &doc, &err, 60000))
            return Attempt::error(err);
        const QJsonArray phases =
            nicbench(doc).value(QStringLiteral("loaded_latency")).toObject().value(QStringLiteral("phases")).toArray();
        if (phases.size() != 3)
            return Attempt::error(QStringLiteral("expected 3 phases"));
        // The probe's idle figures, for the record (the check is on the increase).
        const QJsonObject idle = phases.at(0).toObject().value(QStringLiteral("latency_us")).toObject();
        QString text = QStringLiteral("idle p50 %1 us, p99 %2 us; ")
                           .arg(idle.value(QStringLiteral("p50")).toDouble(-1), 0, 'f', 0)
                           .arg(idle.value(QStringLiteral("p99")).toDouble(-1), 0, 'f', 0);
        bool within = true;
        for (const auto &p : loaded) {
            // The middle of the phase: past the ramp-up and any set-up delay, before its end.
            const qint64 from = launched + qint64((p.phase * kPhaseSeconds + 1.0) * 1000);
            const qint64 to = launched + qint64(((p.phase + 1) * kPhaseSeconds - 0.5) * 1000);
            int samples = 0;
            const double backlog = (p.serverQueue ? serverQueue : clientQueue).medianBacklog(from, to, &samples);
            const QJsonObject ph = phases.at(p.phase).toObject();
            const QJsonObject inc = ph.value(QStringLiteral("latency_increase_us")).toObject();
            const double bps = ph.value(QStringLiteral("bits_per_second")).toDouble();
            const double increaseUs = inc.value(QStringLiteral("p50")).toDouble(-1);
            if (backlog < 0 || increaseUs < 0)
                return Attempt::error(QStringLiteral("%1: %2 queue samples, increase %3 us, %4 bit/s")
                                          .arg(QLatin1String(p.name))
                                          .arg(samples)
                                          .arg(increaseUs)
                                          .arg(bps));
            const double drainUs = backlog * 8 / l.rateBps * 1e6;
            const double err2 = relErr(increaseUs, drainUs);
            text +=
                QStringLiteral("%1 (%7 Mbit/s): p50 %8 us (+%2 us), queue %3 B (median of %4) drains in %5 us: "
                               "%6; ")
                    .arg(QLatin1String(p.name))
                    .arg(increaseUs, 0, 'f', 0)
                    .arg(backlog, 0, 'f', 0)
                    .arg(samples)
                    .arg(drainUs, 0, 'f', 0)
                    .arg(pct(err2))
                    .arg(bps / 1e6, 0, 'f', 1)
                    .arg(ph.value(QStringLiteral("latency_us")).toObject().value(QStringLiteral("p50")).toDouble(-1), 0,
                         'f', 0);
            // A queue that never filled would make the check trivial.
            within = within && backlog > 0.3 * l.limitBytes && std::abs(err2) <= 0.10;
        }
        qInfo("%s%s", qPrintable(text), qPrintable(retryTag(attempt)));
        return within ? Attempt::within() : Attempt::outside(text);
    });
    QVERIFY2(a.kind == Attempt::Within, qPrintable(a.text));
}

QTEST_GUILESS_MAIN(TestTestbedLoaded)
#include "tst_testbedloaded.moc"
