#!/usr/bin/env bash
# `narrate serve` against reference tools, side by side in ONE run, round by round (these
# machines are noisy: every ratio is taken within a round, and the median round is reported):
#   1. cached page audio: GET /v1/books/ID/pages/N/audio?format=mp3 (and wav), rendered once,
#      against nginx serving the same bytes as a static file; wrk -t2 -c32 -d10s --latency:
#      requests per second and p99 latency. Target: >= half of nginx's req/s, p99 <= 10 ms.
#   2. uncached distinct sentences: audio seconds per wall second from POST /v1/audio/speech
#      (response_format wav, one client per worker, each sentence once) against two
#      `espeak-ng -w` processes at once on the same sentences (each on half of them, as one
#      file). Target: >= 0.9 of espeak-ng's. Also the CPU time of the service process itself per
#      uncached sentence (its threads, read from /proc before and after; the workers not counted).
#   3. time to first byte of a 4,000-character input, streamed (curl's time_starttransfer),
#      uncached, against `espeak-ng -w` on the input's first chunk alone (what Narrate speaks
#      first: at most 700 characters, cut at a sentence end). Target: <= 1.2x.
#   4. memory under all that load: the service's peak resident set (VmHWM) <= 64 MiB, each
#      narrate-worker process (worker, its per-voice zygotes, the per-text children it catches)
#      <= 40 MiB, read from /proc before the service stops.
# Each round starts a fresh service on an empty cache folder (so nothing of an earlier round is
# cached); the library (the uploaded book) is kept. The service logs one line per request to a
# file, as it would in production; nginx writes its access log to a file too.
# The script does not fail on a missed target: it says MISSED.
#
# Usage: scripts/benchmark-serve.sh [BOOK]   (default: Moby-Dick from the corpus)
# Environment: RUNS (rounds, default 3), WORKERS (default: cores), SENTENCES (default 2000),
#   FORMATS (page formats, default "mp3 wav"), DURATION (wrk, default 10s), CONNECTIONS
#   (default 32), PAGE (a page label; default: the first page of at least 250 words),
#   TTFB_SAMPLES (per round, default 3), TTFB_FORMAT (wav or pcm, default wav), VOICE (the
#   service's, default alloy; it must speak as `espeak-ng -v en-us`, which the script checks),
#   KEEP=1 (keep the scratch folder, with the service's log).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus="$root/../shared/corpus"
book=$(realpath "${1:-$corpus/epub/moby-dick.epub}")
sentence_source="$corpus/txt/pg1342-pride-and-prejudice-cp1252.txt"
long_source="$corpus/txt/pg972-devils-dictionary-1990s-header-ascii.txt"
runs=${RUNS:-3}
workers=${WORKERS:-$(nproc)}
sentence_count=${SENTENCES:-2000}
formats=${FORMATS:-mp3 wav}
duration=${DURATION:-10s}
connections=${CONNECTIONS:-32}
page=${PAGE:-}
ttfb_samples=${TTFB_SAMPLES:-3}
ttfb_format=${TTFB_FORMAT:-wav}
EACH=${EACH:-150}   # sentences per half for the espeak-ng-per-sentence reference
# The service's voice: OpenAI's `alloy` is eSpeak's en-us at its defaults (checked below: the
# same samples as `espeak-ng -v en-us`, which the references speak).
voice=${VOICE:-alloy}
espeak_voice=en-us
work=$(mktemp -d /tmp/narrate-bench-serve.XXXXXX)
service_pid=""
nginx_pid=""
sampler_pid=""
cleanup() {
  [ -n "$sampler_pid" ] && kill "$sampler_pid" 2>/dev/null || true
  [ -n "$service_pid" ] && kill -TERM "$service_pid" 2>/dev/null && wait "$service_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill -QUIT "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "Scratch folder kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

bash scripts/install-deps.sh nginx wrk curl python3 procps >/dev/null
swift build -c release --static-swift-stdlib >/dev/null
narrate="$root/.build/release/narrate"
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
cores=$(nproc)

# ---- Inputs ---------------------------------------------------------------------------------
# Distinct sentences of 60 to 300 characters from Pride and Prejudice, one a line, and their two
# halves for the two espeak-ng processes. Then, per round and sample, a 4,000-character input
# from the Devil's Dictionary (cut at a sentence end; a different slice each time) as a JSON
# request body, and its first chunk as Narrate's TextChunker cuts it (sentences, <= 700).
python3 - "$sentence_source" "$long_source" "$work" "$sentence_count" "$runs" "$ttfb_samples" "$voice" "$ttfb_format" <<'PY'
import json, re, sys
sentence_source, long_source, work, count, runs, samples, voice, fmt = sys.argv[1:]
count, runs, samples = int(count), int(runs), int(samples)

def body_of(path, encoding):
    raw = open(path, encoding=encoding, errors="replace").read()
    start, end = raw.find("*** START"), raw.find("*** END")
    if start >= 0:
        raw = raw[raw.find("\n", start) + 1:end if end > start else len(raw)]
    return raw

boundary = re.compile(r'(?<=[.!?])["\u201d\u2019\')]?\s+')
text = re.sub(r"\s+", " ", body_of(sentence_source, "cp1252"))
text = text[text.find("It is a truth universally acknowledged"):] if "It is a truth universally" in text else text
seen, sentences = set(), []
for sentence in boundary.split(text):
    sentence = sentence.strip()
    if 60 <= len(sentence) <= 300 and sentence not in seen and not re.search(r"[\[\]_*]", sentence):
        seen.add(sentence)
        sentences.append(sentence)
if len(sentences) < count:
    sys.exit(f"only {len(sentences)} distinct sentences in {sentence_source}; ask for fewer (SENTENCES)")
sentences = sentences[:count]
open(f"{work}/sentences.txt", "w").write("\n".join(sentences) + "\n")
half = len(sentences) // 2
open(f"{work}/half1.txt", "w").write("\n".join(sentences[:half]) + "\n")
open(f"{work}/half2.txt", "w").write("\n".join(sentences[half:]) + "\n")

def first_chunk(text, limit=700):
    chunk = ""
    for sentence in boundary.split(text.strip()):
        candidate = (chunk + " " + sentence) if chunk else sentence
        if len(candidate) > limit:
            return chunk or sentence[:limit]
        chunk = candidate
    return chunk

long_text = re.sub(r"[ \t]+", " ", body_of(long_source, "ascii"))
long_text = re.sub(r"\n{3,}", "\n\n", long_text)
position = len(long_text) // 20  # past the front matter
for round_ in range(1, runs + 1):
    for sample in range(1, samples + 1):
        window = long_text[position:position + 4000]
        ends = [m.end() for m in re.finditer(r"[.!?][\"')]?\s", window)]
        cut = ends[-1] if ends else len(window)
        piece = window[:cut].strip()
        position += cut + 1000
        name = f"{work}/ttfb-{round_}-{sample}"
        json.dump({"model": "tts-1", "input": piece, "voice": voice, "response_format": fmt}, open(name + ".json", "w"))
        open(name + ".chunk.txt", "w").write(first_chunk(piece) + "\n")
PY
echo "Book: $book; $runs rounds; $workers workers on $cores cores (load average $(cut -d" " -f1-3 /proc/loadavg)); $(wc -l <"$work/sentences.txt") sentences ($(wc -c <"$work/sentences.txt") bytes); wrk -t2 -c$connections -d$duration"

# ---- The service ----------------------------------------------------------------------------
library="$work/library.sqlite"
# start_service CACHE_DIR: a fresh service in the background; sets service_pid and base.
start_service() {
  : >"$work/serve.out"
  "$narrate" serve --port 0 --cache-dir "$1" --library "$library" --workers "$workers" >"$work/serve.out" 2>>"$work/serve.log" &
  service_pid=$!
  local port=""
  for _ in $(seq 300); do
    port=$(sed -n 's|^Listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve.out")
    [ -n "$port" ] && break
    kill -0 "$service_pid" 2>/dev/null || { echo "error: narrate serve exited; its log:" >&2; tail -20 "$work/serve.log" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { echo "error: narrate serve did not say where it listens" >&2; exit 1; }
  base="http://127.0.0.1:$port"
  curl -sf "$base/readyz" >/dev/null || { echo "error: $base/readyz failed" >&2; exit 1; }
}
# The service's peak resident set so far, in KiB (VmHWM only grows: read after each phase, it
# tells which phase raised it).
service_hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$service_pid/status"; }
stop_service() {
  kill -TERM "$service_pid"
  wait "$service_pid" || echo "warning: narrate serve exited with status $? on SIGTERM" >&2
  service_pid=""
}

# The memory sampler: every 0.2 s, the VmHWM of the service and of every process below it: the
# narrate-worker processes by depth (1 the workers, 2 their zygotes, 3 the per-text children,
# when caught alive) and any other (ffmpeg) by name; a last read when $work/stop-sampler
# appears, before the service is stopped. Prints "service worker zygote child others" in KiB
# (0: none seen; others: name:KiB,… or -).
start_sampler() {
  rm -f "$work/stop-sampler" "$work/memory-round.txt"
  python3 - "$service_pid" "$work/stop-sampler" "$work/memory-round.txt" <<'PY' &
import os, sys, time
root, stop, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
roles = ["service", "worker", "zygote", "child"]
peak = {}
def children(pid):
    kids = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                kids += [int(k) for k in f.read().split()]
    except OSError:
        pass
    return kids
def hwm(pid):
    name = None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("Name:"):
                    name = line.split()[1]
                elif line.startswith("VmHWM:"):
                    return name, int(line.split()[1])
    except OSError:
        pass
    return None, 0
def sample():
    level = [root]
    for depth in range(len(roles)):
        for pid in level:
            name, kb = hwm(pid)
            if name is None:
                continue
            key = roles[depth] if depth == 0 or name == "narrate-worker" else name
            peak[key] = max(peak.get(key, 0), kb)
        level = [kid for pid in level for kid in children(pid)]
while not os.path.exists(stop):
    sample()
    time.sleep(0.2)
sample()
others = ",".join(f"{name}:{kb}" for name, kb in sorted(peak.items()) if name not in roles) or "-"
open(out, "w").write(" ".join(str(peak.get(role, 0)) for role in roles) + " " + others + "\n")
PY
  sampler_pid=$!
}
stop_sampler() {
  touch "$work/stop-sampler"
  wait "$sampler_pid" || true
  sampler_pid=""
}

# ---- nginx ----------------------------------------------------------------------------------
# Unprivileged-style: its own prefix, config, logs and temp folders in the scratch folder, in the
# foreground (daemon off), one worker per core (worker_processes auto, as Debian's default). As
# root its workers drop to nobody, so the files it serves are made world-readable.
mkdir -p "$work/nginx/html" "$work/nginx/logs" "$work/nginx/temp"
chmod 755 "$work" "$work/nginx" "$work/nginx/html"
nginx_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/nginx/nginx.conf" <<EOF
daemon off;
worker_processes auto;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
  types { audio/mpeg mp3; audio/wav wav; }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  access_log $work/nginx/logs/access.log;
  client_body_temp_path $work/nginx/temp/body;
  proxy_temp_path $work/nginx/temp/proxy;
  fastcgi_temp_path $work/nginx/temp/fastcgi;
  uwsgi_temp_path $work/nginx/temp/uwsgi;
  scgi_temp_path $work/nginx/temp/scgi;
  server {
    listen 127.0.0.1:$nginx_port;
    root $work/nginx/html;
  }
}
EOF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" &
nginx_pid=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/" && break; sleep 0.1; done

# wrk_run URL: "requests/s p99-ms errors" from wrk's --latency report (errors: non-2xx/3xx
# responses and socket errors).
wrk_run() {
  wrk -t2 -c"$connections" -d"$duration" --latency "$1" >"$work/wrk.txt" 2>&1 || true
  python3 - "$work/wrk.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rate = re.search(r"Requests/sec:\s*([\d.]+)", text)
p99 = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s)\b", text, re.M)
errors = sum(map(int, re.findall(r"Non-2xx or 3xx responses: (\d+)", text)))
socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
if socket:
    errors += sum(map(int, socket.groups()))
if not rate or not p99:
    print("0 0 -1")
else:
    scale = {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    print(f"{float(rate.group(1)):.0f} {float(p99.group(1)) * scale:.2f} {errors}")
PY
}

# ---- Uncached sentences ---------------------------------------------------------------------
# service_cpu: the CPU seconds (user + system, all threads) the service process has used so far.
service_cpu() {
  awk -v tck="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / tck }' "/proc/$service_pid/stat"
}
# sentences_service: "wall-seconds audio-seconds errors" for every sentence POSTed once, one
# client per worker, each client on a keep-alive connection taking the next sentence.
sentences_service() {
  python3 - "$base" "$workers" "$work/sentences.txt" "$voice" <<'PY'
import http.client, json, struct, sys, threading, time, urllib.parse
base, clients, path, voice = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
url = urllib.parse.urlparse(base)
sentences = open(path).read().splitlines()
lock = threading.Lock()
state = {"next": 0, "audio": 0.0, "errors": 0}
def seconds(wav):
    if wav[:4] != b"RIFF":
        return 0.0
    position, rate, block = 12, 0, 0
    while position + 8 <= len(wav):
        tag, size = wav[position:position + 4], struct.unpack("<I", wav[position + 4:position + 8])[0]
        if tag == b"fmt ":
            channels, rate = struct.unpack("<HI", wav[position + 10:position + 16])
            block = struct.unpack("<H", wav[position + 20:position + 22])[0]
        if tag == b"data":
            return (len(wav) - position - 8) / (rate * block) if rate and block else 0.0
        position += 8 + size + (size & 1)
    return 0.0
def client():
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    while True:
        with lock:
            index = state["next"]
            state["next"] += 1
        if index >= len(sentences):
            return
        body = json.dumps({"model": "tts-1", "input": sentences[index], "voice": voice, "response_format": "wav"})
        try:
            connection.request("POST", "/v1/audio/speech", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            data = response.read()
            ok = response.status == 200
        except Exception:
            connection.close()
            connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
            ok, data = False, b""
        with lock:
            if ok:
                state["audio"] += seconds(data)
            else:
                state["errors"] += 1
threads = [threading.Thread(target=client) for _ in range(clients)]
start = time.perf_counter()
for thread in threads: thread.start()
for thread in threads: thread.join()
wall = time.perf_counter() - start
print(f"{wall:.3f} {state['audio']:.2f} {state['errors']}")
PY
}
# wav_seconds FILE…: the audio seconds in these WAV files.
wav_seconds() {
  python3 - "$@" <<'PY'
import sys, wave
total = 0.0
for path in sys.argv[1:]:
    with wave.open(path) as w:
        total += w.getnframes() / w.getframerate()
print(f"{total:.2f}")
PY
}
# sentences_espeak: "wall-seconds audio-seconds" for two espeak-ng -w at once, one per half.
sentences_espeak() {
  sync
  local start=$EPOCHREALTIME first
  espeak-ng -v "$espeak_voice" -w "$work/half1.wav" -f "$work/half1.txt" &
  first=$!
  espeak-ng -v "$espeak_voice" -w "$work/half2.wav" -f "$work/half2.txt"
  wait "$first"
  local end=$EPOCHREALTIME
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }') $(wav_seconds "$work/half1.wav" "$work/half2.wav")"
  rm -f "$work/half1.wav" "$work/half2.wav"
}

# sentences_espeak_each: "wall-seconds audio-seconds" for two loops at once, each running one
# `espeak-ng -w` per sentence on its half's first $EACH sentences: what a service that wraps
# the espeak-ng command pays per request (a reference for context, not the target).
sentences_espeak_each() {
  sync
  local start=$EPOCHREALTIME half pids=()
  for half in 1 2; do
    (
      n=0
      head -n "$EACH" "$work/half$half.txt" | while IFS= read -r sentence; do
        n=$((n + 1))
        espeak-ng -v "$espeak_voice" -w "$work/each$half-$n.wav" "$sentence"
      done
    ) &
    pids+=($!)
  done
  wait "${pids[@]}"
  local end=$EPOCHREALTIME
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }') $(wav_seconds "$work"/each*.wav)"
  rm -f "$work"/each*.wav
}

# ---- Time to first byte ---------------------------------------------------------------------
# espeak_chunk FILE: wall seconds of `espeak-ng -w` on that text.
espeak_chunk() {
  local start=$EPOCHREALTIME
  espeak-ng -v "$espeak_voice" -w "$work/chunk.wav" -f "$1"
  local end=$EPOCHREALTIME
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }'
}
# service_ttfb BODY: "time_starttransfer http_code" of the streamed request.
service_ttfb() {
  curl -s -o "$work/ttfb.out" -w '%{time_starttransfer} %{http_code}\n' -H 'Content-Type: application/json' --data-binary @"$1" "$base/v1/audio/speech"
}

