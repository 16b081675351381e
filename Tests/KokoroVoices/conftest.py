"""Fixtures of the tests of Narrate's Kokoro voices (see kokoro_support.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kokoro_support import CHECKOUT, reference, run_narrate, source_folder  # noqa: E402


@pytest.fixture(scope="session")
def source(tmp_path_factory) -> Path:
    """The folder Kokoro is installed from."""
    (CHECKOUT / ".build" / "kokoro-model").mkdir(parents=True, exist_ok=True)
    return source_folder(CHECKOUT / ".build" / "kokoro-model" / "source")


@pytest.fixture(scope="session")
def voices(source, tmp_path_factory) -> Path:
    """A voice folder with every voice installed by `narrate voices install kokoro --from`."""
    folder = tmp_path_factory.mktemp("voices")
    result = run_narrate(["voices", "install", "kokoro", "--from", str(source), "--to", str(folder)], folder)
    assert "Installed 8 voices" in result.stdout, result.stdout
    return folder


@pytest.fixture(scope="session")
def kokoro():
    """The reference, on Debian's eSpeak NG data (the algorithm alone)."""
    return reference()
