// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/resultssummary.h"
#include "core/format.h"

#include "adapters/adaptertile.h"
#include "common/loadedlatencyformat.h"
#include "common/ratescale.h"
#include "common/rrformat.h"
#include "common/udpformat.h"

#include <core/units.h>
#include <model/servicedemand.h>

#include <QCoreApplication>
#include <QFormLayout>
#include <QGridLayout>
#include <QJsonObject>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace nb::ui {

namespace {

QLabel *makeValueLabel(QWidget *parent, bool wrap = true)
{
    auto *label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(wrap);
    label->setTextFormat(Qt::PlainText);
    return label;
}

// 8 -> "8", 2.5 -> "2.5": durations as a person writes them.
QString secondsText(double seconds)
{
    return nb::formatSeconds(seconds);
}

QString pct(double value)
{
    return QStringLiteral("%1%").arg(nb::formatSignificant(value, 2));
}

QString adapterWords(const nb::AdapterInfo &a)
{
    QStringList extra{AdapterTile::familyLabel(a)};
    if (a.mtu > 0)
        extra.append(QCoreApplication::translate("nb::ui::ResultsSummary", "MTU %1").arg(a.mtu));
    return QStringLiteral("%1 (%2)").arg(a.name, extra.join(QStringLiteral(", ")));
}

// "1 B", "200 B", "16.0 KiB": request and response sizes.
QString sizeWords(std::uint32_t bytes)
{
    return bytes < 1024 ? QStringLiteral("%1 B").arg(bytes) : nb::formatBytes(bytes);
}

// "transactions per connection: min 812 · median 840 · max 905 (128 connections), Jain's
// index 0.998"; empty for fewer than two flows, which have no spread.
QString fairnessWords(const std::optional<nb::FlowSpread> &f, const QString &what, const QString &flows,
                      QString (*amount)(double))
{
    if (!f || f->count < 2)
        return {};
    return QCoreApplication::translate("nb::ui::ResultsSummary",
                                       "%1: min %2 \u00b7 median %3 \u00b7 max %4 (%5 %6), Jain's index %7")
        .arg(what, amount(f->min), amount(f->median), amount(f->max))
        .arg(f->count)
        .arg(flows)
        .arg(nb::formatFixed(f->jain, 3));
}

QString countWords(double n)
{
    return nb::formatFixed(n, 0);
}

QString bytesWords(double n)
{
    return nb::formatBytes(n);
}

// What was asked for, not what came back: a request/response test that failed before
// any transaction is still a request/response test.
QString kindWords(const nb::TestResult &r)
{
    if (r.params.isLoadedLatency())
        return QCoreApplication::translate("nb::ui::ResultsSummary", "latency under load");
    const nb::TestKind kind = r.hasRr ? r.rr.kind : r.params.kind;
    if (kind != nb::TestKind::Stream)
        return kind == nb::TestKind::Crr ? QStringLiteral("TCP_CRR")
               : r.params.udp            ? QStringLiteral("UDP_RR")
                                         : QStringLiteral("TCP_RR");
    if (r.params.udp)
        return QStringLiteral("UDP");
    return QCoreApplication::translate("nb::ui::ResultsSummary", "throughput");
}

} // namespace

void ResultsSummary::DirectionRow::setVisible(bool visible)
{
    for (QLabel *cell : std::as_const(cells))
        cell->setVisible(visible);
}

ResultsSummary::DirectionRow ResultsSummary::addDirectionRow(QGridLayout *grid, int column, const QString &name)
{
    // Directions are columns and figures rows, which keeps the block narrow enough to
    // sit beside the per-stream table at 1280x720.
    DirectionRow r;
    for (int row = 0; row < 5; ++row) {
        QLabel *cell = makeValueLabel(m_table, false);
        cell->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (row == 0) {
            cell->setText(name);
            QFont f = cell->font();
            f.setBold(true);
            cell->setFont(f);
        }
        grid->addWidget(cell, row, column);
        r.cells.append(cell);
    }
    return r;
}

