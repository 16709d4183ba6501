#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tst_package (labels package, root): packs the native build with CPack (no second build),
# installs the .deb into this system with dpkg -i, checks the installed programs and desktop
# integration, runs lintian, then purges the package and checks that nothing it installed is
# left. Whatever fails, the EXIT trap stops the server it started and purges the package.
#   usage: tst_package.sh BUILD_DIR SOURCE_DIR
# Exit 0 passed, 1 failed, 77 skipped (not root, or no dpkg: ctest shows "Not Run").
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
pkg=nicbench
# True when dpkg knows the package in any state but "not installed" (installed, config-files,
# half-installed, unpacked, ...).
present() {
  local s
  s=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null) || return 1
  [ -n "$s" ] && [ "$s" != not-installed ]
}

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: tst_package installs a .deb into the system: run as root (CI does)"
  exit 77
fi
for tool in dpkg cpack lintian desktop-file-validate appstreamcli xdg-mime mimetype update-mime-database; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is missing (./dev deps installs it)"
    exit 1
  fi
done

work=$(mktemp -d /tmp/tst_package.XXXXXX)
server_pid=""
cleanup() {
  local status=$?
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if present; then
    echo "cleanup: purging $pkg"
    dpkg --purge "$pkg" >/dev/null 2>&1 || echo "cleanup: dpkg --purge $pkg failed: remove it by hand" >&2
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "--- $*"; }

# A run that was killed before its cleanup leaves the package behind: start from a clean system.
if present; then
  echo "note: $pkg was installed (an aborted earlier run?): purging it first"
  dpkg --purge "$pkg" >/dev/null
fi

step "cpack (DEB, TGZ) of $build"
(cd "$build" && cpack -G "DEB;TGZ" -B "$work/out" >"$work/cpack.log" 2>&1) || {
  cat "$work/cpack.log"
  fail "cpack failed"
}
debs=("$work/out/${pkg}"_*.deb)
tgzs=("$work/out/${pkg}"-*.tar.gz)
[ -f "${debs[0]}" ] || fail "no .deb in $work/out: $(ls "$work/out")"
[ -f "${tgzs[0]}" ] || fail "no .tar.gz in $work/out: $(ls "$work/out")"
deb=${debs[0]}
stat -c "%s bytes %n" "$deb" "${tgzs[0]}"
dpkg-deb -f "$deb" Package Version Depends Suggests

# Depends come from dpkg-shlibdeps: the Qt 6 and QCustomPlot libraries at least.
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6core6 libqt6widgets6 libqcustomplot2.1-qt6 libc6; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
[ "$(dpkg-deb -f "$deb" Suggests)" = "iperf3, qemu-system-x86, busybox-static" ] ||
  fail "Suggests is not iperf3, qemu-system-x86, busybox-static"

# The .tar.gz: the programs and pages under one folder, relative to a prefix; no systemd
# unit or /etc file (they name /usr/bin).
tar -tzf "${tgzs[0]}" | sed 's|^[^/]*/||' | sort >"$work/tgz-files"
for f in bin/nicbench bin/nicbench-cli share/man/man1/nicbench-cli.1.gz share/applications/nicbench.desktop; do
  grep -qx "$f" "$work/tgz-files" || fail "the .tar.gz lacks $f"
done
! grep -E '^(etc|lib|usr)/|systemd' "$work/tgz-files" || fail "the .tar.gz holds system files"

step "lintian"
lintian --tag-display-limit 0 --fail-on error "$deb" | tee "$work/lintian.log" || fail "lintian reports errors"

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$' | sort >"$work/files"
# Minimal images tell dpkg not to unpack documentation (path-exclude in dpkg.cfg.d): those
# files are not expected on disk. (path-include exceptions are ignored: they only matter
# for copyright files, which then count as not expected.)
excludes=()
while read -r _ pattern; do
  excludes+=("$pattern")
