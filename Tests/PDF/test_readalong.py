"""Subtitles and a read-along EPUB from a PDF, as from any book that is not an EPUB: the
read-along is a new EPUB 3 with the PDF's text (checked by epubcheck), the cues hold the page's
words."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile

import pytest

import sources

EPUBCHECK = "/usr/share/java/epubcheck.jar"


def test_a_page_with_subtitles_and_a_read_along_epub(made, narrate, tmp_path):
    document = made["libreoffice.pdf"]
    page = narrate.ok("text", str(document.path), "1")
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
    assert " ".join(sources.tokens(page)[:12]) in " ".join(sources.tokens(re.sub(r"<[^>]+>", " ", content)))
    if not (shutil.which("java") and __import__("os").path.exists(EPUBCHECK)):
        pytest.skip("epubcheck is not installed (the office suite installs it)")
    java = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", EPUBCHECK]
    checked = subprocess.run([*java, str(epub)], capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
