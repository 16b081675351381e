"""The listening room's main views, light and dark, at 1280 and 390 px: a screenshot of each
under .build/web-screenshots for review, and axe-core (from PyPI's axe-selenium-python) finding
no serious or critical accessibility violation in the library, the book being played, the
player expanded and the contents drawer (on a phone), and the bookmark and help dialogs."""

from __future__ import annotations

import pytest
import requests
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from room_support import SCREENSHOTS
from narrate_service import CORPUS

WASTELAND = CORPUS / "epub" / "wasteland.epub"


def wait(driver, seconds: float = 60) -> WebDriverWait:
    return WebDriverWait(driver, seconds, poll_frequency=0.2)


def look(driver, scheme: str, width: int) -> None:
    """Shows the page as a `scheme` (light or dark) screen `width` pixels wide."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900 if width > 600 else 844,
                                                                  "deviceScaleFactor": 1 if width > 600 else 2, "mobile": width <= 600})


def serious_violations(driver) -> list[str]:
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results["violations"] if v["impact"] in ("serious", "critical")]


@pytest.fixture(scope="module")
def book(server):
    requests.post(server.v1 + "/books", data=WASTELAND.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    return next(b["id"] for b in requests.get(server.v1 + "/books", timeout=30).json()["books"] if b["title"] == "The Waste Land")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_each_view_is_seen_and_has_no_serious_accessibility_violation(server, browser, book, scheme, width):
    look(browser, scheme, width)
    # The library
    browser.get(server.http + "/")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#books .open"))
    wait(browser).until(lambda d: d.execute_script("return [...document.images].every(i => i.complete)"))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"library-{scheme}-{width}.png"))
    assert serious_violations(browser) == []
    # A book, its page playing with the sentence lit and the export panel open
    browser.get(f"{server.http}/#/book/{book}/2")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#toc button") and "(2 of" in d.find_element(By.ID, "page-label").text)
    browser.find_element(By.CSS_SELECTOR, "#export summary").click()
    browser.find_element(By.ID, "play").click()
    wait(browser, 120).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#page .sentence.speaking"))
    browser.execute_script("document.getElementById('audio').pause()")
    browser.save_screenshot(str(SCREENSHOTS / f"book-{scheme}-{width}.png"))
    assert serious_violations(browser) == []
    # Nothing spills out sideways
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    if width <= 600:
        # The player expanded for pages, speed, voice and the sleep timer
        browser.find_element(By.ID, "more").click()
        wait(browser).until(lambda d: d.find_element(By.ID, "speed").is_displayed())
        browser.save_screenshot(str(SCREENSHOTS / f"player-expanded-{scheme}-{width}.png"))
        assert serious_violations(browser) == []
        browser.find_element(By.ID, "more").click()
        # The contents drawer
        browser.find_element(By.ID, "contents-open").click()
        wait(browser).until(lambda d: d.execute_script("return document.getElementById('drawer').classList.contains('open')"))
        browser.save_screenshot(str(SCREENSHOTS / f"drawer-{scheme}-{width}.png"))
        assert serious_violations(browser) == []
        browser.find_element(By.ID, "contents-close").click()
    # The bookmark dialog, then the keys' help
    browser.find_element(By.ID, "bookmark-add").click()
    wait(browser).until(lambda d: d.execute_script("return document.getElementById('bookmark-dialog').open"))
    browser.save_screenshot(str(SCREENSHOTS / f"bookmark-{scheme}-{width}.png"))
    assert serious_violations(browser) == []
    browser.execute_script("document.getElementById('bookmark-dialog').close()")
    browser.find_element(By.ID, "help-open").click()
    wait(browser).until(lambda d: d.execute_script("return document.getElementById('help').open"))
    browser.save_screenshot(str(SCREENSHOTS / f"help-{scheme}-{width}.png"))
    assert serious_violations(browser) == []
