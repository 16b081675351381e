"""The audiobooks `narrate book` writes, read by tools nobody here wrote: ffprobe, mediainfo,
AtomicParsley, mp3val, mutagen, tinytag and m3u8."""

from __future__ import annotations

import json
import subprocess

import m3u8
from mutagen.id3 import ID3, CTOCFlags, PictureType
from mutagen.mp3 import MP3
from mutagen.mp4 import MP4
from tinytag import TinyTag


def ffprobe(path, *entries: str) -> dict:
    output = subprocess.run(
        ["ffprobe", "-v", "error", "-print_format", "json", *entries, str(path)], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(output)


def chapter_titles(export) -> list[str]:
    """The chapters as the files mark them (table-of-contents entries that start at one place are one mark)."""
    files = sorted(export.manifest["files"], key=lambda file: file["number"])
    return [start["title"] for file in files for start in file["chapterStarts"]]


# M4B


def test_m4b_is_filed_as_an_audiobook(m4b):
    [path] = m4b.files(".m4b")
    with open(path, "rb") as file:
        head = file.read(12)
    assert head[4:12] == b"ftypM4B "
    probe = ffprobe(path, "-show_format")
    assert probe["format"]["tags"]["major_brand"] == "M4B "
    assert MP4(path).tags["stik"] == [2]
    atoms = subprocess.run(["AtomicParsley", str(path), "-t"], capture_output=True, text=True, check=True).stdout
    assert 'Atom "stik" contains: Audiobook' in atoms


def test_m4b_is_mono_in_every_reader(m4b):
    [path] = m4b.files(".m4b")
    assert MP4(path).info.channels == 1
    assert ffprobe(path, "-show_streams", "-select_streams", "a")["streams"][0]["channels"] == 1
    mediainfo = subprocess.run(["mediainfo", "--Inform=Audio;%Channel(s)%", str(path)], capture_output=True, text=True, check=True).stdout
    assert mediainfo.strip() == "1"


def test_m4b_chapters_and_duration_match_the_manifest(m4b):
    [path] = m4b.files(".m4b")
    [entry] = m4b.manifest["files"]
    chapters = ffprobe(path, "-show_chapters")["chapters"]
    assert [chapter["tags"]["title"] for chapter in chapters] == chapter_titles(m4b)
    starts = [start["seconds"] for start in entry["chapterStarts"]]
    assert [round(float(chapter["start_time"]), 2) for chapter in chapters] == [round(start, 2) for start in starts]
    assert abs(MP4(path).info.length - entry["duration"]) < 0.1
    assert [chapter.title for chapter in MP4(path).chapters] == chapter_titles(m4b)


# MP3


def test_mp3_cover_is_the_front_cover(mp3_book):
    [path] = mp3_book.files(".mp3")
    pictures = ID3(path).getall("APIC")
    assert [picture.type for picture in pictures] == [PictureType.COVER_FRONT]


def test_mp3_of_a_whole_book_has_chapter_navigation(mp3_book):
    [path] = mp3_book.files(".mp3")
    [entry] = mp3_book.manifest["files"]
    tags = ID3(path)
    [toc] = tags.getall("CTOC")
    assert toc.flags == CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED
    chapters = {chapter.element_id: chapter for chapter in tags.getall("CHAP")}
    assert list(toc.child_element_ids) == sorted(chapters, key=lambda id: chapters[id].start_time)
    ordered = [chapters[id] for id in toc.child_element_ids]
    assert [chapter.sub_frames["TIT2"].text[0] for chapter in ordered] == chapter_titles(mp3_book)
    assert [chapter.start_time for chapter in ordered] == [round(start["seconds"] * 1000) for start in entry["chapterStarts"]]
    assert all(a.end_time == b.start_time for a, b in zip(ordered, ordered[1:]))
    assert abs(ordered[-1].end_time - entry["duration"] * 1000) <= 1
    probe = ffprobe(path, "-show_chapters")["chapters"]
    assert len(probe) == len(ordered)


def test_mp3_files_are_valid_and_tagged(mp3_chapters, mp3_book):
    for export in (mp3_chapters, mp3_book):
        for path in export.files(".mp3"):
            check = subprocess.run(["mp3val", str(path)], capture_output=True, text=True)
            problems = [line for line in check.stdout.splitlines() if line.startswith(("WARNING", "ERROR"))]
            assert problems == [], check.stdout
            tag = TinyTag.get(path)
            entry = next(file for file in export.manifest["files"] if file["fileName"] == path.name)
            assert tag.title == entry["title"]
            assert tag.album == export.manifest["book"]["title"]
            # tinytag estimates a CBR file's length from its size, half a second short on a short
            # file; mutagen reads LAME's info frame, ffprobe decodes (with the encoder's padding).
            assert abs(MP3(path).info.length - entry["duration"]) < 0.01
            decoded = float(ffprobe(path, "-show_format")["format"]["duration"])
            assert abs(decoded - entry["duration"]) < 0.1


# Playlists and the audiobook server's metadata


def test_m3u8_playlist_lists_every_file_with_its_duration_and_title(mp3_chapters):
    playlist = m3u8.load(str(mp3_chapters.folder / "playlist.m3u8"))
    entries = sorted(mp3_chapters.manifest["files"], key=lambda file: file["number"])
    assert [segment.uri for segment in playlist.segments] == [file["fileName"] for file in entries]
    assert [segment.title for segment in playlist.segments] == [file["title"] for file in entries]
    assert [segment.duration for segment in playlist.segments] == [round(file["duration"]) for file in entries]
    raw = (mp3_chapters.folder / "playlist.m3u8").read_bytes()
    assert raw.startswith(b"#EXTM3U\n")
    raw.decode("utf-8")


def test_audiobookshelf_metadata_names_the_book_narrator_and_chapters(mp3_chapters):
    metadata = json.loads((mp3_chapters.folder / "metadata.json").read_text(encoding="utf-8"))
    book = mp3_chapters.manifest["book"]
    assert metadata["title"] == book["title"]
    assert metadata["authors"] == book["authors"]
    assert metadata["narrators"] == ["eSpeak NG en-us"]
    chapters = metadata["chapters"]
    assert [chapter["title"] for chapter in chapters] == chapter_titles(mp3_chapters)
    assert chapters[0]["start"] == 0
    assert all(a["end"] == b["start"] for a, b in zip(chapters, chapters[1:]))
    total = sum(file["duration"] for file in mp3_chapters.manifest["files"])
    assert abs(chapters[-1]["end"] - total) < 0.01
    covers = list(mp3_chapters.folder.glob("cover.*"))
    assert len(covers) == 1
    probe = ffprobe(covers[0], "-show_streams")
    assert probe["streams"][0]["codec_type"] == "video"
