#!/usr/bin/env bash
# `narrate book --remote` against a stub of an OpenAI-compatible speech API that answers every
# request after a fixed delay: how much --jobs 8 gains over --jobs 1 when the time goes to
# waiting on the network, not to the CPU. Target: a 16-page export (--split page --format wav)
# through a stub that answers after 200 ms takes, with --jobs 8, at most a fifth of the time it
# takes with --jobs 1 (wall seconds; ratio <= 0.20).
#
# The stub (Python 3, standard library only, written into the scratch folder) listens on a free
# loopback port. Each POST /v1/audio/speech waits DELAY_MS, then answers 200 with a WAV (16-bit
# mono PCM at 22050 Hz, Content-Type audio/wav): a quiet 210 Hz tone of MS_PER_CHAR ms per
# character of the input, so the same text always gets the same bytes. It counts the requests,
# the distinct inputs, the characters, and the most requests in flight at once (with --jobs 8
# that should reach 8; the requests should equal the chunks narrate speaks, with no retries).
#
# These machines are noisy, so the two runs are compared round by round, back to back (--jobs 1,
# then --jobs 8), each ratio is taken within its round, and the median round is reported. Every
# run gets a fresh stub, a fresh empty cache folder ($NARRATE_CACHE_DIR) and a fresh output
# folder, so nothing is cached; the library ($NARRATE_LIBRARY, in the scratch folder) is shared,
# and the book is added to it before the first round so that no run pays for the import. The
# API keys of the environment are not passed on (the stub needs none).
# The script does not fail on a missed target: it says MISSED.
#
# Usage: scripts/benchmark-remote.sh [BOOK]   (default: Pride and Prejudice from the corpus)
# Environment: RUNS (rounds, default 3), DELAY_MS (the stub's delay, default 200), JOBS (the
#   parallel run's --jobs, default 8; the target is stated for 8), PAGES (default 1-16),
#   MS_PER_CHAR (audio per input character, default 60), REMOTE_VOICE (default en-us),
#   NARRATE_BIN (the narrate binary to time; default: swift build -c release, then
#   .build/release/narrate), KEEP=1 (keep the scratch folder, with each run's stderr, output and
#   the stub's statistics).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus="$root/../shared/corpus"
book=$(realpath "${1:-$corpus/txt/pg1342-pride-and-prejudice-cp1252.txt}")
runs=${RUNS:-3}
delay_ms=${DELAY_MS:-200}
jobs=${JOBS:-8}
pages=${PAGES:-1-16}
ms_per_char=${MS_PER_CHAR:-60}
remote_voice=${REMOTE_VOICE:-en-us}
work=$(mktemp -d /tmp/narrate-bench-remote.XXXXXX)
stub_pid=""
cleanup() {
  [ -n "$stub_pid" ] && kill -TERM "$stub_pid" 2>/dev/null && wait "$stub_pid" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "Scratch folder kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [ -n "${NARRATE_BIN:-}" ]; then
  narrate=$NARRATE_BIN
  command -v python3 >/dev/null || { echo "error: python3 is needed for the stub" >&2; exit 1; }
else
  bash scripts/install-deps.sh python3 >/dev/null
  swift build -c release --static-swift-stdlib >/dev/null
  narrate="$root/.build/release/narrate"
fi
[ -x "$narrate" ] || { echo "error: $narrate is not an executable file" >&2; exit 1; }
export NARRATE_LIBRARY="$work/library.sqlite"
unset NARRATE_API_KEY OPENAI_API_KEY

# ---- The stub -------------------------------------------------------------------------------
# python3 stub.py PORT_FILE STATS_FILE DELAY_MS MS_PER_CHAR: serves until SIGTERM; writes its
# port once it listens, and its statistics (JSON) after every request and at exit.
cat >"$work/stub.py" <<'PY'
import http.server, json, math, os, signal, struct, sys, threading, time

port_file, stats_file = sys.argv[1], sys.argv[2]
delay, ms_per_char = float(sys.argv[3]) / 1000, float(sys.argv[4])
RATE = 22050
PERIOD = 105  # samples: 210 Hz at 22050 Hz, a whole number of samples, so the tone repeats exactly
TONE = b"".join(struct.pack("<h", round(800 * math.sin(2 * math.pi * i / PERIOD))) for i in range(PERIOD))

lock = threading.Lock()
stats = {"requests": 0, "answered": 0, "errors": 0, "in_flight": 0, "max_in_flight": 0,
         "characters": 0, "distinct": 0, "busy_seconds": 0.0, "first": None, "last": None,
         "formats": {}, "paths": {}}
inputs = set()

def wav(characters):
    frames = round(characters * ms_per_char / 1000 * RATE)
    data = (TONE * (frames // PERIOD + 1))[:frames * 2]
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE"
    header += b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, RATE, RATE * 2, 2, 16)
    header += b"data" + struct.pack("<I", len(data))
    return header + data

def write_stats():
    # Called with the lock held.
    snapshot = dict(stats)
    span = (stats["last"] - stats["first"]) if stats["first"] is not None and stats["last"] is not None else 0.0
    snapshot["span_seconds"] = span
    snapshot["mean_in_flight"] = stats["busy_seconds"] / span if span > 0 else 0.0
    with open(stats_file + ".tmp", "w") as f:
        json.dump(snapshot, f)
    os.replace(stats_file + ".tmp", stats_file)

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def answer(self, status, content_type, payload):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def fail(self, status, message):
        with lock:
            stats["errors"] += 1
        self.answer(status, "application/json", json.dumps({"error": {"message": message}}).encode())

    def do_GET(self):
        self.fail(404, "not found")

    def do_POST(self):
        start = time.monotonic()
        path = self.path.split("?")[0]
        with lock:
            stats["requests"] += 1
            stats["in_flight"] += 1
            stats["max_in_flight"] = max(stats["max_in_flight"], stats["in_flight"])
            stats["paths"][path] = stats["paths"].get(path, 0) + 1
            if stats["first"] is None:
                stats["first"] = start
        try:
            raw = self.body()
            if path != "/v1/audio/speech":
                return self.fail(404, f"no {path} here")
            try:
                request = json.loads(raw)
                text = request["input"]
            except (ValueError, KeyError, TypeError):
                return self.fail(400, "a JSON body with an input is expected")
            with lock:
                stats["characters"] += len(text)
                fmt = str(request.get("response_format", "mp3"))
                stats["formats"][fmt] = stats["formats"].get(fmt, 0) + 1
                if text not in inputs:
                    inputs.add(text)
                    stats["distinct"] += 1
            time.sleep(delay)
            self.answer(200, "audio/wav", wav(len(text)))
            with lock:
                stats["answered"] += 1
        finally:
            end = time.monotonic()
            with lock:
                stats["in_flight"] -= 1
                stats["busy_seconds"] += end - start
                stats["last"] = end if stats["last"] is None else max(stats["last"], end)
                write_stats()

class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

def stop(signum, frame):
    raise SystemExit(0)

signal.signal(signal.SIGTERM, stop)
server = Server(("127.0.0.1", 0), Handler)
with lock:
    write_stats()
with open(port_file + ".tmp", "w") as f:
    f.write(f"{server.server_address[1]}\n")
os.replace(port_file + ".tmp", port_file)
try:
    server.serve_forever(poll_interval=0.05)
finally:
    with lock:
        write_stats()
PY

# start_stub NAME: a fresh stub in the background, its statistics in $work/NAME.stats.json;
# sets stub_pid and base.
start_stub() {
  rm -f "$work/$1.port"
  python3 "$work/stub.py" "$work/$1.port" "$work/$1.stats.json" "$delay_ms" "$ms_per_char" 2>"$work/$1.stub.log" &
  stub_pid=$!
  for _ in $(seq 100); do
    [ -s "$work/$1.port" ] && break
    kill -0 "$stub_pid" 2>/dev/null || { echo "error: the stub exited; its log:" >&2; cat "$work/$1.stub.log" >&2; exit 1; }
    sleep 0.05
  done
  [ -s "$work/$1.port" ] || { echo "error: the stub did not say where it listens" >&2; exit 1; }
  base="http://127.0.0.1:$(cat "$work/$1.port")/v1"
}
stop_stub() {
  kill -TERM "$stub_pid"
  wait "$stub_pid" || true
  stub_pid=""
}

# ---- Setup: the book in the shared library --------------------------------------------------
"$narrate" pages "$book" >"$work/pages.txt"
echo "Book: $book ($(head -1 "$work/pages.txt")); pages $pages, --split page --format wav; $runs round(s);" \
  "stub delay $delay_ms ms, $ms_per_char ms of audio per character; --jobs 1 against --jobs $jobs on $(nproc) cores" \
  "(load average $(cut -d" " -f1-3 /proc/loadavg))"
echo "narrate: $narrate"
echo

# run_book ROUND JOBS: one export from scratch, timed; appends "round jobs wall requests answered
# errors max-in-flight mean-in-flight characters distinct files" to $work/runs.txt and prints a
# line (and narrate's last line on standard error).
run_book() {
  local name="r$1-j$2" start end status=0
  rm -rf "$work/$name.cache" "$work/$name.out"
  mkdir -p "$work/$name.cache"
  start_stub "$name"
  sync
  start=$EPOCHREALTIME
  NARRATE_CACHE_DIR="$work/$name.cache" "$narrate" book "$book" -o "$work/$name.out" --pages "$pages" --split page \
    --format wav --remote "$base" --remote-voice "$remote_voice" --jobs "$2" >"$work/$name.stdout" 2>"$work/$name.stderr" || status=$?
  end=$EPOCHREALTIME
  stop_stub
  if [ "$status" != 0 ]; then
    echo "error: narrate book --jobs $2 exited with status $status; its standard error:" >&2
    tr '\r' '\n' <"$work/$name.stderr" | tail -20 >&2
    exit 1
  fi
  local wall files last
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  files=$(find "$work/$name.out" -name '*.wav' | wc -l)
  last=$(tr '\r' '\n' <"$work/$name.stderr" | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' | grep -v '^[[:space:]]*$' | tail -1 || true)
  python3 - "$work/$name.stats.json" "$1" "$2" "$wall" "$files" >>"$work/runs.txt" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(sys.argv[2], sys.argv[3], sys.argv[4], s["requests"], s["answered"], s["errors"], s["max_in_flight"],
      f'{s["mean_in_flight"]:.2f}', s["characters"], s["distinct"], sys.argv[5])
PY
  read -r _ _ _ requests answered errors max_flight mean_flight characters distinct _ < <(tail -1 "$work/runs.txt")
  printf '  --jobs %-2s %7.2f s   %3s requests (%s distinct, %s characters%s), max %s in flight (mean %s), %s files\n' \
    "$2" "$wall" "$requests" "$distinct" "$characters" \
    "$([ "$errors" = 0 ] && [ "$answered" = "$requests" ] || echo ", $answered answered, $errors errors")" \
    "$max_flight" "$mean_flight" "$files"
  echo "            ${last:-(nothing on standard error)}"
}

# ---- Rounds ---------------------------------------------------------------------------------
: >"$work/runs.txt"
for round in $(seq "$runs"); do
  echo "Round $round"
  run_book "$round" 1
  run_book "$round" "$jobs"
  awk -v r="$round" -v j="$jobs" '$1 == r && $2 == 1 { one = $3 } $1 == r && $2 == j { many = $3 }
    END { printf "  ratio --jobs %s / --jobs 1 = %.3f\n", j, many / one }' "$work/runs.txt"
  if [ "${KEEP:-0}" != 1 ]; then rm -rf "$work/r$round-"*.out "$work/r$round-"*.cache; fi
done

# ---- Summary --------------------------------------------------------------------------------
python3 - "$work/runs.txt" "$jobs" "$delay_ms" <<'PY'
import math, statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
jobs, delay = int(sys.argv[2]), float(sys.argv[3]) / 1000
median = statistics.median
one = {r[0]: r for r in rows if r[1] == "1"}
many = {r[0]: r for r in rows if r[1] == str(jobs)}
rounds = sorted(one, key=int)
ratio = median(float(many[k][2]) / float(one[k][2]) for k in rounds)
print()
print(f"--jobs {jobs} / --jobs 1 wall time = {ratio:.3f}   (median round; target <= 0.20: {'met' if ratio <= 0.2 else 'MISSED'})")
print(f"    --jobs 1 {median(float(one[k][2]) for k in rounds):.2f} s, --jobs {jobs} {median(float(many[k][2]) for k in rounds):.2f} s (medians)")
requests = median(int(r[3]) for r in rows)
print(f"    the stub's delay alone, for {requests:.0f} requests: --jobs 1 >= {requests * delay:.2f} s, "
      f"--jobs {jobs} >= {math.ceil(requests / jobs) * delay:.2f} s (ratio >= {math.ceil(requests / jobs) / requests:.3f})")
flights = [int(r[6]) for r in many.values()]
print(f"    max in flight with --jobs {jobs}: {', '.join(map(str, flights))} (by round)"
      + ("" if min(flights) >= jobs else f"   NOTE: below {jobs}")
      + f"; with --jobs 1: {max(int(r[6]) for r in one.values())}")
counts = {r[3] for r in rows}
distinct = {r[9] for r in rows}
if len(counts) > 1 or counts != distinct:
    print(f"    NOTE: the requests differ between runs or from the distinct inputs: requests {sorted(counts, key=int)}, distinct {sorted(distinct, key=int)}")
errors = sum(int(r[5]) for r in rows)
if errors:
    print(f"    NOTE: the stub refused {errors} requests")
PY