done < <(cat /etc/dpkg/dpkg.cfg /etc/dpkg/dpkg.cfg.d/* 2>/dev/null | grep -E '^path-exclude[= ]' | tr '=' ' ')
excluded() {
  local p
  for p in "${excludes[@]}"; do
    # shellcheck disable=SC2053 # a glob on purpose
    [[ $1 == $p ]] && return 0
  done
  return 1
}
: >"$work/expected"
while read -r f; do
  excluded "$f" && echo "note: dpkg is told not to install $f" || echo "$f" >>"$work/expected"
done <"$work/files"
echo "$(wc -l <"$work/files") files in the package"

step "dpkg -i"
dpkg -i "$deb" >"$work/dpkg-i.log" 2>&1 || {
  cat "$work/dpkg-i.log"
  fail "dpkg -i failed"
}
while read -r f; do
  [ -e "$f" ] || fail "$f from the package is not on disk after dpkg -i"
done <"$work/expected"

step "installed nicbench-cli --version"
version=$(/usr/bin/nicbench-cli --version)
echo "$version"
grep -q "^nicbench-cli $(dpkg-deb -f "$deb" Version) " <<<"$version" || fail "--version does not name the package's version"
/usr/bin/nicbench --version | grep -q "^nicbench " || fail "nicbench --version"

step "1 s loopback test between the installed programs"
ok=0
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 30000))
  /usr/bin/nicbench-cli -s -1 -B 127.0.0.1 -p "$port" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 50); do # up to 5 s for the listening line
    grep -q "Server listening" "$work/server.log" && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q "Server listening" "$work/server.log"; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    continue # the port was taken: another one
  fi
  timeout 60 /usr/bin/nicbench-cli -c 127.0.0.1 -p "$port" -t 1 -J >"$work/client.json" 2>"$work/client.err" ||
    fail "client: $(cat "$work/client.err")"
  timeout 10 tail --pid="$server_pid" -f /dev/null || fail "the -1 server did not exit after its test"
  wait "$server_pid" || fail "server exit status $?: $(cat "$work/server.log")"
  server_pid=""
  ok=1
  break
done
[ "$ok" -eq 1 ] || fail "no free port for the server in 5 attempts: $(cat "$work/server.log")"
# end.sum_received.bits_per_second: above 1 Mbit/s on any loopback.
bps=$(tr -d ' \n' <"$work/client.json" | grep -o '"sum_received":{[^}]*}' | grep -o '"bits_per_second":[0-9.e+]*' | cut -d: -f2)
[ -n "$bps" ] || fail "no end.sum_received.bits_per_second in the client's JSON"
awk -v b="$bps" 'BEGIN { exit !(b > 1e6) }' || fail "received $bps bit/s"
echo "received $bps bit/s"

step "installed nicbench --report-pdf (offscreen)"
snapshot="$source/tests/data/snapshots/cli-v1-loopback.nicbench"
QT_QPA_PLATFORM=offscreen timeout 120 /usr/bin/nicbench --report-pdf "$work/report.pdf" "$snapshot" ||
  fail "nicbench --report-pdf failed"
[ "$(head -c 5 "$work/report.pdf")" = "%PDF-" ] || fail "report.pdf is not a PDF"
[ "$(stat -c %s "$work/report.pdf")" -gt 10000 ] || fail "report.pdf is only $(stat -c %s "$work/report.pdf") bytes"

step "desktop file, AppStream metainfo, MIME type"
desktop-file-validate /usr/share/applications/nicbench.desktop || fail "desktop-file-validate"
metainfo=$(grep '^/usr/share/metainfo/.*\.metainfo\.xml$' "$work/files") || fail "no metainfo in the package"
appstreamcli validate --no-net "$metainfo" || fail "appstreamcli validate"
cp "$snapshot" "$work/measured.nicbench"
type=$(XDG_CURRENT_DESKTOP="" xdg-mime query filetype "$work/measured.nicbench")
[ "$type" = "application/x-nicbench-snapshot" ] || fail "xdg-mime query filetype: $type"
# A compressed snapshot too (the longer glob beats *.gz).
gzip -c "$snapshot" >"$work/measured.nicbench.gz"
type=$(XDG_CURRENT_DESKTOP="" xdg-mime query filetype "$work/measured.nicbench.gz")
[ "$type" = "application/x-nicbench-snapshot" ] || fail "xdg-mime query filetype on .nicbench.gz: $type"
handler=$(XDG_CURRENT_DESKTOP="" xdg-mime query default application/x-nicbench-snapshot)
[ "$handler" = "nicbench.desktop" ] || fail "xdg-mime query default: '$handler'"
echo "$type opens with $handler"

step "man pages, systemd unit, /etc/default"
for page in nicbench nicbench-cli; do
  excluded "/usr/share/man/man1/$page.1.gz" && continue
  zcat "/usr/share/man/man1/$page.1.gz" | grep -q "^\.TH ${page^^} 1" || fail "$page.1.gz is no man page"
done
grep -q '^NICBENCH_SERVER_ARGS=' /etc/default/nicbench-server || fail "/etc/default/nicbench-server"
grep -qx /etc/default/nicbench-server < <(dpkg-query --control-show "$pkg" conffiles | awk '{print $1}') ||
  fail "/etc/default/nicbench-server is not a conffile"
if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify /usr/lib/systemd/system/nicbench-server.service || fail "systemd-analyze verify"
else
  echo "note: no systemd-analyze, the unit is not verified"
fi
# Installed, not enabled.
[ ! -e /etc/systemd/system/multi-user.target.wants/nicbench-server.service ] || fail "the unit was enabled"

step "dpkg --purge"
dpkg --purge "$pkg" >"$work/dpkg-purge.log" 2>&1 || {
  cat "$work/dpkg-purge.log"
  fail "dpkg --purge failed"
}
left=()
while read -r f; do
  [ ! -e "$f" ] || left+=("$f")
done <"$work/files"
[ ! -e /etc/default/nicbench-server ] || left+=(/etc/default/nicbench-server)
[ ! -d /usr/share/doc/nicbench ] || left+=(/usr/share/doc/nicbench)
[ "${#left[@]}" -eq 0 ] || fail "left after purge: ${left[*]}"
# The triggers rebuilt the MIME and desktop databases without the type.
if grep -rqs "x-nicbench-snapshot" /usr/share/mime/types /usr/share/applications/mimeinfo.cache; then
  fail "the MIME or desktop database still knows application/x-nicbench-snapshot"
fi
! present || fail "dpkg still lists $pkg"
echo "PASS: tst_package"
