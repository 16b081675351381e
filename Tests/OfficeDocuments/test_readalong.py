"""Subtitles and a read-along EPUB from a DOCX and an FB2, as from any book that is not an
EPUB: the read-along is a new EPUB 3 with the book's text, the cues hold the page's words."""

from __future__ import annotations

import pytest

from narration_checks import assert_epubcheck_passes, assert_subtitles_and_read_along


@pytest.mark.parametrize("name", ["libreoffice.docx", "pandoc.fb2"])
def test_a_page_with_subtitles_and_a_read_along_epub(made, narrate, tmp_path, name):
    epub = assert_subtitles_and_read_along(narrate, made[name].path, tmp_path)
    if name.endswith(".docx"):
        # Once is enough: every book that is not an EPUB has its read-along made the same way
        # (the audiobook suite checks those of text books too).
        assert_epubcheck_passes(epub)
