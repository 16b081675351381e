#!/usr/bin/env bash
# The worker's C unit tests (Tests/WorkerUnits/*_test.c): each is compiled with the worker's
# sources it tests (the files named in its `// links:` line, else hub_sockets.c) and run. A test
# exits 0 when it passed, 77 when it cannot run here (it says why), anything else when it failed.
# Usage: scripts/test-worker-units.sh   (needs cc; some tests need root)
set -euo pipefail
cd "$(dirname "$0")/.."
compiler=$(command -v cc || command -v clang)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0 passed=0 skipped=0
started=$(date +%s.%N)
for test in Tests/WorkerUnits/*_test.c; do
  name=$(basename "$test" .c)
  links=$(sed -n 's#^// links: ##p' "$test")
  sources=()
  for file in ${links:-hub_sockets.c}; do sources+=("Sources/narrate-worker/$file"); done
  "$compiler" -std=gnu11 -Wall -Wextra -Werror -I Sources/CNarrateSystem/include -I Sources/narrate-worker \
    -o "$scratch/$name" "$test" "${sources[@]}"
  status=0
  "$scratch/$name" || status=$?
  case "$status" in
    0) passed=$((passed + 1)) ;;
    77) skipped=$((skipped + 1)) ;;
    *) echo "test-worker-units: $name failed (exit $status)" >&2; failed=$((failed + 1)) ;;
  esac
done
# The summary in pytest's words, so scripts/test.sh counts these tests as it counts the others.
echo "$passed passed, $failed failed, $skipped skipped in $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')s"
[ "$failed" -eq 0 ]
