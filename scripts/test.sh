#!/usr/bin/env bash
# Every test suite, in one command (the README's second command; .ci/run calls it):
#   1. the system packages every suite needs, in one apt-get (scripts/install-deps.sh);
#   2. one build of the package and its tests (swift build --build-tests; TEST_CONFIGURATION=
#      debug or release chooses which), and beside it the worker's floors checked
#      (scripts/check-worker-floors.sh) and its C unit tests run (scripts/test-worker-units.sh);
#   3. the Swift suite (unit, route and end-to-end tests) on that build, alone on the machine;
#   4. the Python suites against that build's narrate, in two lanes side by side (they wait on
#      servers, browsers and models as much as they compute), of about the same length: Kokoro,
#      the fleet, the PDFs (printed by LibreOffice and Chromium) and the office documents (DOCX,
#      ODT, FB2 by pandoc and LibreOffice) in one; Piper, the service's clients, the listening
#      room and the audiobook tools in the other.
#      They share one virtual environment (.build/venv-tests), made while the build runs: every
#      suite's pinned tools in one pip run.
# At the end, a table of each phase's wall time, test count, result and how busy the machine's
# cores were meanwhile; every phase's output is in .build/test-logs/PHASE.log, and a failed
# phase's last lines are printed.
#
# Usage: scripts/test.sh            every phase
#        TEST_PHASES="swift web" scripts/test.sh   only those phases (after deps and build)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The crash tests kill workers on purpose: no core files (one was once committed from a run).
ulimit -c 0
logs=.build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.result
started=$(date +%s)

# The packages the Python suites would install one by one (apt-get cannot run twice at once).
suite_packages=(chromium chromium-driver mediainfo atomicparsley mp3val epubcheck default-jre-headless openssl python3-venv pandoc libreoffice-writer-nogui qpdf poppler-utils)

# The machine's busy and total CPU time so far (jiffies, all cores), from /proc/stat.
cpu_times() {
  awk '/^cpu / {total = 0; for (i = 2; i <= NF; i++) total += $i; print total - $5 - $6, total}' /proc/stat 2>/dev/null || echo "0 0"
}

# busy_percent BEFORE AFTER: how busy the cores were between two cpu_times readings.
busy_percent() {
  local busy0 total0 busy1 total1
  read -r busy0 total0 <<<"$1"
  read -r busy1 total1 <<<"$2"
  if ((total1 > total0)); then echo $(((busy1 - busy0) * 100 / (total1 - total0))); else echo "?"; fi
}

cpu_started=$(cpu_times)

# run_phase NAME COMMAND…: runs COMMAND with its output in $logs/NAME.log, and records its wall
# time, test count, status and the cores' busy share in $logs/NAME.result.
run_phase() {
  local name=$1
  shift
  local start end status count cpu_start
  start=$(date +%s)
  cpu_start=$(cpu_times)
  echo "==> $name: $*" >&2
  "$@" >"$logs/$name.log" 2>&1
  status=$?
  end=$(date +%s)
  count=$(tests_in "$logs/$name.log")
  echo "$name $((end - start)) $count $status $(busy_percent "$cpu_start" "$(cpu_times)")" >"$logs/$name.result"
  if [ "$status" -ne 0 ]; then
    echo "==> $name FAILED (exit $status); its last lines:" >&2
    tail -n 40 "$logs/$name.log" >&2
  else
    echo "==> $name passed in $((end - start)) s ($count tests)" >&2
  fi
  return "$status"
}

# How many tests a log reports: Swift Testing's summary, XCTest's, or pytest's.
tests_in() {
  local swift xctest pytest
  swift=$(grep -aoE 'Test run with [0-9]+ tests?' "$1" | tail -1 | grep -oE '[0-9]+' || true)
  xctest=$(grep -aoE 'Executed [0-9]+ tests?' "$1" | tail -1 | grep -oE '[0-9]+' || true)
  pytest=$(grep -aE '[0-9]+ (passed|failed|errors?)(, .*)? in [0-9.]+s' "$1" | tail -1 | grep -oE '[0-9]+ (passed|failed|skipped|errors?)' | awk '{s += $1} END {print s + 0}' || true)
  echo $(( ${swift:-0} + ${xctest:-0} + ${pytest:-0} ))
}

wanted() {
  [ -z "${TEST_PHASES:-}" ] && return 0
  [[ " $TEST_PHASES " == *" $1 "* ]]
}

