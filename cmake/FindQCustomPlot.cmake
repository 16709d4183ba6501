# SPDX-License-Identifier: GPL-3.0-or-later
# Finds Debian's libqcustomplot-dev (Qt 6 build) and provides QCustomPlot::QCustomPlot.
find_path(QCustomPlot_INCLUDE_DIR NAMES qcustomplot.h)
find_library(QCustomPlot_LIBRARY NAMES QCustomPlotQt6)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QCustomPlot REQUIRED_VARS QCustomPlot_LIBRARY QCustomPlot_INCLUDE_DIR)
if(QCustomPlot_FOUND AND NOT TARGET QCustomPlot::QCustomPlot)
  add_library(QCustomPlot::QCustomPlot UNKNOWN IMPORTED)
  set_target_properties(QCustomPlot::QCustomPlot PROPERTIES
    IMPORTED_LOCATION "${QCustomPlot_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${QCustomPlot_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS QCUSTOMPLOT_USE_LIBRARY
    INTERFACE_LINK_LIBRARIES "Qt6::Widgets;Qt6::PrintSupport")
endif()
mark_as_advanced(QCustomPlot_INCLUDE_DIR QCustomPlot_LIBRARY)