# ---- Setup: the book, once ------------------------------------------------------------------
start_service "$work/cache-setup"
upload=$(curl -sf -H 'Content-Type: application/epub+zip' --data-binary @"$book" "$base/v1/books?filename=$(basename "$book")")
book_id=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["id"])' "$upload")
curl -sf "$base/v1/books/$book_id/pages" >"$work/pages.json"
if [ -z "$page" ]; then
  page=$(python3 -c '
import json, sys
pages = json.load(open(sys.argv[1]))["pages"]
print(next((p["page"] for p in pages if p["words"] >= 250), pages[0]["page"]))' "$work/pages.json")
fi
page_words=$(python3 -c 'import json, sys; print(next(p["words"] for p in json.load(open(sys.argv[1]))["pages"] if p["page"] == sys.argv[2]))' "$work/pages.json" "$page")
page_path="/v1/books/$book_id/pages/$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$page")/audio"
# The same samples as espeak-ng? One sentence through the service and through espeak-ng -w.
probe=$(head -1 "$work/sentences.txt")
python3 -c 'import json, sys; print(json.dumps({"model": "tts-1", "input": sys.argv[1], "voice": sys.argv[2], "response_format": "wav"}))' "$probe" "$voice" >"$work/probe.json"
curl -sf -o "$work/probe-service.wav" -H 'Content-Type: application/json' --data-binary @"$work/probe.json" "$base/v1/audio/speech"
espeak-ng -v "$espeak_voice" -w "$work/probe-espeak.wav" "$probe"
same=$(python3 - "$work/probe-service.wav" "$work/probe-espeak.wav" <<'PY'
import sys, wave
def frames(path):
    with wave.open(path) as w:
        return w.getframerate(), w.readframes(w.getnframes())
print("yes" if frames(sys.argv[1]) == frames(sys.argv[2]) else "NO")
PY
)
stop_service
echo "Page $page of book $book_id ($page_words words): GET $page_path?format=…; the service's samples equal espeak-ng's: $same"
echo