ResultsSummary::ResultsSummary(QWidget *parent)
    : QWidget(parent)
    , m_headlineLabel(new QLabel(this))
    , m_table(new QWidget(this))
    , m_rrLabel(makeValueLabel(this))
    , m_latencyLabel(makeValueLabel(this))
    , m_loadedLabel(makeValueLabel(this))
    , m_udpLabel(makeValueLabel(this))
    , m_udpLostLabel(makeValueLabel(this))
    , m_fairnessLabel(makeValueLabel(this))
    , m_cpuLabel(makeValueLabel(this))
    , m_cpuPerGbpsLabel(makeValueLabel(this))
    , m_cpuPerKtpsLabel(makeValueLabel(this))
    , m_demandLabel(makeValueLabel(this))
    , m_adapterLabel(makeValueLabel(this))
    , m_testLabel(makeValueLabel(this))
    , m_warningsLabel(makeValueLabel(this))
    , m_form(new QFormLayout)
{
    m_headlineLabel->setObjectName(QStringLiteral("headline"));
    m_headlineLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headlineLabel->setWordWrap(true);
    QFont big = m_headlineLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_headlineLabel->setFont(big);
    m_rrLabel->setObjectName(QStringLiteral("rrSummary"));
    m_latencyLabel->setObjectName(QStringLiteral("latencySummary"));
    m_loadedLabel->setObjectName(QStringLiteral("loadedLatencySummary"));
    m_loadedLabel->setToolTip(tr("Per phase: the probe's latency increase over the idle baseline (p50 and p99), "
                                 "its latency, the load's throughput each way and the probe's transactions/s."));
    m_udpLabel->setObjectName(QStringLiteral("udpSummary"));
    m_udpLabel->setToolTip(tr("Measured by the receiver of each direction, as iperf3 does: datagrams lost of those "
                              "sent, jitter (RFC 1889 smoothing) and datagrams that arrived out of order. One-way "
                              "delay is not measured: it needs synchronized clocks."));
    m_udpLostLabel->setObjectName(QStringLiteral("udpLostRequests"));
    m_udpLostLabel->setToolTip(tr("Requests whose response did not arrive within the timeout; they are counted "
                                  "as lost and sent anew."));
    m_fairnessLabel->setObjectName(QStringLiteral("fairnessSummary"));
    m_fairnessLabel->setToolTip(tr("How evenly the connections or streams shared the work. Jain's fairness index is "
                                   "1 when every flow moved the same and 1/n when one of n flows moved everything."));
    m_cpuLabel->setObjectName(QStringLiteral("cpuSummary"));
    m_cpuPerGbpsLabel->setObjectName(QStringLiteral("cpuPerGbps"));
    m_cpuPerGbpsLabel->setToolTip(tr("Busy % of all cores divided by the throughput in Gbit/s: what one Gbit/s "
                                     "costs. Lower is better; compare adapters with it."));
    m_cpuPerKtpsLabel->setObjectName(QStringLiteral("cpuPerKiloTransactions"));
    m_cpuPerKtpsLabel->setToolTip(tr("Busy % of all cores divided by the transactions per second in thousands: "
                                     "what 1,000 transactions/s cost. Lower is better."));
    m_demandLabel->setObjectName(QStringLiteral("serviceDemand"));
    m_adapterLabel->setObjectName(QStringLiteral("adapterSummary"));

    // Received first: it is what the link delivered; sent minus received was still in
    // flight (or lost) when the test ended.
    auto *grid = new QGridLayout(m_table);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(16);
    grid->setVerticalSpacing(2);
    const QStringList figures{tr("Received"), tr("Sent"), tr("Data"), tr("Retransmits")};
    for (int row = 0; row < figures.size(); ++row) {
        auto *label = new QLabel(figures.at(row), m_table);
        grid->addWidget(label, row + 1, 0);
        m_retransmitsHeader = label; // the last row's: UDP has no retransmits
    }
    m_upload = addDirectionRow(grid, 1, tr("Upload"));
    m_download = addDirectionRow(grid, 2, tr("Download"));
    grid->setColumnStretch(3, 1);

    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setVerticalSpacing(3);
    m_form->addRow(tr("Phases:"), m_loadedLabel);
    m_form->addRow(tr("UDP:"), m_udpLabel);
    m_form->addRow(tr("CPU per Gbit/s:"), m_cpuPerGbpsLabel);
    m_form->addRow(tr("Transactions:"), m_rrLabel);
    m_form->addRow(tr("Latency:"), m_latencyLabel);
    m_form->addRow(tr("Lost requests:"), m_udpLostLabel);
    m_form->addRow(tr("CPU per 1,000 trans./s:"), m_cpuPerKtpsLabel);
    m_form->addRow(tr("Fairness:"), m_fairnessLabel);
    m_form->addRow(tr("CPU:"), m_cpuLabel);
    m_form->addRow(tr("CPU cost:"), m_demandLabel);
    m_form->addRow(tr("Adapter:"), m_adapterLabel);
    m_form->addRow(tr("Test:"), m_testLabel);

    m_warningsLabel->setObjectName(QStringLiteral("warnings"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->addWidget(m_headlineLabel);
    layout->addWidget(m_table);
    layout->addLayout(m_form);
    layout->addWidget(m_warningsLabel);
    layout->addStretch(1);
    clear();
}

void ResultsSummary::clear()
{
    m_hasResult = false;
    m_result = nb::TestResult();
    m_headline = 0;
    m_transactionsPerSecond = 0;
    m_headlineLabel->setText(tr("No result yet"));
    m_table->hide();
    for (QLabel *l : {m_loadedLabel, m_udpLabel, m_cpuPerGbpsLabel, m_rrLabel, m_latencyLabel, m_udpLostLabel,
                      m_cpuPerKtpsLabel, m_fairnessLabel, m_demandLabel, m_adapterLabel})
        m_form->setRowVisible(l, false);
    m_cpuLabel->setText(QStringLiteral("-"));
    m_testLabel->setText(QStringLiteral("-"));
    m_warningsLabel->clear();
    m_warningsLabel->hide();
}

void ResultsSummary::showLive(double sendBitsPerSecond, double receiveBitsPerSecond)
{
    QStringList parts;
    if (sendBitsPerSecond > 0)
        parts.append(tr("Sending %1").arg(nb::formatBitrate(sendBitsPerSecond)));
    if (receiveBitsPerSecond > 0)
        parts.append(tr("Receiving %1").arg(nb::formatBitrate(receiveBitsPerSecond)));
    m_headlineLabel->setText(parts.isEmpty() ? tr("Starting...") : parts.join(QStringLiteral("   ")));
}

void ResultsSummary::showLiveText(const QString &text)
{
    m_headlineLabel->setText(text);
}

void ResultsSummary::fillRow(DirectionRow &row, const nb::DirectionSum &sum)
{
    row.cells[1]->setText(nb::formatBitrate(sum.receivedBitsPerSecond()));
    row.cells[2]->setText(nb::formatBitrate(sum.sentBitsPerSecond()));
    row.cells[3]->setText(nb::formatBytes(double(sum.bytesReceived)));
    row.cells[4]->setText(sum.retransmits < 0 ? tr("n/a") : QString::number(sum.retransmits));
    row.setVisible(true);
    // UDP's loss and jitter have their own row below; a datagram is never retransmitted.
    row.cells[4]->setVisible(!sum.udp);
    m_retransmitsHeader->setVisible(!sum.udp);
}

namespace {

// "12.3% here, 10.1% on the server": busy % of all cores per unit of work.
QString costWords(const nb::TestResult &r, double work)
{
    QStringList parts;
    if (work <= 0)
        return {};
    if (r.localCpuKnown && r.localCpu.systemValid)
        parts.append(QCoreApplication::translate("nb::ui::ResultsSummary", "%1% here")
                         .arg(formatGrouped(r.localCpu.systemBusyPct / work)));
    if (r.remoteCpuKnown && r.remoteCpu.systemValid)
        parts.append(QCoreApplication::translate("nb::ui::ResultsSummary", "%1% on the server")
                         .arg(formatGrouped(r.remoteCpu.systemBusyPct / work)));
    return parts.join(QStringLiteral(", "));
}

} // namespace

void ResultsSummary::showResults(const QList<nb::TestResult> &results, double stoppedAfterSeconds)
{
    clear();
    if (results.isEmpty())
        return;
    m_result = results.constLast();
    m_hasResult = true;
    const bool several = results.size() > 1;

    QStringList headline;
    QStringList udpLines;
    bool udpHeadline = false; // a line per direction: "Upload 97.5 Mbit/s, 1.12% lost"
    QStringList cpuLines, demandLines, adapterLines, testLines, notes, fairnessLines, perGbpsLines, perKtpsLines;
    bool anyStream = false;
    for (const nb::TestResult &result : results) {
        const QString prefix = several ? kindWords(result) + QStringLiteral(": ") : QString();
        bool measured = false;
        // A latency-under-load test's probe figures are per phase (below); its load is a
        // bidirectional throughput test.
        const bool rrTest = result.hasRr && !result.params.isLoadedLatency();
        if (result.loadedLatency) {
            headline.append(loadedLatencyHeadline(*result.loadedLatency));
            QStringList lines = loadedLatencyPhaseLines(*result.loadedLatency);
            if (!result.loadedLatency->probeError.isEmpty())
                lines.append(tr("Probe: %1").arg(result.loadedLatency->probeError));
            m_loadedLabel->setText(lines.join(QLatin1Char('\n')));
            m_form->setRowVisible(m_loadedLabel, !lines.isEmpty());
        }
        if (rrTest) {
            const nb::RrSummary &rr = result.rr;
            measured = rr.transactions > 0;
            m_transactionsPerSecond = rr.transactionsPerSecond();
            const QString connections =
                rr.connections == 1 ? tr("1 connection") : tr("%1 connections").arg(rr.connections);
            m_rrLabel->setText(tr("%1 (%2, %3 request, %4 response, %5, %6 in flight)")
                                   .arg(nb::formatTransactionsPerSecond(rr.transactionsPerSecond()), kindWords(result),
                                        sizeWords(rr.requestSize), sizeWords(rr.responseSize), connections)
                                   .arg(rr.inFlight));
            m_form->setRowVisible(m_rrLabel, true);
            const nb::LatencySummary &l = rr.latencyUs;
            m_latencyLabel->setText(
                tr("p50 %1 \u00b7 p90 %2 \u00b7 p99 %3 \u00b7 p99.9 %4 \u00b7 max %5 \u00b7 mean %6")
                    .arg(nb::formatMicroseconds(l.p50), nb::formatMicroseconds(l.p90), nb::formatMicroseconds(l.p99),
                         nb::formatMicroseconds(l.p999), nb::formatMicroseconds(l.max),
                         nb::formatMicroseconds(l.mean)));
            m_form->setRowVisible(m_latencyLabel, l.count > 0);
            if (rr.udpLost) {
                m_udpLostLabel->setText(nb::ui::udpLostRequestsText(rr, result.params.udpRrTimeoutMs));
                m_form->setRowVisible(m_udpLostLabel, true);
            }
            headline.append(
                tr("Transactions %1, p99 %2")
                    .arg(nb::formatTransactionsPerSecond(rr.transactionsPerSecond()), nb::formatMicroseconds(l.p99)));
            const QString fair =
                fairnessWords(rr.fairness, tr("transactions per connection"), tr("connections"), countWords);
            if (!fair.isEmpty())
                fairnessLines.append(prefix + fair);
        } else {
            for (bool clientSent : {true, false}) {
                DirectionRow &row = clientSent ? m_upload : m_download;
                if (!result.hasDirection(clientSent)) {
                    row.setVisible(false);
                    continue;
                }
                anyStream = measured = true;
                const nb::DirectionSum sum = result.sum(clientSent);
                fillRow(row, sum);
                m_headline += sum.receivedBitsPerSecond();
                const QString way = clientSent ? tr("Upload") : tr("Download");
                // Latency under load: the phases carry the throughput that matters.
                if (sum.udp && sum.packetsReceived > 0) {
                    udpHeadline = true;
                    headline.append(tr("%1 %2, %3 lost")
                                        .arg(way, nb::formatBitrate(sum.receivedBitsPerSecond()),
                                             nb::formatLossPercent(sum.lostPercent())));
                    udpLines.append(QStringLiteral("%1: %2").arg(way, udpDirectionText(sum)));
                } else if (!result.loadedLatency) {
                    headline.append(QStringLiteral("%1 %2").arg(way, nb::formatBitrate(sum.receivedBitsPerSecond())));
                }
                const QString fair = fairnessWords(result.fairnessOf(clientSent),
                                                   clientSent ? tr("Upload per stream") : tr("Download per stream"),
                                                   tr("streams"), bytesWords);
                if (!fair.isEmpty())
                    fairnessLines.append(prefix + fair);
            }
        }

        // CPU: system-wide busy % where the engine measured it (all cores), and the
        // iperf3-style process figure (one core).
        if (measured) {
            QStringList cpu;
            if (result.localCpuKnown && result.localCpu.systemValid)
                cpu.append(tr("this computer %1 busy").arg(pct(result.localCpu.systemBusyPct)));
            cpu.append(tr("process %1 of one core").arg(pct(result.cpu.hostTotal)));
            if (result.remoteCpuKnown && result.remoteCpu.systemValid)
                cpu.append(tr("server %1 busy").arg(pct(result.remoteCpu.systemBusyPct)));
            else if (result.cpu.remoteKnown)
                cpu.append(tr("server process %1 of one core").arg(pct(result.cpu.remoteTotal)));
            else
                cpu.append(tr("server not reported"));
            cpuLines.append(prefix + cpu.join(QStringLiteral(", ")));

            if (rrTest) {
                const QString cost = costWords(result, result.rr.transactionsPerSecond() / 1000.0);
                if (!cost.isEmpty())
                    perKtpsLines.append(prefix + cost);
            } else {
                double bps = 0;
                for (bool clientSent : {true, false}) {
                    if (result.hasDirection(clientSent))
                        bps += result.sum(clientSent).receivedBitsPerSecond();
                }
                // cpuPctPerGbps() refuses no throughput; the division is the same for both ends.
                if (nb::cpuPctPerGbps(1.0, bps)) {
                    const QString cost = costWords(result, bps / 1e9);
                    if (!cost.isEmpty())
                        perGbpsLines.append(prefix + cost);
                }
            }

            // The costs as measured where the test ran (nb::CpuCosts), not re-read from JSON.
            const auto perUnit = [rrTest](const std::optional<nb::CpuCost> &c) {
                return !c ? std::nullopt : rrTest ? c->usPerTransaction : c->usPerKB;
            };
            const QString unit = rrTest ? tr("transaction") : QStringLiteral("KB");
            QStringList demand;
            if (const auto local = perUnit(result.costs.local))
                demand.append(tr("%1 here").arg(nb::formatServiceDemand(*local, unit)));
            if (const auto remote = perUnit(result.costs.remote))
                demand.append(tr("%1 on the server").arg(nb::formatServiceDemand(*remote, unit)));
            // NTttcp's figure, where this machine's clock is known (review M3).
            const auto cycles = result.costs.local ? result.costs.local->cyclesPerByte : std::nullopt;
            if (!rrTest && cycles && *cycles > 0)
                demand.append(tr("%1 cycles/byte here").arg(nb::formatSignificant(*cycles, 3)));
            if (!demand.isEmpty())
                demandLines.append(prefix + demand.join(QStringLiteral(", ")));
        }

        if (result.localAdapter || result.remoteAdapter) {
            QString text = result.localAdapter ? adapterWords(*result.localAdapter) : tr("unknown");
            if (result.remoteAdapter)
                text += tr(", server: %1").arg(adapterWords(*result.remoteAdapter));
            if (!adapterLines.contains(text))
                adapterLines.append(text);
        }

        const nb::TestParams &p = result.params;
        QString target = p.host;
        if (target.contains(QLatin1Char(':')))
            target = QStringLiteral("[%1]").arg(target);
        QString length = p.isTimed() ? tr("%1 s").arg(secondsText(p.duration)) : nb::formatBytes(double(p.bytes));
        if (stoppedAfterSeconds >= 0 && &result == &results.constLast()) {
            const QString after = secondsText(std::round(stoppedAfterSeconds * 10) / 10);
            length = p.isTimed() ? tr("stopped after %1 s of %2 s").arg(after, secondsText(p.omit + p.duration))
                                 : tr("stopped after %1 s").arg(after);
        }
        if (p.isLoadedLatency()) {
            const QString streams = p.streams == 1 ? tr("1 stream each way") : tr("%1 streams each way").arg(p.streams);
            testLines.append(tr("latency under load, %1 phases of %2 s, %3, %4 B probe, to %5:%6")
                                 .arg(p.loadSchedule().size())
                                 .arg(secondsText(p.phaseSeconds), streams)
                                 .arg(p.requestSize)
                                 .arg(target)
                                 .arg(p.port));
        } else if (p.isRequestResponse()) {
            testLines.append(tr("%1, %2, to %3:%4").arg(kindWords(result), length, target).arg(p.port));
        } else {
            const QString streams = p.streams == 1 ? tr("1 stream") : tr("%1 streams").arg(p.streams);
            if (p.udp) {
                const QString rate = p.bandwidth > 0 ? nb::formatBitrate(double(p.bandwidth)) : tr("unlimited");
                const QString datagram =
                    p.udpDatagramSizeUnset() ? tr("path-MSS") : QStringLiteral("%1 B").arg(p.blockSize);
                testLines.append(tr("UDP %1, %2, %3, %4 datagrams at %5 per stream, to %6:%7")
                                     .arg(nb::directionName(p.direction), streams, length, datagram, rate, target)
                                     .arg(p.port));
            } else {
                testLines.append(
                    tr("%1, %2, %3, %4 blocks, to %5:%6")
                        .arg(nb::directionName(p.direction), streams, length, nb::formatBytes(p.blockSize), target)
                        .arg(p.port));
            }
        }
        if (!result.ok())
            notes.append(prefix + tr("Error: %1").arg(result.error));
        for (const QString &w : result.warnings) {
            if (!notes.contains(w))
                notes.append(w);
        }
    }

    m_table->setVisible(anyStream);
    if (headline.isEmpty())
        m_headlineLabel->setText(m_result.ok() ? tr("No data") : tr("Test failed, nothing measured"));
    else
        m_headlineLabel->setText(headline.join(udpHeadline ? QStringLiteral("\n") : QStringLiteral("   ")));
    m_udpLabel->setText(udpLines.join(QLatin1Char('\n')));
    m_form->setRowVisible(m_udpLabel, !udpLines.isEmpty());
    m_fairnessLabel->setText(fairnessLines.join(QLatin1Char('\n')));
    m_form->setRowVisible(m_fairnessLabel, !fairnessLines.isEmpty());
    m_cpuLabel->setText(cpuLines.isEmpty() ? QStringLiteral("-") : cpuLines.join(QLatin1Char('\n')));
    m_cpuPerGbpsLabel->setText(perGbpsLines.join(QLatin1Char('\n')));
    m_form->setRowVisible(m_cpuPerGbpsLabel, !perGbpsLines.isEmpty());
    m_cpuPerKtpsLabel->setText(perKtpsLines.join(QLatin1Char('\n')));
    m_form->setRowVisible(m_cpuPerKtpsLabel, !perKtpsLines.isEmpty());
    m_demandLabel->setText(demandLines.join(QLatin1Char('\n')));
    m_form->setRowVisible(m_demandLabel, !demandLines.isEmpty());
    m_adapterLabel->setText(adapterLines.join(QLatin1Char('\n')));
    m_form->setRowVisible(m_adapterLabel, !adapterLines.isEmpty());
    m_testLabel->setText(testLines.join(QLatin1Char('\n')));
    m_warningsLabel->setText(notes.join(QLatin1Char('\n')));
    m_warningsLabel->setVisible(!notes.isEmpty());
}

QString ResultsSummary::latencyText() const
{
    return m_latencyLabel->text();
}

QString ResultsSummary::loadedLatencyText() const
{
    return m_form->isRowVisible(m_loadedLabel) ? m_loadedLabel->text() : QString();
}

QString ResultsSummary::udpText() const
{
    return m_form->isRowVisible(m_udpLabel) ? m_udpLabel->text() : QString();
}

QString ResultsSummary::udpLostRequestsText() const
{
    return m_form->isRowVisible(m_udpLostLabel) ? m_udpLostLabel->text() : QString();
}

QString ResultsSummary::fairnessText() const
{
    return m_form->isRowVisible(m_fairnessLabel) ? m_fairnessLabel->text() : QString();
}

QString ResultsSummary::cpuText() const
{
    return m_cpuLabel->text();
}

QString ResultsSummary::cpuPerGbpsText() const
{
    return m_form->isRowVisible(m_cpuPerGbpsLabel) ? m_cpuPerGbpsLabel->text() : QString();
}

QString ResultsSummary::cpuPerKiloTransactionsText() const
{
    return m_form->isRowVisible(m_cpuPerKtpsLabel) ? m_cpuPerKtpsLabel->text() : QString();
}

QString ResultsSummary::testText() const
{
    return m_testLabel->text();
}

QString ResultsSummary::adapterText() const
{
    return m_adapterLabel->text();
}

QString ResultsSummary::toText() const
{
    QStringList lines{m_headlineLabel->text()};
    if (m_hasResult && m_table->isVisibleTo(this)) {
        for (const DirectionRow *row : {&m_upload, &m_download}) {
            if (row->cells[1]->text().isEmpty() || !row->cells[1]->isVisibleTo(this))
                continue;
            QString line =
                tr("%1: %2 received, %3 sent, %4")
                    .arg(row->cells[0]->text(), row->cells[1]->text(), row->cells[2]->text(), row->cells[3]->text());
            if (row->cells[4]->isVisibleTo(this))
                line += tr(", %1 retransmits").arg(row->cells[4]->text());
            lines.append(line);
        }
    }
    for (QLabel *l : {m_loadedLabel, m_udpLabel, m_cpuPerGbpsLabel, m_rrLabel, m_latencyLabel, m_udpLostLabel,
                      m_cpuPerKtpsLabel, m_fairnessLabel, m_cpuLabel, m_demandLabel, m_adapterLabel, m_testLabel}) {
        if (m_form->isRowVisible(l))
            lines.append(
                QStringLiteral("%1 %2").arg(qobject_cast<QLabel *>(m_form->labelForField(l))->text(), l->text()));
    }
    if (!m_warningsLabel->text().isEmpty())
        lines.append(m_warningsLabel->text());
    return lines.join(QLatin1Char('\n'));
}

} // namespace nb::ui
