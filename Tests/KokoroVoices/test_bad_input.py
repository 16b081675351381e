"""Bad input with a Kokoro voice: each is one clear line, exit 1 (not a crash of Narrate), and
nothing cached."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import onnxruntime

from kokoro_support import VOICE, run_narrate, styles
from voice_suite import cache_entries, crash_once_costs_nothing, refused


def say(voice: str = VOICE, text: str = "Hello there. How are you?") -> list[str]:
    return ["say", text, "--voice", voice, "-o", "/dev/null", "-q"]


def broken(tmp_path: Path, model: bytes | None = None, model_file: Path | None = None, pack: bytes | None = None) -> Path:
    """A voice folder holding af_alpha with the model and pack given (else the real ones)."""
    folder = tmp_path / "broken-voices"
    kokoro = folder / "kokoro"
    (kokoro / "voices").mkdir(parents=True, exist_ok=True)
    target = kokoro / "kokoro.onnx"
    if model_file is not None:
        shutil.copyfile(model_file, target)
    else:
        target.write_bytes(model if model is not None else b"")
    (kokoro / "voices" / f"{VOICE}.bin").write_bytes(pack if pack is not None else styles()[VOICE].astype("<f4").tobytes())
    return folder


def test_no_onnx_runtime_says_how_to_install_it(voices, tmp_path):
    line = refused(say(), voices, tmp_path, env={"NARRATE_ONNXRUNTIME": str(tmp_path / "missing" / "libonnxruntime.so")})
    assert "ONNX Runtime could not be loaded from NARRATE_ONNXRUNTIME" in line, line


def test_a_truncated_model(voices, tmp_path):
    model = next((voices / "kokoro").glob("*.onnx")).read_bytes()
    line = refused(say(), broken(tmp_path, model=model[: len(model) // 3]), tmp_path)
    assert "af_alpha" in line and "cannot be loaded (truncated, corrupt or not ONNX" in line, line


def test_a_model_of_random_bytes(tmp_path):
    line = refused(say(), broken(tmp_path, model=os.urandom(300_000)), tmp_path)
    assert "af_alpha" in line and "cannot be loaded" in line, line


def test_a_model_with_other_inputs_is_not_kokoro(tmp_path):
    sigmoid = Path(onnxruntime.__file__).parent / "datasets" / "sigmoid.onnx"
    line = refused(say(), broken(tmp_path, model_file=sigmoid), tmp_path)
    assert "is not a Kokoro model" in line and "tokens (or input_ids), style and speed" in line, line


def test_a_pack_of_the_wrong_size(voices, tmp_path):
    model = next((voices / "kokoro").glob("*.onnx"))
    line = refused(say(), broken(tmp_path, model_file=model, pack=b"\0" * 1000), tmp_path)
    assert "not rows of 256 float32 values" in line, line


def test_a_pack_that_is_not_a_kokoro_pack_is_not_installed(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "model.onnx").write_bytes(b"model")
    (source / "af_bad.bin").write_bytes(b"\0" * 1000)
    result = run_narrate(["voices", "install", "kokoro", "--from", str(source), "--to", str(tmp_path / "voices")], tmp_path, check=False)
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "not rows of 256" in result.stderr and not (tmp_path / "voices" / "kokoro" / "voices").exists()


def test_a_voice_not_in_the_pack(voices, tmp_path):
    line = refused(say("af_nobody"), voices, tmp_path)
    assert "Unknown voice 'af_nobody'" in line, line
    line = refused(say("af_alpha+af_nobody"), voices, tmp_path)
    assert "Unknown voice 'af_nobody'" in line, line


def test_bad_weights_and_a_blend_across_models(voices, tmp_path):
    assert "weight '0'" in refused(say("af_alpha:0+am_kumo:1"), voices, tmp_path)
    # A second voice folder (the data folder's) with another model.
    other = tmp_path / "data" / "narrate" / "voices" / "kokoro"
    (other / "voices").mkdir(parents=True)
    (other / "another.onnx").write_bytes(b"another model")
    (other / "voices" / "bf_other.bin").write_bytes(styles()[VOICE].astype("<f4").tobytes())
    line = refused(say("af_alpha+bf_other"), voices, tmp_path, env={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert "different Kokoro models" in line, line


def test_a_rate_kokoro_cannot_speak(voices, tmp_path):
    line = refused(say() + ["--rate", "400"], voices, tmp_path)
    assert "from 88 to 350" in line, line


def test_a_five_megabyte_sentence(voices, tmp_path):
    text = ("word " * 1_048_576)[:5_000_000]
    text_file = tmp_path / "long.txt"
    text_file.write_text(text)
    line = refused(["say", "-f", str(text_file), "--voice", VOICE, "-o", str(tmp_path / "long.wav"), "-q"], voices, tmp_path)
    assert not (tmp_path / "long.wav").exists()
    assert len(line) < 400, line


def test_a_worker_killed_mid_chunk_costs_that_chunk_in_one_line(voices, tmp_path):
    line = refused(say(text="Then POISON here."), voices, tmp_path, env={"NARRATE_WORKER_CRASH_ON": "POISON"})
    assert "The Kokoro voice af_alpha crashed" in line and "eSpeak NG" not in line, line
    # The sentence before it is spoken and kept: the crash cost that chunk alone.
    cache = tmp_path / "kept"
    result = run_narrate(say(text="Fine so far. Then POISON here."), voices, cache=cache, env={"NARRATE_WORKER_CRASH_ON": "POISON"}, check=False)
    assert result.returncode == 1 and "crashed" in result.stderr
    assert len(cache_entries(cache)) == 1, "the first sentence's audio was not kept"


def around(marker: str) -> str:
    """Three chunks: a first sentence (alone), one holding `marker` that fills a chunk (700
    characters), so the last sentence is a chunk of its own."""
    middle = f"Then {marker} here, " + ", ".join(["and then some more words"] * 26) + "."
    assert 650 < len(middle) <= 700
    return f"Fine so far. {middle} And after it, this."


def test_a_crash_ends_the_voice_process_and_the_next_text_gets_a_new_one(voices, tmp_path):
    # A Kokoro voice is spoken by its zygote itself (no child per chunk): a crash ends that
    # process, and the text after it, in the same run and worker, is spoken by a new one.
    cache = tmp_path / "cache"
    text = around("POISON")
    result = run_narrate(["say", text, "--voice", VOICE, "-o", str(tmp_path / "out.wav"), "-q", "--jobs", "1"],
                         voices, cache=cache, env={"NARRATE_WORKER_CRASH_ON": "POISON"}, check=False)
    assert result.returncode == 1 and "crashed" in result.stderr, result.stderr
    assert len(cache_entries(cache)) == 2, "the sentences around the crash were not both spoken and kept"


def test_a_hang_is_killed_at_its_deadline_and_costs_that_chunk(voices, tmp_path):
    # The hang is in the first sentence, a chunk of its own with a short deadline (a chunk's
    # grows with its length); the rest of the text, queued behind it in the same worker, is
    # spoken by a new one once the hung process is killed.
    cache = tmp_path / "cache"
    text = "Then STALL here. And after it, this. And one more."
    result = run_narrate(["say", text, "--voice", VOICE, "-o", str(tmp_path / "out.wav"), "-q", "--jobs", "1"],
                         voices, cache=cache, env={"NARRATE_WORKER_HANG_ON": "STALL"}, check=False, timeout=120)
    assert result.returncode == 1, result.stderr
    lines = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(lines) == 1 and "STALL" in lines[0], result.stderr
    assert len(cache_entries(cache)) == 1, "the text after the hang was not spoken and kept"


def test_a_crash_that_does_not_come_back_costs_nothing(voices, tmp_path):
    # The zygote speaks in place: it aborts on the text once, and a new one speaks it again.
    crash_once_costs_nothing(VOICE, "Fine so far. Then POISON here, once.", "POISON", voices, tmp_path)
