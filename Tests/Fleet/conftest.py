"""One SeaweedFS server for the session, and `Machine`: a `narrate` with a local cache of its
own and the shared store, as one machine of a fleet."""

from __future__ import annotations

import filecmp
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from seaweed import ACCESS_KEY, BUCKET, REGION, SECRET_KEY, Credentials, seaweed

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
BOOK = CORPUS / "epub" / "childrens-literature.epub"
CHAPTERS = "1-3"

# Every line any `narrate` printed in this session, for the test that no secret leaked.
OUTPUTS: list[str] = []


@pytest.fixture(scope="session")
def s3(tmp_path_factory):
    with seaweed(tmp_path_factory.mktemp("seaweed")) as server:
        yield server


class Machine:
    """`narrate` with its own HOME, local cache and library, and the store at `prefix`."""

    def __init__(self, root: Path, s3, prefix: str, credentials: Credentials | None = None, endpoint: str | None = None, extra_env: dict | None = None):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.cache = root / "cache"
        credentials = credentials or Credentials(ACCESS_KEY, SECRET_KEY)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "NARRATE_"))}
        self.env.update(
            HOME=str(root), NARRATE_CACHE_DIR=str(self.cache), NARRATE_LIBRARY=str(root / "library.sqlite"),
            NARRATE_CACHE_STORE=f"s3://{BUCKET}/{prefix}", AWS_ENDPOINT_URL=endpoint or s3.endpoint, AWS_REGION=REGION,
            AWS_ACCESS_KEY_ID=credentials.access_key, AWS_SECRET_ACCESS_KEY=credentials.secret_key,
        )
        # A request's limit well above what a loaded CI machine needs; the tests of the limit
        # itself pass --cache-store-timeout, which wins over this.
        self.env["NARRATE_CACHE_STORE_TIMEOUT"] = "60"
        if credentials.session_token:
            self.env["AWS_SESSION_TOKEN"] = credentials.session_token
        self.env.update(extra_env or {})

    def run(self, *arguments: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run([os.environ["NARRATE_BIN"], *arguments], env=self.env, capture_output=True, text=True, timeout=timeout)
        OUTPUTS.extend([result.stdout, result.stderr])
        if check:
            assert result.returncode == 0, result.stderr
        return result

    def book(self, out: Path, *arguments: str, **options) -> subprocess.CompletedProcess:
        return self.run("book", str(BOOK), "--chapters", CHAPTERS, "-o", str(out), "--format", "wav", "--split", "chapter",
                        "--voice", "en-us", "--verbose", *arguments, **options)

    def store_counts(self) -> dict:
        stats = json.loads(self.run("cache", "stats", "--json").stdout)
        assert "entryCount" in stats  # the local tier's figures stay at the top
        return stats["store"]["counts"]

    def spawn(self, *arguments: str, **popen) -> subprocess.Popen:
        return subprocess.Popen([os.environ["NARRATE_BIN"], *arguments], env=self.env, **popen)


def synthesized(result: subprocess.CompletedProcess) -> int:
    """How many chunks the run synthesized (each miss is logged with --verbose)."""
    return result.stderr.count("cache miss")


def warnings(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in result.stderr.splitlines() if " warning " in line or line.startswith("warning")]


def same_export(a: Path, b: Path) -> None:
    names = sorted(p.name for p in a.iterdir() if p.suffix in (".wav", ".json", ".m3u8"))
    assert names == sorted(p.name for p in b.iterdir() if p.suffix in (".wav", ".json", ".m3u8"))
    assert any(name.endswith(".wav") for name in names)
    for name in names:
        assert filecmp.cmp(a / name, b / name, shallow=False), f"{name} differs"


@pytest.fixture(scope="session")
def reference(tmp_path_factory) -> Path:
    """The book exported on one machine without a store: what every fleet run must equal."""
    root = tmp_path_factory.mktemp("reference")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "NARRATE_"))}
    env.update(HOME=str(root), NARRATE_CACHE_DIR=str(root / "cache"), NARRATE_LIBRARY=str(root / "library.sqlite"))
    out = root / "out"
    result = subprocess.run([os.environ["NARRATE_BIN"], "book", str(BOOK), "--chapters", CHAPTERS, "-o", str(out), "--format", "wav",
                             "--split", "chapter", "--voice", "en-us", "--quiet"], env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return out


def wait_for(predicate, timeout: float = 20.0, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("timed out waiting")
