#!/usr/bin/env bash
# Fuzzes a parser with libFuzzer (coverage-guided, with AddressSanitizer) for a fixed time: the
# EPUB parser (target `epub`, the default), starting from the corpus's small EPUBs and damaged
# EPUBs; or the cache entry decoder (target `entry`: what a store object may hold), starting
# from entries a short narration writes. Every input that crashes it,
# hangs it (past 10 s) or makes it use more than 2 GB is kept under .build-fuzz/findings/:
# replay one with `swift run narrate-fuzz-TARGET FILE`, and copy it into
# Tests/NarrateDataTests/Fixtures/fuzz/ as a regression fixture once it is fixed.
#
# Usage: scripts/fuzz.sh [SECONDS] [epub|entry]   (default 1800: half an hour; epub)
# Environment: JOBS (parallel fuzzing processes, default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1800}
target=${2:-epub}
case "$target" in epub|entry) ;; *) echo "error: the fuzz target is epub or entry, not '$target'" >&2; exit 2 ;; esac
jobs=${JOBS:-1}
bash scripts/install-deps.sh >/dev/null
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --product "narrate-fuzz-$target" \
  -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address \
  -Xlinker --allow-multiple-definition >/dev/null
seeds="$scratch/seeds-$target"
corpus="$scratch/corpus-$target"
findings="$scratch/findings-$target"
mkdir -p "$seeds" "$corpus" "$findings"
if [ "$target" = entry ]; then
  # Entries of a short narration (marks and all), made by a normal build of narrate.
  swift build --product narrate >/dev/null
  home=$(mktemp -d)
  HOME=$home NARRATE_CACHE_DIR=$home/cache .build/debug/narrate say "Seeds for the fuzzer. Two sentences, with words." -o "$home/x.wav" >/dev/null 2>&1
  find "$home/cache/objects" -type f -exec cp {} "$seeds/" \;
  rm -rf "$home"
fi
[ "$target" = epub ] && for book in ../shared/corpus/bad-epub/*.epub ../shared/corpus/epub/wasteland.epub \
  ../shared/corpus/epub/regime-anticancer-arabic.epub ../shared/corpus/epub/childrens-literature.epub \
  Tests/NarrateDataTests/Fixtures/fuzz/*.epub; do
  [ -f "$book" ] && cp "$book" "$seeds/"
done

echo "Fuzzing narrate-fuzz-$target for $seconds s ($jobs process(es)); findings go to $findings/"
# Several processes log to fuzz-N.log files: in the scratch folder, not the checkout.
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
cd "$scratch" && fuzzer="./release/narrate-fuzz-$target" seeds="seeds-$target" corpus="corpus-$target" findings="findings-$target"
status=0
# The Swift runtime's one-time allocations are not leaks worth stopping for.
export ASAN_OPTIONS=detect_leaks=0
"$fuzzer" "$corpus" "$seeds" -detect_leaks=0 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=262144 "${parallel[@]}" -artifact_prefix="$findings/" -print_final_stats=1 \
  2>&1 | tee fuzz.log | grep -E "^#[0-9]+.*(pulse|DONE)|^stat::|ERROR|SUMMARY|Test unit written" || status=$?
found=$(find "$findings" -type f | wc -l)
echo "Findings: $found file(s) in $scratch/$findings/ (log: $scratch/fuzz.log)"
[ "$found" -eq 0 ]
