"""A DOCX, an ODT and an FB2 uploaded to `narrate serve` under the wrong name and type: read by
their content, served with their format; a damaged one refused, and the service answers on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ServiceClients"))

from narrate_service import start_server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with start_server(tmp_path_factory.mktemp("serve")) as running:
        yield running


@pytest.mark.parametrize(("name", "format"), [("libreoffice.docx", "docx"), ("pandoc.odt", "odt"), ("pandoc.fb2", "fb2")])
def test_an_upload_with_the_wrong_extension_is_read_by_its_content(made, server, name, format):
    document = made[name]
    uploaded = server.request("POST", "/v1/books?filename=notes.txt", data=document.path.read_bytes(), headers={"Content-Type": "text/plain"})
    assert uploaded.status_code == 201, uploaded.text
    book = uploaded.json()
    assert book["format"] == format
    assert book["title"] == document.source.title
    toc = server.get(f"/v1/books/{book['id']}/toc").json()
    titles = [chapter["title"] for chapter in toc["chapters"]]
    assert titles == [title for title, _ in document.source.chapters()]
    listed = {entry["id"]: entry["format"] for entry in server.get("/v1/books").json()["books"]}
    assert listed[book["id"]] == format


def test_a_damaged_upload_is_refused_and_the_service_answers_its_next_request(made, server):
    data = made["pandoc.docx"].path.read_bytes()
    refused = server.request("POST", "/v1/books?filename=book.docx", data=data[: len(data) // 2], headers={"Content-Type": "application/octet-stream"})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "unreadable_book"
    assert error["message"].startswith("The uploaded file cannot be read as DOCX")
    assert server.get("/healthz").status_code == 200
    again = server.request("POST", "/v1/books?filename=book.docx", data=data, headers={"Content-Type": "application/octet-stream"})
    assert again.status_code in (200, 201)
