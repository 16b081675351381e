"""The pool's hub (`narrate-worker --hub`, started by `narrate serve`'s worker pool and ended with
it): its templates fork the workers' zygotes of a Piper voice. A peer that connects and says
nothing delays no one and is dropped; a peer without the pool's secret gets nothing, whatever it
sends; a template whose load hangs is killed at its load limit (the text's deadline, at least a
minute) and the worker speaks the text with a zygote of its own; and a worker hands its secret and
descriptors only to the hub its pool started, never to whoever binds the hub's name after it died."""

from __future__ import annotations

import os
import re
import signal
import socket
import struct
import threading
import time
from pathlib import Path

from openai import OpenAI

from piper_support import CHECKOUT, VOICE, parse_wav, run_narrate
from voice_suite import children, is_hub, serving

TEXT = "The hub hands this worker a zygote of the voice."


def environment(pid: int) -> dict[str, str]:
    pairs = [entry.split("=", 1) for entry in Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0") if "=" in entry]
    return dict(pairs)


def the_hub(server) -> int:
    hubs = [pid for pid in children(server.process.pid) if is_hub(pid)]
    assert len(hubs) == 1, children(server.process.pid)
    return hubs[0]


def speak(server, text: str = TEXT) -> bytes:
    client = OpenAI(base_url=server.v1, api_key="unused", max_retries=0, timeout=300)
    return client.audio.speech.create(model="tts-1", voice=VOICE, input=text, response_format="wav").content


def fresh(text: str, voices: Path, tmp_path: Path) -> bytes:
    output = tmp_path / "fresh.wav"
    run_narrate(["say", text, "--voice", VOICE, "-o", str(output), "-q", "--no-cache"], voices)
    return parse_wav(output.read_bytes()).pcm


def connect(hub: int) -> socket.socket:
    """A client of the hub's abstract socket, as any process of this user in the namespace can be."""
    peer = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    peer.connect("\0narrate-worker-hub/" + environment(hub)["NARRATE_WORKER_HUB"])
    return peer


def request_bytes(secret: bytes, voice: str = "en-us") -> bytes:
    """A hub_request (hub.h): the secret (64 bytes), voice_settings (the voice, NUL-padded to
    NARRATE_WORKER_MAX_VOICE_BYTES + 1 and aligned to 4; rate, volume, pitch, word gap), the
    sample rate and the deadline."""
    header = (CHECKOUT / "Sources" / "CNarrateSystem" / "include" / "narrate_worker_protocol.h").read_text()
    most = int(re.search(r"#define NARRATE_WORKER_MAX_VOICE_BYTES\s+(\d+)", header).group(1))
    voice_field = (most + 1 + 3) // 4 * 4
    return (secret.ljust(64, b"\0") + voice.encode().ljust(voice_field, b"\0")
            + struct.pack("<iiii", 175, 100, 50, 0) + struct.pack("<iI", 22050, 10000))


def ask(peer: socket.socket, request: bytes) -> bytes:
    """Sends a request and descriptors as a worker does; what the hub answers ('' when it closed)."""
    reads, writes = os.pipe()
    try:
        peer.settimeout(600)  # a watchdog only: the hub answers within its bounds
        peer.sendmsg([request])
        socket.send_fds(peer, [b"\0"], [reads, writes, writes, writes])
        message, _, _, _ = peer.recvmsg(64, socket.CMSG_SPACE(4))
        return message
    except (ConnectionResetError, BrokenPipeError):
        return b""  # the hub ended the connection with what was sent unread
    finally:
        os.close(reads)
        os.close(writes)
        peer.close()


def test_a_peer_that_says_nothing_delays_no_one_and_is_dropped(voices, tmp_path):
    with serving(voices, tmp_path / "serve") as server:
        hub = the_hub(server)
        # Given a peer of the same user that connects and says nothing
        silent = connect(hub)
        # When a worker asks for a zygote meanwhile
        answer = speak(server)
        # Then its text was spoken by a zygote the hub's template forked, as a fresh process speaks it
        templates = children(hub)
        assert len(templates) == 1 and children(templates[0]), (templates, [children(template) for template in templates])
        assert parse_wav(answer).pcm == fresh(TEXT, voices, tmp_path)
        # and the silent peer is dropped (the hub ends the connection)
        silent.settimeout(600)
        assert silent.recv(64) == b""


def test_a_peer_without_the_pools_secret_gets_nothing(voices, tmp_path):
    with serving(voices, tmp_path / "serve") as server:
        hub = the_hub(server)
        secret = environment(hub)["NARRATE_WORKER_HUB_SECRET"].encode()
        assert len(secret) >= 32
        # Given peers of the same user: two with a wrong secret, one with none
        wrong = bytes(reversed(secret))
        # When they ask as a worker asks
        answers = [ask(connect(hub), request_bytes(candidate)) for candidate in (wrong, b"x" * 64, b"")]
        # Then the hub ends each connection without an answer, and logs the refusal once
        assert answers == [b"", b"", b""], answers
        # while the same request with the secret is answered (no zygote: an eSpeak voice has none)
        assert ask(connect(hub), request_bytes(secret)) == struct.pack("<i", 0)
        log = server.log.read_text(errors="replace")
        assert log.count("refused a client without this pool's secret") == 1, log
        # and the pool's own workers are served as before
        assert parse_wav(speak(server)).pcm == fresh(TEXT, voices, tmp_path)


def test_a_template_whose_load_hangs_is_killed_at_its_load_limit_and_the_text_spoken_without_it(voices, tmp_path):
    expected = fresh(TEXT, voices, tmp_path)
    os.environ["NARRATE_WORKER_HANG_TEMPLATE"] = "1"
    # The least load limit shortened from a minute: the hang is stopped after 5 s on the engine clock.
    os.environ["NARRATE_ENGINE_LEAST_LOAD_MS"] = "5000"
    try:
        with serving(voices, tmp_path / "serve") as server:
            hub = the_hub(server)
            # When a worker asks for a zygote and the template never loads
            answer = speak(server)
            # Then the text was spoken all the same, by the worker's own zygote
            assert parse_wav(answer).pcm == expected
            # and the hung template is gone
            assert children(hub) == []
            workers = [pid for pid in children(server.process.pid) if pid != hub]
            assert any(children(worker) for worker in workers), "no worker has a zygote of its own"
    finally:
        os.environ.pop("NARRATE_WORKER_HANG_TEMPLATE", None)
        os.environ.pop("NARRATE_ENGINE_LEAST_LOAD_MS", None)


class Impostor:
    """A process of the same user that binds a dead hub's name and keeps what any client sends it."""

    def __init__(self, name: str):
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.listener.bind("\0narrate-worker-hub/" + name)
        self.listener.listen(8)
        self.connections = 0
        self.received: list[bytes] = []
        self.handled = threading.Event()  # a client came and went
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            client.settimeout(600)  # a watchdog only: a worker that refuses closes at once
            with client:
                while True:
                    try:
                        message, descriptors, _, _ = socket.recv_fds(client, 4096, 8)
                    except OSError:
                        break
                    for descriptor in descriptors:
                        os.close(descriptor)
                    if not message and not descriptors:
                        break
                    self.received.append(message)
            self.handled.set()

    def close(self):
        self.listener.close()


def wait_gone(pid: int):
    """Waits (a watchdog of minutes, not a bound) until `pid` has left /proc."""
    until = time.monotonic() + 300
    while Path(f"/proc/{pid}").exists():
        assert time.monotonic() < until, f"process {pid} did not end"
        time.sleep(0.05)


def test_a_worker_hands_its_secret_only_to_the_hub_its_pool_started(voices, tmp_path):
    later = "A worker whose hub died speaks this with a zygote of its own."
    expected = fresh(later, voices, tmp_path)
    with serving(voices, tmp_path / "serve") as server:
        hub = the_hub(server)
        name = environment(hub)["NARRATE_WORKER_HUB"]
        secret = environment(hub)["NARRATE_WORKER_HUB_SECRET"].encode()
        # Given workers whose zygotes came from the pool's hub
        for text in (TEXT, "And a second text, so that both workers have spoken."):
            speak(server, text)
        # When the hub dies (its templates and zygotes with it) and another process of this user
        # binds its name
        os.kill(hub, signal.SIGKILL)
        wait_gone(hub)
        impostor = Impostor(name)
        try:
            # Then the next text is spoken all the same, as a fresh process speaks it
            assert parse_wav(speak(server, later)).pcm == expected
            # by a zygote the worker forked itself,
            workers = [pid for pid in children(server.process.pid) if not is_hub(pid)]
            assert any(children(worker) for worker in workers), "no worker has a zygote of its own"
            # after it reached the impostor and sent it nothing: no secret, no descriptors
            assert impostor.handled.wait(600), "no worker asked the dead hub's name for a zygote"
            assert impostor.received == [], impostor.received
            assert all(secret not in message for message in impostor.received)
        finally:
            impostor.close()
