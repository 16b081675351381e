"""DOCX, ODT and FB2 in the listening room: the file input offers them, a file added through it
is told by its content, and the shelf and the book view show each book's format."""

from __future__ import annotations

import shutil
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait

#: Small real files made by pandoc and LibreOffice (their README says how).
OFFICE = Path(__file__).resolve().parents[1] / "NarrateDataTests" / "Fixtures" / "office"


def wait(driver, seconds: float = 60) -> WebDriverWait:
    return WebDriverWait(driver, seconds, poll_frequency=0.2)


def test_the_file_input_offers_the_new_formats(server, browser):
    browser.get(server.http + "/")
    wait(browser).until(seen.visibility_of_element_located((By.ID, "library-view")))
    accepted = browser.find_element(By.ID, "files").get_attribute("accept").split(",")
    for wanted in (".docx", ".odt", ".fb2", ".zip", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                   "application/vnd.oasis.opendocument.text", "application/x-fictionbook+xml"):
        assert wanted in accepted


def test_a_docx_and_an_fb2_added_through_the_file_input_show_their_format(server, browser, tmp_path):
    # Given a DOCX under a text file's name, and a zipped FB2
    misnamed = tmp_path / "austen.txt"
    shutil.copy(OFFICE / "small-lo.docx", misnamed)
    browser.get(server.http + "/")
    wait(browser).until(seen.visibility_of_element_located((By.ID, "library-view")))

    # When both are picked
    browser.find_element(By.ID, "files").send_keys(f"{misnamed}\n{OFFICE / 'small.fb2.zip'}")

    # Then the shelf shows two books of that title, one DOCX and one FB2
    def formats(driver):
        items = [b.find_element(By.XPATH, "..") for b in driver.find_elements(By.CSS_SELECTOR, "#books .open") if b.text == "Pride and Prejudice"]
        return sorted(item.find_element(By.CSS_SELECTOR, ".format").text for item in items)
    wait(browser).until(lambda d: formats(d) == ["DOCX", "FB2"])
    # and the book view says it too
    opened = next(b for b in browser.find_elements(By.CSS_SELECTOR, "#books .open") if b.text == "Pride and Prejudice")
    opened.click()
    wait(browser).until(seen.visibility_of_element_located((By.ID, "book-view")))
    wait(browser).until(lambda d: d.find_element(By.ID, "book-format").text in ("DOCX", "FB2"))
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#toc button"))
    # (each button shows its number on the title's first line; the title is its own span)
    chapters = [b.find_element(By.CSS_SELECTOR, ".title").text for b in browser.find_elements(By.CSS_SELECTOR, "#toc button")]
    assert chapters == ["Chapter I", "Chapter II"], chapters
