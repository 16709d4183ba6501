// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/reportpage.h"

#include <QApplication>
#include <QFileInfo>
#include <QFontMetrics>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>

namespace nb::gui::report {

QFont ReportPage::font(double points, bool bold) const
{
    QFont f = QApplication::font();
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

int drawLine(QPainter &p, int x, int y, int width, const QString &text)
{
    const QFontMetrics fm(p.font());
    p.drawText(QRect(x, y, width, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(text, Qt::ElideRight, width));
    return fm.height();
}

int drawList(QPainter &p, const QRect &box, const QStringList &lines, const QString &bullet)
{
    const QFontMetrics fm(p.font());
    int y = box.top();
    for (int i = 0; i < lines.size(); ++i) {
        const QString text = bullet + lines[i];
        QRect need = fm.boundingRect(QRect(box.left(), y, box.width(), 10000), Qt::TextWordWrap, text);
        const bool last = i == lines.size() - 1;
        const int reserve = last ? 0 : fm.height();
        if (y + need.height() + reserve > box.bottom()) {
            drawLine(p, box.left(), y, box.width(),
                     lines.size() - i == 1 ? text : QObject::tr("... and %1 more").arg(lines.size() - i));
            return y + fm.height() - box.top();
        }
        p.drawText(QRect(box.left(), y, box.width(), need.height()), Qt::TextWordWrap, text);
        y += need.height() + 2;
    }
    return y - box.top();
}

QPalette lightPalette()
{
    QPalette pal(QColor(0xf0, 0xf0, 0xf0), QColor(Qt::white));
    pal.setColor(QPalette::Base, Qt::white);
    pal.setColor(QPalette::Window, Qt::white);
    pal.setColor(QPalette::WindowText, Qt::black);
    pal.setColor(QPalette::Text, Qt::black);
    pal.setColor(QPalette::ToolTipBase, Qt::white);
    return pal;
}

void drawFooter(ReportPage &page, const QString &path)
{
    page.setFont(6.5);
    page.p.setPen(Qt::darkGray);
    drawLine(page.p, 0, page.height - QFontMetrics(page.p.font()).height(), page.width,
             QObject::tr("NicBench %1 \u00b7 %2").arg(QStringLiteral(NICBENCH_VERSION), QFileInfo(path).fileName()));
}

bool writePages(const QString &path, const QString &title, const std::function<bool(ReportPage &)> &draw,
                QString *error)
{
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));

    QPdfWriter writer(&file);
    writer.setCreator(QStringLiteral("NicBench %1").arg(QStringLiteral(NICBENCH_VERSION)));
    writer.setTitle(title);
    writer.setResolution(96);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(10, 10, 10, 10),
                                     QPageLayout::Millimeter));
    const QRect rect = writer.pageLayout().paintRectPixels(writer.resolution());

    QCPPainter p;
    if (!p.begin(&writer))
        return fail(QObject::tr("Cannot draw the report into %1").arg(path));
    p.setMode(QCPPainter::pmVectorized);
    p.setMode(QCPPainter::pmNoCaching);
    ReportPage page{p, rect.width(), rect.height(), rect.height() - 16, &writer};
    if (!draw(page))
        return fail(QObject::tr("Cannot add a page to %1").arg(path));
    if (!p.end())
        return fail(QObject::tr("Cannot draw the report into %1").arg(path));
    if (!file.commit())
        return fail(QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

} // namespace nb::gui::report
