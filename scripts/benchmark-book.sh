#!/usr/bin/env bash
# Times `narrate book --format wav --jobs 2` cold (empty cache) against `espeak-ng -w` (one
# process) on the same extracted text of a long corpus book, in one run, plus the warm re-run
# of the finished book, and the peak memory of the parent and of each worker.
#
# Usage: scripts/benchmark-book.sh [BOOK]   (default: the Devil's Dictionary from the corpus)
# Environment: RUNS (default 3), JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
book=$(realpath "${1:-$root/../shared/corpus/txt/pg972-devils-dictionary-1990s-header-ascii.txt}")
runs=${RUNS:-3}
jobs=${JOBS:-2}
work=$(mktemp -d /tmp/narrate-bench-book.XXXXXX)
trap 'rm -rf "$work"' EXIT

bash scripts/install-deps.sh hyperfine time python3 >/dev/null
swift build -c release --static-swift-stdlib >/dev/null
narrate="$root/.build/release/narrate"
export NARRATE_LIBRARY="$work/library.sqlite"
# The same text for both: what narrate will speak, extracted once.
"$narrate" text "$book" >"$work/book.txt"
text="$work/book.txt"
cache="$work/cache"
out="$work/out"
echo "Book: $book; extracted text: $(wc -c <"$text") bytes; $runs runs each; --jobs $jobs on $(nproc) cores"

espeak_cmd="espeak-ng -v en-us -w $work/espeak.wav -f $text"
book_cmd="$narrate book $text -o $out --format wav --split book --jobs $jobs --voice en-us --cache-dir $cache --quiet"

hyperfine --runs "$runs" --style basic --export-json "$work/times.json" \
  --command-name espeak-ng --prepare "sync" "$espeak_cmd" \
  --command-name cold --prepare "rm -rf $cache $out; sync" "$book_cmd" \
  --command-name warm --prepare "$book_cmd >/dev/null; sync" "$book_cmd"

# Peak resident memory of the parent and of its workers, sampled every 0.1 s.
rm -rf "$cache" "$out"
$book_cmd &
parent=$!
parent_kb=0
worker_kb=0
while kill -0 "$parent" 2>/dev/null; do
  kb=$(ps -o rss= -p "$parent" 2>/dev/null | tr -d ' ' || true)
  [ -n "$kb" ] && [ "$kb" -gt "$parent_kb" ] && parent_kb=$kb
  for child in $(pgrep -P "$parent" 2>/dev/null || true); do
    kb=$(ps -o rss= -p "$child" 2>/dev/null | tr -d ' ' || true)
    [ -n "$kb" ] && [ "$kb" -gt "$worker_kb" ] && worker_kb=$kb
  done
  sleep 0.1
done
wait "$parent"

python3 - "$work/times.json" "$parent_kb" "$worker_kb" <<'PY'
import json, sys
times = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
espeak, cold, warm = (times[n]["mean"] for n in ("espeak-ng", "cold", "warm"))
parent, worker = (int(x) / 1024 for x in sys.argv[2:4])
def verdict(ok): return "ok" if ok else "MISSED"
print()
print(f"{'':10} {'mean s':>8} {'± s':>6}")
for name, mean in (("espeak-ng", espeak), ("cold", cold), ("warm", warm)):
    print(f"{name:10} {mean:8.2f} {times[name]['stddev'] or 0:6.2f}")
print()
print(f"espeak-ng / cold = {espeak / cold:.2f}x faster   (target >= 1.8x: {verdict(espeak / cold >= 1.8)})")
print(f"warm / cold      = {warm / cold:.3f}          (target <= 0.05: {verdict(warm / cold <= 0.05)})")
print(f"peak memory      = parent {parent:.1f} MiB, worker {worker:.1f} MiB (target <= 64 each: {verdict(max(parent, worker) <= 64)})")
PY
