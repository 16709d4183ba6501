#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Rebuilds the cross Qt that `./dev windows` otherwise unpacks from qt6-mingw-6.4.2.tar.xz:
# Qt 6.4.2 (Debian 12's qt6-base source, with Debian's patches) and QCustomPlot 2.1 (Debian's
# source) for Windows x86_64, built with Debian's mingw-w64 (posix threads). About 30 minutes
# on 2 cores. Adapted from the organisation's shared/toolchains/build-qt-mingw.sh; see
# packaging/windows/README.md.
#
# Usage:  packaging/windows/build-qt-mingw.sh [--prefix DIR] [STEP ...]
#   --prefix DIR  where Qt is installed (default: .toolchains/qt6-mingw in this repository,
#                 where ./dev windows looks; elsewhere, pass NICBENCH_QT_MINGW=DIR to ./dev)
# Steps (default: deps unpack configure build install qcp, in this order):
#   deps       apt-get install the toolchain, cmake, ninja, host Qt 6.4.2 (needs root)
#   unpack     dpkg-source -x Debian's qt6-base 6.4.2+dfsg-10 into $WORK/qt6-base-src
#   configure  qtbase for win32-g++ (toolchain file in $PREFIX/share), host tools from /usr
#   build      nice -n $NICE cmake --build --parallel $JOBS            (the long one)
#   install    cmake --install --strip into $PREFIX
#   qcp        QCustomPlot 2.1 from Debian's source as a DLL into $PREFIX
#   package    $WORK/qt6-mingw-6.4.2.tar.xz of $PREFIX (the tarball ./dev windows unpacks)
# Each step logs to $WORK/logs/STEP.log and appends its wall time to $WORK/logs/times.txt.
#
# Tunables (environment):
#   WORK=/tmp/qtmingw         build trees, logs
#   JOBS=2                    parallel compile jobs
#   NICE=15                   niceness of the compile steps
#   QTSRC=/tmp/qtsrc          where qt6-base_6.4.2+dfsg-10.dsc is (else apt-get source)
#   NO_DIRECT2D=0             1: configure -no-direct2d (saves the direct2d QPA plugin) and
#                             apply the two source fixes that 6.4.2 then needs
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [ "${1:-}" = --prefix ]; then
    [ -n "${2:-}" ] || { echo "build-qt-mingw.sh: --prefix needs a folder" >&2; exit 2; }
    mkdir -p "$2"
    PREFIX=$(cd "$2" && pwd)
    shift 2
fi
WORK=${WORK:-/tmp/qtmingw}
PREFIX=${PREFIX:-$REPO/.toolchains/qt6-mingw}
JOBS=${JOBS:-2}
NICE=${NICE:-15}
QTSRC=${QTSRC:-/tmp/qtsrc}
NO_DIRECT2D=${NO_DIRECT2D:-0}
QTVER=6.4.2+dfsg-10
SRC=$WORK/qt6-base-src
BLD=$WORK/qt6-base-build
LOGS=$WORK/logs
TRIPLE=x86_64-w64-mingw32
TOOLCHAIN=$PREFIX/share/mingw-w64-x86_64-toolchain.cmake
HOST_QT_CMAKE_DIR=/usr/lib/x86_64-linux-gnu/cmake     # Debian's host Qt 6.4.2 (qt6-base-dev)
export WORK PREFIX JOBS NICE QTSRC NO_DIRECT2D

mkdir -p "$WORK" "$LOGS"

# ---------------------------------------------------------------- deps
do_deps() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y \
        g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix mingw-w64-tools \
        cmake ninja-build perl dpkg-dev xz-utils qt6-base-dev qt6-base-dev-tools
    # Qt 6 needs posix threads (std::thread etc.): make sure the default
    # x86_64-w64-mingw32-g++ is the -posix flavour (we call the -posix names anyway).
    update-alternatives --set x86_64-w64-mingw32-gcc /usr/bin/x86_64-w64-mingw32-gcc-posix || true
    update-alternatives --set x86_64-w64-mingw32-g++ /usr/bin/x86_64-w64-mingw32-g++-posix || true
}

