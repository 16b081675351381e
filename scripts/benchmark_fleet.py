"""scripts/benchmark-fleet.sh's measurements (see there)."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Fleet"))
from seaweed import ACCESS_KEY, BUCKET, REGION, SECRET_KEY, seaweed  # noqa: E402

NARRATE = os.environ["NARRATE_BIN"]
RUNS = int(os.environ.get("RUNS", "3"))
SAMPLES = int(os.environ.get("SAMPLES", "100"))
BOOK = ROOT.parent / "shared" / "corpus" / "epub" / "childrens-literature.epub"
CHAPTERS = "1-3"
# narrate book's default format first, then WAV: an MP3 export encodes every chunk, a WAV export
# copies them in the kernel, so WAV is where the store's transfer weighs most.
FORMATS = os.environ.get("FORMATS", "mp3 wav").split()
SAY_TEXT = (ROOT.parent / "shared" / "corpus" / "SOURCES.md").read_text(encoding="utf-8")[:2000]


def machine_env(root: Path, s3, prefix: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "NARRATE_"))}
    env.update(HOME=str(root), NARRATE_CACHE_DIR=str(root / "cache"), NARRATE_LIBRARY=str(root / "library.sqlite"))
    if prefix is not None:
        env.update(NARRATE_CACHE_STORE=f"s3://{BUCKET}/{prefix}", AWS_ENDPOINT_URL=s3.endpoint, AWS_REGION=REGION,
                   AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY)
    return env


CPU: dict = {}


def process_cpu(pid: int) -> float:
    """Seconds of CPU a process (and its waited-for children) used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def timed(argv: list[str], env: dict, weed_pid: int | None = None) -> float:
    """Wall seconds of the command; its CPU seconds (and the store's meanwhile) land in CPU."""
    before = os.times()
    weed_before = process_cpu(weed_pid) if weed_pid else 0.0
    start = time.perf_counter()
    result = subprocess.run(argv, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = os.times()
    CPU["narrate"] = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    CPU["store"] = process_cpu(weed_pid) - weed_before if weed_pid else 0.0
    if result.returncode != 0:
        sys.exit(f"{argv[:3]} failed: {result.stderr}")
    return elapsed


def say(env: dict, out: Path) -> list[str]:
    return [NARRATE, "say", SAY_TEXT, "--voice", "en-us", "-o", str(out), "--quiet"]


def book(out: Path, fmt: str, *extra: str) -> list[str]:
    return [NARRATE, "book", str(BOOK), "--chapters", CHAPTERS, "-o", str(out), "--format", fmt, "--split", "chapter",
            "--voice", "en-us", "--quiet", *extra]


def curl_get(s3, key: str) -> float:
    """The store's own GET of an object, signed as the AWS CLI would (curl --aws-sigv4)."""
    start = time.perf_counter()
    subprocess.run(["curl", "-sf", "-o", "/dev/null", "--aws-sigv4", f"aws:amz:{REGION}:s3", "--user", f"{ACCESS_KEY}:{SECRET_KEY}",
                    s3.url(key)], check=True)
    return time.perf_counter() - start


def verdict(ratio: float, target: float) -> str:
    return f"{ratio:.2f}x (target <= {target}x: {'met' if ratio <= target else 'MISSED'})"


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="narrate-fleet-bench-"))
    try:
        with seaweed(work / "weed") as s3:
            rounds: dict[str, list[float]] = {}

            def add(name: str, value: float) -> None:
                rounds.setdefault(name, []).append(value)

            weed = s3.process.pid
            for round_index in range(RUNS):
                base = work / f"round{round_index}"
                prefix = f"bench{round_index}"
                # 1. say: a local hit; the same from the store with an empty local tier; curl's GET
                writer = machine_env(base / "writer", s3, prefix)
                timed(say(writer, base / "w.wav"), writer)
                add("say_local", timed(say(writer, base / "w2.wav"), writer))
                reader = machine_env(base / "reader", s3, prefix)
                add("say_store", timed(say(reader, base / "r.wav"), reader))
                keys = [p.name for p in (base / "writer" / "cache" / "objects").rglob("*") if p.is_file() and len(p.name) == 64]
                add("get", sum(curl_get(s3, f"{prefix}/{k[:2]}/{k}") for k in keys))
                for fmt in FORMATS:
                    fbase, fprefix = base / fmt, f"{prefix}-{fmt}"
                    # 2. a cold export with the store, and without
                    with_store = machine_env(fbase / "export-store", s3, fprefix + "-export")
                    add(f"export_store_{fmt}", timed(book(fbase / "out-store", fmt), with_store, weed))
                    add(f"export_store_cpu_{fmt}", CPU["narrate"])
                    add(f"export_weed_cpu_{fmt}", CPU["store"])
                    plain = machine_env(fbase / "export-plain", s3, None)
                    add(f"export_plain_{fmt}", timed(book(fbase / "out-plain", fmt), plain))
                    add(f"export_plain_cpu_{fmt}", CPU["narrate"])
                    # 3. three shards, then the assembly on an empty machine; a warm local re-run
                    for index in (1, 2, 3):
                        shard = machine_env(fbase / f"shard{index}", s3, fprefix + "-shards")
                        timed(book(fbase / f"part{index}", fmt, "--shard", f"{index}/3"), shard)
                    book_keys = [key for f in json.loads((fbase / "out-plain" / "manifest.json").read_text())["files"] for key in f["cacheKeys"]]
                    add("book_get", sum(curl_get(s3, f"{fprefix}-shards/{k[:2]}/{k}") for k in book_keys))
                    assembler = machine_env(fbase / "assembler", s3, fprefix + "-shards")
                    add(f"assemble_{fmt}", timed(book(fbase / "assembled", fmt), assembler))
                    shutil.rmtree(fbase / "out-plain")
                    add(f"rerun_{fmt}", timed(book(fbase / "out-plain", fmt), plain))
                print(f"round {round_index + 1}: " + ", ".join(f"{k} {v[-1]:.3f}s" for k, v in rounds.items()), file=sys.stderr)

            m = {k: statistics.median(v) for k, v in rounds.items()}
            print(f"1. say from the store (empty local tier): {m['say_store']*1000:.0f} ms; local hit {m['say_local']*1000:.0f} ms + "
                  f"store GET {m['get']*1000:.0f} ms → {verdict(m['say_store'] / (m['say_local'] + m['get']), 2.0)}")
            for fmt in FORMATS:
                print(f"2. book export as {fmt}, store on: {m[f'export_store_{fmt}']:.2f} s; without: {m[f'export_plain_{fmt}']:.2f} s → "
                      f"{verdict(m[f'export_store_{fmt}'] / m[f'export_plain_{fmt}'], 1.05)}\n"
                      f"   CPU: narrate {m[f'export_store_cpu_{fmt}']:.2f} s with the store, {m[f'export_plain_cpu_{fmt}']:.2f} s without; "
                      f"the store's server (on this machine) {m[f'export_weed_cpu_{fmt}']:.2f} s meanwhile")
            for fmt in FORMATS:
                print(f"3. assembly of 3 shards from the store as {fmt}: {m[f'assemble_{fmt}']:.2f} s; warm local re-run: {m[f'rerun_{fmt}']:.2f} s → "
                      f"{verdict(m[f'assemble_{fmt}'] / m[f'rerun_{fmt}'], 1.2)}")
            print(f"   the store's own GETs of the book's {len(book_keys)} objects, one after another (curl): {m['book_get']:.2f} s")
            pinned(s3, work)
            replicas(s3, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def pinned(s3, work: Path) -> None:
    """2 and 3 again with the store's server on a core of its own and narrate on the other, as a
    store on another machine would be: the store tier's own cost, not its server's."""
    if os.cpu_count() < 2 or not shutil.which("taskset"):
        return
    subprocess.run(["taskset", "-a", "-p", "-c", "1", str(s3.process.pid)], check=True, capture_output=True)
    one_core = lambda argv: ["taskset", "-c", "0", *argv]  # noqa: E731
    try:
        ratios: dict[str, list[tuple[float, float]]] = {}
        for round_index in range(RUNS):
            for fmt in FORMATS:
                base = work / f"pinned{round_index}" / fmt
                prefix = f"pinned{round_index}-{fmt}"
                with_store = machine_env(base / "store", s3, prefix)
                exported = timed(one_core(book(base / "out-store", fmt)), with_store)
                without = machine_env(base / "plain", s3, None)
                plain = timed(one_core(book(base / "out-plain", fmt)), without)
                ratios.setdefault(f"export_{fmt}", []).append((exported, plain))
                # The store now holds the book: an empty machine assembles it, against a warm re-run.
                assembled = timed(one_core(book(base / "assembled", fmt)), machine_env(base / "assembler", s3, prefix))
                shutil.rmtree(base / "out-plain")
                rerun = timed(one_core(book(base / "out-plain", fmt)), without)
                ratios.setdefault(f"assemble_{fmt}", []).append((assembled, rerun))
        measures = [(f"{name}_{fmt}", f"{label} as {fmt}", target) for name, label, target in
                    (("export", "2b. book export, store on / off", 1.05), ("assemble", "3b. assembly from the store / warm local re-run", 1.2))
                    for fmt in FORMATS]
        for name, label, target in measures:
            pairs = ratios[name]
            ratio = statistics.median(a / b for a, b in pairs)
            print(f"{label}, narrate on one core and the store's server on the other: "
                  f"{statistics.median(a for a, _ in pairs):.2f} s / {statistics.median(b for _, b in pairs):.2f} s → {verdict(ratio, target)}")
    finally:
        subprocess.run(["taskset", "-a", "-p", "-c", f"0-{os.cpu_count() - 1}", str(s3.process.pid)], capture_output=True)


def serve(env: dict) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([NARRATE, "serve", "--port", "0", "--no-web", "--quiet"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    return process, line[line.index("http://"):].split()[0].rstrip(".,")


def post(base: str, text: str) -> float:
    body = json.dumps({"model": "tts-1", "input": text, "voice": "en-us", "response_format": "wav"}).encode()
    request = urllib.request.Request(base + "/v1/audio/speech", data=body, headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        response.read()
    return time.perf_counter() - start


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def replicas(s3, work: Path) -> None:
    first, first_url = serve(machine_env(work / "replica1", s3, "replicas"))
    second, second_url = serve(machine_env(work / "replica2", s3, "replicas"))
    try:
        sentences = [f"Sentence number {i} of the replica benchmark, spoken once and shared." for i in range(SAMPLES)]
        for text in sentences:
            post(first_url, text)
        time.sleep(2)  # the uploads land
        store_hits = [post(second_url, text) for text in sentences]
        local_hits = [post(second_url, text) for text in sentences]
        print(f"4. a sentence through serve, p50 / p99: from the store on a second replica "
              f"{percentile(store_hits, 50)*1000:.1f} / {percentile(store_hits, 99)*1000:.1f} ms; local hit "
              f"{percentile(local_hits, 50)*1000:.1f} / {percentile(local_hits, 99)*1000:.1f} ms")
    finally:
        for process in (first, second):
            process.terminate()
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
