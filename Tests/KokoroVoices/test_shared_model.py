"""A pool's workers share one loaded Kokoro model: their zygotes are forked from one template
process that loaded it, kept by the pool's hub (`narrate-worker --hub`, hub.c), so ONNX Runtime's
graph and prepacked weights are in memory once, not once per worker. A killed worker takes its
own zygote with it at once and no other: the hub belongs to the pool, not to a worker, and the
service goes on speaking the same samples after every worker was killed."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

from openai import OpenAI

from kokoro_support import VOICE, parse_wav, run_narrate
from narrate_service import start_server
from voice_suite import children, is_hub

TEXTS = ["The first worker reads this sentence.", "The second worker reads another one."]


def descendants(pid: int) -> list[int]:
    found = []
    for kid in children(pid):
        found += [kid] + descendants(kid)
    return found


def maps_the_model(pid: int) -> bool:
    return any(line.rstrip().endswith(".ort") for line in open(f"/proc/{pid}/maps"))


def parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def kib(pid: int, field: str) -> int:
    return sum(int(line.split()[1]) for line in open(f"/proc/{pid}/smaps_rollup") if line.startswith(field + ":"))


def output_pipe(pid: int) -> str:
    return os.readlink(f"/proc/{pid}/fd/1")


def speak_at_once(server, texts: list[str]) -> list[bytes]:
    """Each text in its own request, all at once (the pool gives each an idle worker)."""
    client = OpenAI(base_url=server.v1, api_key="unused", max_retries=0, timeout=600)
    answers: list[bytes] = [b""] * len(texts)

    def speak(index: int):
        answers[index] = client.audio.speech.create(model="tts-1", voice=VOICE, input=texts[index], response_format="wav").content

    threads = [threading.Thread(target=speak, args=(index,)) for index in range(len(texts))]
    [thread.start() for thread in threads]
    [thread.join() for thread in threads]
    return answers


def alive(pid: int) -> bool:
    return os.path.exists(f"/proc/{pid}") and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


def engine_processes(server_pid: int) -> tuple[list[int], int, list[int]]:
    """The workers, the template (the one process holding the model whose children hold it too)
    and the zygotes (its children)."""
    hubs = [pid for pid in children(server_pid) if is_hub(pid)]
    assert len(hubs) == 1, "the pool has one hub"
    workers = [pid for pid in children(server_pid) if pid not in hubs]
    holding = [pid for pid in descendants(server_pid) if maps_the_model(pid)]
    templates = [pid for pid in holding if parent(pid) not in holding]
    assert len(templates) == 1, f"one process should hold the loaded model for the zygotes to share: {holding}"
    zygotes = [pid for pid in holding if parent(pid) == templates[0]]
    assert parent(templates[0]) == hubs[0], "the template is the hub's"
    return workers, templates[0], zygotes


def fresh(text: str, voices: Path, tmp_path: Path) -> bytes:
    output = tmp_path / "fresh.wav"
    run_narrate(["say", text, "--voice", VOICE, "-o", str(output), "-q", "--no-cache"], voices)
    return parse_wav(output.read_bytes()).pcm


def test_the_workers_zygotes_share_one_loaded_model(voices, tmp_path):
    os.environ["NARRATE_VOICES_DIR"] = str(voices)
    try:
        with start_server(tmp_path / "serve", workers=2) as server:
            # Given two workers that each spoke a text
            answers = speak_at_once(server, TEXTS)
            # When their processes are looked at
            workers, template, zygotes = engine_processes(server.process.pid)
            # Then both workers' zygotes are children of the one template, one per worker
            assert len(workers) == 2 and len(zygotes) == 2, (workers, zygotes)
            assert sorted(output_pipe(zygote) for zygote in zygotes) == sorted(output_pipe(worker) for worker in workers)
            # and the loaded model's memory is the template's, shared: not a copy per zygote
            for zygote in zygotes:
                assert kib(zygote, "Shared_Dirty") > 30 * 1024, f"zygote {zygote} shares little with the template"
            # and each spoke what a fresh process speaks
            for text, answer in zip(TEXTS, answers):
                assert parse_wav(answer).pcm == fresh(text, voices, tmp_path)
    finally:
        os.environ.pop("NARRATE_VOICES_DIR", None)


def test_a_killed_worker_takes_its_zygote_and_the_service_speaks_on(voices, tmp_path):
    os.environ["NARRATE_VOICES_DIR"] = str(voices)
    try:
        with start_server(tmp_path / "serve", workers=2) as server:
            # Given two workers sharing a template
            speak_at_once(server, TEXTS)
            workers, template, zygotes = engine_processes(server.process.pid)
            killed, other = workers
            killed_zygote = next(zygote for zygote in zygotes if output_pipe(zygote) == output_pipe(killed))
            others_zygote = next(zygote for zygote in zygotes if output_pipe(zygote) == output_pipe(other))
            # When one worker is killed
            os.kill(killed, signal.SIGKILL)
            # Then its zygote (a child of the template, not of that worker) ends at once
            deadline = time.monotonic() + 60  # a watchdog: it ends as soon as the template sees the worker's pidfd
            while alive(killed_zygote):
                assert time.monotonic() < deadline, "the killed worker's zygote lived on"
                time.sleep(0.05)
            # and the other worker's zygote and the template live on (no worker owns the hub)
            assert alive(others_zygote) and alive(template), "the other worker's zygote died with the killed worker"
            # When the other worker is killed too
            os.kill(other, signal.SIGKILL)
            # Then the next texts are spoken by new workers, as a fresh process speaks them
            texts = ["After the workers were killed, this.", "And this one, beside it."]
            for text, answer in zip(texts, speak_at_once(server, texts)):
                assert parse_wav(answer).pcm == fresh(text, voices, tmp_path)
            workers, template, zygotes = engine_processes(server.process.pid)
            assert killed not in workers and other not in workers
    finally:
        os.environ.pop("NARRATE_VOICES_DIR", None)
