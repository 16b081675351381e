#!/usr/bin/env bash
# The shared cache store measured against a local SeaweedFS (`weed mini`, from the fleet tests'
# virtual environment), everything side by side in one run, median of RUNS rounds:
#   1. a `say` of a cached text served from the store with an empty local tier, against a local
#      hit plus the store's own GET of that object (curl, in the same round).
#      Target: <= 2x (local hit + GET).
#   2. a book export with the store on, against the same export without it (both cold), in
#      each of FORMATS (default "mp3 wav": narrate book's default, then the format that only copies).
#      Target: <= 1.05x.
#   3. the assemble step of a book made in 3 shards (empty local tier, every chunk from the
#      store), against a warm local re-run. Target: <= 1.2x.
#   2b, 3b. the same two with the store's server on a core of its own (taskset), as a store on
#      another machine would be.
#   4. a sentence's latency through `narrate serve` (POST /v1/audio/speech, wav), p50 and p99
#      over SAMPLES requests: a hit from the store on a second replica (each request a new
#      sentence the first replica made), against a local hit.
# The script does not fail on a missed target: it says MISSED.
#
# Usage: scripts/benchmark-fleet.sh
# Environment: RUNS (default 3), SAMPLES (default 100), FORMATS (default "mp3 wav"), NARRATE_BIN (default: swift build -c release).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/python-tests.sh

need_packages espeak-ng curl
venv=${NARRATE_FLEET_VENV:-.build/venv-fleet-tests}
make_venv "$venv" Tests/Fleet/requirements.txt
install_weed "$venv"
if [[ -z "${NARRATE_BIN:-}" ]]; then
  step "Building narrate (release)"
  swift build -c release --static-swift-stdlib -Xlinker -s >/dev/null
  export NARRATE_BIN=.build/release/narrate
fi
find_narrate
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" scripts/benchmark_fleet.py
