"""DOCX, ODT and FB2 made by pandoc and LibreOffice from the corpus texts, read by `narrate`:
the words narrated are the source's in order (word error rate under 1%), the chapters are the
source's, notes are not read, and the title, author and language come through."""

from __future__ import annotations

import pytest

import sources
from narration_checks import assert_words_narrated

DOCUMENTS = [
    "pandoc.docx", "pandoc-toc.docx", "libreoffice.docx", "pandoc.odt", "libreoffice.odt", "pandoc.fb2", "pandoc.fb2.zip",
    "french-1252.fb2",
]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_words_narrated_are_the_sources_in_order(made, narrate, name):
    document = made[name]
    narrated = assert_words_narrated(narrate, document, name)
    # The contents list pandoc's --toc puts before the text is not read, nor its field code.
    assert "toc" not in narrated and "hyperlink" not in narrated


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_chapters_are_the_sources(made, narrate, name):
    document = made[name]
    entries = narrate.json("toc", str(document.path))
    assert [(entry["title"], entry["depth"]) for entry in entries] == document.source.chapters()
    pages = [entry["pageIndex"] for entry in entries]
    assert pages == sorted(pages) and pages[0] >= 1


@pytest.mark.parametrize("name", DOCUMENTS)
def test_title_author_language_and_format_come_through_and_notes_are_listed_as_skipped(made, narrate, name):
    document = made[name]
    shown = narrate.json("show", str(document.path))
    assert shown["title"] == document.source.title
    assert shown["authors"] == [document.source.author]
    assert shown["format"] == document.format
    # pandoc's FB2 keeps the language's first part (FB2's <lang> is a two-letter code).
    assert (shown.get("language") or "").split("-")[0] == document.source.language.split("-")[0]
    kinds = [item["kind"] for item in shown["skipped"]]
    assert "notes" in kinds, shown["skipped"]
    if name == "pandoc-toc.docx":
        assert "contents" in kinds, shown["skipped"]


def test_add_puts_every_format_in_the_library_and_list_shows_it(made, tmp_path):
    from conftest import Narrate

    library = Narrate(tmp_path)
    added = library.run("add", *(str(made[name].path) for name in DOCUMENTS))
    assert added.returncode == 0, added.stderr
    books = library.json("list")
    assert sorted(book["format"] for book in books) == sorted(made[name].format for name in DOCUMENTS)
    listing = library.ok("list")
    assert "[DOCX, " in listing and "[ODT, " in listing and "[FB2, " in listing
