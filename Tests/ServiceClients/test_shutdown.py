"""SIGTERM while a long answer is streaming to a client slower than the server: the answer
completes, whole, and the server exits 0 (the exit status is checked by start_server)."""

from __future__ import annotations

import signal
import socket
import time

import pytest
import requests

from narrate_service import narrate_say, parse_wav, start_server

TEXT = " ".join(
    f"Paragraph {n} goes on for a while, so that the answer is still streaming when the server is told to stop."
    for n in range(1, 36)
)  # about 3,700 characters: 9 MB of WAV, more than the sockets' buffers hold


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with start_server(tmp_path_factory.mktemp("serve-shutdown"), workers=1) as running:
        yield running


def test_sigterm_finishes_the_answer_in_flight(server, tmp_path):
    assert len(TEXT) <= 4096
    body = {"model": "tts-1", "voice": "alloy", "input": TEXT, "response_format": "wav"}
    received = b""
    with requests.post(server.v1 + "/audio/speech", json=body, stream=True, timeout=120) as response:
        assert response.status_code == 200
        parts = response.iter_content(chunk_size=65536)
        received += next(parts)
        server.process.send_signal(signal.SIGTERM)
        # Read on at about 3 MB/s, as a client slower than the server does (one that plays or
        # stores what comes): the end of the answer is still on its way when the server,
        # told to stop, has written it all.
        try:
            for part in parts:
                received += part
                time.sleep(len(part) / 3_000_000)
        except requests.exceptions.ChunkedEncodingError as error:
            pytest.fail(f"the answer was cut off after {len(received)} bytes by SIGTERM: {error}")
    # The whole answer, not a cut-off one.
    assert parse_wav(received).pcm == parse_wav(narrate_say(TEXT, "alloy", tmp_path)).pcm
    assert server.process.wait(timeout=40) == 0
    # Stopped: nobody listens any more.
    with pytest.raises(OSError):
        host, port = server.http.removeprefix("http://").rsplit(":", 1)
        socket.create_connection((host, int(port)), timeout=2).close()
