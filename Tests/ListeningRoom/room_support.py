"""A headless Chromium for the listening room's tests, driven by Selenium: Debian's chromium
and chromedriver (never a downloaded one), autoplay allowed, the sound muted. With `phone`, it
emulates a 360 px wide phone (a desktop window cannot be that narrow)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium(phone: bool = False) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--mute-audio", "--autoplay-policy=no-user-gesture-required",
                     "--window-size=1280,900", "--disable-gpu"):
        options.add_argument(argument)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 360, "height": 740, "pixelRatio": 2.0}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
    driver.set_page_load_timeout(60)
    return driver


#: Where each test's last screen is saved, to look at after a run.
SCREENSHOTS = Path(__file__).resolve().parents[2] / ".build" / "web-screenshots"

#: What Chromium logs for an answer the test asked for on purpose (a refused book, a wrong key).
HTTP_ERROR = re.compile(r"Failed to load resource: the server responded with a status of 4\d\d")


def finish(driver: webdriver.Chrome, name: str, http_errors_expected: bool = False) -> None:
    """Saves the screen as SCREENSHOTS/NAME.png and fails on any error in the console (beyond
    the 4xx answers a test provoked on purpose)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    if http_errors_expected:
        errors = [message for message in errors if not HTTP_ERROR.search(message)]
    assert not errors, f"the console of {name} shows errors: {errors}"
