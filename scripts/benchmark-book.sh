#!/usr/bin/env bash
# Times `narrate book --format wav --jobs 2` cold (empty cache) against `espeak-ng -w` (one
# process) on the same extracted text of a long corpus book, plus the warm re-run of the
# finished book and the peak memory of the parent and of each worker.
#
# These machines are noisy (the same espeak-ng run takes anywhere from 19 to 23 s), so the
# commands are compared round by round, back to back, and each ratio is taken within a round:
#   espeak-ng     the whole text, one process (the reference);
#   2x espeak-ng  the two halves of the text in two espeak-ng processes at once: what two
#                 cores give eSpeak alone, with no cache and no file assembly (the ceiling);
#   cold          narrate book, empty cache;
#   baseline      the same with an older narrate binary, when BASELINE names one.
# The median round is reported. Run it on a one-file text and on a many-chapter book (per-file
# costs show there), e.g. ../shared/corpus/epub/pg8789-dante-vision-of-hell-epub2.epub.
#
# Then M4B against WAV, round by round, each from a cold cache, on M4B_BOOK's chapters M4B_CHAPTERS:
#   wav           narrate book --split chapter --format wav (one WAV file per chapter);
#   encode        those WAV files encoded to AAC (ffmpeg -aac_coder fast, 64 kbps mono), two at
#                 a time: what a user would do by hand;
#   m4b           narrate book --split book --format m4b (one M4B with chapters).
# Target: m4b <= 1.2 x (wav + encode). The M4B's size and bitrate are printed too.
#
# Usage: scripts/benchmark-book.sh [BOOK]   (default: the Devil's Dictionary from the corpus)
# Environment: RUNS (rounds, default 3), JOBS (default 2), BASELINE (optional), M4B_BOOK
#   (default: Moby-Dick), M4B_CHAPTERS (default 3-8: Loomings to The Street), ONLY=m4b (only the M4B part)
#   or ONLY=book (without it),
#   NARRATE_BIN (a built narrate; default: swift build -c release).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/measure.sh
root=$(pwd)
book=$(realpath "${1:-$root/../shared/corpus/txt/pg972-devils-dictionary-1990s-header-ascii.txt}")
runs=${RUNS:-3}
jobs=${JOBS:-2}
baseline=${BASELINE:-}
work=$(mktemp -d /tmp/narrate-bench-book.XXXXXX)
trap 'rm -rf "$work"' EXIT

bash scripts/install-deps.sh time python3 procps ffmpeg >/dev/null
if [ -n "${NARRATE_BIN:-}" ]; then
  narrate=$(realpath "$NARRATE_BIN")
else
  swift build -c release --static-swift-stdlib >/dev/null
  narrate="$root/.build/release/narrate"
fi
export NARRATE_LIBRARY="$work/library.sqlite"
# Wall seconds of a command (after a sync, so no run pays for the previous one's writes).
seconds() {
  sync
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}

m4b_book=$(realpath "${M4B_BOOK:-$root/../shared/corpus/epub/moby-dick.epub}")
m4b_chapters=${M4B_CHAPTERS:-3-8}
m4b_comparison() {
  local common=("$narrate" book "$m4b_book" --chapters "$m4b_chapters" --jobs "$jobs" --voice en-us --quiet)
  encode_all() {
    find "$work/m4b-wav" -name '*.wav' -print0 | xargs -0 -P 2 -I{} ffmpeg -nostdin -loglevel error -y -i {} -c:a aac -aac_coder fast -b:a 64k -ac 1 {}.m4a
  }
  echo
  echo "M4B against WAV: $m4b_book, chapters $m4b_chapters; $runs rounds, each from a cold cache"
  printf '%-6s %8s %8s %8s %8s\n' round wav encode m4b ratio
  : >"$work/m4b.txt"
  for round in $(seq "$runs"); do
    rm -rf "$work/m4b-cache" "$work/m4b-wav" "$work/m4b-out"
    local wav encode m4b
    wav=$(seconds "${common[@]}" --split chapter --format wav -o "$work/m4b-wav" --cache-dir "$work/m4b-cache")
    encode=$(seconds encode_all)
    rm -rf "$work/m4b-cache"
    m4b=$(seconds "${common[@]}" --split book --format m4b -o "$work/m4b-out" --cache-dir "$work/m4b-cache")
    printf '%-6s %8s %8s %8s %8s\n' "$round" "$wav" "$encode" "$m4b" "$(python3 -c "print(f'{$m4b / ($wav + $encode):.2f}')")"
    echo "$wav $encode $m4b" >>"$work/m4b.txt"
  done
  local file
  file=$(find "$work/m4b-out" -name '*.m4b' | head -1)
  python3 - "$work/m4b.txt" "$file" "$(ffprobe -v error -show_entries format=duration,bit_rate -of csv=p=0 "$file")" <<'PY'
import os, statistics, sys
rounds = [tuple(map(float, line.split())) for line in open(sys.argv[1])]
ratio = statistics.median(m4b / (wav + enc) for wav, enc, m4b in rounds)
duration, bitrate = (float(x) for x in sys.argv[3].split(","))
print(f"m4b / (wav + encode)     = {ratio:.2f}           (median round; target <= 1.2: {'ok' if ratio <= 1.2 else 'MISSED'})")
print(f"the M4B                  = {duration / 60:.1f} min of audio, {os.path.getsize(sys.argv[2]) / 1e6:.1f} MB, {bitrate / 1000:.0f} kbps")
PY
}
if [ "${ONLY:-}" = m4b ]; then  # ONLY=book skips the M4B part
  m4b_comparison
  exit 0
