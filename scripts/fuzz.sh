#!/usr/bin/env bash
# Fuzzes a parser with libFuzzer (coverage-guided, with AddressSanitizer) for a fixed time: the
# EPUB parser (target `epub`, the default), starting from the corpus's small EPUBs and damaged
# EPUBs; the DOCX, ODT or FB2 parser (targets `docx`, `odt`, `fb2`: the program
# narrate-fuzz-office with NARRATE_FUZZ_FORMAT set), starting from the small real files of
# Tests/NarrateDataTests/Fixtures/office; the PDF reader's records (target `pdf`: the wire
# decoder and the layout analysis, narrate-fuzz-pdf), starting from what narrate-pdf writes for
# the PDFs of Tests/NarrateDataTests/Fixtures/pdf; or the cache entry decoder (target `entry`: what a
# store object may hold), starting from entries a short narration writes. Every input that
# crashes it, hangs it (past 10 s) or makes it use more than 2 GB is kept under
# .build-fuzz/findings-TARGET/: replay one with `swift run narrate-fuzz-epub FILE` (or
# `NARRATE_FUZZ_FORMAT=docx swift run narrate-fuzz-office FILE`, ...), and copy it into
# Tests/NarrateDataTests/Fixtures/fuzz/ as a regression fixture once it is fixed.
#
# Usage: scripts/fuzz.sh [SECONDS] [epub|docx|odt|fb2|pdf|entry]   (default 1800: half an hour; epub)
# Environment: JOBS (parallel fuzzing processes, default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1800}
target=${2:-epub}
case "$target" in epub|entry|pdf) program=narrate-fuzz-$target ;; docx|odt|fb2) program=narrate-fuzz-office ;;
  *) echo "error: the fuzz target is epub, docx, odt, fb2, pdf or entry, not '$target'" >&2; exit 2 ;; esac
# The office program fuzzes the parser this names (see Sources/narrate-fuzz-office).
[ "$program" = narrate-fuzz-office ] && export NARRATE_FUZZ_FORMAT=$target
jobs=${JOBS:-1}
bash scripts/install-deps.sh >/dev/null
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --product "$program" \
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
if [ "$target" = pdf ]; then
  # The records narrate-pdf writes for the fixture PDFs (a normal build of it).
  swift build --product narrate-pdf >/dev/null
  for document in Tests/NarrateDataTests/Fixtures/pdf/*.pdf; do
    .build/debug/narrate-pdf "$document" > "$seeds/$(basename "$document").records" || true
  done
fi
[ "$target" = epub ] && for book in ../shared/corpus/bad-epub/*.epub ../shared/corpus/epub/wasteland.epub \
  ../shared/corpus/epub/regime-anticancer-arabic.epub ../shared/corpus/epub/childrens-literature.epub \
  Tests/NarrateDataTests/Fixtures/fuzz/*.epub; do
  [ -f "$book" ] && cp "$book" "$seeds/"
done
case "$target" in
  docx) office_seeds=(Tests/NarrateDataTests/Fixtures/office/*.docx) ;;
  odt) office_seeds=(Tests/NarrateDataTests/Fixtures/office/*.odt) ;;
  fb2) office_seeds=(Tests/NarrateDataTests/Fixtures/office/*.fb2 Tests/NarrateDataTests/Fixtures/office/*.fb2.zip) ;;
  *) office_seeds=() ;;
esac
for document in "${office_seeds[@]}" Tests/NarrateDataTests/Fixtures/fuzz/*."$target"; do
  [ -f "$document" ] && cp "$document" "$seeds/"
done

echo "Fuzzing $program ($target) for $seconds s ($jobs process(es)); findings go to $findings/"
# Several processes log to fuzz-N.log files: in the scratch folder, not the checkout.
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
cd "$scratch" && fuzzer="./release/$program" seeds="seeds-$target" corpus="corpus-$target" findings="findings-$target"
status=0
# The Swift runtime's one-time allocations are not leaks worth stopping for.
export ASAN_OPTIONS=detect_leaks=0
"$fuzzer" "$corpus" "$seeds" -detect_leaks=0 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=262144 "${parallel[@]}" -artifact_prefix="$findings/" -print_final_stats=1 \
  2>&1 | tee fuzz.log | grep -E "^#[0-9]+.*(pulse|DONE)|^stat::|ERROR|SUMMARY|Test unit written" || status=$?
found=$(find "$findings" -type f | wc -l)
echo "Findings: $found file(s) in $scratch/$findings/ (log: $scratch/fuzz.log)"
[ "$found" -eq 0 ]
