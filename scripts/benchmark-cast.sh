#!/usr/bin/env bash
# How long casting a novel takes: `narrate cast` (characters, speakers and proposed voices) and
# `narrate cast --quotes --json` on a novel of about 1 MB (Emma, 883 KB, with the start of
# Persuasion to pass 1 MB), the median of RUNS runs, against the target of 2 s, side by side
# with reading the same file through `wc -w` (what just reading it costs on this machine).
#
#   scripts/benchmark-cast.sh                     (NARRATE_BIN: default .build/release/narrate, else debug)
#   RUNS=5 NARRATE_BIN=.build/release/narrate scripts/benchmark-cast.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
novels="$here/../shared/dialogue/novels"
bin="${NARRATE_BIN:-$here/.build/release/narrate}"
[[ -x "$bin" ]] || bin="$here/.build/debug/narrate"
runs="${RUNS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{ cat "$novels/Emma/novel_text.txt"; printf '\n\n'; head -c 200000 "$novels/Persuasion/novel_text.txt"; } > "$work/novel.txt"
size=$(stat -c %s "$work/novel.txt")

# median_seconds COMMAND…: the median wall time of RUNS runs.
median_seconds() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'
}

export HOME="$work" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"
cast=$(median_seconds "$bin" cast "$work/novel.txt" -o "$work/cast.json")
quotes=$(median_seconds "$bin" cast "$work/novel.txt" --quotes --json)
reading=$(median_seconds wc -w "$work/novel.txt")
characters=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['characters']))" "$work/cast.json")
printf 'novel: %s bytes (%s), %s speaking characters cast; %s runs each, median\n' "$size" "${bin#$here/}" "$characters" "$runs"
printf '%-34s %8s s   (target < 2 s: %s)\n' "narrate cast -o cast.json" "$cast" "$(echo "$cast < 2" | bc -l | sed 's/1/met/;s/0/MISSED/')"
printf '%-34s %8s s\n' "narrate cast --quotes --json" "$quotes"
printf '%-34s %8s s\n' "wc -w (reading the file)" "$reading"
