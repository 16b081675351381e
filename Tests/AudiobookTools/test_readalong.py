"""Read-along EPUBs (`narrate book --format epub`), read by epubcheck (the W3C's validator) and by
Python's own zip and XML readers: valid EPUB 3, every media-overlay clip pointing at an element of its
content document, clips in order within each audio file, durations that add up, clips timed as the
subtitles are."""

from __future__ import annotations

import posixpath
import re
import subprocess
import zipfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from conftest import CORPUS, narrate

EPUBCHECK = "/usr/share/java/epubcheck.jar"
OPF = "{http://www.idpf.org/2007/opf}"
SMIL = "{http://www.w3.org/ns/SMIL}"
XHTML = "{http://www.w3.org/1999/xhtml}"

BOOKS = {
    "childrens-literature": (CORPUS / "epub" / "childrens-literature.epub", "--chapters", "1-2"),
    "dante-epub2": (CORPUS / "epub" / "pg8789-dante-vision-of-hell-epub2.epub", "--chapters", "1-2"),
    "devils-dictionary-txt": (CORPUS / "txt" / "pg972-devils-dictionary-1990s-header-ascii.txt", "--pages", "1-2"),
    "childrens-literature-words": (CORPUS / "epub" / "childrens-literature.epub", "--chapters", "1-2", "--granularity", "word"),
}


class ReadAlong:
    def __init__(self, folder: Path, result: subprocess.CompletedProcess):
        self.folder = folder
        self.result = result
        [self.path] = sorted(folder.glob("*.epub"))
        self.zip = zipfile.ZipFile(self.path)
        container = ElementTree.fromstring(self.zip.read("META-INF/container.xml"))
        self.opf_path = container.find(".//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile").get("full-path")
        self.opf = ElementTree.fromstring(self.zip.read(self.opf_path))
        self.base = posixpath.dirname(self.opf_path)
        self.items = {item.get("id"): item for item in self.opf.iter(f"{OPF}item")}

    def entry(self, href: str, relative_to: str) -> str:
        return posixpath.normpath(posixpath.join(posixpath.dirname(relative_to), href.split("#")[0]))

    def item_entry(self, item) -> str:
        return posixpath.normpath(posixpath.join(self.base, item.get("href")))

    def overlays(self) -> list[tuple[str, ElementTree.Element]]:
        """(SMIL entry, its root) for each content document with a media overlay, in spine order."""
        result = []
        for itemref in self.opf.iter(f"{OPF}itemref"):
            item = self.items[itemref.get("idref")]
            if item.get("media-overlay"):
                smil = self.item_entry(self.items[item.get("media-overlay")])
                result.append((smil, ElementTree.fromstring(self.zip.read(smil))))
        return result

    def clips(self):
        """(SMIL entry, text src, audio entry, begin, end) for every par, in reading order."""
        for smil, root in self.overlays():
            for par in root.iter(f"{SMIL}par"):
                text = par.find(f"{SMIL}text").get("src")
                audio = par.find(f"{SMIL}audio")
                yield smil, text, self.entry(audio.get("src"), smil), seconds(audio.get("clipBegin")), seconds(audio.get("clipEnd"))


def seconds(value: str) -> float:
    if value.endswith("ms"):
        return float(value[:-2]) / 1000
    if value.endswith("s"):
        return float(value[:-1])
    parts = [float(part) for part in value.split(":")]
    total = 0.0
    for part in parts:
        total = total * 60 + part
    return total


def export(home: Path, name: str, book: Path, *arguments: str) -> subprocess.CompletedProcess:
    return narrate("book", str(book), "-o", str(home / name), "--voice", "en-us", "--split", "chapter", *arguments, home=home)


@pytest.fixture(scope="session", params=sorted(BOOKS))
def readalong(request, home) -> ReadAlong:
    path, *selection = BOOKS[request.param]
    result = export(home, "readalong-" + request.param, path, *selection, "--format", "epub", "--quiet")
    assert result.returncode == 0, result.stderr
    return ReadAlong(home / ("readalong-" + request.param), result)


def test_epubcheck_finds_nothing_wrong(readalong):
    # The quick compiler only and the serial collector: a JVM that runs for seconds spends half
    # its CPU on the optimizing compiler and a parallel collector otherwise (measured: 9.8 s of
    # CPU a check, 5.4 s with these).
    java = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", EPUBCHECK]
    run = subprocess.run([*java, str(readalong.path)], capture_output=True, text=True, timeout=600)
    output = run.stdout + run.stderr
    counts = re.search(r"Messages: (\d+) fatals / (\d+) errors / (\d+) warnings", output)
    if counts is None:
        assert "No errors or warnings detected" in output, output
    else:
        assert counts.groups() == ("0", "0", "0"), output
    assert run.returncode == 0, output


