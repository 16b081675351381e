"""Fixtures of the listening room's tests: a `narrate serve` (the helpers of the service's own
end-to-end tests, Tests/ServiceClients) and a headless Chromium driven by Selenium, with
autoplay allowed and the sound muted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ServiceClients"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from narrate_service import start_server  # noqa: E402
from room_support import chromium  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with start_server(tmp_path_factory.mktemp("room")) as running:
        yield running


@pytest.fixture
def browser():
    driver = chromium()
    yield driver
    driver.quit()
