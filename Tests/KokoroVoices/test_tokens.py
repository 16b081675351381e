"""Token ids: Narrate's Kokoro tokenizer (narrate-worker, in C) against kokoro-onnx's own
(phonemizer's espeak backend with punctuation kept, the vocabulary filter, the 510-token
batches), on corpus sentences and made-up ones with numbers, abbreviations and punctuation.

With the same eSpeak NG data they must be equal. kokoro-onnx's own data is eSpeak NG 1.52's
(espeakng-loader); Narrate speaks with Debian's 1.51: the words whose IPA differs between the
two are listed in .build/kokoro-phoneme-differences.txt, and their share is bounded."""

from __future__ import annotations

import difflib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from kokoro_onnx.chunker import split_phonemes
from kokoro_onnx.config import MAX_PHONEME_LENGTH

from kokoro_support import CHECKOUT, CORPUS, DEBIAN_LIBRARY, VOICE, our_batches

MADE_UP = [
    "Dr. Smith paid $3.50 on Jan. 5th, 2024 — and left at 3:30 p.m.",
    'He said "no" (twice)… then: "Why not?"',
    "The total was 1,234,567 dollars; the rate, 3.25%.",
    "Wait; what? Yes: now! Mr. and Mrs. Bennet, St. Paul's, e.g. the 1st, 2nd and 3rd.",
    "I paid 1,5 and,b then 3.14.",
    "It's 10:45 — or is it 22:45? «Quoted» text [bracketed] {braced} ¡Hola! ¿Qué?",
    "Numbers: 7, 42, 365, 1999, 2000000, 0.5, -3, 4th of July, 100%.",
    "U.S.A., U.K. and the E.U. met at 9 a.m. on 12/25/2023.",
]


def sentences() -> list[str]:
    """About 240 sentences from two corpus books, and the made-up ones."""
    picked: list[str] = []
    for name, encoding in [("pg1342-pride-and-prejudice-cp1252.txt", "cp1252"), ("pg972-devils-dictionary-1990s-header-ascii.txt", "ascii")]:
        path = CORPUS / "txt" / name
        if not path.exists():
            continue
        text = path.read_bytes().decode(encoding, errors="replace")
        text = text[len(text) // 10 : len(text) * 9 // 10]  # past the front matter, before the licence
        found = [s.strip() for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if 30 <= len(s.strip()) <= 400]
        picked += found[:: max(1, len(found) // 120)][:120]
    return picked + MADE_UP


def groups(items: list[str], size: int = 40) -> list[str]:
    return [" ".join(items[start : start + size]) for start in range(0, len(items), size)]


def reference_batches(tokenizer, text: str) -> list[list[int]]:
    phonemes = " ".join(tokenizer.phonemize(text, "en-us").split())
    return [tokenizer.tokenize(batch) for batch in split_phonemes(phonemes, MAX_PHONEME_LENGTH)]


def test_the_corpus_has_enough_sentences():
    assert len(sentences()) >= 200, len(sentences())


def test_our_token_ids_equal_kokoro_onnxs_with_the_same_espeak_data(voices, kokoro):
    compared = 0
    for text in groups(sentences()):
        ours = our_batches(text, voices)
        spoken = ours[0]["text"]  # the text as Narrate speaks it (normalized)
        expected = reference_batches(kokoro.tokenizer, spoken)
        assert [batch["ids"] for batch in ours] == expected, f"token ids differ on: {spoken[:300]}"
        assert all(len(batch["ids"]) <= 510 for batch in ours)
        compared += 1
    assert compared >= 6


def bundled_phonemes(texts: list[str]) -> list[str]:
    """kokoro-onnx's phonemes with its own eSpeak NG data (1.52), in a process of its own:
    phonemizer keeps one eSpeak per process, and this one's is set to Debian's data."""
    script = Path(__file__).resolve().parent / "reference_tokens.py"
    result = subprocess.run([sys.executable, str(script)], input="\n".join(json.dumps(text) for text in texts) + "\n", capture_output=True, text=True,
                            env={**os.environ, "PHONEMIZER_ESPEAK_LIBRARY": DEBIAN_LIBRARY}, check=True)
    return [json.loads(line)["phonemes"] for line in result.stdout.split("\n") if line]


def test_espeak_ng_versions_differ_on_few_words(voices):
    """Debian's 1.51 data against kokoro-onnx's own 1.52: the words that differ, listed; at most 10% of them."""
    differing: dict[tuple[str, str], int] = {}
    words = 0
    spoken = [our_batches(text, voices) for text in groups(sentences())]
    for batches, theirs_text in zip(spoken, bundled_phonemes([batches[0]["text"] for batches in spoken])):
        ours = " ".join(batch["phonemes"] for batch in batches).split()
        theirs = theirs_text.split()
        words += len(theirs)
        matcher = difflib.SequenceMatcher(a=ours, b=theirs, autojunk=False)
        for tag, a0, a1, b0, b1 in matcher.get_opcodes():
            if tag != "equal":
                key = (" ".join(ours[a0:a1]), " ".join(theirs[b0:b1]))
                differing[key] = differing.get(key, 0) + 1
    changed = sum(max(len(a.split()), len(b.split())) * count for (a, b), count in differing.items())
    report = CHECKOUT / ".build" / "kokoro-phoneme-differences.txt"
    lines = [f"{count}\t{ours}\t→ 1.52: {theirs}" for (ours, theirs), count in sorted(differing.items(), key=lambda item: -item[1])]
    report.write_text(f"{changed} of {words} words differ between Debian's eSpeak NG data and espeakng-loader's 1.52\n" + "\n".join(lines) + "\n")
    assert changed / words <= 0.10, f"{changed} of {words} words differ; see {report}"
