// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Help > About NicBench: version, git revision, licence (its full text one click away, from
// the Qt resource :/LICENSE), the Qt and QCustomPlot versions; and Help > Documentation,
// which opens the installed README.

#include <QDialog>
#include <QStringList>

class QPlainTextEdit;
class QPushButton;

namespace nb::gui {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);

    // The rich text at the top: version, revision, licence name, Qt and QCustomPlot versions.
    static QString text();
    // The git revision the program was built from ("unknown" outside a git checkout).
    static QString revision();
    // The licence's full text (LICENSE, embedded as a resource).
    static QString licenceText();

    QPushButton *licenceButton() const { return m_licenceButton; }
    QPlainTextEdit *licenceView() const { return m_licenceView; }

private:
    void toggleLicence();

    QPushButton *m_licenceButton;
    QPlainTextEdit *m_licenceView;
};

// Where the README may be: beside the executable's prefix (/usr/bin -> /usr/share/doc/nicbench,
// also /usr/local and an unpacked .tar.gz), /usr/share/doc/nicbench, then the source tree the
// program was built from (running from build/bin).
QStringList documentationCandidates();
// The first of `candidates` that exists, or an empty string.
QString findDocumentation(const QStringList &candidates);
// Help > Documentation: opens the README with the desktop's handler; a one-line message box
// when there is none or the desktop cannot open it.
void openDocumentation(QWidget *parent);

} // namespace nb::gui
