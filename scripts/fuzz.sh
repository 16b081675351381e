#!/usr/bin/env bash
# Fuzzes the EPUB parser with libFuzzer (coverage-guided, with AddressSanitizer) for a fixed
# time, starting from the corpus's small EPUBs and damaged EPUBs. Every input that crashes it,
# hangs it (past 10 s) or makes it use more than 2 GB is kept under .build-fuzz/findings/:
# replay one with `swift run narrate-fuzz-epub FILE`, and copy it into
# Tests/NarrateDataTests/Fixtures/fuzz/ as a regression fixture once it is fixed.
#
# Usage: scripts/fuzz.sh [SECONDS]   (default 1800: half an hour)
# Environment: JOBS (parallel fuzzing processes, default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1800}
jobs=${JOBS:-1}
bash scripts/install-deps.sh >/dev/null
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --product narrate-fuzz-epub \
  -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address \
  -Xlinker --allow-multiple-definition >/dev/null
fuzzer="$scratch/release/narrate-fuzz-epub"

seeds="$scratch/seeds"
corpus="$scratch/corpus"
findings="$scratch/findings"
mkdir -p "$seeds" "$corpus" "$findings"
for book in ../shared/corpus/bad-epub/*.epub ../shared/corpus/epub/wasteland.epub \
  ../shared/corpus/epub/regime-anticancer-arabic.epub ../shared/corpus/epub/childrens-literature.epub \
  Tests/NarrateDataTests/Fixtures/fuzz/*.epub; do
  [ -f "$book" ] && cp "$book" "$seeds/"
done

echo "Fuzzing the EPUB parser for $seconds s ($jobs process(es)); findings go to $findings/"
# Several processes log to fuzz-N.log files: in the scratch folder, not the checkout.
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
cd "$scratch" && fuzzer="./release/narrate-fuzz-epub" seeds=seeds corpus=corpus findings=findings
status=0
# The Swift runtime's one-time allocations are not leaks worth stopping for.
export ASAN_OPTIONS=detect_leaks=0
"$fuzzer" "$corpus" "$seeds" -detect_leaks=0 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=262144 "${parallel[@]}" -artifact_prefix="$findings/" -print_final_stats=1 \
  2>&1 | tee fuzz.log | grep -E "^#[0-9]+.*(pulse|DONE)|^stat::|ERROR|SUMMARY|Test unit written" || status=$?
found=$(find "$findings" -type f | wc -l)
echo "Findings: $found file(s) in $scratch/$findings/ (log: $scratch/fuzz.log)"
[ "$found" -eq 0 ]
