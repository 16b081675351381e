#!/usr/bin/env bash
# The run shared by benchmark-piper.sh and benchmark-kokoro.sh (see their headers): installs
# what the benchmark needs and the reference's virtual environment, builds the release binary
# unless NARRATE_BIN names one, and runs benchmark_neural.py.
# Usage: scripts/benchmark-neural.sh piper|kokoro VENV REQUIREMENTS DEFAULT_SIZE
set -euo pipefail
cd "$(dirname "$0")/.."
engine=$1 venv=$2 requirements=$3
root=$(pwd)
runs=${RUNS:-3}
size=${SIZE:-$4}
work=$(mktemp -d "/tmp/narrate-bench-$engine.XXXXXX")
trap 'pkill -P $$ 2>/dev/null || true; rm -rf "$work"' EXIT

bash scripts/install-deps.sh time python3 procps linux-perf >/dev/null
source scripts/python-tests.sh
make_venv "$venv" "$requirements" >/dev/null 2>&1
if [ -n "${NARRATE_BIN:-}" ]; then
  narrate=$(realpath "$NARRATE_BIN")
else
  swift build -c release --static-swift-stdlib >/dev/null
  narrate="$root/.build/release/narrate"
fi

"$root/$venv/bin/python" scripts/benchmark_neural.py "$engine" "$narrate" "$work" "$runs" "$size" "$root/../shared/corpus/txt/pg1342-pride-and-prejudice-cp1252.txt"
