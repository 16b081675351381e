"""Bad input with a Piper voice: each is one clear line, a non-zero exit (not a crash of
Narrate), and nothing cached."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from piper_support import VOICE, run_narrate, voice_files
from voice_suite import cache_entries, crash_once_costs_nothing, refused


def broken_voice(tmp_path: Path, name: str, model: bytes | None = None, config: str | None = None) -> Path:
    """A voice folder holding one voice `name` with the model and config given (else joe's)."""
    folder = tmp_path / "broken-voices"
    folder.mkdir(exist_ok=True)
    real_model, real_config = voice_files()
    (folder / f"{name}.onnx").write_bytes(model if model is not None else real_model.read_bytes())
    (folder / f"{name}.onnx.json").write_text(config if config is not None else real_config.read_text())
    return folder


def say(voice: str, text: str = "Hello there. How are you?") -> list[str]:
    return ["say", text, "--voice", voice, "-o", "/dev/null", "-q"]


def test_no_onnx_runtime_says_how_to_install_it(voices, tmp_path):
    line = refused(say(VOICE), voices, tmp_path, env={"NARRATE_ONNXRUNTIME": str(tmp_path / "missing" / "libonnxruntime.so")})
    assert "ONNX Runtime could not be loaded from NARRATE_ONNXRUNTIME" in line, line


def test_a_truncated_model(tmp_path):
    model = voice_files()[0].read_bytes()
    folder = broken_voice(tmp_path, "truncated", model=model[: len(model) // 2])
    line = refused(say("truncated"), folder, tmp_path)
    assert "not a valid ONNX file (truncated or corrupt)" in line, line


def test_a_model_of_random_bytes(tmp_path):
    folder = broken_voice(tmp_path, "garbage", model=os.urandom(200_000))
    line = refused(say("garbage"), folder, tmp_path)
    assert "garbage" in line and ("not a valid ONNX file" in line or "ONNX Runtime cannot load" in line), line


def test_a_configuration_that_is_not_json(tmp_path):
    folder = broken_voice(tmp_path, "notjson", config="this is { not json")
    # A broken configuration hides the voice from the listing, so it is named by path.
    line = refused(say(str(folder / "notjson.onnx")), folder, tmp_path)
    assert "is not a Piper voice's JSON" in line, line


def test_a_configuration_without_phoneme_id_map(tmp_path):
    config = json.loads(voice_files()[1].read_text())
    del config["phoneme_id_map"]
    folder = broken_voice(tmp_path, "nomap", config=json.dumps(config))
    line = refused(say(str(folder / "nomap.onnx")), folder, tmp_path)
    assert "lacks phoneme_id_map" in line, line


def test_a_model_whose_inputs_are_not_pipers(tmp_path):
    import onnxruntime

    sigmoid = Path(onnxruntime.__file__).parent / "datasets" / "sigmoid.onnx"
    folder = broken_voice(tmp_path, "sigmoid", model=sigmoid.read_bytes())
    line = refused(say("sigmoid"), folder, tmp_path)
    assert "does not take a Piper voice's inputs" in line, line


def test_a_speaker_out_of_range(tmp_path):
    folder = broken_voice(tmp_path, "joe")
    (folder / "joe-speaker-3.json").write_text(json.dumps({"name": "joe-speaker-3", "voice": "en-us", "piper": {"model": "joe", "speaker": 3}}))
    line = refused(say("joe-speaker-3"), folder, tmp_path)
    assert "speaker 3 is out of range" in line, line


def test_a_five_megabyte_sentence_is_refused_at_once(voices, tmp_path):
    text = tmp_path / "huge.txt"
    text.write_text("word " * 1_000_000)
    line = refused(["say", "-f", str(text), "--voice", VOICE, "-o", str(tmp_path / "huge.wav"), "-q"], voices, tmp_path)
    # refused by its bound before any synthesis (nothing was cached: `refused` checks), not by a clock
    assert "hours of audio" in line, line
    assert not (tmp_path / "huge.wav").exists()


def test_an_engine_killed_mid_chunk_costs_that_chunk_and_the_next_run_speaks(voices, tmp_path):
    # Given a worker child that aborts on one text (the test hook of the engine worker)
    line = refused(say(VOICE, "This sentence has the CRASHME marker."), voices, tmp_path, env={"NARRATE_WORKER_CRASH_ON": "CRASHME"})
    assert "crashed" in line, line
    assert f"The Piper voice {VOICE} crashed" in line and "eSpeak NG" not in line, "a Piper child's crash is the voice's, not eSpeak NG's: " + line
    # When the next text comes, it is spoken
    result = run_narrate(say(VOICE, "And this one is fine."), voices, cache=tmp_path / "cache", env={"NARRATE_WORKER_CRASH_ON": "CRASHME"})
    assert result.returncode == 0


def test_a_crash_and_a_hang_in_the_same_run_each_cost_their_sentence_and_the_rest_is_spoken(voices, tmp_path):
    # The voice's zygote speaks every text itself: a crash ends it, a hang gets it killed at the
    # deadline, and the next text, in the same run and worker, is spoken by a new one.
    cache = tmp_path / "cache"
    # Sentences of some 450 characters: each is a chunk of its own (a chunk holds at most 700).
    clause = "and the road went on past the mill, the bridge and the long grey wall of the old farm"
    sentence = lambda start: f"{start}, " + ", ".join([clause] * 5) + "."
    text = " ".join(sentence(start) for start in ["Fine so far", "Then CRASHME here", "Still going", "Then STALL here", "And after it"])
    result = run_narrate(["say", text, "--voice", VOICE, "-o", str(tmp_path / "out.wav"), "-q", "--jobs", "1"], voices, cache=cache,
                         env={"NARRATE_WORKER_CRASH_ON": "CRASHME", "NARRATE_WORKER_HANG_ON": "STALL"}, check=False, timeout=180)
    assert result.returncode == 1, result.stderr
    assert "crashed" in result.stderr or "deadline" in result.stderr, result.stderr
    assert len(cache_entries(cache)) == 3, "the three sentences around the crash and the hang were not all spoken and kept"


def test_a_crash_that_does_not_come_back_costs_nothing(voices, tmp_path):
    # The zygote speaks in place: it aborts on the text once, and a new one speaks it again.
    crash_once_costs_nothing(VOICE, "Fine so far. Then CRASHME here, once. And after it.", "CRASHME", voices, tmp_path)