# ---- Rounds ---------------------------------------------------------------------------------
: >"$work/pages.txt"      # round format bytes render-s nginx-rps nginx-p99 nginx-errors narrate-rps narrate-p99 narrate-errors
: >"$work/sentences-each.txt"    # round wall audio (espeak-ng once per sentence)
: >"$work/sentences-rounds.txt"  # round espeak-wall espeak-audio narrate-wall narrate-audio narrate-errors
: >"$work/ttfb.txt"       # round sample chunk-chars espeak-s narrate-s http-code
: >"$work/memory.txt"     # round service worker zygote child (KiB) others
: >"$work/memory-phases.txt"  # phase KiB phase KiB …: the service's VmHWM after each phase
for round in $(seq "$runs"); do
  echo "Round $round"
  rm -rf "$work/cache"
  start_service "$work/cache"
  start_sampler
  phases="start $(service_hwm)"

  # 1. Uncached distinct sentences.
  read -r espeak_wall espeak_audio < <(sentences_espeak)
  read -r each_wall each_audio < <(sentences_espeak_each)
  cpu_before=$(service_cpu)
  read -r narrate_wall narrate_audio narrate_errors < <(sentences_service)
  cpu_after=$(service_cpu)
  awk -v b="$cpu_before" -v a="$cpu_after" -v n="$(wc -l <"$work/sentences.txt")" 'BEGIN { printf "%.3f\n", (a - b) * 1000 / n }' >>"$work/sentences-cpu.txt"
  echo "$round $each_wall $each_audio" >>"$work/sentences-each.txt"
  printf '  sentences  2x espeak-ng %6.2f s, %8.1f audio s/s   narrate %6.2f s, %8.1f audio s/s (%s errors)\n' \
    "$espeak_wall" "$(awk -v a="$espeak_audio" -v w="$espeak_wall" 'BEGIN { print a / w }')" \
    "$narrate_wall" "$(awk -v a="$narrate_audio" -v w="$narrate_wall" 'BEGIN { print a / w }')" "$narrate_errors"
  echo "$round $espeak_wall $espeak_audio $narrate_wall $narrate_audio $narrate_errors" >>"$work/sentences-rounds.txt"
  phases+=" sentences $(service_hwm)"

  # 2. Time to first byte, uncached (a slice never asked for before), service idle.
  line="  first byte"
  for sample in $(seq "$ttfb_samples"); do
    name="$work/ttfb-$round-$sample"
    espeak_s=$(espeak_chunk "$name.chunk.txt")
    read -r narrate_s code < <(service_ttfb "$name.json")
    echo "$round $sample $(wc -c <"$name.chunk.txt") $espeak_s $narrate_s $code" >>"$work/ttfb.txt"
    line+=$(printf '   espeak-ng %.3f / narrate %.3f s' "$espeak_s" "$narrate_s")
    [ "$code" = 200 ] || line+=" (HTTP $code)"
  done
  echo "$line"
  phases+=" first-byte $(service_hwm)"

  # 3. Cached page audio: rendered once (timed), the same bytes from nginx, wrk on both. Last,
  # since it raises the service's peak most: the phases before it show their own.
  for format in $formats; do
    render=$(curl -s -o "$work/nginx/html/page.$format" -w '%{time_total} %{http_code}' "$base$page_path?format=$format")
    [ "${render#* }" = 200 ] || { echo "error: GET $page_path?format=$format gave ${render#* }" >&2; cat "$work/nginx/html/page.$format" >&2; exit 1; }
    chmod 644 "$work/nginx/html/page.$format"
    bytes=$(wc -c <"$work/nginx/html/page.$format")
    curl -sf -o "$work/again.$format" "$base$page_path?format=$format"
    curl -sf -o "$work/static.$format" "http://127.0.0.1:$nginx_port/page.$format"
    cmp -s "$work/again.$format" "$work/static.$format" || echo "  warning: nginx and narrate do not serve the same bytes for $format" >&2
    rm -f "$work/again.$format" "$work/static.$format"
    read -r nginx_rps nginx_p99 nginx_errors < <(wrk_run "http://127.0.0.1:$nginx_port/page.$format")
    read -r narrate_rps narrate_p99 narrate_errors < <(wrk_run "$base$page_path?format=$format")
    printf '  page %-4s %9s bytes (first render %5.2f s)   nginx %7s req/s p99 %7s ms   narrate %7s req/s p99 %7s ms%s\n' \
      "$format" "$bytes" "${render% *}" "$nginx_rps" "$nginx_p99" "$narrate_rps" "$narrate_p99" \
      "$([ "$nginx_errors$narrate_errors" = 00 ] || echo "   errors: nginx $nginx_errors, narrate $narrate_errors")"
    phases+=" page-$format $(service_hwm)"
    echo "$round $format $bytes ${render% *} $nginx_rps $nginx_p99 $nginx_errors $narrate_rps $narrate_p99 $narrate_errors" >>"$work/pages.txt"
  done

  # 4. Memory: the peaks of this round's service and its processes, before it stops.
  stop_sampler
  read -r service_kb worker_kb zygote_kb child_kb others <"$work/memory-round.txt"
  printf '  memory     narrate %.1f MiB; narrate-worker processes: worker %.1f, zygote %.1f, per-text child %.1f MiB%s\n' \
    "$(awk -v k="$service_kb" 'BEGIN { print k / 1024 }')" "$(awk -v k="$worker_kb" 'BEGIN { print k / 1024 }')" \
    "$(awk -v k="$zygote_kb" 'BEGIN { print k / 1024 }')" "$(awk -v k="$child_kb" 'BEGIN { print k / 1024 }')" \
    "$([ "$others" = - ] || awk -v list="$others" 'BEGIN { n = split(list, parts, ","); printf "; other children:"; for (i = 1; i <= n; i++) { split(parts[i], p, ":"); printf " %s %.1f MiB", p[1], p[2] / 1024 } }')"
  echo "             narrate's peak after each phase: $(awk '{ for (i = 1; i < NF; i += 2) printf "%s%s %.1f", (i > 1 ? ", " : ""), $i, $(i + 1) / 1024; print " MiB" }' <<<"$phases")"
  echo "$round $service_kb $worker_kb $zygote_kb $child_kb $others" >>"$work/memory.txt"
  echo "$phases" >>"$work/memory-phases.txt"
  stop_service
