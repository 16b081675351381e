"""Helpers of the end-to-end tests of `narrate serve`: starting and stopping the server,
reading WAV files, ffprobe, `narrate say`, OpenAI-shaped errors.

Each test module gets its own server (the `server` fixture in conftest.py, or one it makes
with `start_server`): the binary on ephemeral ports with a temporary cache and library, stopped
with SIGTERM at the end, when it must exit 0.

The binary is $NARRATE_BIN, else the checkout's .build/release/narrate, else
.build/debug/narrate. Run them all with scripts/test-serve.sh.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import struct
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

CHECKOUT = Path(__file__).resolve().parents[2]
CORPUS = CHECKOUT.parent / "shared" / "corpus"

#: One chunk of text for the engine (its WAV header has real sizes).
SHORT_TEXT = "Call me Ishmael. Some years ago, never mind how long precisely, I thought I would sail about a little."
#: Several chunks (over 700 characters each): streamed, so the WAV sizes are unknown (0xFFFFFFFF).
LONG_TEXT = " ".join(
    f"This is sentence number {n} of a longer text, which the service speaks in several chunks, one after the other."
    for n in range(1, 25)
)

START_TIMEOUT = 30.0
STOP_TIMEOUT = 40.0


def narrate_binary() -> Path:
    explicit = os.environ.get("NARRATE_BIN")
    if explicit:
        return Path(explicit).resolve()
    for configuration in ("release", "debug"):
        candidate = CHECKOUT / ".build" / configuration / "narrate"
        if candidate.exists():
            return candidate
    pytest.exit("no narrate binary: build it (swift build) or set NARRATE_BIN", returncode=2)


@dataclass
class Server:
    """A running `narrate serve`."""

    process: subprocess.Popen
    http: str
    wyoming_host: str
    wyoming_port: int
    directory: Path
    log: Path
    api_keys: list[str] = field(default_factory=list)

    @property
    def v1(self) -> str:
        return self.http + "/v1"

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_keys[0]}"} if self.api_keys else {}

    def get(self, path: str, **kwargs) -> requests.Response:
        kwargs.setdefault("timeout", 60)
        kwargs["headers"] = {**self.headers(), **kwargs.get("headers", {})}
        return requests.get(self.http + path, **kwargs)

    def request(self, method: str, path: str, **kwargs) -> requests.Response:
        kwargs.setdefault("timeout", 60)
        kwargs["headers"] = {**self.headers(), **kwargs.get("headers", {})}
        return requests.request(method, self.http + path, **kwargs)

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> int:
        """SIGTERM, then the exit status (killed after STOP_TIMEOUT seconds: None)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


@contextlib.contextmanager
def start_server(directory: Path, extra_args: list[str] | None = None, api_keys: list[str] | None = None, workers: int = 2):
    """Starts `narrate serve` on ephemeral ports; on leaving, SIGTERM and assert exit 0."""
    directory.mkdir(parents=True, exist_ok=True)
    args = [
        str(narrate_binary()), "serve",
        "--port", "0", "--wyoming-port", "0",
        "--cache-dir", str(directory / "cache"),
        "--library", str(directory / "library.sqlite"),
        "--workers", str(workers),
    ]
    if api_keys:
        key_file = directory / "keys.txt"
        key_file.write_text("# accepted keys\n" + "\n".join(api_keys) + "\n")
        args += ["--api-key-file", str(key_file)]
    args += extra_args or []
    log = directory / "server.log"
    env = {**os.environ, "NO_COLOR": "1"}
    with open(log, "wb") as log_file:
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log_file, stdin=subprocess.DEVNULL, env=env)
    line = _read_line(process, START_TIMEOUT)
    match = re.match(r"Listening on (http://[^ ]+) and tcp://([^ :]+):(\d+)", line or "")
    if not match:
        process.kill()
        process.wait()
        raise RuntimeError(f"narrate serve did not start: stdout {line!r}; log:\n{log.read_text(errors='replace')}")
    if api_keys:
        assert "(no API keys)" not in line
    else:
        assert line.rstrip().endswith("(no API keys)"), line
    server = Server(process, match.group(1), match.group(2), int(match.group(3)), directory, log, list(api_keys or []))
    try:
        yield server
    finally:
        status = server.stop()
        if process.stdout:
            process.stdout.close()
        assert status == 0, f"narrate serve exited {status} after SIGTERM (expected 0); log:\n{server.log_tail()}"


