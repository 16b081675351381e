"""Subtitles and a read-along EPUB from a DOCX and an FB2, as from any book that is not an
EPUB: the read-along is a new EPUB 3 with the book's text, the cues hold the page's words."""

from __future__ import annotations

import re
import subprocess
import zipfile

import pytest

import sources

EPUBCHECK = "/usr/share/java/epubcheck.jar"


@pytest.mark.parametrize("name", ["libreoffice.docx", "pandoc.fb2"])
def test_a_page_with_subtitles_and_a_read_along_epub(made, narrate, tmp_path, name):
    document = made[name]
    page = narrate.ok("text", str(document.path), "1")
    # The same page twice with the same voice: the second export is made from the cache.
    narrate.ok("book", str(document.path), "--pages", "1", "-o", str(tmp_path / "audio"), "--format", "wav", "--subtitles", "vtt", "--voice", "en-us", "--quiet")
    narrate.ok("book", str(document.path), "--pages", "1", "-o", str(tmp_path / "epub"), "--format", "epub", "--voice", "en-us", "--quiet")

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
    first = " ".join(sources.tokens(page)[:12])
    assert first in " ".join(sources.tokens(re.sub(r"<[^>]+>", " ", content)))
    if name.endswith(".docx"):
        # Once is enough: every book that is not an EPUB has its read-along made the same way
        # (the audiobook suite checks those of text books too). The quick compiler and the serial
        # collector, as there: a JVM running seconds spends half its CPU on the others.
        java = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", EPUBCHECK]
        checked = subprocess.run([*java, str(epub)], capture_output=True, text=True, timeout=300)
        assert checked.returncode == 0, checked.stdout + checked.stderr
