"""The listening room (`narrate serve` at /) in a real browser: a corpus EPUB added through the
file input, its chapters, a chapter played (the audio element's time advances, the place is
saved through the progress API), the keyboard, 360 px, an API key, hostile titles that must run
nothing, the Content-Security-Policy, and --no-web."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import Select, WebDriverWait

from room_support import chromium, finish
from narrate_service import CORPUS, narrate_binary, start_server

WASTELAND = CORPUS / "epub" / "wasteland.epub"


def wait(driver, seconds: float = 60) -> WebDriverWait:
    return WebDriverWait(driver, seconds, poll_frequency=0.2)


def books_named(driver, title: str):
    return [b for b in driver.find_elements(By.CSS_SELECTOR, "#books .open") if b.text == title]


def add_by_file_input(driver, server, path: Path) -> None:
    driver.get(server.http + "/")
    wait(driver).until(seen.visibility_of_element_located((By.ID, "library-view")))
    driver.find_element(By.ID, "files").send_keys(str(path))


def open_book(driver, title: str) -> None:
    wait(driver).until(lambda d: books_named(d, title))
    books_named(driver, title)[0].click()
    wait(driver).until(seen.visibility_of_element_located((By.ID, "book-view")))
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#toc button"))


def book_id(server, title: str) -> str:
    books = requests.get(server.v1 + "/books", timeout=30).json()["books"]
    return next(b["id"] for b in books if b["title"] == title)


def test_a_corpus_epub_added_through_the_file_input_shows_its_title_cover_and_chapters(server, browser):
    # When
    add_by_file_input(browser, server, WASTELAND)
    # Then its title and cover are on the shelf, and opening it shows its contents and first page
    wait(browser).until(lambda d: books_named(d, "The Waste Land"))
    item = books_named(browser, "The Waste Land")[0].find_element(By.XPATH, "..")
    wait(browser).until(lambda d: item.find_element(By.CSS_SELECTOR, "img.cover").get_attribute("src").startswith("blob:"))
    assert "T.S. Eliot" in item.text
    listed = requests.get(server.v1 + "/books", timeout=30).json()["books"]
    assert next(b for b in listed if b["title"] == "The Waste Land")["cover"].endswith("/cover")
    open_book(browser, "The Waste Land")
    chapters = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#toc button")]
    assert any("BURIAL OF THE DEAD" in c.upper() for c in chapters), chapters
    assert browser.find_element(By.ID, "book-title").text == "The Waste Land"


def test_playing_the_second_chapter_advances_the_audio_and_saves_the_place(server, browser):
    # Given the book in the library
    requests.post(server.v1 + "/books", data=WASTELAND.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    identifier = book_id(server, "The Waste Land")
    browser.get(server.http + "/")
    open_book(browser, "The Waste Land")
    # When chapter 2 is opened and play pressed
    second = browser.find_elements(By.CSS_SELECTOR, "#toc button")[1]
    wanted_page = int(second.get_attribute("data-page"))
    second.click()
    wait(browser).until(lambda d: f"({wanted_page + 1} of" in d.find_element(By.ID, "page-label").text)
    text = browser.find_element(By.ID, "page").text
    assert text.strip()
    browser.find_element(By.ID, "play").click()
    # Then the audio element plays: its time advances
    wait(browser, 120).until(lambda d: d.execute_script("return document.getElementById('audio').currentTime") > 0.5)
    first = browser.execute_script("return document.getElementById('audio').currentTime")
    time.sleep(1.0)
    assert browser.execute_script("return document.getElementById('audio').currentTime") > first
    assert browser.find_element(By.ID, "play").get_attribute("aria-pressed") == "true"
    # And the place is saved where `narrate next` reads it
    progress = requests.get(f"{server.v1}/books/{identifier}", timeout=30).json()["progress"]
    assert progress["page_index"] == wanted_page + 1
    # When space is pressed, it pauses
    browser.find_element(By.TAG_NAME, "body").send_keys(" ")
    wait(browser).until(lambda d: d.execute_script("return document.getElementById('audio').paused"))


def test_the_keyboard_turns_pages(server, browser):
    requests.post(server.v1 + "/books", data=WASTELAND.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    browser.get(server.http + "/")
    open_book(browser, "The Waste Land")
    wait(browser).until(lambda d: " of " in d.find_element(By.ID, "page-label").text)
    before = browser.find_element(By.ID, "page-label").text
    browser.find_element(By.TAG_NAME, "body").send_keys("n")
    wait(browser).until(lambda d: d.find_element(By.ID, "page-label").text != before)
    after = browser.find_element(By.ID, "page-label").text
    browser.find_element(By.TAG_NAME, "body").send_keys("p")
    wait(browser).until(lambda d: d.find_element(By.ID, "page-label").text != after)
    assert browser.find_element(By.ID, "page-label").text == before


HOSTILE = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">"


def test_a_book_whose_title_and_text_hold_markup_shows_the_characters_and_runs_nothing(server, browser):
    # Given a book whose title and text are markup
    # (Markdown's own HTML is markup; its entities are the characters themselves.)
    escaped = HOSTILE.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    book = f"# {escaped}\n\nThe text says {escaped} and nothing more.\n"
    uploaded = requests.post(server.v1 + "/books?filename=hostile.md", data=book.encode(), headers={"Content-Type": "text/markdown"}, timeout=60)
    assert uploaded.status_code in (200, 201), uploaded.text
    title = uploaded.json()["title"]
    assert "<script>" in title
    # When it is shown on the shelf and opened
    browser.get(server.http + "/")
    open_book(browser, title)
    wait(browser).until(lambda d: "nothing more" in d.find_element(By.ID, "page").text)
    # Then the characters are there as text, and nothing ran
    assert "<script>window.pwned=1</script>" in browser.find_element(By.ID, "book-title").text
    assert "<img src=x onerror=" in browser.find_element(By.ID, "page").text
    assert browser.execute_script("return window.pwned === undefined")
    assert not browser.find_elements(By.CSS_SELECTOR, "#page img, #page script, #book-title img, #books img:not(.cover)")


def test_every_response_carries_a_policy_without_unsafe_inline_and_the_page_fits_360_px(server):
    # The shelf holds a book with a long unbroken title.
    requests.post(server.v1 + "/books?filename=long.md", data=("# " + "Supercalifragilistic" * 6 + "\n\nA page.\n").encode(),
                  headers={"Content-Type": "text/markdown"}, timeout=60)
    for path in ("/", "/app.js", "/app.css", "/v1/books", "/no-such-thing"):
        response = requests.get(server.http + path, timeout=30)
        policy = response.headers.get("Content-Security-Policy", "")
        assert "default-src" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy, (path, policy)
        assert response.headers.get("X-Content-Type-Options") == "nosniff", path
    scripts_and_styles = len(requests.get(server.http + "/app.js", timeout=30).content) + len(requests.get(server.http + "/app.css", timeout=30).content)
    assert scripts_and_styles <= 150 * 1024
    narrow = chromium(phone=True)
    try:
        narrow.get(server.http + "/")
        wait(narrow).until(seen.visibility_of_element_located((By.ID, "library-view")))
        assert narrow.execute_script("return window.innerWidth") == 360
        assert narrow.execute_script("return document.documentElement.scrollWidth") <= 360
        # Nothing spills out of its box (a long title wraps inside its card).
        spilling = narrow.execute_script("return [...document.querySelectorAll('#books li, #books li *')].filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.tagName)")
        assert not spilling, spilling
        finish(narrow, "library_at_360_px")
    finally:
        narrow.quit()


@pytest.mark.http_errors_expected
def test_with_api_keys_the_page_asks_for_one_and_keeps_it_for_the_session(tmp_path, browser):
    with start_server(tmp_path / "keyed", api_keys=["room-key-1"]) as keyed:
        requests.post(keyed.v1 + "/books", data=WASTELAND.read_bytes(), headers={"Content-Type": "application/epub+zip", **keyed.headers()}, timeout=60)
        browser.get(keyed.http + "/")
        wait(browser).until(seen.visibility_of_element_located((By.ID, "key-view")))
        browser.find_element(By.ID, "key").send_keys("wrong-key")
        browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
        wait(browser).until(lambda d: d.find_element(By.ID, "key-error").text)
        browser.find_element(By.ID, "key").send_keys("room-key-1")
        browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
        wait(browser).until(lambda d: books_named(d, "The Waste Land"))
        assert browser.execute_script("return sessionStorage.getItem('narrate-api-key')") == "room-key-1"
        assert browser.execute_script("return localStorage.length") == 0


def test_no_web_serves_the_api_only(tmp_path):
    with start_server(tmp_path / "api-only", extra_args=["--no-web"]) as bare:
        assert requests.get(bare.http + "/", timeout=30).status_code == 404
        assert requests.get(bare.http + "/app.js", timeout=30).status_code == 404
        assert requests.get(bare.v1 + "/books", timeout=30).status_code == 200


@pytest.mark.http_errors_expected
def test_a_refused_book_shows_the_parsers_one_line_and_the_shelf_is_unchanged(server, browser):
    # When a broken EPUB is picked
    add_by_file_input(browser, server, CORPUS / "bad-epub" / "container-xml-missing.epub")
    # Then the parser's reason is shown in one line, naming the file
    wait(browser).until(lambda d: d.find_element(By.ID, "upload-error").text)
    line = browser.find_element(By.ID, "upload-error").text
    assert line.startswith("container-xml-missing.epub: ") and "\n" not in line, line
    assert "/uploads/" not in line
    assert not books_named(browser, "container-xml-missing")


def audio_time(driver) -> float:
    return driver.execute_script("return document.getElementById('audio').currentTime")


def lit_sentence(driver) -> int:
    """The index of the sentence lit as spoken, or -1."""
    return driver.execute_script("const s = document.querySelector('#page .sentence.speaking'); return s ? Number(s.dataset.index) : -1")


def play_page_with_sentences(server, browser, least: int = 3) -> list:
    """Opens The Waste Land at the first page of at least `least` timed sentences and plays it;
    gives the sentence spans' start times once the first one is lit."""
    requests.post(server.v1 + "/books", data=WASTELAND.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    identifier = book_id(server, "The Waste Land")
    pages = requests.get(f"{server.v1}/books/{identifier}/pages", timeout=30).json()["pages"]
    for page in pages:
        timing = requests.get(f"{server.v1}/books/{identifier}/pages/{page['page']}/timing", timeout=120).json()
        if len(timing["sentences"]) >= least:
            break
    browser.get(f"{server.http}/#/book/{identifier}/{page['index']}")
    wait(browser).until(lambda d: f"({page['index']} of" in d.find_element(By.ID, "page-label").text)
    browser.find_element(By.ID, "play").click()
    wait(browser, 120).until(lambda d: lit_sentence(d) >= 0)
    starts = browser.execute_script("return [...document.querySelectorAll('#page .sentence')].map(s => Number(s.dataset.start))")
    assert len(starts) == len(timing["sentences"]) and starts == sorted(starts), starts
    return starts


def test_opening_a_book_warms_the_player_without_asking_the_service_for_audio(server, browser):
    # Given a book in the library, not yet opened in this tab
    requests.post(server.v1 + "/books", data=WASTELAND.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    identifier = book_id(server, "The Waste Land")
    browser.get("about:blank")
    # When it is opened
    browser.get(f"{server.http}/#/book/{identifier}/1")
    wait(browser).until(lambda d: "(1 of" in d.find_element(By.ID, "page-label").text)
    # Then a muted player of the page's own has played its silent frames (the browser's media
    # decoders and audio output are ready before play is pressed), no audio was asked of the
    # service for it, the page's player is untouched, and the console shows no error
    wait(browser, 10).until(lambda d: d.execute_script("return performance.getEntriesByName('narrate:player-warm').length") == 1)
    asked = browser.execute_script("return performance.getEntriesByType('resource').map(r => r.name)")
    assert not [name for name in asked if "/audio" in name and "/audio/voices" not in name], asked
    assert browser.execute_script("const a = document.getElementById('audio'); return a.paused && !a.src")
    finish(browser, "player-warm")


def test_the_sentence_spoken_is_lit_and_the_light_follows_the_audio(server, browser):
    # Given a page playing, its first sentence lit
    starts = play_page_with_sentences(server, browser)
    assert lit_sentence(browser) == 0
    # When the audio reaches the second sentence by itself (from half a second before it)
    browser.execute_script(f"document.getElementById('audio').currentTime = {max(starts[1] - 0.5, 0)}")
    # Then the light moves on to it, in step with the audio, and the words of eSpeak are lit too
    wait(browser, 30).until(lambda d: lit_sentence(d) == 1)
    assert audio_time(browser) >= starts[1] - 0.1
    assert browser.find_elements(By.CSS_SELECTOR, "#page .word.speaking-word")
    assert browser.find_element(By.CSS_SELECTOR, "#page .sentence.speaking").text.strip()


def test_a_click_on_a_sentence_plays_from_there(server, browser):
    # Given a page playing
    starts = play_page_with_sentences(server, browser)
    middle = len(starts) // 2
    # When a sentence in the middle is clicked
    browser.find_elements(By.CSS_SELECTOR, "#page .sentence")[middle].click()
    # Then the audio plays from that sentence's start, and it is the one lit
    wait(browser, 10).until(lambda d: lit_sentence(d) == middle)
    assert starts[middle] - 0.05 <= audio_time(browser) < starts[middle] + 2
    assert not browser.execute_script("return document.getElementById('audio').paused")


def test_speed_and_voice_are_asked_of_the_engine_and_the_reading_goes_on_from_the_same_sentence(server, browser):
    # Given a page playing at the voice's own speed
    play_page_with_sentences(server, browser)
    audio_requests = "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/audio?'))"
    # When the speed is set to 1.5
    Select(browser.find_element(By.ID, "speed")).select_by_value("1.5")
    # Then the page's audio is asked for again at that speed (the engine's rate, not the player's)
    wait(browser, 120).until(lambda d: any("speed=1.5" in name for name in d.execute_script(audio_requests)))
    wait(browser, 60).until(lambda d: lit_sentence(d) >= 0 and not d.execute_script("return document.getElementById('audio').paused"))
    assert browser.execute_script("return document.getElementById('audio').playbackRate") == 1
    # When another voice is chosen, the audio request carries it
    voices = browser.execute_script("return [...document.querySelectorAll('#voice option')].map(o => o.value).filter(v => v)")
    chosen = next(v for v in voices if v.startswith("en")) if any(v.startswith("en") for v in voices) else voices[0]
    Select(browser.find_element(By.ID, "voice")).select_by_value(chosen)
    wanted = "voice=" + quote(chosen, safe="")
    wait(browser, 120).until(lambda d: any(wanted in name for name in d.execute_script(audio_requests)))
    wait(browser, 60).until(lambda d: lit_sentence(d) >= 0 and not d.execute_script("return document.getElementById('audio').paused"))


def test_a_voice_chosen_while_a_page_is_still_streamed_plays_without_an_error(server, browser):
    # Given a page not made yet, long enough to be still streamed once it sounds
    identifier = requests.post(server.v1 + "/books", data=(CORPUS / "epub" / "moby-dick.epub").read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=120).json()["id"]
    page = next(p for p in requests.get(f"{server.v1}/books/{identifier}/pages", timeout=30).json()["pages"][20:] if p["words"] >= 250)
    browser.get(f"{server.http}/#/book/{identifier}/{page['index']}")
    wait(browser).until(lambda d: f"({page['index']} of" in d.find_element(By.ID, "page-label").text)
    voices = browser.execute_script("return [...document.querySelectorAll('#voice option')].map(o => o.value).filter(v => v)")
    other = next(v for v in voices if v != browser.find_element(By.ID, "voice").get_attribute("value"))
    # When play is pressed and another voice is chosen as soon as the first sentence sounds
    streaming = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const audio = document.getElementById('audio');
        audio.addEventListener('playing', () => {
            const voice = document.getElementById('voice');
            voice.value = arguments[0];
            voice.dispatchEvent(new Event('change'));
            done(true);
        }, { once: true });
        document.getElementById('play').click();""", other)
    assert streaming
    # Then the page plays in that voice, and the stream left behind shows no error
    wanted = "voice=" + quote(other, safe="")
    audio_requests = "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/audio?'))"
    wait(browser, 120).until(lambda d: any(wanted in name for name in d.execute_script(audio_requests)))
    wait(browser, 120).until(lambda d: audio_time(d) > 1.0 and not d.execute_script("return document.getElementById('audio').paused"))
    assert browser.find_element(By.ID, "status").text == ""
    finish(browser, "room-voice-while-streamed")


def test_a_pause_from_the_media_controls_is_followed_by_the_play_button(server, browser):
    # Given a page playing
    play_page_with_sentences(server, browser)
    play = browser.find_element(By.ID, "play")
    assert play.get_attribute("aria-pressed") == "true"
    # When the browser's or the system's media controls pause it (not the page's button)
    browser.execute_script("document.getElementById('audio').pause()")
    # Then the button says it is paused, and one press plays on from where it stopped
    wait(browser, 10).until(lambda d: play.get_attribute("aria-pressed") == "false")
    stopped_at = audio_time(browser)
    play.click()
    wait(browser, 30).until(lambda d: not d.execute_script("return document.getElementById('audio').paused") and audio_time(d) > stopped_at + 0.2)
    assert play.get_attribute("aria-pressed") == "true"
    # When they resume it after another pause, the button follows too
    browser.execute_script("document.getElementById('audio').pause()")
    wait(browser, 10).until(lambda d: play.get_attribute("aria-pressed") == "false")
    browser.execute_script("document.getElementById('audio').play()")
    wait(browser, 10).until(lambda d: play.get_attribute("aria-pressed") == "true")


def test_a_page_that_ends_is_followed_by_the_next_one(server, browser):
    # Given a page playing
    play_page_with_sentences(server, browser)
    label = browser.find_element(By.ID, "page-label").text
    # When it reaches its end
    browser.execute_script("const a = document.getElementById('audio'); a.currentTime = Math.max(0, a.duration - 0.3)")
    # Then the next page is shown and plays by itself
    wait(browser, 120).until(lambda d: d.find_element(By.ID, "page-label").text != label)
    wait(browser, 120).until(lambda d: audio_time(d) > 0.3 and not d.execute_script("return document.getElementById('audio').paused"))


def test_an_m4b_of_two_chapters_is_exported_downloaded_and_has_its_chapters(server, browser, tmp_path):
    # Given a book open, downloads going to a folder of the test's
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    requests.post(server.v1 + "/books", data=WASTELAND.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    identifier = book_id(server, "The Waste Land")
    browser.get(f"{server.http}/#/book/{identifier}")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#toc button"))
    # When an M4B of chapters 2 to 3 is asked for
    browser.find_element(By.CSS_SELECTOR, "#export summary").click()
    Select(browser.find_element(By.ID, "export-format")).select_by_value("m4b")
    Select(browser.find_element(By.ID, "export-from")).select_by_value("2")
    Select(browser.find_element(By.ID, "export-to")).select_by_value("3")
    browser.find_element(By.ID, "export-start").click()
    # Then the progress bar reaches 100% and the download button shows
    wait(browser, 600).until(lambda d: d.find_element(By.ID, "export-download").is_displayed())
    assert browser.execute_script("return document.getElementById('export-progress').value") == 1
    assert "100%" in browser.find_element(By.ID, "export-state").text
    # When it is downloaded
    browser.find_element(By.ID, "export-download").click()
    wait(browser, 60).until(lambda d: [f for f in tmp_path.iterdir() if f.suffix == ".m4b"])
    m4b = next(f for f in tmp_path.iterdir() if f.suffix == ".m4b")
    # Then ffprobe finds an audiobook of those two chapters, as long as the job said
    probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-show_format", "-of", "json", str(m4b)],
                                      capture_output=True, text=True, check=True).stdout)
    titles = [chapter["tags"]["title"] for chapter in probe["chapters"]]
    assert len(titles) == 2 and "GAME OF CHESS" in titles[0].upper() and "FIRE SERMON" in titles[1].upper(), titles
    duration = float(probe["format"]["duration"])
    assert 30 < duration < 1200, duration
    assert abs(float(probe["chapters"][-1]["end_time"]) - duration) < 1
    job = requests.get(server.v1 + "/exports", timeout=30).json()["exports"][0]
    assert job["state"] == "done" and job["chapters"] == [2, 3] and job["bytes"] == m4b.stat().st_size


def test_the_place_is_restored_after_a_reload_and_shared_with_narrate_next(server, browser, tmp_path):
    # Given the book read to page 5 in the page
    requests.post(server.v1 + "/books", data=WASTELAND.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    identifier = book_id(server, "The Waste Land")
    browser.get(f"{server.http}/#/book/{identifier}/5")
    wait(browser).until(lambda d: "(5 of" in d.find_element(By.ID, "page-label").text)
    wait(browser).until(lambda d: requests.get(f"{server.v1}/books/{identifier}", timeout=30).json()["progress"]["page_index"] == 5)
    # When the page is reloaded on the book without a page
    browser.get(f"{server.http}/#/")
    browser.get(f"{server.http}/#/book/{identifier}")
    browser.refresh()
    # Then it opens where the reading stopped
    wait(browser).until(lambda d: "(5 of" in d.find_element(By.ID, "page-label").text)
    # When `narrate next` reads on from the command line, on the same library
    result = subprocess.run([str(narrate_binary()), "next", identifier, "--library", str(server.directory / "library.sqlite"),
                             "--cache-dir", str(server.directory / "cache"), "-o", str(tmp_path / "next.wav"), "-q"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "next.wav").stat().st_size > 1000
    # Then the page opens at the page after
    browser.get(f"{server.http}/#/")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#books .open"))
    assert "Page 6 of 13" in browser.find_element(By.CSS_SELECTOR, f"#books li[data-id='{identifier}']").text
    browser.get(f"{server.http}/#/book/{identifier}")
    wait(browser).until(lambda d: "(6 of" in d.find_element(By.ID, "page-label").text)