def _read_line(process: subprocess.Popen, timeout: float) -> str | None:
    """The first stdout line, or None when the process ends or time runs out."""
    deadline = time.monotonic() + timeout
    data = b""
    fd = process.stdout.fileno()
    while b"\n" not in data:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        part = os.read(fd, 4096)
        if not part:
            return data.decode(errors="replace") or None
        data += part
    return data.decode(errors="replace").split("\n", 1)[0]


# MARK: - Audio helpers


@dataclass
class WAV:
    rate: int
    channels: int
    bits: int
    pcm: bytes
    riff_size: int
    data_size: int

    @property
    def seconds(self) -> float:
        return len(self.pcm) / (self.rate * self.channels * self.bits // 8)


def parse_wav(data: bytes) -> WAV:
    """Reads a RIFF/WAVE file. A streamed WAV whose length was unknown says 0xFFFFFFFF (or
    any size past the end) in its RIFF and data sizes: its data runs to the end of the file."""
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", f"not a WAV: {data[:16]!r}"
    riff_size = struct.unpack_from("<I", data, 4)[0]
    offset = 12
    fmt = None
    while offset + 8 <= len(data):
        chunk_id = data[offset:offset + 4]
        size = struct.unpack_from("<I", data, offset + 4)[0]
        body_start = offset + 8
        if chunk_id == b"fmt ":
            audio_format, channels, rate, _, _, bits = struct.unpack_from("<HHIIHH", data, body_start)
            assert audio_format == 1, f"not PCM: format {audio_format}"
            fmt = (rate, channels, bits)
        elif chunk_id == b"data":
            assert fmt is not None, "data before fmt"
            end = len(data) if size == 0xFFFFFFFF or body_start + size > len(data) else body_start + size
            return WAV(fmt[0], fmt[1], fmt[2], data[body_start:end], riff_size, size)
        offset = body_start + size + (size & 1)
    raise AssertionError("a WAV without a data chunk")


def narrate_say(text: str, voice: str, directory: Path) -> bytes:
    """What `narrate say TEXT --voice V -o out.wav` writes (without the cache: synthesized anew)."""
    directory.mkdir(parents=True, exist_ok=True)
    output = directory / f"say-{abs(hash((text, voice)))}.wav"
    subprocess.run(
        [str(narrate_binary()), "say", text, "--voice", voice, "-o", str(output), "--no-cache",
         "--cache-dir", str(directory / "say-cache"), "-q"],
        check=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    return output.read_bytes()


def ffprobe(path: Path) -> dict:
    """ffprobe's view of a file (codec, rate, channels, and the duration its headers give, or
    None), and the duration of its audio fully decoded by ffmpeg, which must report no error."""
    result = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration,format_name:stream=codec_name,sample_rate,channels",
         "-of", "json", str(path)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, f"ffprobe failed on {path.name}: {result.stderr}"
    info = json.loads(result.stdout)
    assert info.get("streams"), f"ffprobe found no stream in {path.name}: {info}"
    decode = subprocess.run(
        ["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-f", "s16le", "-ac", "1", "-ar", "48000", "-"],
        capture_output=True, timeout=120,
    )
    errors = decode.stderr.decode(errors="replace").strip()
    assert decode.returncode == 0 and not errors, f"ffmpeg could not decode {path.name} cleanly: {errors}"
    stream = info["streams"][0]
    duration = info["format"].get("duration")
    return {
        "codec": stream["codec_name"],
        "rate": int(stream.get("sample_rate", 0)),
        "channels": int(stream.get("channels", 0)),
        "duration": float(duration) if duration not in (None, "N/A") else None,
        "decoded_duration": len(decode.stdout) / (48000 * 2),
        "format": info["format"]["format_name"],
    }


def error_body(response: requests.Response) -> dict:
    """The OpenAI-shaped error of a response: {"error": {"message", "type", "param", "code"}}."""
    assert response.headers.get("content-type", "").startswith("application/json"), response.headers
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert {"message", "type", "param", "code"} <= set(error), error
    assert isinstance(error["message"], str) and error["message"]
    return error
