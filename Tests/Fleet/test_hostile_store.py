"""A store that misbehaves after its headers, and a bucket someone else wrote: narration ends
within the request limit with one warning, and a fleet key keeps planted objects out."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import Machine, warnings
from seaweed import BUCKET

TEXT = "Hello there. This sentence goes to a store that misbehaves."


class FaultyStore:
    """A raw HTTP server: every request gets `mode`'s answer, on a thread per connection."""

    def __init__(self, mode: str):
        self.mode = mode
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.stop = threading.Event()
        self.requests: list[str] = []
        self.flooded = 0
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}"

    def _accept(self):
        self.listener.settimeout(0.2)
        while not self.stop.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                continue
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket):
        with connection:
            head = b""
            while b"\r\n\r\n" not in head:
                piece = connection.recv(65536)
                if not piece:
                    return
                head += piece
            method = head.split(b" ", 1)[0].decode()
            self.requests.append(method)
            try:
                if self.mode == "flood" and method == "GET":
                    connection.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                elif self.mode == "flood":
                    connection.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
                    block = b"A" * 65536
                    while not self.stop.is_set() and self.flooded < 1 << 30:
                        connection.sendall(block)
                        self.flooded += len(block)
                elif self.mode == "stall":
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nN")
                    self.stop.wait(120)
                elif self.mode == "trickle":
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
                    for _ in range(100000):
                        if self.stop.wait(0.5):
                            break
                        connection.sendall(b"N")
                elif self.mode == "short":
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\nNRTC")
            except OSError:
                pass

    def close(self):
        self.stop.set()
        self.listener.close()


def _reference(tmp_path: Path) -> bytes:
    machine = Machine(tmp_path / "reference", None, "none", endpoint="http://127.0.0.1:9")
    machine.env.pop("NARRATE_CACHE_STORE")
    machine.run("say", TEXT, "-o", str(tmp_path / "reference.wav"), "--no-cache")
    return (tmp_path / "reference.wav").read_bytes()


@pytest.mark.parametrize("mode", ["stall", "trickle", "short", "flood"])
def test_a_store_that_misbehaves_after_its_headers_costs_one_warning_and_its_limit(tmp_path, mode):
    # Given: a store that stalls, trickles, cuts short or floods its answers
    store = FaultyStore(mode)
    try:
        machine = Machine(tmp_path / "m", None, f"hostile-{mode}", endpoint=store.endpoint)

        # When: a sentence is narrated with a 1 s limit per request and a 1 s drain
        started = time.monotonic()
        result = machine.run("say", TEXT, "-o", str(tmp_path / "out.wav"), "--cache-store-timeout", "1", "--cache-store-drain", "1", timeout=120)
        elapsed = time.monotonic() - started
    finally:
        store.close()

    # Then: the audio is the engine's, the store was asked, one line said so, and the wait was bounded
    assert (tmp_path / "out.wav").read_bytes() == _reference(tmp_path)
    assert store.requests, "the store was never asked"
    assert len(warnings(result)) <= 2, result.stderr
    assert any("cache store" in line for line in warnings(result)) or mode == "short", result.stderr
    assert elapsed < 120, elapsed  # a watchdog: a hang would wait forever
    if mode == "flood":
        assert store.flooded < 64 << 20, store.flooded


def _key_file(root: Path, key: str = "0123456789abcdef0123456789abcdef") -> str:
    root.mkdir(parents=True, exist_ok=True)
    path = root / "fleet.key"
    path.write_text(key + "\n")
    return str(path)


def _crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def _forge(entry: bytes, key_hex: str) -> bytes:
    """Another entry's audio under `key_hex`: its key field rewritten and its checksum made
    right, as anyone who can write the bucket can do."""
    body = entry[:8] + bytes.fromhex(key_hex) + entry[40:-4]
    return body + _crc32c(body).to_bytes(4, "little")


def _objects(s3, prefix: str) -> list[str]:
    listing = s3.request("GET", "", bucket=BUCKET).body.decode(errors="replace")
    return [part.split("</Key>")[0] for part in listing.split("<Key>")[1:] if part.startswith(prefix + "/")]


def test_a_forged_object_fools_a_fleet_without_a_key_and_not_one_with_it(s3, tmp_path):
    # Given: the sentence made by the fleet, and other audio forged under its key
    key = _key_file(tmp_path)
    sealed = {"NARRATE_CACHE_STORE_KEY_FILE": key}
    writer = Machine(tmp_path / "w", s3, "sealed", extra_env=sealed)
    writer.run("say", TEXT, "-o", str(tmp_path / "good.wav"))
    [name] = _objects(s3, "sealed")
    assert s3.request("GET", name).headers.get("x-amz-meta-narrate-seal"), "uploads carry the seal"
    stranger = Machine(tmp_path / "s", s3, "stranger")
    stranger.run("say", "Something else entirely, planted by a stranger.", "-o", str(tmp_path / "planted.wav"))
    [source] = _objects(s3, "stranger")
    forged = _forge(s3.request("GET", source).body, name.rsplit("/", 1)[1])
    assert s3.request("PUT", name, forged).status == 200

    # When: a machine without the key, and one with it, read the sentence
    unkeyed = Machine(tmp_path / "u", s3, "sealed", extra_env={"NARRATE_CACHE_STORE_MODE": "read-only"})
    unkeyed.run("say", TEXT, "-o", str(tmp_path / "unkeyed.wav"))
    keyed = Machine(tmp_path / "k", s3, "sealed", extra_env=sealed)
    result = keyed.run("say", TEXT, "-o", str(tmp_path / "keyed.wav"))

    # Then: without a key the forgery is served (the trust model the README states); with
    # it, the forgery is refused once and replaced by the sentence, sealed
    assert (tmp_path / "unkeyed.wav").read_bytes() != (tmp_path / "good.wav").read_bytes()
    assert (tmp_path / "keyed.wav").read_bytes() == (tmp_path / "good.wav").read_bytes()
    assert len([line for line in warnings(result) if "fleet key's seal" in line]) == 1, result.stderr
    replaced = s3.request("GET", name)
    assert replaced.body != forged and replaced.headers.get("x-amz-meta-narrate-seal")


def test_a_fleet_key_file_that_is_missing_or_short_gets_one_line(s3, tmp_path):
    for path, expected in [(str(tmp_path / "nowhere.key"), "cannot be read"), (_key_file(tmp_path / "short", "short"), "openssl rand -hex 32")]:
        machine = Machine(tmp_path / "m", s3, "badkey", extra_env={"NARRATE_CACHE_STORE_KEY_FILE": path})
        result = machine.run("say", TEXT, "-o", str(tmp_path / "x.wav"), check=False)
        assert result.returncode != 0
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and expected in lines[0] and "NARRATE_CACHE_STORE_KEY_FILE" in lines[0], result.stderr
        assert not (tmp_path / "x.wav").exists()