# Debian's source packages need a deb-src entry; derive it from the binary entry already configured.
ensure_deb_src() {
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
            > /etc/apt/sources.list.d/debian-src.sources
        apt-get update -qq
    fi
}

# ---------------------------------------------------------------- unpack
do_unpack() {
    rm -rf "$SRC"
    if [ ! -f "$QTSRC/qt6-base_$QTVER.dsc" ]; then
        ensure_deb_src; mkdir -p "$QTSRC"; (cd "$QTSRC" && apt-get source --download-only qt6-base=$QTVER)
    fi
    # applies debian/patches (CVE fixes etc.); --no-copy: don't copy the 46 MB orig tarball to $WORK
    dpkg-source --no-copy -x "$QTSRC/qt6-base_$QTVER.dsc" "$SRC"
}

# Source fixes needed only with -no-direct2d (NO_DIRECT2D=1); idempotent.
patch_src() {
    # 1. With -no-direct2d, QtGui does not compile qwindowsfontenginedirectwrite.cpp
    #    (its CMake condition is "direct2d AND directwrite"), but PrintSupport still calls
    #    QWindowsFontEngineDirectWrite::createHFONT() under "#if QT_CONFIG(directwrite)":
    #    Qt6PrintSupport.dll fails to link (undefined __imp_..createHFONT). Use the same
    #    guard as QtGui's own code.
    sed -i 's/^#if QT_CONFIG(directwrite)$/#if QT_CONFIG(directwrite) \&\& QT_CONFIG(direct2d)/' \
        "$SRC/src/printsupport/platform/windows/qprintengine_win.cpp"
    # 2. Same for the windows platform plugin: QWindowsDirectWriteFontDatabase is only
    #    compiled into QtGui when direct2d is on, but qwindows.dll uses it under
    #    "#if QT_CONFIG(directwrite3)" -> undefined __imp_..QWindowsDirectWriteFontDatabaseC1Ev.
    sed -i 's/^#if QT_CONFIG(directwrite3)$/#if QT_CONFIG(directwrite3) \&\& QT_CONFIG(direct2d)/' \
        "$SRC/src/plugins/platforms/windows/qwindowsintegration.cpp"
}

# ---------------------------------------------------------------- toolchain file
write_toolchain() {
    mkdir -p "$(dirname "$TOOLCHAIN")"
    cat >"$TOOLCHAIN" <<EOF
# CMake toolchain file: Debian mingw-w64, Windows x86_64, posix thread model
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER   /usr/bin/$TRIPLE-gcc-posix)
set(CMAKE_CXX_COMPILER /usr/bin/$TRIPLE-g++-posix)
set(CMAKE_RC_COMPILER  /usr/bin/$TRIPLE-windres)
set(CMAKE_AR           /usr/bin/$TRIPLE-ar CACHE FILEPATH "")
set(CMAKE_RANLIB       /usr/bin/$TRIPLE-ranlib CACHE FILEPATH "")
list(APPEND CMAKE_FIND_ROOT_PATH /usr/$TRIPLE)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
EOF
}

