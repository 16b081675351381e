"""Fixtures of the tests of Narrate's Piper voices (see piper_support.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from piper_support import make_voice_folder, reference_voice  # noqa: E402


@pytest.fixture(scope="session")
def voices(tmp_path_factory) -> Path:
    """A voice folder with en_US-joe-medium and a preset of it without noise ("joe-flat")."""
    return make_voice_folder(tmp_path_factory.mktemp("voices"), {
        "joe-flat": {"description": "en_US-joe-medium without noise", "piper": {"model": "en_US-joe-medium", "noiseScale": 0, "noiseW": 0}},
    })


@pytest.fixture(scope="session")
def reference():
    """piper-tts's voice."""
    return reference_voice()