def test_mimetype_comes_first_and_stored(readalong):
    first = readalong.zip.infolist()[0]
    assert first.filename == "mimetype"
    assert first.compress_type == zipfile.ZIP_STORED
    assert readalong.zip.read("mimetype") == b"application/epub+zip"


def test_every_clip_points_at_an_element_of_its_document(readalong):
    ids: dict[str, set[str]] = {}
    clips = list(readalong.clips())
    assert clips, "no media-overlay clips"
    for smil, text, *_ in clips:
        document = readalong.entry(text, smil)
        if document not in ids:
            root = ElementTree.fromstring(readalong.zip.read(document))
            ids[document] = {element.get("id") for element in root.iter() if element.get("id")}
        fragment = text.split("#", 1)[1]
        assert fragment in ids[document], f"{text} (in {smil}) names no element of {document}"


def test_clip_times_increase_within_each_audio_file(readalong):
    last: dict[str, float] = {}
    for smil, text, audio, begin, end in readalong.clips():
        assert audio in readalong.zip.namelist(), audio
        assert end > begin, f"{text}: {begin} to {end}"
        assert begin >= last.get(audio, 0.0) - 1e-9, f"{text} starts at {begin}, before the clip before it ends ({last[audio]})"
        last[audio] = end


def test_durations_add_up(readalong):
    metas = [meta for meta in readalong.opf.iter(f"{OPF}meta") if meta.get("property") == "media:duration"]
    overlay_ids = {item.get("media-overlay") for item in readalong.items.values() if item.get("media-overlay")}
    per_overlay = {meta.get("refines")[1:]: seconds(meta.text) for meta in metas if meta.get("refines")}
    [total] = [seconds(meta.text) for meta in metas if not meta.get("refines")]
    assert set(per_overlay) == overlay_ids
    assert abs(sum(per_overlay.values()) - total) < 0.0005
    for smil, root in readalong.overlays():
        overlay = next(item for item in readalong.items.values() if readalong.item_entry(item) == smil)
        clips = sum(seconds(a.get("clipEnd")) - seconds(a.get("clipBegin")) for a in root.iter(f"{SMIL}audio"))
        assert abs(clips - per_overlay[overlay.get("id")]) < 0.0005


def test_the_highlight_class_is_defined_in_a_linked_stylesheet(readalong):
    [active] = [meta.text for meta in readalong.opf.iter(f"{OPF}meta") if meta.get("property") == "media:active-class"]
    for item in readalong.items.values():
        if not item.get("media-overlay"):
            continue
        document = readalong.item_entry(item)
        root = ElementTree.fromstring(readalong.zip.read(document))
        sheets = [readalong.entry(link.get("href"), document) for link in root.iter(f"{XHTML}link") if link.get("rel") == "stylesheet"]
        assert any(f".{active}" in readalong.zip.read(sheet).decode() for sheet in sheets), document


def test_a_second_run_synthesizes_nothing_and_rewrites_no_audio(readalong, home):
    name = readalong.folder.name.removeprefix("readalong-")
    path, *selection = BOOKS[name]
    audio = sorted((readalong.folder / ".narrate-readalong").glob("*.mp3"))
    before = {file: file.stat().st_mtime_ns for file in audio}
    result = export(home, readalong.folder.name, path, *selection, "--format", "epub")
    assert result.returncode == 0, result.stderr
    assert "(0 written," in result.stderr + result.stdout
    assert {file: file.stat().st_mtime_ns for file in audio} == before


def test_clips_start_where_the_subtitles_cues_do(home):
    path, *selection = BOOKS["devils-dictionary-txt"]
    epub = export(home, "readalong-cues-epub", path, *selection, "--format", "epub", "--quiet")
    assert epub.returncode == 0, epub.stderr
    mp3 = export(home, "readalong-cues-mp3", path, *selection, "--format", "mp3", "--subtitles", "vtt", "--quiet")
    assert mp3.returncode == 0, mp3.stderr
    book = ReadAlong(home / "readalong-cues-epub", epub)
    cue_starts: dict[str, set[int]] = {}
    for vtt in sorted((home / "readalong-cues-mp3").glob("*.vtt")):
        starts = re.findall(r"^(\d+):(\d\d):(\d\d)\.(\d{3}) -->", vtt.read_text(encoding="utf-8"), re.MULTILINE)
        cue_starts[vtt.stem] = {((int(h) * 60 + int(m)) * 60 + int(s)) * 1000 + int(ms) for h, m, s, ms in starts}
    stems = sorted(cue_starts)
    clips = list(book.clips())
    assert clips
    for _, text, audio, begin, _ in clips:
        number = int(posixpath.basename(audio).split(".")[0])
        assert round(begin * 1000) in cue_starts[stems[number - 1]], f"{text} starts at {begin}, where no cue does"
