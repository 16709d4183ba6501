// SPDX-License-Identifier: GPL-3.0-or-later
#include "resultssummary.h"

#include "ratescale.h"

#include <units.h>

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
    return label;
}

// 8 -> "8", 2.5 -> "2.5": durations as a person writes them.
QString secondsText(double seconds)
{
    return QString::number(seconds, 'g', 4);
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
    , m_cpuLabel(makeValueLabel(this))
    , m_testLabel(makeValueLabel(this))
    , m_warningsLabel(makeValueLabel(this))
{
    m_headlineLabel->setObjectName(QStringLiteral("headline"));
    m_headlineLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headlineLabel->setWordWrap(true);
    QFont big = m_headlineLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_headlineLabel->setFont(big);

    // Received first: it is what the link delivered; sent minus received was still in
    // flight (or lost) when the test ended.
    auto *grid = new QGridLayout(m_table);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(16);
    grid->setVerticalSpacing(2);
    const QStringList figures{tr("Received"), tr("Sent"), tr("Data"), tr("Retransmits")};
    for (int row = 0; row < figures.size(); ++row)
        grid->addWidget(new QLabel(figures.at(row), m_table), row + 1, 0);
    m_upload = addDirectionRow(grid, 1, tr("Upload"));
    m_download = addDirectionRow(grid, 2, tr("Download"));
    grid->setColumnStretch(3, 1);

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("CPU:"), m_cpuLabel);
    form->addRow(tr("Test:"), m_testLabel);

    m_warningsLabel->setObjectName(QStringLiteral("warnings"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headlineLabel);
    layout->addWidget(m_table);
    layout->addLayout(form);
    layout->addWidget(m_warningsLabel);
    layout->addStretch(1);
    clear();
}

void ResultsSummary::clear()
{
    m_hasResult = false;
    m_result = nb::TestResult();
    m_headline = 0;
    m_headlineLabel->setText(tr("No result yet"));
    m_table->hide();
    m_cpuLabel->setText(QStringLiteral("-"));
    m_testLabel->setText(QStringLiteral("-"));
    m_warningsLabel->clear();
    m_warningsLabel->hide();
}

void ResultsSummary::showLive(double sendBitsPerSecond, double receiveBitsPerSecond)
{
    QStringList parts;
    if (sendBitsPerSecond > 0)
        parts.append(tr("Sending %1").arg(formatRate(sendBitsPerSecond)));
    if (receiveBitsPerSecond > 0)
        parts.append(tr("Receiving %1").arg(formatRate(receiveBitsPerSecond)));
    m_headlineLabel->setText(parts.isEmpty() ? tr("Starting...") : parts.join(QStringLiteral("   ")));
}

void ResultsSummary::fillRow(DirectionRow &row, const nb::DirectionSum &sum)
{
    row.cells[1]->setText(formatRate(sum.receivedBitsPerSecond()));
    row.cells[2]->setText(formatRate(sum.sentBitsPerSecond()));
    row.cells[3]->setText(nb::formatBytes(double(sum.bytesReceived)));
    row.cells[4]->setText(sum.retransmits < 0 ? tr("n/a") : QString::number(sum.retransmits));
    row.setVisible(true);
}

void ResultsSummary::showResult(const nb::TestResult &result)
{
    m_result = result;
    m_hasResult = true;
    m_headline = 0;

    QStringList headline;
    bool any = false;
    for (bool clientSent : {true, false}) {
        DirectionRow &row = clientSent ? m_upload : m_download;
        if (!result.hasDirection(clientSent)) {
            row.setVisible(false);
            continue;
        }
        any = true;
        const nb::DirectionSum sum = result.sum(clientSent);
        fillRow(row, sum);
        m_headline += sum.receivedBitsPerSecond();
        headline.append(QStringLiteral("%1 %2").arg(clientSent ? tr("Upload") : tr("Download"),
                                                    formatRate(sum.receivedBitsPerSecond())));
    }
    m_table->setVisible(any);
    if (headline.isEmpty())
        m_headlineLabel->setText(result.ok() ? tr("No data") : tr("Test failed, nothing measured"));
    else
        m_headlineLabel->setText(headline.join(QStringLiteral("   ")));

    const nb::CpuUtilization &cpu = result.cpu;
    if (any) {
        QString cpuText = tr("this computer %1%").arg(formatSignificantDigits(cpu.hostTotal, 2));
        cpuText += cpu.remoteKnown ? tr(", server %1%").arg(formatSignificantDigits(cpu.remoteTotal, 2))
                                   : tr(", server not reported");
        cpuText += tr(" (process, % of one core)");
        m_cpuLabel->setText(cpuText);
    } else {
        m_cpuLabel->setText(QStringLiteral("-"));
    }

    const nb::TestParams &p = result.params;
    QString target = p.host;
    if (target.contains(QLatin1Char(':')))
        target = QStringLiteral("[%1]").arg(target);
    const QString streams = p.streams == 1 ? tr("1 stream") : tr("%1 streams").arg(p.streams);
    const QString length = p.bytes > 0 && p.duration <= 0 ? nb::formatBytes(double(p.bytes))
                                                           : tr("%1 s").arg(secondsText(p.duration));
    m_testLabel->setText(tr("%1, %2, %3, %4 blocks, to %5:%6")
                             .arg(nb::directionName(p.direction), streams, length, nb::formatBytes(p.blockSize), target)
                             .arg(p.port));

    QStringList notes;
    if (!result.ok())
        notes.append(tr("Error: %1").arg(result.error));
    notes.append(result.warnings);
    m_warningsLabel->setText(notes.join(QLatin1Char('\n')));
    m_warningsLabel->setVisible(!notes.isEmpty());
}

QString ResultsSummary::toText() const
{
    QStringList lines{m_headlineLabel->text()};
    if (m_table->isVisible() || m_hasResult) {
        for (const DirectionRow *row : {&m_upload, &m_download}) {
            if (row->cells[1]->text().isEmpty() || !m_result.hasDirection(row == &m_upload))
                continue;
            lines.append(tr("%1: %2 received, %3 sent, %4, %5 retransmits")
                             .arg(row->cells[0]->text(), row->cells[1]->text(), row->cells[2]->text(),
                                  row->cells[3]->text(), row->cells[4]->text()));
        }
    }
    lines.append(tr("CPU: %1").arg(m_cpuLabel->text()));
    lines.append(tr("Test: %1").arg(m_testLabel->text()));
    if (!m_warningsLabel->text().isEmpty())
        lines.append(m_warningsLabel->text());
    return lines.join(QLatin1Char('\n'));
}

} // namespace nb::ui
