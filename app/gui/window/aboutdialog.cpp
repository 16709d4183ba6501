// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/aboutdialog.h"

#include "nicbench_buildinfo.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace nb::gui {

AboutDialog::AboutDialog(QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("aboutBox"));
    setWindowTitle(tr("About NicBench"));

    auto *icon = new QLabel(this);
    icon->setPixmap(QApplication::windowIcon().pixmap(64, 64));
    icon->setAlignment(Qt::AlignTop);
    auto *label = new QLabel(text(), this);
    label->setObjectName(QStringLiteral("aboutText"));
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *top = new QHBoxLayout;
    top->addWidget(icon);
    top->addWidget(label, 1);

    m_licenceView = new QPlainTextEdit(this);
    m_licenceView->setObjectName(QStringLiteral("licenceView"));
    m_licenceView->setReadOnly(true);
    m_licenceView->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_licenceView->setMinimumHeight(280);
    m_licenceView->hide(); // filled on the first click: 35 KB nobody reads unasked

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_licenceButton = buttons->addButton(tr("&Licence"), QDialogButtonBox::ActionRole);
    m_licenceButton->setObjectName(QStringLiteral("licenceButton"));
    m_licenceButton->setCheckable(true);
    QPushButton *docs = buttons->addButton(tr("&Documentation"), QDialogButtonBox::HelpRole);
    docs->setObjectName(QStringLiteral("documentationButton"));
    connect(m_licenceButton, &QPushButton::toggled, this, &AboutDialog::toggleLicence);
    connect(docs, &QPushButton::clicked, this, [this] { openDocumentation(this); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Enter closes the box; the focus starts on Close rather than on the licence.
    QPushButton *close = buttons->button(QDialogButtonBox::Close);
    close->setDefault(true);
    close->setFocus();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_licenceView, 1);
    layout->addWidget(buttons);
    setMinimumWidth(480);
}

QString AboutDialog::text()
{
    return tr("<h3>NicBench %1</h3>"
              "<p>Network adapter benchmark: throughput, request/response latency, CPU cost and "
              "adapter comparisons, compatible with iperf3.</p>"
              "<p>Revision %2</p>"
              "<p>Licence: GPL-3.0-or-later (<i>Licence</i> below shows the text). This program comes "
              "with ABSOLUTELY NO WARRANTY.</p>"
              "<p>Built with Qt %3 (running on Qt %4) and QCustomPlot %5.</p>")
        .arg(QStringLiteral(NICBENCH_VERSION), revision().toHtmlEscaped(), QStringLiteral(QT_VERSION_STR),
             QString::fromLatin1(qVersion()), QStringLiteral(QCUSTOMPLOT_VERSION_STR));
}

QString AboutDialog::revision()
{
    return QStringLiteral(NICBENCH_GIT_REVISION);
}

QString AboutDialog::licenceText()
{
    QFile f(QStringLiteral(":/LICENSE"));
    if (!f.open(QIODevice::ReadOnly))
        return tr("The licence text is missing from this build: see "
                  "https://www.gnu.org/licenses/gpl-3.0.txt");
    return QString::fromUtf8(f.readAll());
}

void AboutDialog::toggleLicence()
{
    const bool show = m_licenceButton->isChecked();
    if (show && m_licenceView->document()->isEmpty())
        m_licenceView->setPlainText(licenceText());
    m_licenceView->setVisible(show);
    adjustSize();
}

QStringList documentationCandidates()
{
    const QString prefix = QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/.."));
    QStringList c = {prefix + QStringLiteral("/share/doc/nicbench/README.md"),
                     QStringLiteral("/usr/share/doc/nicbench/README.md")};
#ifdef NICBENCH_SOURCE_DIR
    c.append(QStringLiteral(NICBENCH_SOURCE_DIR "/README.md"));
#endif
    c.removeDuplicates();
    return c;
}

QString findDocumentation(const QStringList &candidates)
{
    for (const QString &path : candidates) {
        if (QFileInfo(path).isFile())
            return path;
    }
    return {};
}

void openDocumentation(QWidget *parent)
{
    const QString readme = findDocumentation(documentationCandidates());
    if (readme.isEmpty()) {
        QMessageBox::information(parent, QObject::tr("Documentation"),
                                 QObject::tr("No README found (looked in %1); `man nicbench` and `man "
                                             "nicbench-cli` describe the options.")
                                     .arg(documentationCandidates().join(QStringLiteral(", "))));
        return;
    }
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(readme)))
        QMessageBox::information(parent, QObject::tr("Documentation"),
                                 QObject::tr("The desktop could not open %1.").arg(readme));
}

} // namespace nb::gui
