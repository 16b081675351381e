"""The texts the documents are made from: the opening chapters of Pride and Prejudice and the
preface of Entre nous (../shared/corpus/txt), as a small structured book (a title, chapters, a
section, paragraphs, a table, footnotes), written out as Markdown for pandoc.

What a listener must hear is `expected_words`: the source's words in reading order, without
its footnotes (each note holds a word found nowhere else in the source, `NOTE_WORDS`, so a note
read aloud is caught)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "txt"

#: One word per footnote, none of them in the source's text.
NOTE_WORDS = ["quokka", "marmalade", "zeppelin"]


@dataclass
class Block:
    kind: str  # "h1", "h2", "p" or "table"
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)
    note: str | None = None


@dataclass
class Source:
    title: str
    author: str
    language: str
    blocks: list[Block]

    def chapters(self) -> list[tuple[str, int]]:
        """The chapters a reader shows: headings, level 1 at depth 0."""
        return [(block.text, 0 if block.kind == "h1" else 1) for block in self.blocks if block.kind in ("h1", "h2")]

    def body_words(self) -> list[str]:
        words: list[str] = []
        for block in self.blocks:
            if block.kind == "table":
                for row in block.rows:
                    for cell in row:
                        words += tokens(cell)
            else:
                words += tokens(block.text)
        return words

    def markdown(self) -> str:
        out = [f"---\ntitle: {self.title}\nauthor: {self.author}\nlang: {self.language}\n---\n"]
        notes = []
        for block in self.blocks:
            if block.kind == "h1":
                out.append(f"# {block.text}\n")
            elif block.kind == "h2":
                out.append(f"## {block.text}\n")
            elif block.kind == "table":
                header, *rows = block.rows
                out.append("| " + " | ".join(header) + " |\n|" + "|".join("---" for _ in header) + "|\n"
                           + "".join("| " + " | ".join(row) + " |\n" for row in rows))
            else:
                text = block.text
                if block.note:
                    notes.append(block.note)
                    text += f"[^{len(notes)}]"
                out.append(text + "\n")
        out += [f"[^{number}]: {note}\n" for number, note in enumerate(notes, 1)]
        return "\n".join(out)


def tokens(text: str) -> list[str]:
    """Words as a listener hears them: letters and digits, lowercased; punctuation, quotes,
    dashes and apostrophes between words are not words."""
    return [word.lower() for word in re.findall(r"[^\W_]+", text)]


def paragraphs(text: str) -> list[str]:
    """Paragraphs of a Gutenberg text, illustrations and `_italics_` marks gone."""
    text = without_illustrations(text)
    result = []
    for paragraph in re.split(r"\n\s*\n", text):
        folded = " ".join(paragraph.split()).replace("_", "")
        if folded:
            result.append(folded)
    return result


def without_illustrations(text: str) -> str:
    """The text without its `[Illustration: … [_Copyright …_]]` notes, brackets balanced."""
    out = []
    index = 0
    while (start := text.find("[Illustration", index)) >= 0:
        out.append(text[index:start])
        depth = 0
        index = start
        while index < len(text):
            depth += {"[": 1, "]": -1}.get(text[index], 0)
            index += 1
            if depth == 0:
                break
    out.append(text[index:])
    return "".join(out)


def pride_and_prejudice() -> Source:
    """Chapters I to III (about 4,000 words), a section heading and a table added, three notes."""
    text = (CORPUS / "pg1342-pride-and-prejudice-cp1252.txt").read_bytes().decode("cp1252").replace("\r", "")
    start = text.index("It is a truth universally acknowledged")
    end = text.index("CHAPTER IV.")
    blocks = [Block("h1", "Chapter I")]
    numerals = iter(["II", "III"])
    for paragraph in paragraphs(text[start:end]):
        if re.fullmatch(r"CHAPTER [IVX]+\.", paragraph):
            blocks.append(Block("h1", f"Chapter {next(numerals)}"))
        else:
            blocks.append(Block("p", paragraph))
    # A section in Chapter II, a table in Chapter I, and notes on three paragraphs.
    second = next(index for index, block in enumerate(blocks) if block.text == "Chapter II")
    blocks.insert(second + 4, Block("h2", "The Visit Is Returned"))
    blocks.insert(3, Block("table", rows=[["Family", "Daughters"], ["Bennet", "five"], ["Lucas", "several"]]))
    for number, index in enumerate((1, second + 2, len(blocks) - 2)):
        blocks[index].note = f"A note the listener does not hear, about a {NOTE_WORDS[number]}."
    return Source("Pride and Prejudice", "Jane Austen", "en-GB", blocks)


def entre_nous() -> Source:
    """The preface of Entre nous, French with accents, curly quotes and ligatures: an FB2 in
    windows-1252 is made from it."""
    text = (CORPUS / "pg44157-entre-nous-french-utf8-bom.txt").read_text(encoding="utf-8-sig").replace("\r", "")
    start = text.index("Inspirée par les si jolis ouvrages")
    end = text.index("Ces livres répondront ainsi")
    found = [paragraph for paragraph in paragraphs(text[start:end]) if not re.match(r"\d", paragraph)]
    blocks = [Block("h1", "Préface"), *[Block("p", paragraph) for paragraph in found[:2]],
              Block("h1", "Les élèves"), *[Block("p", paragraph) for paragraph in found[2:]]]
    blocks[1].note = f"Une note que personne n’entend, sur un {NOTE_WORDS[0]}."
    return Source("Entre nous", "Lucie Vos", "fr", blocks)
