"""Fixtures of the end-to-end tests of `narrate serve` (see narrate_service.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from narrate_service import start_server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server for the whole module, without API keys."""
    with start_server(tmp_path_factory.mktemp("serve")) as running:
        yield running
