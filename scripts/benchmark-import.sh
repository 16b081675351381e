#!/usr/bin/env bash
# Times importing a book into the library (parse + save), cold each run.
# Usage: scripts/benchmark-import.sh [BOOK]   (default: the corpus moby-dick.epub); RUNS (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
book=$(realpath "${1:-$root/../shared/corpus/epub/moby-dick.epub}")
runs=${RUNS:-5}
work=$(mktemp -d /tmp/narrate-bench-import.XXXXXX)
trap 'rm -rf "$work"' EXIT

bash scripts/install-deps.sh hyperfine time python3 >/dev/null
swift build -c release --static-swift-stdlib >/dev/null
narrate="$root/.build/release/narrate"
echo "Book: $book ($(wc -c <"$book") bytes); $runs runs"
hyperfine --runs "$runs" --style basic --export-json "$work/times.json" \
  --prepare "rm -f $work/library.sqlite*" \
  --command-name import "$narrate add $book --library $work/library.sqlite"
python3 - "$work/times.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"\nimport: mean {r['mean']:.3f} s (min {r['min']:.3f}, max {r['max']:.3f})   (target < 1 s: {'ok' if r['mean'] < 1 else 'MISSED'})")
PY