done

# ---- Summary --------------------------------------------------------------------------------
python3 - "$work" "$workers" "$cores" "$connections" <<'PY'
import statistics, sys
work, workers, cores, connections = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
median = statistics.median
def verdict(ok): return "ok" if ok else "MISSED"
def rows(name): return [line.split() for line in open(f"{work}/{name}") if line.strip()]
print()
pages = rows("pages.txt")
for fmt in dict.fromkeys(row[1] for row in pages):
    mine = [row for row in pages if row[1] == fmt]
    share = median(float(r[7]) / float(r[4]) for r in mine if float(r[4]) > 0)
    p99 = median(float(r[8]) for r in mine)
    nginx_p99 = median(float(r[5]) for r in mine)
    errors = sum(int(r[6]) + int(r[9]) for r in mine)
    print(f"cached page ({fmt}, {mine[0][2]} bytes): narrate / nginx req/s = {share:.2f}   (median round; target >= 0.50: {verdict(share >= 0.5)})")
    print(f"    narrate {median(float(r[7]) for r in mine):.0f} req/s, nginx {median(float(r[4]) for r in mine):.0f} req/s; "
          f"p99 narrate {p99:.2f} ms (target <= 10: {verdict(p99 <= 10)}), nginx {nginx_p99:.2f} ms"
          + (f"; {errors} errors" if errors else ""))
    print(f"    first render of the page {median(float(r[3]) for r in mine):.2f} s")
