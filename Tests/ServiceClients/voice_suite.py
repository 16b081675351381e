"""What the test suites of Narrate's neural voices (Tests/PiperVoices, Tests/KokoroVoices) share:
running `narrate` with a voice folder, a bad input's one refused line, a crash that does not come back, `narrate serve` speaking
from a voice folder, and a Wyoming session with it. Needs the wyoming package for `wyoming`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from pathlib import Path

from narrate_service import narrate_binary, start_server


def run_narrate(args: list[str], voices: Path, cache: Path | None = None, env: dict | None = None, timeout: float = 600, check: bool = True,
                input: str | None = None) -> subprocess.CompletedProcess:
    """Runs `narrate ARGS` with the voice folder (and a cache folder, or none)."""
    environment = {**os.environ, "NARRATE_VOICES_DIR": str(voices), "NO_COLOR": "1", **(env or {})}
    if cache is not None:
        environment["NARRATE_CACHE_DIR"] = str(cache)
    result = subprocess.run([str(narrate_binary()), *args], capture_output=True, text=True, env=environment, timeout=timeout, input=input,
                            stdin=None if input is not None else subprocess.DEVNULL)
    if check and result.returncode != 0:
        raise AssertionError(f"narrate {' '.join(args[:3])} … exited {result.returncode}: {result.stderr}")
    return result


def children(pid: int) -> list[int]:
    """The processes `pid` started (of every thread of it), from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(kid) for kid in (task / "children").read_text().split()]
    return found


def is_hub(pid: int) -> bool:
    """Whether `pid` is a worker pool's hub (`narrate-worker --hub`) or one of its templates."""
    return "--hub" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")


def cache_entries(cache: Path) -> list[Path]:
    """The audio cache's entries."""
    return [path for path in cache.rglob("*") if path.is_file() and "objects" in path.parts] if cache.exists() else []


def refused(args: list[str], voices: Path, tmp_path: Path, env: dict | None = None, timeout: float = 300) -> str:
    """Runs a command that must fail: exit 1, one line on standard error (returned), nothing cached."""
    cache = tmp_path / "cache"
    result = run_narrate(args, voices, cache=cache, env=env, check=False, timeout=timeout)
    assert result.returncode == 1, f"exit {result.returncode}: {result.stderr}"
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert cache_entries(cache) == [], "something was cached"
    return lines[0]


def crash_once_costs_nothing(voice: str, text: str, marker: str, voices: Path, tmp_path: Path) -> None:
    """A text whose voice process aborts on `marker` once (the hook fires only for the process
    that creates its flag file) is spoken again by a new one: exit 0, and the bytes of a clean run."""
    flag = tmp_path / "crashed-once"
    result = run_narrate(["say", text, "--voice", voice, "-o", str(tmp_path / "retried.wav"), "-q", "--jobs", "1"], voices, cache=tmp_path / "cache",
                         env={"NARRATE_WORKER_CRASH_ON": marker, "NARRATE_WORKER_HOOKS_ONCE": str(flag)}, check=False)
    run_narrate(["say", text, "--voice", voice, "-o", str(tmp_path / "clean.wav"), "-q"], voices, cache=tmp_path / "clean-cache")
    assert flag.exists(), "the hook never fired"
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "retried.wav").read_bytes() == (tmp_path / "clean.wav").read_bytes()


@contextlib.contextmanager
def serving(voices: Path, directory: Path):
    """`narrate serve` with the voice folder (see narrate_service.start_server)."""
    os.environ["NARRATE_VOICES_DIR"] = str(voices)
    try:
        with start_server(directory) as running:
            yield running
    finally:
        os.environ.pop("NARRATE_VOICES_DIR", None)


def wyoming(server, events: list, until, timeout: float = 300) -> list:
    """Sends `events` to the server's Wyoming port and returns what it answers, up to the first
    event `until` accepts."""
    from wyoming.client import AsyncTcpClient

    async def session():
        received = []
        async with AsyncTcpClient(server.wyoming_host, server.wyoming_port) as client:
            for event in events:
                await client.write_event(event.event())
            while True:
                event = await asyncio.wait_for(client.read_event(), timeout)
                assert event is not None, [e.type for e in received]
                received.append(event)
                if until(event):
                    return received

    return asyncio.run(session())
