"""Phoneme ids: Narrate's equal piper-tts's (PiperVoice.phonemize + phonemes_to_ids) for the
same text, sentence by sentence, on paragraphs of the corpus books and on numbers,
abbreviations and punctuation.

piper-tts phonemizes with the eSpeak NG 1.52 it bundles; Narrate with the system's (Debian 12:
1.51). Where the two versions pronounce a word differently the ids of that word differ: the
test lists those words (and writes them to .build/piper-phoneme-differences.txt) and bounds
their share, while everything that is Narrate's own and not eSpeak's must be equal: the
sentences, the clause punctuation piper keeps, the words' order, BOS/EOS and the pads.
"""

from __future__ import annotations

import re
from pathlib import Path

from piper_support import CHECKOUT, CORPUS, our_sentences_of_texts

HANDMADE = [
    "I paid $3.50 on 12/05/2020.",
    "Mr. and Mrs. Smith live at 221B Baker St. in London.",
    "Wait... what? No!",
    'He said: "Go!" Then he left.',
    "It's 3:45 p.m. — late; very late!",
    "(Aside) the end",
    "e.g. apples, i.e. fruit.",
    "Numbers: 1, 2, 3; 1,000,000 and 3.14159.",
    "Über café naïve résumé.",
    "“Curly quotes,” she said. ‘Single’ too.",
    "The year 1984 had 366 days? No, 1984 was a leap year: 366 days.",
    "Dr. Jekyll met Mr. Hyde at 10 o'clock.",
    "She bought 2 kg of apples, 3 lbs of pears, and 1/2 a melon.",
    "Call 555-1234, or e-mail info@example.com!",
    "The 1st, 2nd and 3rd places went to A, B & C.",
    "Hello, world! This is a test; it has: clauses. The end",
]


def paragraphs(path: Path, encoding: str, count: int) -> list[str]:
    text = path.read_text(encoding=encoding, errors="replace")
    found = [re.sub(r"\s+", " ", block).strip() for block in re.split(r"\n\s*\n", text)]
    found = [block for block in found if 80 < len(block) < 700 and block.count(".") >= 1 and "*" not in block and "[" not in block]
    step = max(1, len(found) // count)
    return found[::step][:count]


def texts() -> list[str]:
    return (
        paragraphs(CORPUS / "txt" / "pg1342-pride-and-prejudice-cp1252.txt", "cp1252", 45)
        + paragraphs(CORPUS / "txt" / "pg972-devils-dictionary-1990s-header-ascii.txt", "ascii", 35)
        + HANDMADE
    )


def phonemes_of(ids: list[int]) -> list[int]:
    """The phoneme ids between BOS and EOS, without the pads: ^ _ p _ p _ … $ → p p …"""
    assert ids[0] == 1 and ids[1] == 0 and ids[-1] == 2, ids[:3]
    assert all(pad == 0 for pad in ids[1:-1:2]), "a pad after every phoneme"
    return ids[2:-1:2]


def words(phonemes: list[int], space: int) -> list[tuple[int, ...]]:
    out, word = [], []
    for phoneme in phonemes:
        if phoneme == space:
            out.append(tuple(word))
            word = []
        else:
            word.append(phoneme)
    out.append(tuple(word))
    return out


def test_phoneme_ids_equal_piper_tts(voices, reference):
    id_map = reference.config.phoneme_id_map
    name_of = {ids[0]: key for key, ids in id_map.items()}
    space = id_map[" "][0]
    punctuation = {id_map[mark][0] for mark in ".,!?;:"}
    sentences = equal = 0
    total_words = differing_words = 0
    differences: list[str] = []
    # One `narrate phonemes` reads every text, each on its own, one after another: its sentences
    # are split among the texts by where each sentence's text is found.
    all_texts = texts()
    everything = our_sentences_of_texts(all_texts, voices)
    for text in all_texts:
        theirs = [reference.phonemes_to_ids(phonemes) for phonemes in reference.phonemize(text) if phonemes]
        ours, position = [], 0
        while everything and (found := text.find(everything[0]["text"].strip(), position)) >= 0:
            position = found + len(everything[0]["text"].strip())
            ours.append(everything.pop(0)["ids"])
        assert len(ours) == len(theirs), f"{len(ours)} sentences against piper's {len(theirs)} in: {text[:120]}"
        for mine, its in zip(ours, theirs):
            sentences += 1
            if mine == its:
                equal += 1
                total_words += len(words(phonemes_of(mine), space))
                continue
            # What is Narrate's own must be equal: the clause punctuation, in order.
            mine_phonemes, its_phonemes = phonemes_of(mine), phonemes_of(its)
            assert [p for p in mine_phonemes if p in punctuation] == [p for p in its_phonemes if p in punctuation], (
                f"punctuation differs in: {text[:160]}")
            mine_words, its_words = words(mine_phonemes, space), words(its_phonemes, space)
            total_words += len(its_words)
            if len(mine_words) != len(its_words):
                # eSpeak versions join or split a word differently ("təbi"): one difference.
                differing_words += abs(len(mine_words) - len(its_words)) + 1
                differences.append(f"{''.join(name_of[p] for p in mine_phonemes)}  |  {''.join(name_of[p] for p in its_phonemes)}")
                continue
            for a, b in zip(mine_words, its_words):
                if a != b:
                    differing_words += 1
                    differences.append(f"{''.join(name_of[p] for p in a)}  |  {''.join(name_of[p] for p in b)}")
    assert not everything, f"sentences of no text: {everything[:3]}"
    report = CHECKOUT / ".build" / "piper-phoneme-differences.txt"
    report.parent.mkdir(exist_ok=True)
    report.write_text("Narrate (system eSpeak NG)  |  piper-tts (its eSpeak NG 1.52)\n" + "\n".join(sorted(set(differences))) + "\n")
    print(f"\n{sentences} sentences, {equal} with equal ids; {differing_words} of {total_words} words differ (eSpeak NG versions), listed in {report}:")
    for line in sorted(set(differences))[:40]:
        print("   ", line)
    assert sentences >= 200
    # The versions differ in a few vowels ("ɔːɹ"/"oːɹ") and a linking "ʲ": a small share of words.
    assert differing_words <= 0.12 * total_words, f"{differing_words} of {total_words} words differ"
