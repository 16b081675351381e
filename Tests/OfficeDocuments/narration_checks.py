"""Checks that any book which is not an EPUB must pass, shared by the office documents' suite and
the PDF suite (which puts this folder on its path): the words narrated against the source's, and
a page's subtitles and read-along EPUB 3 made from the book's text."""

from __future__ import annotations

import re
import subprocess
import zipfile
from pathlib import Path

import jiwer

import sources

EPUBCHECK = "/usr/share/java/epubcheck.jar"


def word_error_rate(expected: list[str], narrated: list[str]) -> float:
    return jiwer.wer(" ".join(expected), " ".join(narrated))


def assert_words_narrated(narrate, document, name: str, note: str = "a note") -> list[str]:
    """The book's words as `narrate text` gives them equal the source's within 1% WER, and no
    footnote word is among them; returns them for further checks."""
    narrated = sources.tokens(narrate.ok("text", str(document.path)))
    rate = word_error_rate(document.expected_words, narrated)
    assert rate < 0.01, f"{name} ({document.maker}): word error rate {rate:.2%} over {len(document.expected_words)} words"
    for word in sources.NOTE_WORDS:
        assert word not in narrated, f"{name}: {note} was read ('{word}')"
    return narrated


def assert_subtitles_and_read_along(narrate, path: Path, tmp_path: Path) -> Path:
    """Page 1 exported with WebVTT cues holding its words, and as a read-along EPUB 3 (SMIL
    overlays) holding its text; returns the EPUB, for epubcheck."""
    page = narrate.ok("text", str(path), "1")
    narrate.ok("book", str(path), "--pages", "1", "-o", str(tmp_path / "audio"), "--format", "wav", "--subtitles", "vtt", "--voice", "en-us", "--quiet")
    narrate.ok("book", str(path), "--pages", "1", "-o", str(tmp_path / "epub"), "--format", "epub", "--voice", "en-us", "--quiet")

    cues = sorted((tmp_path / "audio").glob("*.vtt"))
    assert cues and sorted((tmp_path / "audio").glob("*.wav"))
    text = "\n".join(line for line in cues[0].read_text(encoding="utf-8").splitlines() if line and "-->" not in line and line != "WEBVTT" and not line.isdigit())
    heard = sources.tokens(re.sub(r"<[^>]+>", " ", text))
    assert heard[:40] == sources.tokens(page)[:40]

    epub = next((tmp_path / "epub").glob("*.epub"))
    with zipfile.ZipFile(epub) as archive:
        assert archive.read("mimetype") == b"application/epub+zip"
        names = archive.namelist()
        assert any(entry.endswith(".smil") for entry in names)
        content = " ".join(archive.read(entry).decode("utf-8") for entry in names if entry.endswith(".xhtml"))
    assert " ".join(sources.tokens(page)[:12]) in " ".join(sources.tokens(re.sub(r"<[^>]+>", " ", content)))
    return epub


def assert_epubcheck_passes(epub: Path) -> None:
    # The quick compiler and the serial collector, as in the audiobook suite: a JVM running
    # seconds spends half its CPU on the others.
    java = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", EPUBCHECK]
    checked = subprocess.run([*java, str(epub)], capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
