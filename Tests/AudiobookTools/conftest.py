"""Exports made once per session by the built `narrate` (NARRATE_BIN), read by the tests."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
BOOK = CORPUS / "epub" / "childrens-literature.epub"
CHAPTERS = "1-4"


class Export:
    def __init__(self, folder: Path, result: subprocess.CompletedProcess):
        self.folder = folder
        self.result = result
        self.manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))

    def files(self, suffix: str) -> list[Path]:
        return sorted(self.folder.glob(f"*{suffix}"))


def narrate(*arguments: str, home: Path) -> subprocess.CompletedProcess:
    environment = dict(os.environ)
    environment.update(NARRATE_CACHE_DIR=str(home / "cache"), NARRATE_LIBRARY=str(home / "library.sqlite"), HOME=str(home))
    for key in ("NARRATE_API_KEY", "OPENAI_API_KEY"):
        environment.pop(key, None)
    return subprocess.run([os.environ["NARRATE_BIN"], *arguments], env=environment, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="session")
def home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("narrate-home")


def export(home: Path, name: str, *arguments: str) -> Export:
    folder = home / name
    result = narrate("book", str(BOOK), "--chapters", CHAPTERS, "-o", str(folder), "--voice", "en-us", "--quiet", *arguments, home=home)
    assert result.returncode == 0, result.stderr
    return Export(folder, result)


@pytest.fixture(scope="session")
def m4b(home) -> Export:
    return export(home, "m4b", "--split", "book", "--format", "m4b")


@pytest.fixture(scope="session")
def mp3_book(home) -> Export:
    return export(home, "mp3-book", "--split", "book", "--format", "mp3")


@pytest.fixture(scope="session")
def mp3_chapters(home) -> Export:
    return export(home, "mp3-chapters", "--split", "chapter", "--format", "mp3")
