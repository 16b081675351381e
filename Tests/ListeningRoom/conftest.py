"""Fixtures of the listening room's tests: a `narrate serve` (the helpers of the service's own
end-to-end tests, Tests/ServiceClients) and a headless Chromium driven by Selenium, with
autoplay allowed and the sound muted; each test's screen is saved in .build/web-screenshots."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ServiceClients"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from narrate_service import start_server  # noqa: E402
from room_support import chromium, finish  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with start_server(tmp_path_factory.mktemp("room")) as running:
        yield running


@pytest.fixture
def browser(request):
    """A browser for one test; afterwards its screen is saved and its console must hold no
    error (a test marked `http_errors_expected` may provoke 4xx answers)."""
    driver = chromium()
    try:
        yield driver
        finish(driver, request.node.name, http_errors_expected=request.node.get_closest_marker("http_errors_expected") is not None)
    finally:
        driver.quit()
