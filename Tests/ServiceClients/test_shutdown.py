"""SIGTERM while the OpenAI SDK is streaming a long answer: the answer completes, whole, and
the server exits 0 (the exit status is checked by start_server)."""

from __future__ import annotations

import signal
import socket
import time

import pytest
from openai import OpenAI

from narrate_service import narrate_say, parse_wav, start_server

TEXT = " ".join(
    f"Paragraph {n} goes on for a while, so that the answer is still streaming when the server is told to stop."
    for n in range(1, 36)
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with start_server(tmp_path_factory.mktemp("serve-shutdown"), workers=1) as running:
        yield running


def test_sigterm_finishes_the_answer_in_flight(server, tmp_path):
    assert len(TEXT) <= 4096
    client = OpenAI(base_url=server.v1, api_key="unused", max_retries=0, timeout=120)
    received = b""
    with client.audio.speech.with_streaming_response.create(
        model="tts-1", voice="alloy", input=TEXT, response_format="wav"
    ) as response:
        parts = response.iter_bytes(chunk_size=65536)
        received += next(parts)
        server.process.send_signal(signal.SIGTERM)
        # Read on at about 4 MB/s, as a client that plays or stores what comes does: slower
        # than the server writes, so the end of the answer is still on its way when the
        # server has nothing else to do.
        for part in parts:
            received += part
            time.sleep(len(part) / 4_000_000)
    # The whole answer, not a cut-off one.
    assert parse_wav(received).pcm == parse_wav(narrate_say(TEXT, "alloy", tmp_path)).pcm
    assert server.process.wait(timeout=40) == 0
    # Stopped: nobody listens any more.
    with pytest.raises(OSError):
        host, port = server.http.removeprefix("http://").rsplit(":", 1)
        socket.create_connection((host, int(port)), timeout=2).close()