fi
# The same text for all: what narrate will speak, extracted once, and its two halves (cut at
# the line break nearest the middle).
"$narrate" text "$book" >"$work/book.txt"
text="$work/book.txt"
python3 - "$text" "$work/half1.txt" "$work/half2.txt" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
cut = text.find("\n", len(text) // 2) + 1 or len(text)
open(sys.argv[2], "w", encoding="utf-8").write(text[:cut])
open(sys.argv[3], "w", encoding="utf-8").write(text[cut:])
PY
cache="$work/cache"
out="$work/out"
echo "Book: $book; extracted text: $(wc -c <"$text") bytes; $runs rounds; --jobs $jobs on $(nproc) cores"

espeak() { espeak-ng -v en-us -w "$work/espeak$1.wav" -f "$2"; }
book_cmd=("$narrate" book "$text" -o "$out" --format wav --split book --jobs "$jobs" --voice en-us --cache-dir "$cache" --quiet)
baseline_cmd=("$baseline" book "$text" -o "$work/out-baseline" --format wav --split book --jobs "$jobs" --voice en-us --cache-dir "$work/cache-baseline" --quiet)
both_halves() {
  espeak 1 "$work/half1.txt" &
  local first=$!
  espeak 2 "$work/half2.txt"
  wait "$first"
}

: >"$work/rounds.txt"
printf '%-6s %10s %13s %8s %9s\n' round espeak-ng "2x espeak-ng" cold baseline
for round in $(seq "$runs"); do
  # The last round's caches go before the espeak-ng runs, not just before narrate's: on this
  # machine's disk (ext4 without a journal) allocating an inode scans the inodes deleted in
  # the last few seconds, so an export started a moment after removing a few hundred entry
  # files pays for that removal (measured: 3% of its CPU time), which no real export does.
  rm -rf "$cache" "$out" "$work/cache-baseline" "$work/out-baseline"
  single=$(seconds espeak "" "$text")
  halves=$(seconds both_halves)
  coldtime=$(seconds "${book_cmd[@]}")
  old=0
  if [ -n "$baseline" ]; then
    old=$(seconds "${baseline_cmd[@]}")
  fi
  printf '%-6s %10s %13s %8s %9s\n' "$round" "$single" "$halves" "$coldtime" "$old"
  echo "$single $halves $coldtime $old" >>"$work/rounds.txt"
done
rm -f "$work"/espeak*.wav

# Warm: the finished book again (the last cold run finished it).
: >"$work/warm.txt"
for _ in $(seq "$runs"); do seconds "${book_cmd[@]}" >>"$work/warm.txt"; done

# Peak resident memory of the parent and of its engine processes (at any depth), every 0.1 s.
rm -rf "$cache" "$out"
read -r parent_kb worker_kb < <(peak_memory "${book_cmd[@]}")

python3 - "$work/rounds.txt" "$work/warm.txt" "$parent_kb" "$worker_kb" <<'PY'
import statistics, sys
rounds = [tuple(map(float, line.split()))[:3] for line in open(sys.argv[1])]
olds = [tuple(map(float, line.split())) for line in open(sys.argv[1]) if float(line.split()[3]) > 0]
warm = statistics.mean(float(line) for line in open(sys.argv[2]))
parent, worker = (int(x) / 1024 for x in sys.argv[3:5])
speedup = statistics.median(single / cold for single, _, cold in rounds)
ceiling = statistics.median(single / halves for single, halves, _ in rounds)
cold = statistics.median(cold for *_, cold in rounds)
def verdict(ok): return "ok" if ok else "MISSED"
print()
print(f"espeak-ng / cold         = {speedup:.2f}x faster   (median round; target >= 1.8x: {verdict(speedup >= 1.8)})")
print(f"espeak-ng / 2x espeak-ng = {ceiling:.2f}x          (what two cores give eSpeak alone: the ceiling)")
share = statistics.median(halves / cold for _, halves, cold in rounds)
print(f"cold reaches               {share * 100:.0f}% of the ceiling   (median round; target >= 95%: {verdict(share >= 0.95)})")
if olds:
    print(f"baseline: espeak-ng / cold = {statistics.median(s / b for s, _, _, b in olds):.2f}x, {statistics.median(h / b for _, h, _, b in olds) * 100:.0f}% of the ceiling")
print(f"warm / cold              = {warm / cold:.3f}          (warm {warm:.2f} s; target <= 0.05: {verdict(warm / cold <= 0.05)})")
print(f"peak memory              = parent {parent:.1f} MiB, worker {worker:.1f} MiB (target <= 64 each: {verdict(max(parent, worker) <= 64)})")
PY

[ "${ONLY:-}" = book ] || m4b_comparison
