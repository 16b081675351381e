"""The front ends with a Kokoro voice on a real book: `narrate page` of a corpus EPUB, and
`narrate book` with subtitles timed per sentence (a sentence to a chunk)."""

from __future__ import annotations

import re

from kokoro_support import CORPUS, VOICE, parse_wav, run_narrate

BOOK = CORPUS / "epub" / "wasteland.epub"


def test_page_of_a_corpus_book(voices, tmp_path):
    output = tmp_path / "page.wav"
    run_narrate(["page", str(BOOK), "1", "--voice", VOICE, "-o", str(output), "-q"], voices, cache=tmp_path / "cache")
    parsed = parse_wav(output.read_bytes())
    assert parsed.rate == 24000 and parsed.seconds > 1


def test_book_with_subtitles_timed_per_sentence(voices, tmp_path):
    text = tmp_path / "story.txt"
    text.write_text("The Lighthouse\n\nThe keeper climbed the stairs. The lamp was cold! Would it light tonight? He struck a match.\n")
    out = tmp_path / "out"
    run_narrate(["book", str(text), "-o", str(out), "--voice", VOICE, "--format", "wav", "--subtitles", "srt", "-q"], voices, cache=tmp_path / "cache")
    subtitles = sorted(out.rglob("*.srt"))
    assert subtitles, list(out.rglob("*"))
    cues = re.findall(r"(\d\d:\d\d:\d\d,\d\d\d) --> (\d\d:\d\d:\d\d,\d\d\d)\n(.+?)\n", subtitles[0].read_text())
    texts = [cue[2] for cue in cues]
    assert "The lamp was cold!" in texts and "Would it light tonight?" in texts, texts
    starts = [cue[0] for cue in cues]
    assert starts == sorted(starts) and len(set(starts)) == len(starts), cues
