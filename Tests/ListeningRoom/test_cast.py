"""The cast in the listening room: a person turns on "Characters in their own voices", sees the
book's main characters with the voices proposed for them, picks another for one, and the page
is read again with it (its audio and timing asked for with that cast)."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

STORY = """Emma Woodhouse sat by the fire.

\u201cI cannot agree,\u201d said Emma, \u201cyou know I cannot.\u201d

Mr. Knightley shook his head. \u201cYou are quite wrong,\u201d replied Mr. Knightley.

\u201cAm I?\u201d said Emma.
"""


def wait(driver, seconds: float = 60) -> WebDriverWait:
    return WebDriverWait(driver, seconds, poll_frequency=0.2)


def asked(driver) -> list[str]:
    return driver.execute_script("return performance.getEntriesByType('resource').map((e) => decodeURIComponent(e.name))")


def test_a_character_given_another_voice_is_heard_in_it(server, browser):
    # Given a book with two speakers, open at its page
    answer = requests.post(f"{server.v1}/books?filename=emma.txt", data=STORY.encode(), headers={"Content-Type": "text/plain"}, timeout=60)
    assert answer.status_code in (200, 201), answer.text
    book = answer.json()["id"]
    browser.get(f"{server.http}/#/book/{book}/1")
    wait(browser).until(lambda d: "(1 of" in d.find_element(By.ID, "page-label").text)
    if not browser.find_element(By.ID, "cast-on").is_displayed():
        browser.find_element(By.ID, "more").click()  # a narrow screen keeps the player's options behind it

    # When the cast is turned on
    browser.find_element(By.ID, "cast-on").click()

    # Then its speakers are listed with their proposed voices
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cast-members select")) == 2)
    names = [s.get_attribute("data-character") for s in browser.find_elements(By.CSS_SELECTOR, "#cast-members select")]
    assert names == ["Emma", "Mr. Knightley"]
    emma = Select(browser.find_element(By.CSS_SELECTOR, "select[data-character='Emma']"))
    proposed = emma.first_selected_option.get_attribute("value")
    assert proposed.startswith("en-us+")

    # When Emma is given another voice and the page is played
    other = next(o.get_attribute("value") for o in emma.options if o.get_attribute("value") not in (proposed,) and "+m" in o.get_attribute("value"))
    emma.select_by_value(other)
    browser.find_element(By.ID, "play").click()

    # Then the page's audio and timing are asked for with that cast, and its sentences are lit as it plays
    wanted = f"character=Emma={other}"
    wait(browser, 120).until(lambda d: any("/audio?" in url and "cast=auto" in url and wanted in url for url in asked(d)))
    wait(browser, 120).until(lambda d: any("/timing?" in url and wanted in url for url in asked(d)))
    wait(browser, 120).until(lambda d: d.execute_script("return !!document.querySelector('#page .sentence.speaking')"))