sentences = rows("sentences-rounds.txt")
share = median((float(r[4]) / float(r[3])) / (float(r[2]) / float(r[1])) for r in sentences)
errors = sum(int(r[5]) for r in sentences)
print(f"uncached sentences: narrate / 2x espeak-ng audio s per s = {share:.2f}   (median round; target >= 0.90: {verdict(share >= 0.9)})")
each = rows("sentences-each.txt")
each_rate = median(float(r[2]) / float(r[1]) for r in each)
print(f"    for context: 2x espeak-ng run once per sentence (as a wrapper of the command would) {each_rate:.1f} audio s/s; "
      f"narrate / that = {median(float(r[4]) / float(r[3]) for r in sentences) / each_rate:.2f}")
print(f"    narrate {median(float(r[4]) / float(r[3]) for r in sentences):.1f} audio s/s ({workers} clients, {workers} workers), "
      f"2x espeak-ng {median(float(r[2]) / float(r[1]) for r in sentences):.1f}; audio: narrate {median(float(r[4]) for r in sentences):.0f} s, espeak-ng {median(float(r[2]) for r in sentences):.0f} s"
      + (f"; {errors} failed requests" if errors else ""))
cpu = [float(line) for line in open(f"{work}/sentences-cpu.txt")]
print(f"    CPU of the service process per uncached sentence: {median(cpu):.2f} ms (median round; its own threads, not the workers')")
ttfb = rows("ttfb.txt")
good = [r for r in ttfb if r[5] == "200"]
ratio = median(float(r[4]) / float(r[3]) for r in good) if good else float("nan")
print(f"first byte of 4,000 characters: narrate / espeak-ng first chunk = {ratio:.2f}   (median sample; target <= 1.20: {verdict(ratio <= 1.2)})")
if good:
    print(f"    narrate {median(float(r[4]) for r in good) * 1000:.0f} ms, espeak-ng on the first chunk ({statistics.median_low(int(r[2]) for r in good)} bytes) {median(float(r[3]) for r in good) * 1000:.0f} ms"
          + (f"; {len(ttfb) - len(good)} requests failed" if len(good) < len(ttfb) else ""))
