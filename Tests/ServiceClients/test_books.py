"""The library over HTTP with a real EPUB from the corpus (The Waste Land, 13 pages)."""

from __future__ import annotations

import pytest

from narrate_service import CORPUS, error_body, ffprobe, narrate_say, parse_wav

EPUB = CORPUS / "epub" / "wasteland.epub"


@pytest.fixture(scope="module")
def book(server) -> dict:
    assert EPUB.exists(), f"the corpus is missing: {EPUB}"
    response = server.request(
        "POST", "/v1/books", params={"filename": EPUB.name}, data=EPUB.read_bytes(),
        headers={"Content-Type": "application/epub+zip"},
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert response.headers["location"] == f"/v1/books/{body['id']}"
    return body


def test_upload(book):
    assert book["id"]
    assert book["title"] == "The Waste Land"
    assert book["authors"] == ["T.S. Eliot"]
    assert book["page_count"] == 13
    assert book["chapter_count"] >= 1
    assert book.get("progress") is None


def test_the_same_file_again_is_the_same_book(server, book):
    response = server.request("POST", "/v1/books", params={"filename": "again.epub"}, data=EPUB.read_bytes())
    assert response.status_code == 200, response.text
    assert response.json()["id"] == book["id"]


def test_list_and_detail(server, book):
    listed = server.get("/v1/books").json()["books"]
    assert [entry["id"] for entry in listed] == [book["id"]]
    assert listed[0]["title"] == "The Waste Land"
    detail = server.get(f"/v1/books/{book['id']}").json()
    assert detail["id"] == book["id"]
    assert detail["page_count"] == 13
    assert detail["language"].startswith("en")


def test_toc_and_pages(server, book):
    toc = server.get(f"/v1/books/{book['id']}/toc").json()
    assert toc["book_id"] == book["id"]
    titles = [chapter["title"] for chapter in toc["chapters"]]
    assert any("BURIAL OF THE DEAD" in title.upper() for title in titles), titles
    pages = server.get(f"/v1/books/{book['id']}/pages").json()["pages"]
    assert len(pages) == 13
    assert [page["index"] for page in pages] == list(range(1, 14))
    assert all(page["words"] > 0 for page in pages)


def test_page_text(server, book):
    response = server.get(f"/v1/books/{book['id']}/pages/2/text")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert "April is the cruellest month" in response.text


def test_page_audio_etag_and_304(server, book, tmp_path):
    path = f"/v1/books/{book['id']}/pages/1/audio"
    params = {"voice": "alloy", "format": "wav"}
    first = server.get(path, params=params)
    assert first.status_code == 200, first.text
    assert first.headers["content-type"] == "audio/wav"
    assert first.headers["accept-ranges"] == "bytes"
    assert int(first.headers["content-length"]) == len(first.content)
    tag = first.headers["etag"]
    wav = parse_wav(first.content)
    assert (wav.rate, wav.channels, wav.bits) == (22050, 1, 16)
    assert wav.data_size == len(wav.pcm)  # rendered whole: the sizes are true

    second = server.get(path, params=params)
    assert second.status_code == 200
    assert second.headers["etag"] == tag
    assert second.content == first.content

    cached = server.get(path, params=params, headers={"If-None-Match": tag})
    assert cached.status_code == 304
    assert cached.content == b""
    assert cached.headers["etag"] == tag

    # It is what `narrate say` makes of the page's text, in the same voice.
    text = server.get(f"/v1/books/{book['id']}/pages/1/text").text
    assert wav.pcm == parse_wav(narrate_say(text, "alloy", tmp_path)).pcm

    # Another format, another tag.
    mp3 = server.get(path, params={"voice": "alloy", "format": "mp3"})
    assert mp3.status_code == 200 and mp3.headers["content-type"] == "audio/mpeg"
    assert mp3.headers["etag"] != tag


def test_page_audio_in_the_book_language_voice(server, book):
    # No voice named: the book's language picks one.
    response = server.get(f"/v1/books/{book['id']}/pages/1/audio", params={"format": "wav"})
    assert response.status_code == 200, response.text
    assert len(parse_wav(response.content).pcm) > 22050


@pytest.mark.parametrize("audio_format, codec", [("mp3", "mp3"), ("flac", "flac"), ("opus", "opus")])
def test_page_audio_files_know_their_duration(server, book, tmp_path, audio_format, codec):
    """A page is rendered whole before it is served (with Range, for seeking): its header says
    how long it is, as a player needs to show and seek."""
    path = f"/v1/books/{book['id']}/pages/1/audio"
    wav = parse_wav(server.get(path, params={"voice": "alloy", "format": "wav"}).content)
    response = server.get(path, params={"voice": "alloy", "format": audio_format})
    assert response.status_code == 200, response.text
    file = tmp_path / f"page.{audio_format}"
    file.write_bytes(response.content)
    info = ffprobe(file)
    assert info["codec"] == codec
    assert abs(info["decoded_duration"] - wav.seconds) <= max(0.15, 0.03 * wav.seconds), info
    assert info["duration"] is not None, f"ffprobe finds no duration in the page's {audio_format}: {info}"
    assert abs(info["duration"] - wav.seconds) <= max(0.15, 0.03 * wav.seconds), info


def test_page_audio_ranges(server, book):
    path = f"/v1/books/{book['id']}/pages/1/audio"
    params = {"voice": "alloy", "format": "wav"}
    whole = server.get(path, params=params)
    assert whole.status_code == 200
    size = len(whole.content)

    part = server.get(path, params=params, headers={"Range": "bytes=0-99"})
    assert part.status_code == 206
    assert part.headers["content-range"] == f"bytes 0-99/{size}"
    assert len(part.content) == 100
    assert part.content == whole.content[:100]

    tail = server.get(path, params=params, headers={"Range": "bytes=-10"})
    assert tail.status_code == 206
    assert tail.content == whole.content[-10:]
    assert tail.headers["content-range"] == f"bytes {size - 10}-{size - 1}/{size}"

    middle = server.get(path, params=params, headers={"Range": f"bytes=100-{size + 1000}"})
    assert middle.status_code == 206
    assert middle.content == whole.content[100:]

    outside = server.get(path, params=params, headers={"Range": f"bytes={size}-"})
    assert outside.status_code == 416
    assert outside.headers["content-range"] == f"bytes */{size}"
    assert error_body(outside)["code"] == "range_not_satisfiable"

    # If-Range with another tag: the whole file.
    stale = server.get(path, params=params, headers={"Range": "bytes=0-99", "If-Range": '"stale"'})
    assert stale.status_code == 200 and stale.content == whole.content


def test_unknown_book_is_404(server):
    for path in ("/v1/books/987654", "/v1/books/987654/pages", "/v1/books/not-a-number", "/v1/books/987654/pages/1/audio"):
        response = server.get(path)
        assert response.status_code == 404, path
        error = error_body(response)
        assert error["type"] == "not_found_error", error


def test_page_past_the_end_is_404(server, book):
    for path in (f"/v1/books/{book['id']}/pages/14/text", f"/v1/books/{book['id']}/pages/9999/audio?format=wav"):
        response = server.get(path)
        assert response.status_code == 404, path
        assert error_body(response)["code"] == "page_not_found"


def test_bad_audio_format_and_voice_are_400(server, book):
    bad_format = server.get(f"/v1/books/{book['id']}/pages/1/audio", params={"format": "ogg"})
    assert bad_format.status_code == 400 and error_body(bad_format)["param"] == "format"
    bad_voice = server.get(f"/v1/books/{book['id']}/pages/1/audio", params={"voice": "no-such-voice"})
    assert bad_voice.status_code == 400 and error_body(bad_voice)["param"] == "voice"


def test_progress(server, book):
    put = server.request("PUT", f"/v1/books/{book['id']}/progress", json={"page": "3"})
    assert put.status_code == 200, put.text
    assert put.json()["page_index"] == 3 and put.json()["page"] == "3"
    shown = server.get(f"/v1/books/{book['id']}").json()["progress"]
    assert shown["page_index"] == 3 and shown["page"] == "3" and shown["updated"]
    listed = server.get("/v1/books").json()["books"][0]["progress"]
    assert listed["page_index"] == 3

    by_index = server.request("PUT", f"/v1/books/{book['id']}/progress", json={"page_index": 5})
    assert by_index.status_code == 200 and by_index.json()["page_index"] == 5
    assert server.get(f"/v1/books/{book['id']}").json()["progress"]["page_index"] == 5

    for body in ({"page_index": 99}, {}, {"page": "99"}):
        refused = server.request("PUT", f"/v1/books/{book['id']}/progress", json=body)
        assert refused.status_code in (400, 404), (body, refused.status_code)
        error_body(refused)
    assert server.get(f"/v1/books/{book['id']}").json()["progress"]["page_index"] == 5


def test_not_a_book_is_refused(server):
    broken = CORPUS / "bad-epub" / "zip-truncated-no-central-directory.epub"
    response = server.request("POST", "/v1/books", params={"filename": "broken.epub"}, data=broken.read_bytes())
    assert response.status_code == 422, response.text
    error = error_body(response)
    assert "uploads/" not in error["message"], error  # no server paths
    empty = server.request("POST", "/v1/books", data=b"")
    assert empty.status_code == 400


def test_delete_last(server, book):
    # Named to run last in this module (pytest keeps file order).
    response = server.request("DELETE", f"/v1/books/{book['id']}")
    assert response.status_code == 204
    assert response.content == b""
    gone = server.get(f"/v1/books/{book['id']}")
    assert gone.status_code == 404
    error_body(gone)
    assert server.get("/v1/books").json()["books"] == []
    assert server.request("DELETE", f"/v1/books/{book['id']}").status_code == 404
