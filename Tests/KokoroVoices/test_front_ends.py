"""The front ends with a Kokoro voice on a real book: `narrate page` of a corpus EPUB, and
`narrate book` with subtitles timed per sentence: sentences share a chunk and a batch, and the
model's per-token durations time each one inside it."""

from __future__ import annotations

import re

import numpy as np

from kokoro_support import CORPUS, VOICE, parse_wav, run_narrate, samples

# Its first page is one heading: a real book's page, short enough to speak in seconds.
BOOK = CORPUS / "epub" / "childrens-literature.epub"


def test_page_of_a_corpus_book(voices, tmp_path):
    output = tmp_path / "page.wav"
    run_narrate(["page", str(BOOK), "1", "--voice", VOICE, "-o", str(output), "-q"], voices, cache=tmp_path / "cache")
    parsed = parse_wav(output.read_bytes())
    assert parsed.rate == 24000 and parsed.seconds > 1
    # The heading's words are all spoken: some 50 characters take more than two seconds.
    assert parsed.seconds > 2, parsed.seconds


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


def seconds(stamp: str) -> float:
    hours, minutes, rest = stamp.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(rest.replace(",", "."))


def test_each_sentence_of_a_batch_starts_in_the_quiet_before_it(voices, tmp_path):
    """Four sentences after the first share one batch: each one's cue starts where the audio is
    quiet (the model's pause before that sentence), not at a share of the chunk's length."""
    text = tmp_path / "story.txt"
    text.write_text("Chapter One\n\nIt began with a letter. The keeper climbed the long stairs slowly. The lamp was cold. "
                    "Would it ever light again tonight? He struck a match, and waited.\n")
    out = tmp_path / "out"
    run_narrate(["book", str(text), "-o", str(out), "--voice", VOICE, "--format", "wav", "--subtitles", "srt", "-q"], voices, cache=tmp_path / "cache")
    subtitles = [srt for srt in sorted(out.rglob("*.srt")) if "keeper" in srt.read_text()]
    assert len(subtitles) == 1 and subtitles[0].with_suffix(".wav").exists(), list(out.rglob("*"))
    cues = re.findall(r"(\d\d:\d\d:\d\d,\d\d\d) --> (\d\d:\d\d:\d\d,\d\d\d)\n(.+?)\n", subtitles[0].read_text())
    starts = {cue[2]: seconds(cue[0]) for cue in cues}
    pcm = samples(subtitles[0].with_suffix(".wav").read_bytes()).astype(float)
    loud = np.sqrt(np.mean(pcm ** 2))
    for sentence in ["The keeper climbed the long stairs slowly.", "The lamp was cold.", "Would it ever light again tonight?", "He struck a match, and waited."]:
        assert sentence in starts, (sentence, cues)
        at = int(starts[sentence] * 24000)
        # The 40 ms before the cue: the pause the model made between the sentences.
        before = pcm[max(0, at - 960):at]
        assert len(before) and np.sqrt(np.mean(before ** 2)) < loud / 8, f"{sentence!r} starts at {starts[sentence]:.3f} s, where the audio is not quiet"
    ordered = [seconds(cue[0]) for cue in cues]
    assert ordered == sorted(ordered) and len(set(ordered)) == len(ordered), cues
