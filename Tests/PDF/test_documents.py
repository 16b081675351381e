"""PDFs printed by LibreOffice and Chromium from the corpus texts, read by `narrate`: the words
narrated are the source's in order (word error rate under 1%), no running head, foot or page
number is read, footnotes are not read, the chapters are the source's."""

from __future__ import annotations

import pytest

import sources
from narration_checks import assert_words_narrated

PRINTED = ["libreoffice.pdf", "chromium.pdf"]


@pytest.mark.parametrize("name", PRINTED)
def test_the_words_narrated_are_the_sources_in_order(made, narrate, name):
    document = made[name]
    assert_words_narrated(narrate, document, name, "a footnote")


@pytest.mark.parametrize("name", PRINTED)
def test_no_running_head_foot_or_page_number_is_read(made, narrate, name):
    document = made[name]
    text = narrate.ok("text", str(document.path))
    narrated = sources.tokens(text)
    source_words = set(document.source.body_words())
    for word in document.running:
        assert word not in narrated or word in source_words, f"{name}: the running word '{word}' was read"
    # No number is heard that the source does not hold (page numbers, Chromium's "3/12").
    numbers = [word for word in narrated if word.isdigit()]
    assert numbers == [word for word in document.expected_words if word.isdigit()], numbers[:20]
    # The title in the running head is heard no more often than the source has it.
    assert text.count(document.source.title) <= sum(block.text.count(document.source.title) for block in document.source.blocks)


@pytest.mark.parametrize("name", PRINTED)
def test_the_chapters_are_the_sources(made, narrate, name):
    document = made[name]
    entries = narrate.json("toc", str(document.path))
    titles = [entry["title"] for entry in entries]
    expected = [title for title, _ in document.source.chapters()]
    if name == "chromium.pdf":
        # No outline: chapters from headings that start a page; the section heading does not.
        expected = [title for title, depth in document.source.chapters() if depth == 0]
    else:
        assert [entry["depth"] for entry in entries] == [depth for _, depth in document.source.chapters()]
    assert titles == expected
    pages = [entry["pageIndex"] for entry in entries]
    assert pages == sorted(pages) and pages[0] >= 1


def test_title_author_and_format_come_through_and_notes_are_listed_as_skipped(made, narrate):
    document = made["libreoffice.pdf"]
    shown = narrate.json("show", str(document.path))
    assert shown["title"] == document.source.title
    assert shown["authors"] == [document.source.author]
    assert shown["format"] == "pdf"
    assert "notes" in [item["kind"] for item in shown["skipped"]], shown["skipped"]


def test_the_pages_are_the_printed_pages_labelled_as_printed(made, narrate):
    document = made["libreoffice.pdf"]
    pages = narrate.json("pages", str(document.path))
    assert len(pages) >= 8
    assert [page["label"] for page in pages[:3]] == ["1", "2", "3"]


def test_add_puts_the_pdfs_in_the_library_and_list_shows_the_format(made, tmp_path):
    from conftest import Narrate

    library = Narrate(tmp_path)
    added = library.run("add", *(str(made[name].path) for name in PRINTED))
    assert added.returncode == 0, added.stderr
    assert sorted(book["format"] for book in library.json("list")) == ["pdf", "pdf"]
    assert "[PDF, " in library.ok("list")
