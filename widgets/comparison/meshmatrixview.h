// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A mesh's matrix (nicbench-cli mesh, compare/meshmatrix.h): sources down, destinations
// across, each cell one pair's mean of the chosen metric, shaded from the worst pair to the
// best (the stronger the colour the better, whichever way the metric is better), its text the figure (and "1
// failed"); failed pairs hatched, pairs not in the mesh grey. A tooltip gives the interval and
// the runs; a click asks to open the pair's runs. Painted, so 30 x 30 agents stay one grid.

#include <compare/comparison.h>
#include <compare/comparisonstatistics.h>
#include <compare/meshmatrix.h>

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QScrollArea;

namespace nb::ui {

class MeshGrid : public QWidget {
    Q_OBJECT
public:
    explicit MeshGrid(QWidget *parent = nullptr);
    void setMatrix(const nb::MeshMatrix &matrix, const QString &tooltipPrefix = {});
    const nb::MeshMatrix &matrix() const { return m_matrix; }
    QSize sizeHint() const override;
    // The cell's rectangle, for tests and the tooltip; empty outside the grid.
    QRect cellRect(int source, int destination) const;
    // The cell at a point: (source, destination), or (-1, -1).
    std::pair<int, int> cellAt(const QPoint &point) const;
    // 0 (worst pair) .. 1 (best pair) of a filled cell; -1 for no figure.
    double shade(int source, int destination) const;
    QString toolTipText(int source, int destination) const;

signals:
    void pairActivated(int configIndex);

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    int headerWidth() const;
    int cellWidth() const;
    int cellHeight() const;

    nb::MeshMatrix m_matrix;
    double m_low = 0, m_high = 0;
};

class MeshMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit MeshMatrixView(QWidget *parent = nullptr);
    // Shows the comparison's matrix when it is a mesh (MeshMatrix::isMesh); clears it else.
    void setComparison(const nb::Comparison &comparison);
    bool hasMesh() const { return m_hasMesh; }
    void setMetric(nb::Metric metric);
    nb::Metric metric() const;
    MeshGrid *grid() const { return m_grid; }
    QComboBox *metricCombo() const { return m_metric; }
    // The metric row and the whole grid: what the Compare view makes room for.
    QSize sizeHint() const override;

signals:
    void pairActivated(int configIndex);

private:
    void showMetric();

    nb::Comparison m_comparison;
    nb::ComparisonStatistics m_stats;
    bool m_hasMesh = false;
    QComboBox *m_metric;
    QLabel *m_caption;
    QScrollArea *m_scroll;
    MeshGrid *m_grid;
};

} // namespace nb::ui
