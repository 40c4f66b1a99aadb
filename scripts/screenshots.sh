#!/bin/sh
# Real-window screenshots of the viewer, one per file and window size, and
# the time each window took to settle (its picture stopped changing).
#
#   scripts/screenshots.sh OUTDIR FILE...
#
# For each size (1600x1000 and 1024x700; SIZES overrides) it starts an X
# server of that size (Xvfb on DISPLAY_NUM, default :140), opens each FILE
# in a viewer of its own (its own HOME), takes a screenshot every 0.25 s,
# and keeps the last one once the picture has not changed for 1.5 s (at
# most 15 s). It prints "SIZE FILE settled after S s, T s after its window
# showed" per file: the time from start until the last change, start-up
# included, and from the window's appearing. Needs Xvfb,
# xdotool and ImageMagick; ends only the processes it started.
set -eu

out=$1
shift
bin=${TENSORSCOPE:-./tensorscope}
num=${DISPLAY_NUM:-140}
sizes=${SIZES:-"1600x1000 1024x700"}
mkdir -p "$out"

for size in $sizes; do
	w=${size%x*}
	h=${size#*x}
	Xvfb ":$num" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
	xvfb=$!
	sleep 1
	for file in "$@"; do
		home=$(mktemp -d)
		mkdir -m 700 "$home/run"
		name=$(basename "$file")
		start=$(date +%s.%N)
		HOME=$home XDG_RUNTIME_DIR=$home/run DISPLAY=":$num" "$bin" "$file" >"$home/log" 2>&1 &
		viewer=$!
		if win=$(DISPLAY=":$num" timeout 10 xdotool search --sync --onlyvisible --pid "$viewer" 2>/dev/null | head -1); then
			DISPLAY=":$num" xdotool windowmove "$win" 0 0 windowsize "$win" "$w" "$h" || true
		fi
		shown=$(date +%s.%N)
		last="" changed=$start quiet=0 t=0
		while [ "$t" -lt 60 ]; do
			sleep 0.25
			t=$((t + 1))
			DISPLAY=":$num" import -window root "$home/shot.png" 2>/dev/null || continue
			sum=$(md5sum <"$home/shot.png")
			now=$(date +%s.%N)
			if [ "$sum" != "$last" ]; then
				last=$sum changed=$now quiet=0
				cp "$home/shot.png" "$out/${name}-${size}.png"
			else
				quiet=$((quiet + 1))
				[ "$quiet" -ge 6 ] && break
			fi
		done
		echo "$size $name settled after $(echo "$changed - $start" | bc) s, $(echo "$changed - $shown" | bc) s after its window showed"
		kill "$viewer" 2>/dev/null || true
		wait "$viewer" 2>/dev/null || true
		rm -rf "$home"
	done
	kill "$xvfb"
	wait "$xvfb" 2>/dev/null || true
done
