// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/resultssummary.h"

#include <core/format.h>

#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

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
    , m_keyLabel(new QLabel(this))
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
    setUpLabels();
    createDirectionTable();
    layOutSummary();
    clear();
}

// Names (for tests) and tooltips of the value labels.
void ResultsSummary::setUpLabels()
{
    m_headlineLabel->setObjectName(QStringLiteral("headline"));
    m_headlineLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headlineLabel->setWordWrap(true);
    QFont big = m_headlineLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_headlineLabel->setFont(big);
    m_keyLabel->setObjectName(QStringLiteral("keyFigures"));
    m_keyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_keyLabel->setWordWrap(true);
    QFont key = m_keyLabel->font();
    key.setPointSizeF(key.pointSizeF() * 1.15);
    m_keyLabel->setFont(key);
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
}

// Received first: it is what the link delivered; sent minus received was still in
// flight (or lost) when the test ended.
void ResultsSummary::createDirectionTable()
{
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
}

void ResultsSummary::layOutSummary()
{
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
    layout->addWidget(m_keyLabel);
    layout->addWidget(m_table);
    layout->addLayout(m_form);
    layout->addWidget(m_warningsLabel);
    layout->addStretch(1);
}

void ResultsSummary::clear()
{
    m_hasResult = false;
    m_result = nb::TestResult();
    m_headline = 0;
    m_transactionsPerSecond = 0;
    m_headlineLabel->setText(tr("No result yet"));
    m_keyLabel->clear();
    m_keyLabel->hide();
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

void ResultsSummary::showLiveCpu(const nb::CpuSample &sample)
{
    if (!sample.systemValid)
        return;
    m_cpuLabel->setText(tr("%1 busy here (last interval)").arg(nb::formatPercent(sample.systemBusyPct)));
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

void ResultsSummary::showResults(const QList<nb::TestResult> &results, double stoppedAfterSeconds)
{
    clear();
    if (results.isEmpty())
        return;
    m_result = results.constLast();
    m_hasResult = true;
    showContent(summaryContent(results, stoppedAfterSeconds));
}

void ResultsSummary::showOptionalRow(QLabel *label, const std::optional<QString> &text, bool shown)
{
    if (!text)
        return;
    label->setText(*text);
    m_form->setRowVisible(label, shown);
}

void ResultsSummary::showLinesRow(QLabel *label, const QStringList &lines)
{
    label->setText(lines.join(QLatin1Char('\n')));
    m_form->setRowVisible(label, !lines.isEmpty());
}

void ResultsSummary::showContent(const SummaryContent &c)
{
    m_headline = c.headlineBitsPerSecond;
    m_transactionsPerSecond = c.transactionsPerSecond;
    if (c.loadedLatency)
        showLinesRow(m_loadedLabel, *c.loadedLatency);
    showOptionalRow(m_rrLabel, c.requestResponse, true);
    showOptionalRow(m_latencyLabel, c.latency, c.latencyShown);
    showOptionalRow(m_udpLostLabel, c.udpLostRequests, true);
    if (c.directionsSet) {
        for (const auto &[row, sum] : {std::pair{&m_upload, &c.upload}, std::pair{&m_download, &c.download}}) {
            if (*sum)
                fillRow(*row, **sum);
            else
                row->setVisible(false);
        }
    }
    m_table->setVisible(c.anyStream);
    if (c.headline.isEmpty())
        m_headlineLabel->setText(m_result.ok() ? tr("No data") : tr("Test failed, nothing measured"));
    else
        m_headlineLabel->setText(c.headline.join(c.headlinePerLine ? QStringLiteral("\n") : QStringLiteral("   ")));
    showKeyFigures(c);
    showLinesRow(m_udpLabel, c.udp);
    showLinesRow(m_fairnessLabel, c.fairness);
    m_cpuLabel->setText(c.cpu.isEmpty() ? QStringLiteral("-") : c.cpu.join(QLatin1Char('\n')));
    showLinesRow(m_cpuPerGbpsLabel, c.cpuPerGbps);
    showLinesRow(m_cpuPerKtpsLabel, c.cpuPerKiloTransactions);
    showLinesRow(m_demandLabel, c.serviceDemand);
    showLinesRow(m_adapterLabel, c.adapters);
    m_testLabel->setText(c.test.join(QLatin1Char('\n')));
    m_warningsLabel->setText(c.notes.join(QLatin1Char('\n')));
    m_warningsLabel->setVisible(!c.notes.isEmpty());
}

// What an admin compares adapters by, right under the headline: the CPU cost of a unit of
// work on both sides and the adapter; the rows below keep the details.
void ResultsSummary::showKeyFigures(const SummaryContent &c)
{
    QStringList key;
    if (!c.cpuPerGbps.isEmpty())
        key.append(tr("CPU per Gbit/s: %1").arg(c.cpuPerGbps.first()));
    else if (!c.cpuPerKiloTransactions.isEmpty())
        key.append(tr("CPU per 1,000 transactions/s: %1").arg(c.cpuPerKiloTransactions.first()));
    if (!c.adapters.isEmpty())
        key.append(tr("Adapter: %1").arg(c.adapters.first()));
    m_keyLabel->setText(key.join(QLatin1Char('\n')));
    m_keyLabel->setVisible(!key.isEmpty());
}

QString ResultsSummary::keyFiguresText() const
{
    return m_keyLabel->isVisibleTo(this) ? m_keyLabel->text() : QString();
}

QWidget *ResultsSummary::keyFiguresLabel() const
{
    return m_keyLabel;
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
