#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Captures the NicBench window under Xvfb at 1280x720: idle, during and after a loopback
# throughput test (upload, bidirectional with per-stream lines, dark palette), during and
# after a request/response test (light and dark), the adapter panel while a throughput
# test fills the loopback graph, and an unreachable target. Every run starts from empty settings so the pictures are repeatable.
# Then the Compare tab: a comparison of three loopback configurations (P=1, P=4, P=8)
# written by nicbench-cli compare, light and dark, at 1280x720 and 1920x1080; two
# snapshots overlaid; and a comparison running in the window (--compare SPEC).
# Last, UDP, UDP request/response and latency under load through the in-app theme (light and
# dark) at 1280x720 and 1920x1080, and a comparison of UDP and latency-under-load variants.
#
# Usage: scripts/screenshots.sh OUTDIR [path/to/nicbench]
#        (default binary: $NICBENCH, else build/bin/nicbench)
set -euo pipefail

out=${1:?usage: $0 OUTDIR [path/to/nicbench]}
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${2:-${NICBENCH:-$repo/build/bin/nicbench}}
[[ -x $bin ]] || { echo "screenshots.sh: $bin is not built" >&2; exit 1; }
for tool in xvfb-run import; do
    command -v "$tool" >/dev/null || { echo "screenshots.sh: $tool is missing (apt install xvfb imagemagick)" >&2; exit 1; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

if [[ -z ${NICBENCH_IN_XVFB:-} ]]; then
    exec env NICBENCH_IN_XVFB=1 xvfb-run -a -s "-screen 0 1920x1080x24 -dpi 96" "$0" "$out" "$bin"
fi
cli=$(dirname "$bin")/nicbench-cli
[[ -x $cli ]] || { echo "screenshots.sh: $cli is not built" >&2; exit 1; }

scratch=$(mktemp -d)
server=
trap '[[ -n $server ]] && kill "$server" 2>/dev/null; rm -rf "$scratch"' EXIT
compgen -G '/usr/lib/*/qt6/plugins/platformthemes/libqgtk3.so' >/dev/null ||
    echo "screenshots.sh: the dark shots need Qt's GTK theme (apt install qt6-gtk-platformtheme); they will be light" >&2
export XDG_CONFIG_HOME=$scratch/config XDG_RUNTIME_DIR=$scratch/run
mkdir -p "$XDG_CONFIG_HOME/NicBench" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

pid=
# start [ARGS...]: a fresh window; $settings (INI text), when set, is its configuration.
settings=
# The window's size; the screen is larger, so shots are cropped to it.
size=1280x720
start() {
    printf '%s' "$settings" >"$XDG_CONFIG_HOME/NicBench/nicbench.conf"
    "$bin" -geometry "$size+0+0" "$@" >"$scratch/nicbench.log" 2>&1 &
    pid=$!
}
finish() {
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
shot() {
    import -window root -crop "$size+0+0" +repage "$out/$1.png"
    echo "$out/$1.png"
}

# Idle: the window as it opens, built-in server listening.
start
sleep 2
shot 01-idle
finish

# Upload, 4 streams.
start --run -P 4 -t 8
sleep 5
shot 02-upload-mid
sleep 6
shot 03-upload-after
finish

# Both directions with a line per stream (the View menu setting).
settings=$'[view]\nshowStreams=true\n'
start --run --bidir -P 2 -t 6 -i 0.5
settings=
sleep 4
shot 04-bidir-streams-mid
sleep 5
shot 05-bidir-streams-after
finish

# A target where nothing listens: the error in the window.
start --run -c 127.0.0.1 -p 9 -t 3
sleep 3
shot 06-unreachable
finish

# Request/response (netperf TCP_RR style), 4 connections with 4 transactions in flight.
start --run --rr --connections 4 --in-flight 4 -t 8 -i 0.5
sleep 5
shot 09-rr-mid
sleep 6
shot 10-rr-after
finish

# The adapter panel after 20 s of loopback traffic: the 60-second graph filling up.
start --run -P 2 -t 25
sleep 22
shot 11-adapter-panel-during-test
finish

# Dark palette (GTK's dark Adwaita through Qt's gtk3 platform theme).
export QT_QPA_PLATFORMTHEME=gtk3 GTK_THEME=Adwaita:dark
start --run -P 4 -t 6
sleep 4
shot 07-dark-mid
sleep 5
shot 08-dark-after
finish

start --run --rr -t 6 -i 0.5
sleep 4
shot 12-dark-rr-mid
sleep 5
shot 13-dark-rr-after
finish

# The Compare tab. A snapshot of three loopback configurations, written by the CLI
# against a CLI server on a spare port, so the window shows what a user would open.
unset QT_QPA_PLATFORMTHEME GTK_THEME
port=5299
"$cli" -s -B 127.0.0.1 -p $port >"$scratch/server.log" 2>&1 &
server=$!
sleep 1
target="-c 127.0.0.1 -p $port -t 3 -i 0.5"
"$cli" compare -q --repeats 3 --pause 0.5 --title "Loopback: 1, 4 and 8 streams" \
    --config "1 stream=$target -P 1" --config "4 streams=$target -P 4" \
    --config "8 streams=$target -P 8" -o "$scratch/three.nicbench" >/dev/null
"$cli" compare -q --repeats 2 --pause 0.5 --title "Loopback, 64 KiB buffers" \
    --config "1 stream=$target -P 1 -l 64K" --config "4 streams=$target -P 4 -l 64K" \
    --config "8 streams=$target -P 8 -l 64K" -o "$scratch/buffers.nicbench" >/dev/null

start "$scratch/three.nicbench"
sleep 3
shot 14-compare
finish

start "$scratch/three.nicbench" "$scratch/buffers.nicbench"
sleep 3
shot 15-compare-overlay
finish

size=1920x1080
start "$scratch/three.nicbench"
sleep 3
shot 16-compare-1920
finish
size=1280x720

# A comparison running in the window (against the CLI server, whose port is known):
# progress, charts redrawn after every run, the snapshot saved at the end.
cat >"$scratch/spec.json" <<SPEC
{"title": "1 stream vs 4", "repeats": 2, "pause": 0.5,
 "configurations": [{"label": "1 stream", "args": "$target -P 1"},
                    {"label": "4 streams", "args": "$target -P 4"}]}
SPEC
start --compare "$scratch/spec.json" --snapshot-out "$scratch/gui.nicbench" --quit-when-done
sleep 11
shot 17-compare-running
wait "$pid" || echo "screenshots.sh: nicbench --compare exited with $?" >&2
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
server=

export QT_QPA_PLATFORMTHEME=gtk3 GTK_THEME=Adwaita:dark
start "$scratch/three.nicbench"
sleep 3
shot 18-dark-compare
finish
size=1920x1080
start "$scratch/three.nicbench" "$scratch/buffers.nicbench"
sleep 3
shot 19-dark-compare-overlay-1920
finish
size=1280x720

# UDP, UDP request/response and latency under load, light and dark (the in-app theme).
for theme in light dark; do
    settings=$'[view]\ntheme='$theme$'\n'
    for size in 1280x720 1920x1080; do
        start --run -u -b 200M -P 2 -t 8 -i 0.5
        sleep 5
        shot "20-udp-$theme-$size-mid"
        sleep 6
        shot "21-udp-$theme-$size-after"
        finish
        start --run -u --rr --in-flight 4 -t 6 -i 0.5
        sleep 10
        shot "22-udp-rr-$theme-$size-after"
        finish
        start --run --latency-under-load --phase-seconds 2 -P 2
        sleep 7
        shot "23-loaded-$theme-$size-mid"
        sleep 8
        shot "24-loaded-$theme-$size-after"
        finish
    done
done
settings=

# A comparison with UDP, UDP_RR and latency-under-load variants: two "adapters" (loopback
# with default socket buffers and with 4 MB ones), each variant a group of two bars.
"$cli" -s -B 127.0.0.1 -p $port >"$scratch/server.log" 2>&1 &
server=$!
sleep 1
target="-c 127.0.0.1 -p $port -i 0.5"
loaded="--latency-under-load --phase-seconds 1 --phases idle,download,upload"
"$cli" compare -q --repeats 2 --pause 0.5 --title "Loopback: UDP and latency under load" \
    --config "Default buffers, UDP 200M=$target -t 3 -u -b 200M" \
    --config "4 MB buffers, UDP 200M=$target -t 3 -u -b 200M -w 4M" \
    --config "Default buffers, UDP_RR=$target -t 3 -u --rr" \
    --config "4 MB buffers, UDP_RR=$target -t 3 -u --rr -w 4M" \
    --config "Default buffers, Latency under load=$target $loaded" \
    --config "4 MB buffers, Latency under load=$target $loaded -w 4M" \
    -o "$scratch/udp.nicbench" >/dev/null
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
server=
for theme in light dark; do
    settings=$'[view]\ntheme='$theme$'\n'
    for size in 1280x720 1920x1080; do
        start "$scratch/udp.nicbench"
        sleep 3
        shot "25-compare-udp-loaded-$theme-$size"
        finish
    done
done
settings=
size=1280x720
