// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the one-page PDF reports share (the comparison's, comparisonreport.h, and a single
// test's, testview/testreport.h): an A4 landscape page written atomically, the painter and
// fonts on it, lines and lists that never leave their box, the light chart palette (reports
// are printed, whatever the desktop's theme) and the footer.

#include <qcustomplot.h>

#include <QFont>
#include <QPagedPaintDevice>
#include <QPalette>
#include <QRect>
#include <QString>
#include <QStringList>

#include <functional>

namespace nb::gui::report {

// One A4 landscape page and the painter on it; a report's sections each draw one part of it
// from the top down and return where the next part starts.
struct ReportPage {
    QCPPainter &p;
    int width = 0;
    int height = 0;
    int bottom = 0;                      // above the footer line
    QPagedPaintDevice *device = nullptr; // the PDF being written

    // Starts the next page (the same size); false when the writer cannot.
    bool newPage() const { return device && device->newPage(); }

    QFont font(double points, bool bold = false) const;
    void setFont(double points, bool bold = false) { p.setFont(font(points, bold)); }
};

// Draws `text` elided to `width` at the top-left (x, y); returns the height.
int drawLine(QPainter &p, int x, int y, int width, const QString &text);
// Draws wrapped lines into the box; stops (with "... and N more") when the box is full.
// Returns the height used.
int drawList(QPainter &p, const QRect &box, const QStringList &lines, const QString &bullet);
// White background, black text: charts drawn for paper.
QPalette lightPalette();
// "NicBench 0.1.0 · <file name>" at the bottom of the page.
void drawFooter(ReportPage &page, const QString &path);

// Writes `path` atomically (QSaveFile) as A4 landscape pages at 96 dpi, 10 mm margins, drawn
// by `draw` (which starts any page after the first with ReportPage::newPage and returns false
// when it cannot). False with *error when the file cannot be written.
bool writePages(const QString &path, const QString &title, const std::function<bool(ReportPage &)> &draw,
                QString *error);

} // namespace nb::gui::report
