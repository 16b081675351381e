"""Audio: with noise_scale = noise_w = 0, Narrate's samples equal piper-tts's for the same
phoneme ids (within 1 LSB); with the voice's own scales, the same text gives the same samples
in three processes on a cold cache, and with --jobs 1 and --jobs 2."""

from __future__ import annotations

import hashlib

import numpy as np

from piper_support import CORPUS, VOICE, our_sentences, reference_audio, run_narrate, samples

TEXTS = [
    "Call me Ishmael. Some years ago, never mind how long precisely, having little or no money in my purse, I thought I would sail about a little.",
    "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife!",
    "Numbers: 1, 2, 3; and 3.14159. Is that all? Yes: that is all.",
]


def test_without_noise_the_samples_equal_piper_tts_for_the_same_ids(voices, reference, tmp_path):
    for index, text in enumerate(TEXTS):
        # Given our phoneme ids for the text, and piper-tts's audio for exactly those ids
        sentences = our_sentences(text, voices, voice="joe-flat")
        expected = np.concatenate([reference_audio(reference, sentence["ids"], 0.0, 0.0) for sentence in sentences])
        # When Narrate speaks the text with the same voice and no noise
        output = tmp_path / f"flat-{index}.wav"
        run_narrate(["say", text, "--voice", "joe-flat", "-o", str(output), "-q"], voices, cache=tmp_path / f"cache-{index}")
        ours = samples(output.read_bytes())
        # Then the samples are piper's, within 1 LSB
        assert len(ours) == len(expected), f"{len(ours)} samples against piper's {len(expected)}"
        assert int(np.max(np.abs(ours - expected))) <= 1, f"differ by up to {int(np.max(np.abs(ours - expected)))}"


def test_the_same_text_gives_the_same_samples_in_three_processes_on_a_cold_cache(voices, tmp_path):
    text = TEXTS[0]
    digests = set()
    for run in range(3):
        output = tmp_path / f"run-{run}.wav"
        run_narrate(["say", text, "--voice", VOICE, "-o", str(output), "-q"], voices, cache=tmp_path / f"cache-{run}")
        digests.add(hashlib.sha256(output.read_bytes()).hexdigest())
    assert len(digests) == 1, "three processes spoke the same text differently"


def test_jobs_1_and_jobs_2_give_the_same_samples(voices, tmp_path):
    # Given a text of several chunks
    text = " ".join(TEXTS * 4)
    outputs = []
    for jobs in (1, 2):
        output = tmp_path / f"jobs-{jobs}.wav"
        run_narrate(["say", text, "--voice", VOICE, "--jobs", str(jobs), "-o", str(output), "-q"], voices, cache=tmp_path / f"cache-{jobs}")
        outputs.append(output.read_bytes())
    assert outputs[0] == outputs[1]
    assert len(samples(outputs[0])) > 22050 * 20


def test_the_audio_is_at_the_voice_rate_and_a_cache_hit_gives_it_back(voices, tmp_path):
    cache = tmp_path / "cache"
    first, second = tmp_path / "first.wav", tmp_path / "second.wav"
    run_narrate(["say", TEXTS[1], "--voice", VOICE, "-o", str(first), "-q"], voices, cache=cache)
    run_narrate(["say", TEXTS[1], "--voice", VOICE, "-o", str(second), "-q"], voices, cache=cache)
    assert first.read_bytes() == second.read_bytes()
    from piper_support import parse_wav
    wav = parse_wav(first.read_bytes())
    assert (wav.rate, wav.channels, wav.bits) == (22050, 1, 16)
    assert np.max(np.abs(samples(first.read_bytes()))) > 10000, "speech, not silence"


def test_a_book_page_and_its_subtitles_with_a_piper_voice(voices, tmp_path):
    book = CORPUS / "epub" / "moby-dick.epub"
    output = tmp_path / "page.wav"
    result = run_narrate(["page", str(book), "1", "--voice", VOICE, "-o", str(output)], voices, cache=tmp_path / "cache",
                         env={"NARRATE_LIBRARY": str(tmp_path / "library.sqlite")})
    assert output.exists() and len(samples(output.read_bytes())) > 22050, result.stderr


def test_two_settings_of_one_voice_sharing_a_cache_are_kept_apart(voices, tmp_path):
    # Given one cache, the voice with its own scales and the preset without noise
    cache = tmp_path / "cache"
    outputs = {}
    for voice in (VOICE, "joe-flat", VOICE):
        output = tmp_path / f"{voice}-{len(outputs)}.wav"
        run_narrate(["say", TEXTS[2], "--voice", voice, "-o", str(output), "-q"], voices, cache=cache)
        outputs.setdefault(voice, []).append(output.read_bytes())
    # Then each setting has its own entry: the noisy voice is not served the flat one's audio
    assert outputs[VOICE][0] == outputs[VOICE][1]
    assert outputs[VOICE][0] != outputs["joe-flat"][0]


def test_a_text_after_another_in_the_same_worker_is_what_it_is_alone(voices, tmp_path):
    # A Piper voice is spoken by its zygote's warm session, text after text (no child per
    # chunk); its noise is stateless, so what came before changes nothing.
    alone, after = tmp_path / "alone.wav", tmp_path / "after.wav"
    last = "And then this one, with the voice's own noise."
    run_narrate(["say", last, "--voice", VOICE, "-o", str(alone), "-q", "--no-cache"], voices)
    run_narrate(["say", f"{TEXTS[0]}\n\n{TEXTS[1]}\n\n{last}", "--voice", VOICE, "--jobs", "1", "-o", str(after), "-q", "--no-cache"], voices)
    alone_samples, after_samples = samples(alone.read_bytes()), samples(after.read_bytes())
    assert len(after_samples) > len(alone_samples)
    assert np.array_equal(after_samples[-len(alone_samples):], alone_samples)