memory = rows("memory.txt")
service = max(int(r[1]) for r in memory) / 1024
worker = max(max(int(r[2]), int(r[3]), int(r[4])) for r in memory) / 1024
print(f"peak memory: narrate {service:.1f} MiB (target <= 64: {verdict(service <= 64)}), "
      f"each narrate-worker process at most {worker:.1f} MiB (target <= 40: {verdict(worker <= 40)})")
phases = {}
for line in open(f"{work}/memory-phases.txt"):
    fields = line.split()
    for name, kb in zip(fields[::2], fields[1::2]):
        phases[name] = max(phases.get(name, 0), int(kb))
print("    narrate's peak after each phase (highest round): " + ", ".join(f"{name} {kb / 1024:.1f}" for name, kb in phases.items()) + " MiB")
others = {}
for r in memory:
    for entry in (r[5].split(",") if r[5] != "-" else []):
        name, kb = entry.rsplit(":", 1)
        others[name] = max(others.get(name, 0), int(kb))
print(f"    worker {max(int(r[2]) for r in memory) / 1024:.1f}, zygote {max(int(r[3]) for r in memory) / 1024:.1f}, "
      f"per-text child (when caught) {max(int(r[4]) for r in memory) / 1024:.1f} MiB"
      + "".join(f"; {name} (not a worker) {kb / 1024:.1f} MiB" for name, kb in sorted(others.items())))
PY
