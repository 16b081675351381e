"""DOCX, ODT and FB2 files made once per session by pandoc and LibreOffice from the corpus texts
(sources.py), and the built `narrate` (NARRATE_BIN) run on them with a library of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sources  # noqa: E402


@dataclass
class Document:
    """A made document, what tool made it, and the words and chapters it must give."""

    path: Path
    format: str
    maker: str
    source: sources.Source
    #: Words before the body: pandoc writes the title (and for DOCX and ODT the author) as
    #: paragraphs at the top.
    title_page: list[str]

    @property
    def expected_words(self) -> list[str]:
        return self.title_page + self.source.body_words()


class Narrate:
    """The built binary with a home, cache and library of its own."""

    def __init__(self, home: Path):
        self.home = home

    def run(self, *arguments: str, timeout: float = 600) -> subprocess.CompletedProcess:
        environment = {key: value for key, value in os.environ.items() if key not in ("NARRATE_API_KEY", "OPENAI_API_KEY")}
        environment.update(HOME=str(self.home), NARRATE_CACHE_DIR=str(self.home / "cache"), NARRATE_LIBRARY=str(self.home / "library.sqlite"), NO_COLOR="1")
        return subprocess.run([os.environ["NARRATE_BIN"], *arguments], env=environment, capture_output=True, text=True, timeout=timeout)

    def ok(self, *arguments: str) -> str:
        result = self.run(*arguments)
        assert result.returncode == 0, f"narrate {' '.join(arguments)} failed ({result.returncode}): {result.stderr}"
        return result.stdout

    def json(self, *arguments: str):
        return json.loads(self.ok(*arguments, "--json"))


def run(arguments: list[str], cwd: Path, timeout: float = 300) -> None:
    result = subprocess.run(arguments, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{arguments[0]} failed ({result.returncode}): {result.stderr}"


def soffice(target: str, inputs: list[Path], folder: Path, profile: Path) -> subprocess.Popen:
    """One LibreOffice run converting every input to `target` (a profile of its own, so two
    runs can go side by side)."""
    return subprocess.Popen(
        ["soffice", "--headless", "--norestore", f"-env:UserInstallation=file://{profile}", "--convert-to", target,
         "--outdir", str(folder), *map(str, inputs)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )


@pytest.fixture(scope="session")
def made(tmp_path_factory) -> dict[str, Document]:
    """Every document, by name: pandoc's DOCX (one with a contents field), ODT and FB2, the FB2
    zipped and in windows-1252, and LibreOffice's DOCX (from pandoc's ODT) and ODT (from pandoc's
    DOCX)."""
    folder = tmp_path_factory.mktemp("documents")
    book = sources.pride_and_prejudice()
    french = sources.entre_nous()
    (folder / "book.md").write_text(book.markdown(), encoding="utf-8")
    (folder / "french.md").write_text(french.markdown(), encoding="utf-8")
    title_author = sources.tokens(book.title) + sources.tokens(book.author)
    pandoc = ["pandoc", "-f", "markdown-smart"]
    run([*pandoc, "book.md", "-o", "pandoc.docx"], folder)
    run([*pandoc, "book.md", "--toc", "-o", "pandoc-toc.docx"], folder)
    run([*pandoc, "book.md", "-o", "pandoc.odt"], folder)
    run([*pandoc, "book.md", "-t", "fb2", "-o", "pandoc.fb2"], folder)
    run([*pandoc, "french.md", "-t", "fb2", "-o", "french-utf8.fb2"], folder)
    # LibreOffice: pandoc's ODT to DOCX and pandoc's DOCX to ODT, two runs side by side.
    lo = folder / "lo"
    (lo / "from-odt").mkdir(parents=True)
    (lo / "from-docx").mkdir()
    runs = [
        soffice("docx", [folder / "pandoc.odt"], lo / "from-odt", folder / "profile-docx"),
        soffice("odt", [folder / "pandoc.docx"], lo / "from-docx", folder / "profile-odt"),
    ]
    for process in runs:
        _, errors = process.communicate(timeout=300)
        assert process.returncode == 0, f"soffice failed: {errors}"
    (lo / "from-odt" / "pandoc.docx").rename(folder / "libreoffice.docx")
    (lo / "from-docx" / "pandoc.odt").rename(folder / "libreoffice.odt")
    with zipfile.ZipFile(folder / "pandoc.fb2.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(folder / "pandoc.fb2", "pride-and-prejudice.fb2")
    # The French FB2 in windows-1252, its declaration saying so, as older FB2 tools write them.
    utf8 = (folder / "french-utf8.fb2").read_text(encoding="utf-8")
    assert utf8.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    (folder / "french-1252.fb2").write_bytes(utf8.replace('encoding="UTF-8"', 'encoding="windows-1252"', 1).encode("cp1252"))

    title = sources.tokens(book.title)
    return {
        "pandoc.docx": Document(folder / "pandoc.docx", "docx", "pandoc", book, title_author),
        "pandoc-toc.docx": Document(folder / "pandoc-toc.docx", "docx", "pandoc --toc", book, title_author),
        "libreoffice.docx": Document(folder / "libreoffice.docx", "docx", "LibreOffice", book, title_author),
        "pandoc.odt": Document(folder / "pandoc.odt", "odt", "pandoc", book, title_author),
        "libreoffice.odt": Document(folder / "libreoffice.odt", "odt", "LibreOffice", book, title_author),
        "pandoc.fb2": Document(folder / "pandoc.fb2", "fb2", "pandoc", book, title),
        "pandoc.fb2.zip": Document(folder / "pandoc.fb2.zip", "fb2", "pandoc, zipped", book, title),
        "french-1252.fb2": Document(folder / "french-1252.fb2", "fb2", "pandoc, windows-1252", french, sources.tokens(french.title)),
    }


@pytest.fixture(scope="session")
def narrate(tmp_path_factory) -> Narrate:
    return Narrate(tmp_path_factory.mktemp("narrate-home"))
