"""Subtitles and a read-along EPUB from a PDF, as from any book that is not an EPUB: the
read-along is a new EPUB 3 with the PDF's text (checked by epubcheck), the cues hold the page's
words."""

from __future__ import annotations

import os
import shutil

import pytest

from narration_checks import EPUBCHECK, assert_epubcheck_passes, assert_subtitles_and_read_along


def test_a_page_with_subtitles_and_a_read_along_epub(made, narrate, tmp_path):
    epub = assert_subtitles_and_read_along(narrate, made["libreoffice.pdf"].path, tmp_path)
    if not (shutil.which("java") and os.path.exists(EPUBCHECK)):
        pytest.skip("epubcheck is not installed (the office suite installs it)")
    assert_epubcheck_passes(epub)
