"""Audio: Narrate's samples against kokoro-onnx's `Kokoro.create` for the same text, style and
speed (within 1 LSB after both are made 16-bit the same way), blends against the weighted mean
of the packs computed with numpy, and the same samples in every process and with any --jobs.

Narrate adds the pause its last batch's mark asks for after the last batch too (kokoro-onnx adds
it between batches only), so that a chunk joins the next one as batches join: the reference's
audio is compared with that pause appended."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from kokoro_onnx.chunker import pause_after

from kokoro_support import VOICE, our_batches, run_narrate, samples, styles, to_pcm

TEXTS = [
    "Hello there, and welcome to the reading room.",
    'She said "not now" (quite firmly); then, after a pause, she smiled.',
    # One sentence longer than a batch: two batches, trimmed and joined with the reference's pause.
    "When the long evening finally settled over the quiet valley, and the last of the travellers, weary from the road, "
    "had found their beds in the crowded inn beside the river, the old innkeeper, who had seen a great many such nights, "
    "sat alone by the dying fire, counting the coins in his worn leather purse, listening to the wind in the chimney, "
    "and wondering, as he always did at that hour, whether the morning would bring rain, or sun, or more travellers still, "
    "and whether any of them would stay long enough to hear the stories he had kept for forty years",
]


def spoken(text: str, voices) -> str:
    return our_batches(text, voices)[0]["text"]


def ours(text: str, voices, tmp_path, voice: str = VOICE, extra: list[str] | None = None) -> np.ndarray:
    output = tmp_path / "ours.wav"
    run_narrate(["say", text, "--voice", voice, "-o", str(output), "-q", "--no-cache", *(extra or [])], voices)
    return samples(output.read_bytes())


def create(kokoro, text: str, style, speed: float = 1.0) -> np.ndarray:
    """kokoro-onnx's audio for the text, 16-bit, with the pause after its last batch."""
    audio, rate = kokoro.create(text, voice=style, speed=speed, lang="en-us")
    assert rate == 24000
    _, _, batches = kokoro._prepare(text, style, speed, "en-us", False, 0.25, 0.1)
    pause = int(pause_after(batches[-1][0], 0.25, 0.1) * 24000)
    return np.concatenate([to_pcm(audio), np.zeros(pause, dtype="<i2")])


def assert_close(ours_pcm: np.ndarray, theirs: np.ndarray):
    assert len(ours_pcm) == len(theirs), f"{len(ours_pcm)} samples, the reference {len(theirs)}"
    difference = np.abs(ours_pcm.astype(int) - theirs.astype(int))
    assert difference.max(initial=0) <= 1, f"samples differ by up to {difference.max()} ({(difference > 1).sum()} above 1 LSB)"


@pytest.mark.parametrize("text", TEXTS, ids=["short", "punctuated", "two-batches"])
def test_our_samples_equal_kokoro_create(text, voices, kokoro, tmp_path):
    text = spoken(text, voices)
    assert_close(ours(text, voices, tmp_path), create(kokoro, text, styles()[VOICE]))


def test_the_long_sentence_takes_two_batches(voices):
    assert len(our_batches(TEXTS[2], voices)) == 2


def test_rate_is_kokoros_speed(voices, kokoro, tmp_path):
    text = spoken(TEXTS[0], voices)
    assert_close(ours(text, voices, tmp_path, extra=["--rate", "262"]), create(kokoro, text, styles()[VOICE], speed=262 / 175))


@pytest.mark.parametrize("name", ["af_alpha:0.6+am_kumo:0.4", "af_alpha(3)+am_kumo(2)"])
def test_a_blend_is_the_weighted_mean_of_its_packs(name, voices, kokoro, tmp_path):
    packs = styles()
    style = (np.float32(0.6) * packs["af_alpha"] + np.float32(0.4) * packs["am_kumo"]).astype(np.float32)
    text = spoken(TEXTS[1], voices)
    assert_close(ours(text, voices, tmp_path, voice=name), create(kokoro, text, style))


def test_a_blend_other_weights_is_other_audio(voices, tmp_path):
    a = ours(TEXTS[0], voices, tmp_path, voice="af_alpha:0.6+am_kumo:0.4")
    b = ours(TEXTS[0], voices, tmp_path, voice="af_alpha:0.4+am_kumo:0.6")
    assert len(a) != len(b) or not np.array_equal(a, b)


def test_the_first_sentence_is_a_chunk_alone_and_the_others_share_a_batch(voices, kokoro, tmp_path):
    """The first sentence is a chunk of its own (its audio comes sooner); the sentences after it
    are one chunk, which the engine speaks as kokoro-onnx speaks a text: in one batch here (they
    are under 510 tokens), so the model makes one run's silence, not one per sentence."""
    first, second, third = "The first sentence is short.", "The second one, with a comma, is a little longer!", "And a third one ends it."
    output = tmp_path / "three.wav"
    run_narrate(["say", f"{first} {second} {third}", "--voice", VOICE, "-o", str(output), "-q", "--no-cache"], voices)
    expected = np.concatenate([create(kokoro, first, styles()[VOICE]), create(kokoro, f"{second} {third}", styles()[VOICE])])
    assert_close(samples(output.read_bytes()), expected)


def test_the_same_text_gives_the_same_samples_in_every_process_and_with_any_jobs(voices, tmp_path):
    text = "The first sentence is here. " + TEXTS[1] + " And one more sentence makes three chunks, at least."
    digests = set()
    for run, jobs in enumerate(["1", "2"]):
        cache = tmp_path / f"cold-cache-{run}"
        output = tmp_path / f"run-{run}.wav"
        run_narrate(["say", text, "--voice", VOICE, "-o", str(output), "-q", "--jobs", jobs], voices, cache=cache)
        digests.add(hashlib.sha256(samples(output.read_bytes()).tobytes()).hexdigest())
    assert len(digests) == 1, "two processes on cold caches (one worker, two) gave different audio"


def test_a_cached_kokoro_chunk_is_a_hit_the_second_time(voices, tmp_path):
    cache = tmp_path / "cache"
    first = run_narrate(["say", TEXTS[0], "--voice", VOICE, "-o", str(tmp_path / "a.wav"), "-v"], voices, cache=cache)
    second = run_narrate(["say", TEXTS[0], "--voice", VOICE, "-o", str(tmp_path / "b.wav"), "-v"], voices, cache=cache)
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "b.wav").read_bytes()
    assert "hit" in second.stderr.lower(), second.stderr
    other = run_narrate(["say", TEXTS[0], "--voice", "af_alpha:0.5+am_kumo:0.5", "-o", str(tmp_path / "c.wav"), "-v"], voices, cache=cache)
    assert "miss" in other.stderr.lower(), "a blend is its own voice in the cache"
