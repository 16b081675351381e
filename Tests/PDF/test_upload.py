"""PDFs uploaded to `narrate serve`: one under the wrong name and type is read by its content and
served as a PDF; an encrypted one is refused with its own code; a scan, a cut one and a bomb are
refused too, and the service answers its next request each time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import documents

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ServiceClients"))

from narrate_service import start_server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with start_server(tmp_path_factory.mktemp("serve")) as running:
        yield running


def upload(server, data: bytes, name: str = "notes.txt", content_type: str = "text/plain"):
    # A bomb is read for as long as narrate-pdf's bounds allow; on a loaded machine that is long.
    return server.request("POST", f"/v1/books?filename={name}", data=data, headers={"Content-Type": content_type}, timeout=300)


def test_a_pdf_with_the_wrong_extension_is_read_by_its_content(made, server):
    document = made["libreoffice.pdf"]
    uploaded = upload(server, document.path.read_bytes())
    assert uploaded.status_code == 201, uploaded.text
    book = uploaded.json()
    assert book["format"] == "pdf"
    assert book["title"] == document.source.title
    toc = server.get(f"/v1/books/{book['id']}/toc").json()
    assert [chapter["title"] for chapter in toc["chapters"]] == [title for title, _ in document.source.chapters()]


def test_an_encrypted_upload_is_refused_with_its_own_code(made, server):
    refused = upload(server, made["encrypted.pdf"].path.read_bytes(), "book.pdf", "application/pdf")
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "encrypted_book"
    assert error["message"].startswith("The uploaded file is encrypted")
    assert server.get("/healthz").status_code == 200


def test_a_scan_a_cut_file_and_a_bomb_are_refused_and_the_service_answers_on(made, server, tmp_path):
    scan = upload(server, made["scan.pdf"].path.read_bytes(), "scan.pdf", "application/pdf")
    assert scan.status_code == 422 and scan.json()["error"]["code"] == "no_text_layer"
    data = made["libreoffice.pdf"].path.read_bytes()
    cut = upload(server, data[:400], "cut.pdf", "application/pdf")
    assert cut.status_code == 422, cut.text
    documents.bomb_pdf(tmp_path / "bomb.pdf", "stream")
    bomb = upload(server, (tmp_path / "bomb.pdf").read_bytes(), "bomb.pdf", "application/pdf")
    assert bomb.status_code == 422, bomb.text
    assert server.get("/healthz").status_code == 200
    again = upload(server, data, "book.pdf", "application/pdf")
    assert again.status_code in (200, 201)