# ---------------------------------------------------------------- configure
do_configure() {
    write_toolchain
    local extra=()
    if [ "$NO_DIRECT2D" = 1 ]; then patch_src; extra+=(-no-direct2d); fi
    rm -rf "$BLD"; mkdir -p "$BLD"; cd "$BLD"
    # -no-feature-tabletevent: Debian's +dfsg tarball drops src/3rdparty/wintab
    #   (wintab.h/pktdef.h, needed by the windows QPA's tablet support; mingw has none).
    # -no-pkg-config, -qt-*: never pick up the Linux host's libraries; use the bundled
    #   3rdparty copies, which the +dfsg tarball keeps (zlib pcre2 png jpeg freetype harfbuzz ...).
    # -no-feature-androiddeployqt: Debian's cross.patch would build it for Windows.
    "$SRC/configure" \
        -prefix "$PREFIX" \
        -xplatform win32-g++ \
        -device-option CROSS_COMPILE=$TRIPLE- \
        -qt-host-path /usr \
        -release -shared \
        -nomake examples -nomake tests \
        -no-opengl -no-dbus -no-icu -no-pkg-config -no-zstd -no-openssl \
        -qt-zlib -qt-pcre -qt-libpng -qt-libjpeg -qt-freetype -qt-harfbuzz \
        -qt-doubleconversion -qt-libb2 -qt-libmd4c \
        -no-feature-sql -no-feature-androiddeployqt \
        -no-feature-tabletevent "${extra[@]}" \
        -- -G Ninja \
        -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
        -DQT_HOST_PATH_CMAKE_DIR="$HOST_QT_CMAKE_DIR"
}

# ---------------------------------------------------------------- build/install
do_build()   { cd "$BLD"; nice -n "$NICE" cmake --build . --parallel "$JOBS"; }
do_install() { write_toolchain; cd "$BLD"; cmake --install . --strip; }   # --strip: Qt DLLs 38 -> 24 MB

# ---------------------------------------------------------------- QCustomPlot 2.1 (Debian source)
QT_TOOLCHAIN=$PREFIX/lib/cmake/Qt6/qt.toolchain.cmake   # written by the Qt install, chainloads $TOOLCHAIN
QCPSRC=$WORK/qcp/qcustomplot-2.1.0+dfsg1
do_qcp() {
    if [ ! -d "$QCPSRC" ]; then
        ensure_deb_src; mkdir -p "$WORK/qcp"; (cd "$WORK/qcp" && apt-get source qcustomplot)  # applies Debian's CMake patch
    fi
    # the library as a DLL, installed into the cross prefix (lib/cmake/QCustomPlotQt6)
    rm -rf "$WORK/qcp-build"
    cmake -S "$QCPSRC" -B "$WORK/qcp-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_TOOLCHAIN_FILE="$QT_TOOLCHAIN" -DUSE_QT_VERSION=6 -DBUILD_SHARED_LIBS=ON \
        -DCMAKE_INSTALL_PREFIX="$PREFIX"
    nice -n "$NICE" cmake --build "$WORK/qcp-build" --parallel "$JOBS"
    cmake --install "$WORK/qcp-build" --strip
}

# ---------------------------------------------------------------- package the cross Qt
do_package() {
    du -sh "$PREFIX"
    # The top folder is named qt6-mingw whatever the prefix is called (./dev windows expects one folder).
    tar -C "$(dirname "$PREFIX")" --exclude=.tarball-sha256 \
        --transform "s,^$(basename "$PREFIX"),qt6-mingw," -cf - "$(basename "$PREFIX")" |
        xz -T2 -6 >"$WORK/qt6-mingw-6.4.2.tar.xz"
    ls -l "$WORK/qt6-mingw-6.4.2.tar.xz"
    sha256sum "$WORK/qt6-mingw-6.4.2.tar.xz"
}

# ---------------------------------------------------------------- main
if [ "${1:-}" = --run-step ]; then   # child: one step, errexit fully in force
    "do_$2"
    exit 0
fi
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(deps unpack configure build install qcp)
export REPO
for s in "${steps[@]}"; do
    declare -F "do_$s" >/dev/null || { echo "unknown step $s"; exit 2; }
    t0=$SECONDS; rc=0
    echo "[$(date +%T)] step $s ..."
    bash "${BASH_SOURCE[0]}" --run-step "$s" >"$LOGS/$s.log" 2>&1 || rc=$?
    if [ $rc = 0 ]; then
        echo "$s $((SECONDS - t0))s ok" | tee -a "$LOGS/times.txt"
    else
        echo "$s $((SECONDS - t0))s FAILED rc=$rc (see $LOGS/$s.log)" | tee -a "$LOGS/times.txt"
        tail -30 "$LOGS/$s.log"
        exit 1
    fi
done