table() {
  local total=$(($(date +%s) - started))
  echo
  echo "| phase | seconds | tests | result | cores busy |"
  echo "|---|---:|---:|---|---:|"
  for name in deps prepare floors worker build swift kokoro fleet pdf piper serve audiobooks web office; do
    [ -f "$logs/$name.result" ] || continue
    read -r _ seconds count status busy <"$logs/$name.result"
    echo "| $name | $seconds | $count | $([ "$status" -eq 0 ] && echo passed || echo "FAILED ($status)") | ${busy:-?}% |"
  done
  echo "| **total (wall)** | **$total** | | | $(busy_percent "$cpu_started" "$(cpu_times)")% |"
}

failed=0
finish() {
  table
  exit "$failed"
}

run_phase deps scripts/install-deps.sh "${suite_packages[@]}" || { failed=1; finish; }
# One build of the package and its tests, in the configuration TEST_CONFIGURATION names.
configuration=${TEST_CONFIGURATION:-debug}
case "$configuration" in
  # No debug info: nothing here reads it, and it costs the compiler time.
  # No index store either, but the test targets': on Linux, SwiftPM's test discovery reads
  # theirs, and indexing every other module (the dependencies too) cost an eighth of the
  # build's compile time (Package.swift adds the test targets' -index-store-path).
  debug)
    build_flags=(-Xswiftc -gnone --disable-index-store)
    NARRATE_TEST_INDEX_STORE="$(pwd)/.build/$(uname -m)-unknown-linux-gnu/debug/index/store"
    export NARRATE_TEST_INDEX_STORE
    ;;
  # Optimized, with @testable imports allowed: the binaries the quick start builds, tested.
  release) build_flags=(-c release -Xswiftc -enable-testing) ;;
  *) echo "error: TEST_CONFIGURATION is debug or release, not '$configuration'" >&2; exit 2 ;;
esac
# Every Python suite's tools in one virtual environment, made while the package builds (pip
# unpacks while the compiler waits on its slower files); each suite's script finds its
# requirements installed and goes straight to its tests.
export NARRATE_TEST_VENV=${NARRATE_TEST_VENV:-.build/venv-tests}
for suite in KOKORO PIPER SERVE AUDIOBOOK WEB FLEET OFFICE PDF; do export "NARRATE_${suite}_VENV=$NARRATE_TEST_VENV"; done
prepare_venv() {
  source scripts/python-tests.sh
  make_venv "$NARRATE_TEST_VENV" Tests/*/requirements.txt
  install_weed "$NARRATE_TEST_VENV"
}
run_phase prepare prepare_venv &
preparing=$!
# The worker's floors: no two of its C files call each other, none is over 400 lines.
run_phase floors scripts/check-worker-floors.sh &
floors=$!
# The worker's C unit tests (a reaped child's pid reused by another process is never signalled).
run_phase worker scripts/test-worker-units.sh &
worker_units=$!
run_phase build swift build --build-tests "${build_flags[@]}" || { failed=1; finish; }

# The suites run this build's binaries (no second build, no stale binary of another build).
NARRATE_BIN=$(pwd)/.build/$configuration/narrate
export NARRATE_BIN

if wanted swift; then
  # SWIFT_BACKTRACE off: a crashing test process reports its failure, not a symbolication pause.
  # A watchdog, not a bound: the suite takes minutes; a test process that crashed while a
  # service it started still holds its output would otherwise keep swift test waiting for ever.
  run_phase swift env SWIFT_BACKTRACE=enable=no timeout --kill-after=30 2400 swift test --skip-build "${build_flags[@]}" || failed=1
  # What a crashed test process left running (its services, their workers) ends here.
  pkill -KILL -f "^$(pwd)/.build/[^ ]*/narrate(-worker|-pdf)? " 2>/dev/null || true
fi

lane_one() {
  local status=0
  if wanted kokoro; then run_phase kokoro scripts/test-kokoro.sh --durations=5 || status=1; fi
  if wanted fleet; then run_phase fleet scripts/test-fleet.sh --durations=5 || status=1; fi
  if wanted pdf; then run_phase pdf scripts/test-pdf.sh --durations=5 || status=1; fi
  if wanted office; then run_phase office scripts/test-office.sh --durations=5 || status=1; fi
  return "$status"
}

lane_two() {
  local status=0
  if wanted piper; then run_phase piper scripts/test-piper.sh --durations=5 || status=1; fi
  if wanted serve; then run_phase serve scripts/test-serve.sh --durations=5 || status=1; fi
  if wanted web; then run_phase web scripts/test-web.sh --durations=5 || status=1; fi
  if wanted audiobooks; then run_phase audiobooks scripts/test-audiobooks.sh --durations=5 || status=1; fi
  return "$status"
}

# A failed preparation is not final: each suite's script installs what it still misses, and
# its log says why it could not.
wait "$preparing" || true
wait "$floors" || failed=1
wait "$worker_units" || failed=1

lane_one &
one=$!
lane_two &
two=$!
wait "$one" || failed=1
wait "$two" || failed=1
finish
