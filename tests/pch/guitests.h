// SPDX-License-Identifier: GPL-3.0-or-later
// The precompiled header of the GUI tests (tst_gui_*): the engine tests' one plus Qt Widgets
// and QCustomPlot, whose headers are most of what a GUI test's compile parses.
#pragma once

#include "enginetests.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QToolButton>
#include <QWidget>

#include <qcustomplot.h>
