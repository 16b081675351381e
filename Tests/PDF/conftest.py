"""PDFs made once per session by LibreOffice and Chromium from the corpus texts (documents.py over
../OfficeDocuments/sources.py), and the built `narrate` (NARRATE_BIN) run on them."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "OfficeDocuments"))

import documents  # noqa: E402
import sources  # noqa: E402


def _office_helpers():
    """The office suite's conftest under another name: its `Narrate`, one copy for both suites."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("office_conftest", HERE.parent / "OfficeDocuments" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["office_conftest"] = module
    spec.loader.exec_module(module)
    return module


Narrate = _office_helpers().Narrate


@dataclass
class Made:
    """A PDF, what made it, its source and the chapters it must give."""

    path: Path
    maker: str
    source: sources.Source
    #: Words a listener hears before the first chapter (LibreOffice: none; the title page is the heading's).
    title_page: list[str]
    #: Words of the running heads and feet that must not be heard.
    running: list[str]

    @property
    def expected_words(self) -> list[str]:
        return self.title_page + self.source.body_words()


def run(arguments: list[str], cwd: Path, timeout: float = 300) -> None:
    result = subprocess.run(arguments, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{arguments[0]} failed ({result.returncode}): {result.stderr}"


@pytest.fixture(scope="session")
def made(tmp_path_factory) -> dict[str, Made]:
    folder = tmp_path_factory.mktemp("pdfs")
    book = sources.pride_and_prejudice()
    documents.odt(book, folder / "book.odt", columns_after="The Visit Is Returned")
    documents.page_html(book, folder / "book.html")
    run(["soffice", "--headless", "--norestore", f"-env:UserInstallation=file://{folder / 'profile'}",
         "--convert-to", "pdf:writer_pdf_Export:{\"ExportBookmarks\":{\"type\":\"boolean\",\"value\":\"true\"}}",
         "--outdir", str(folder / "lo"), str(folder / "book.odt")], folder)
    (folder / "lo" / "book.pdf").rename(folder / "libreoffice.pdf")
    run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={folder / 'chromium'}",
         f"--print-to-pdf={folder / 'chromium.pdf'}", (folder / "book.html").as_uri()], folder)
    documents.image_only_pdf(folder / "scan.pdf")
    run(["qpdf", "--encrypt", "reader-pass", "owner-pass", "256", "--", str(folder / "libreoffice.pdf"), str(folder / "encrypted.pdf")], folder)
    return {
        "libreoffice.pdf": Made(folder / "libreoffice.pdf", "LibreOffice", book, [], ["page"]),
        "chromium.pdf": Made(folder / "chromium.pdf", "Chromium", book, [], ["file", "html"]),
        "scan.pdf": Made(folder / "scan.pdf", "by hand", book, [], []),
        "encrypted.pdf": Made(folder / "encrypted.pdf", "qpdf", book, [], ["page"]),
    }


@pytest.fixture(scope="session")
def narrate(tmp_path_factory) -> Narrate:
    return Narrate(tmp_path_factory.mktemp("narrate-home"))

