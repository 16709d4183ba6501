# SPDX-License-Identifier: GPL-3.0-or-later
# Cross-building NicBench for Windows x86_64 on Debian 12: mingw-w64 (posix threads) from
# Debian's packages, Qt 6.4.2 + QCustomPlot cross-built from Debian's source (the tarball in
# shared/toolchains, or packaging/windows/build-qt-mingw.sh). The host Qt (/usr) supplies
# moc, rcc and uic. `./dev windows` unpacks Qt to .toolchains/qt6-mingw and uses this file
# through the "windows" preset; elsewhere pass -DNICBENCH_QT_MINGW=<prefix>.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER /usr/bin/x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER /usr/bin/x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER /usr/bin/x86_64-w64-mingw32-windres)
set(CMAKE_AR /usr/bin/x86_64-w64-mingw32-ar CACHE FILEPATH "")
set(CMAKE_RANLIB /usr/bin/x86_64-w64-mingw32-ranlib CACHE FILEPATH "")

if(NOT NICBENCH_QT_MINGW)
  if(DEFINED ENV{NICBENCH_QT_MINGW})
    set(NICBENCH_QT_MINGW "$ENV{NICBENCH_QT_MINGW}")
  else()
    get_filename_component(NICBENCH_QT_MINGW "${CMAKE_CURRENT_LIST_DIR}/../../.toolchains/qt6-mingw" ABSOLUTE)
  endif()
endif()
set(NICBENCH_QT_MINGW "${NICBENCH_QT_MINGW}" CACHE PATH "Qt 6 for mingw-w64 (prefix with lib/cmake/Qt6)")
# try_compile() projects read this file again without the cache: pass the prefix on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES NICBENCH_QT_MINGW)

set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 "${NICBENCH_QT_MINGW}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_PREFIX_PATH "${NICBENCH_QT_MINGW}")

# Qt's host tools come from Debian's qt6-base-dev-tools.
set(QT_HOST_PATH /usr)
set(QT_HOST_PATH_CMAKE_DIR /usr/lib/x86_64-linux-gnu/cmake)

# ctest runs the Windows test executables through wine.
set(CMAKE_CROSSCOMPILING_EMULATOR wine)
