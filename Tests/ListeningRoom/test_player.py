"""The listening room as an audiobook player, in one real Chromium and one server for the whole
module: the sentence read kept in view above the player bar (1280 and 390 px, light and dark),
the contents as a drawer on a phone, chapter numbers on their titles' first lines, skips across
pages, the sleep timer's fade, bookmarks shared with the API and `narrate bookmarks`, the Media
Session, the keys and their help, and the web app manifest.

The long book is Dante's *Vision of Hell* (45 chapters, the corpus book with the longest
contents next to Moby-Dick); a Markdown book of 38 chapters with long titles shows the numbers
beside wrapped titles."""

from __future__ import annotations

import subprocess

import pytest
import requests
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from room_support import SCREENSHOTS, chromium, finish
from narrate_service import CORPUS, narrate_binary

DANTE = CORPUS / "epub" / "pg8789-dante-vision-of-hell-epub2.epub"

#: Recorded before the page's own scripts run: the Media Session's action handlers (Chromium
#: gives no getter) and the position states set.
RECORDER = """
(() => {
  const session = navigator.mediaSession;
  if (!session) return;
  window.__media = { handlers: {}, positions: [] };
  const setHandler = session.setActionHandler.bind(session);
  session.setActionHandler = (action, handler) => { window.__media.handlers[action] = handler; return setHandler(action, handler); };
  const setPosition = session.setPositionState.bind(session);
  session.setPositionState = (state) => { window.__media.positions.push(state); return setPosition(state); };
})();
"""


def wait(driver, seconds: float = 60) -> WebDriverWait:
    return WebDriverWait(driver, seconds, poll_frequency=0.1)


def look(driver, scheme: str, width: int) -> None:
    """A `scheme` (light or dark) screen `width` pixels wide: 1280×900, or a 390×844 phone."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    phone = width <= 600
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 844 if phone else 900,
                                                                  "deviceScaleFactor": 2 if phone else 1, "mobile": phone})


@pytest.fixture(scope="module")
def room():
    """One browser for the module, recording the Media Session from the first page on."""
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def screen(request, room):
    """Each test's last screen is kept, and its console must hold no error."""
    yield
    finish(room, request.node.name)


def upload(server, path, name: str, content_type: str) -> dict:
    data = path.read_bytes() if hasattr(path, "read_bytes") else path
    answer = requests.post(f"{server.v1}/books?filename={name}", data=data, headers={"Content-Type": content_type}, timeout=120)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


@pytest.fixture(scope="module")
def dante(server):
    """Dante's Inferno, with two long pages in a row (`page` and the one before it)."""
    book = upload(server, DANTE, "dante.epub", "application/epub+zip")
    pages = requests.get(f"{server.v1}/books/{book['id']}/pages", timeout=30).json()["pages"]
    toc = requests.get(f"{server.v1}/books/{book['id']}/toc", timeout=30).json()["chapters"]
    page = next(p for p in pages[20:] if p["words"] >= 250 and pages[p["index"] - 2]["words"] >= 150)
    return {"id": book["id"], "title": book["title"], "pages": pages, "toc": toc, "page": page}


@pytest.fixture(scope="module")
def eighty(server):
    """A book of 38 chapters whose long titles wrap on a phone."""
    chapters = [f"# Chapter {n}: in which the travellers reach the {n}th stop of their long journey round the world, and what befell them there\n\n"
                f"The travellers arrived at stop {n}. They looked about them. Then they went on." for n in range(1, 39)]
    return upload(server, "\n\n".join(chapters).encode(), "eighty.md", "text/markdown")


def until(driver, condition, seconds: float = 60, what: str = "") -> None:
    """Waits for `condition`; on a timeout, fails saying where the page and its audio are."""
    try:
        WebDriverWait(driver, seconds, poll_frequency=0.1).until(condition)
    except TimeoutException:
        seen = driver.execute_script("const a = document.getElementById('audio'); return {label: document.getElementById('page-label').textContent, "
                                     "status: document.getElementById('status').textContent, time: a.currentTime, duration: a.duration, paused: a.paused, "
                                     "src: a.src, lit: (document.querySelector('#page .sentence.speaking') || {dataset: {}}).dataset.index, scrollY}")
        raise AssertionError(f"waited {seconds} s for {what or 'the page'}: {seen}") from None


def open_page(driver, server, book_id: str, index: int) -> None:
    """A fresh page at the book's page `index`: nothing of the test before carries over."""
    driver.get("about:blank")
    driver.get(f"{server.http}/#/book/{book_id}/{index}")
    until(driver, lambda d: f"({index} of" in d.find_element(By.ID, "page-label").text, what=f"page {index}")


def lit(driver) -> int:
    return driver.execute_script("const s = document.querySelector('#page .sentence.speaking'); return s ? Number(s.dataset.index) : -1")


def play(driver) -> list[float]:
    """Presses play and waits for the first sentence to be lit; gives the sentences' starts (a
    sentence of several lines of verse has a span in each)."""
    driver.find_element(By.ID, "play").click()
    wait(driver, 120).until(lambda d: lit(d) >= 0)
    return driver.execute_script("""
        const starts = [];
        for (const span of document.querySelectorAll('#page .sentence')) starts[Number(span.dataset.index)] = Number(span.dataset.start);
        return starts;""")


def audio(driver, what: str):
    return driver.execute_script(f"return document.getElementById('audio').{what}")


def seek_to_sentence(driver, starts: list[float], index: int) -> None:
    """Moves the audio to sentence `index`, once the stream has brought it, and waits for its light."""
    until(driver, lambda d: d.execute_script(f"const b = document.getElementById('audio').buffered; return b.length && b.end(b.length - 1) > {starts[index] + 0.5}"),
          120, f"the audio of sentence {index}")
    driver.execute_script(f"document.getElementById('audio').currentTime = {starts[index] + 0.05}")
    until(driver, lambda d: lit(d) == index, 30, f"sentence {index} lit")


def spoken_box(driver) -> dict:
    """The box of the sentence being spoken (all its spans), the player bar's top, the viewport."""
    return driver.execute_script("""
        const spans = [...document.querySelectorAll('#page .sentence.speaking')].map(s => s.getBoundingClientRect());
        const bar = document.getElementById('player').getBoundingClientRect();
        return {top: Math.min(...spans.map(r => r.top)), bottom: Math.max(...spans.map(r => r.bottom)),
                left: Math.min(...spans.map(r => r.left)), right: Math.max(...spans.map(r => r.right)),
                barTop: bar.top, width: innerWidth, height: innerHeight, scrollY};""")


def assert_in_view_above_the_bar(driver) -> None:
    box = spoken_box(driver)
    assert 0 <= box["top"] and box["bottom"] <= box["barTop"] <= box["height"], box
    assert 0 <= box["left"] and box["right"] <= box["width"], box


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_after_play_the_sentence_read_stays_in_view_above_the_player_bar(server, room, dante, scheme, width):
    # Given a long page of a book of 45 chapters, on this screen
    look(room, scheme, width)
    open_page(room, server, dante["id"], dante["page"]["index"])
    if width <= 600:
        # The page's text has the screen: it starts in the top fifth, and the bar takes at most a fifth.
        assert room.execute_script("return document.getElementById('page').getBoundingClientRect().top") < 844 / 5
        assert room.execute_script("return document.getElementById('player').getBoundingClientRect().height") < 844 / 5
    # When play is pressed
    starts = play(room)
    # Then the sentence spoken is inside the viewport, above the player bar
    assert_in_view_above_the_bar(room)
    # And so is the page's last sentence when the voice reaches it, far below the first screen
    seek_to_sentence(room, starts, len(starts) - 1)
    wait(room, 10).until(lambda d: spoken_box(d)["bottom"] <= spoken_box(d)["barTop"])
    assert_in_view_above_the_bar(room)
    if width <= 600:
        assert spoken_box(room)["scrollY"] > 0
    room.find_element(By.ID, "play").click()


def test_a_manual_scroll_stops_the_following_until_back_to_the_voice(server, room, dante):
    # Given a page playing on a phone, the view following the voice
    look(room, "light", 390)
    open_page(room, server, dante["id"], dante["page"]["index"])
    starts = play(room)
    back = room.find_element(By.ID, "back-to-voice")
    assert not back.is_displayed()
    # When the listener scrolls down with the wheel
    ActionChains(room).scroll_by_amount(0, 1500).perform()
    until(room, lambda d: back.is_displayed(), 10, "Back to the voice")
    scrolled = room.execute_script("return scrollY")
    # Then a later sentence spoken does not move the view
    seek_to_sentence(room, starts, 3)
    assert room.execute_script("return scrollY") == scrolled
    # When "Back to the voice" is tapped, the sentence is in view again and followed
    back.click()
    wait(room, 10).until(lambda d: not back.is_displayed())
    assert_in_view_above_the_bar(room)
    seek_to_sentence(room, starts, len(starts) - 1)
    wait(room, 10).until(lambda d: spoken_box(d)["bottom"] <= spoken_box(d)["barTop"])
    room.find_element(By.ID, "play").click()


def drawer_open(driver) -> bool:
    return driver.execute_script("const r = document.getElementById('drawer').getBoundingClientRect(); "
                                 "return getComputedStyle(document.getElementById('drawer')).visibility === 'visible' && r.left >= 0 && r.right > 0")


def focus_in_drawer(driver) -> bool:
    return driver.execute_script("return document.getElementById('drawer').contains(document.activeElement)")


def test_on_a_phone_the_contents_are_a_drawer_opened_by_its_button_and_closed_by_it_and_escape(server, room, eighty):
    # Given a book of 38 chapters on a phone: the contents are out of the way
    look(room, "light", 390)
    open_page(room, server, eighty["id"], 1)
    button = room.find_element(By.ID, "contents-open")
    assert not drawer_open(room) and button.get_attribute("aria-expanded") == "false"
    # When the button is pressed, the drawer opens with the focus inside and the rest inert
    button.click()
    wait(room, 5).until(lambda d: drawer_open(d))
    assert button.get_attribute("aria-expanded") == "true"
    assert focus_in_drawer(room)
    assert room.execute_script("return document.getElementById('reading').inert && document.getElementById('player').inert")
    room.save_screenshot(str(_shot("drawer-open-390")))
    # When its close button is pressed, it closes and the focus goes back to the button
    room.find_element(By.ID, "contents-close").click()
    wait(room, 5).until(lambda d: not drawer_open(d))
    assert room.execute_script("return document.activeElement.id") == "contents-open"
    assert not room.execute_script("return document.getElementById('reading').inert")
    # When it is opened again and Escape pressed, it closes the same way
    button.click()
    wait(room, 5).until(lambda d: drawer_open(d))
    ActionChains(room).send_keys(Keys.ESCAPE).perform()
    wait(room, 5).until(lambda d: not drawer_open(d))
    assert room.execute_script("return document.activeElement.id") == "contents-open"
    assert button.get_attribute("aria-expanded") == "false"
    # When a chapter is chosen in it, it closes and that chapter is shown
    button.click()
    wait(room, 5).until(lambda d: drawer_open(d))
    chapter = room.find_elements(By.CSS_SELECTOR, "#toc button")[19]
    wanted = int(chapter.get_attribute("data-page")) + 1
    chapter.click()
    wait(room, 10).until(lambda d: f"({wanted} of" in d.find_element(By.ID, "page-label").text)
    assert not drawer_open(room)
    # On a wide screen there is no drawer: the contents are a column beside the text
    look(room, "light", 1280)
    wait(room, 5).until(lambda d: not d.find_element(By.ID, "contents-open").is_displayed())
    assert room.execute_script("return document.getElementById('toc').getBoundingClientRect().right < document.getElementById('page').getBoundingClientRect().left")


@pytest.mark.parametrize("width", [1280, 390])
def test_each_chapter_number_is_on_the_first_line_of_its_title(server, room, eighty, width):
    # Given the contents of 38 chapters with long titles, shown
    look(room, "light", width)
    open_page(room, server, eighty["id"], 1)
    if width <= 600:
        room.find_element(By.ID, "contents-open").click()
        wait(room, 5).until(lambda d: drawer_open(d))
    # When each number's box is compared with its title's
    rows = room.execute_script("""
        return [...document.querySelectorAll('#toc button')].map(b => {
            const number = b.querySelector('.number').getBoundingClientRect(), title = b.querySelector('.title');
            return {number: number.top, bottom: number.bottom, title: title.getBoundingClientRect().top,
                    line: parseFloat(getComputedStyle(title).lineHeight), height: title.getBoundingClientRect().height};
        });""")
    # Then every number sits on its title's first line, wrapped titles among them
    assert len(rows) == 38
    assert all(abs(row["number"] - row["title"]) <= 2 for row in rows), rows[:3]
    assert sum(row["height"] > 1.5 * row["line"] for row in rows) >= 30, rows[:3]
    if width <= 600:
        ActionChains(room).send_keys(Keys.ESCAPE).perform()


def test_skips_cross_pages_back_to_the_previous_pages_audio_and_on_to_the_next(server, room, dante):
    # Given a long page playing, 4 s in, after another long page
    look(room, "dark", 1280)
    page = dante["page"]
    before = dante["pages"][page["index"] - 2]
    length = requests.get(f"{server.v1}/books/{dante['id']}/pages/{before['page']}/timing", timeout=300).json()["duration"]
    assert length > 20
    open_page(room, server, dante["id"], page["index"])
    play(room)
    room.execute_script("document.getElementById('audio').currentTime = 4")
    wait(room, 10).until(lambda d: audio(d, "currentTime") >= 4)
    # When it skips back 15 s
    room.find_element(By.ID, "skip-back").click()
    # Then the page before plays, from 11 s before its end
    until(room, lambda d: f"({page['index'] - 1} of" in d.find_element(By.ID, "page-label").text, 60, "the page before")
    until(room, lambda d: not audio(d, "paused") and audio(d, "currentTime") > 1, 60, "the page before playing")
    assert abs(audio(room, "duration") - length) < 0.5
    assert length - 13 < audio(room, "currentTime") < length - 8
    requested = room.execute_script("return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/audio?'))")
    assert any(f"/pages/{before['page']}/audio" in name for name in requested), requested
    # When it skips forward 30 s from there, it goes on some 20 s into the next page
    room.find_element(By.ID, "skip-forward").click()
    until(room, lambda d: f"({page['index']} of" in d.find_element(By.ID, "page-label").text, 60, "the page after")
    until(room, lambda d: not audio(d, "paused") and audio(d, "currentTime") > 15, 60, "the page after playing")
    assert audio(room, "currentTime") < 25
    # And the arrow keys skip 15 s within the page
    at = audio(room, "currentTime")
    ActionChains(room).send_keys(Keys.ARROW_RIGHT).perform()
    wait(room, 10).until(lambda d: audio(d, "currentTime") >= at + 14)
    room.find_element(By.ID, "play").click()


def test_the_sleep_timer_fades_the_voice_out_then_pauses_and_is_remembered(server, room, dante):
    # Given a page playing, the timer's minute shortened by its test hook to a quarter second
    look(room, "light", 1280)
    room.get(server.http + "/")
    room.execute_script("sessionStorage.setItem('narrate-sleep-minute', '250')")
    open_page(room, server, dante["id"], dante["page"]["index"])
    play(room)
    room.execute_script("""
        window.__volumes = [];
        const audio = document.getElementById('audio');
        audio.addEventListener('volumechange', () => __volumes.push({volume: audio.volume, paused: audio.paused}));
        audio.addEventListener('pause', () => __volumes.push({pause: true}), {once: true});""")
    # When the timer is set to 15 minutes (3.75 s here)
    Select(room.find_element(By.ID, "sleep")).select_by_value("15")
    assert room.find_element(By.ID, "sleep-left").text.startswith("Sleep in 1")
    # Then the voice fades out, and then the reading pauses
    wait(room, 30).until(lambda d: audio(d, "paused"))
    events = room.execute_script("return __volumes")
    paused_at = next(i for i, e in enumerate(events) if e.get("pause"))
    fading = [e["volume"] for e in events[:paused_at] if "volume" in e and not e["paused"]]
    assert len(fading) >= 3 and all(0 < v < 1 for v in fading) and fading == sorted(fading, reverse=True), events
    assert audio(room, "volume") == 1
    assert room.find_element(By.ID, "play").get_attribute("aria-pressed") == "false"
    assert "sleep timer" in room.find_element(By.ID, "status").text
    # And the choice is remembered in this browser
    assert room.execute_script("return localStorage.getItem('narrate-sleep')") == "15"
    room.refresh()
    wait(room).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#toc button"))
    assert room.find_element(By.ID, "sleep").get_attribute("value") == "15"
    Select(room.find_element(By.ID, "sleep")).select_by_value("off")
    assert room.execute_script("return localStorage.getItem('narrate-sleep')") is None
    room.execute_script("sessionStorage.removeItem('narrate-sleep-minute')")


def test_the_sleep_timer_at_the_end_of_the_chapter_fades_out_and_stops_there(server, room, eighty):
    # Given a chapter of one page playing, the timer set to its end
    look(room, "dark", 390)
    open_page(room, server, eighty["id"], 3)
    room.find_element(By.ID, "more").click()
    Select(room.find_element(By.ID, "sleep")).select_by_value("chapter")
    room.find_element(By.ID, "more").click()
    assert "chapter" in room.find_element(By.ID, "sleep-left").text
    room.execute_script("""
        window.__volumes = [];
        const audio = document.getElementById('audio');
        audio.addEventListener('volumechange', () => __volumes.push(audio.volume));""")
    play(room)
    until(room, lambda d: d.execute_script("return isFinite(document.getElementById('audio').duration)"), 60, "the whole page")
    room.execute_script("const a = document.getElementById('audio'); a.currentTime = a.duration - 2.5")
    # When the page's audio ends, it has faded out and the next chapter is not read
    until(room, lambda d: d.execute_script("return document.getElementById('audio').ended"), 60, "the chapter's end")
    assert [v for v in room.execute_script("return __volumes") if 0 < v < 1], "no fade"
    assert "(3 of" in room.find_element(By.ID, "page-label").text
    assert room.find_element(By.ID, "play").get_attribute("aria-pressed") == "false"
    assert audio(room, "volume") == 1
    room.find_element(By.ID, "more").click()
    Select(room.find_element(By.ID, "sleep")).select_by_value("off")


def test_a_bookmark_added_in_the_page_is_listed_by_the_api_and_by_narrate_bookmarks(server, room, dante):
    # Given a page playing on a phone, at its third sentence
    look(room, "light", 390)
    page = dante["page"]
    open_page(room, server, dante["id"], page["index"])
    starts = play(room)
    seek_to_sentence(room, starts, 2)
    # When a bookmark is added there with a note
    room.find_element(By.ID, "bookmark-add").click()
    wait(room, 5).until(lambda d: d.execute_script("return document.getElementById('bookmark-dialog').open"))
    room.save_screenshot(str(_shot("bookmark-dialog-390")))
    room.find_element(By.ID, "bookmark-note").send_keys("Where the gate is")
    room.find_element(By.ID, "bookmark-save").click()
    # Then the API lists it at that sentence, with the note
    bookmarks = f"{server.v1}/books/{dante['id']}/bookmarks"
    wait(room, 10).until(lambda d: requests.get(bookmarks, timeout=30).json()["bookmarks"])
    listed = requests.get(bookmarks, timeout=30).json()["bookmarks"]
    timing = requests.get(f"{server.v1}/books/{dante['id']}/pages/{page['page']}/timing", timeout=60).json()
    assert len(listed) == 1 and listed[0]["page_index"] == page["index"] and listed[0]["note"] == "Where the gate is"
    assert listed[0]["text_offset"] == timing["sentences"][2]["from"]
    # And so does `narrate bookmarks BOOK`, on the same library
    result = subprocess.run([str(narrate_binary()), "bookmarks", dante["id"], "--library", str(server.directory / "library.sqlite")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert f"page {page['page']}" in result.stdout and "Note: Where the gate is" in result.stdout, result.stdout
    # When another page is shown, and the bookmark chosen in the drawer
    room.find_element(By.ID, "play").click()
    open_page(room, server, dante["id"], 2)
    room.find_element(By.ID, "contents-open").click()
    wait(room, 5).until(lambda d: drawer_open(d))
    wait(room, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#bookmarks .jump"))
    assert "Where the gate is" in room.find_element(By.ID, "bookmarks").text
    room.find_element(By.CSS_SELECTOR, "#bookmarks .jump").click()
    # Then the reading goes on from the bookmarked sentence
    wait(room, 30).until(lambda d: f"({page['index']} of" in d.find_element(By.ID, "page-label").text)
    wait(room, 60).until(lambda d: lit(d) == 2 and not audio(d, "paused"))
    room.find_element(By.ID, "play").click()
    # When it is removed in the drawer, the API lists none
    room.find_element(By.ID, "contents-open").click()
    wait(room, 5).until(lambda d: drawer_open(d))
    room.find_element(By.CSS_SELECTOR, "#bookmarks .remove").click()
    wait(room, 10).until(lambda d: not requests.get(bookmarks, timeout=30).json()["bookmarks"])
    ActionChains(room).send_keys(Keys.ESCAPE).perform()


def test_the_media_session_has_the_book_chapter_cover_and_every_action(server, room, dante):
    # Given a page of a canto playing
    look(room, "light", 390)
    page = dante["page"]
    open_page(room, server, dante["id"], page["index"])
    play(room)
    # Then the metadata names the chapter, the author, the book and the cover
    chapter = [c for c in dante["toc"] if c["page_index"] <= page["index"]][-1]
    metadata = room.execute_script("const m = navigator.mediaSession.metadata; "
                                   "return m && {title: m.title, artist: m.artist, album: m.album, artwork: m.artwork.map(a => a.src)}")
    assert metadata["title"] == chapter["title"] and metadata["album"] == dante["title"], metadata
    assert "Dante" in metadata["artist"], metadata
    assert metadata["artwork"] and metadata["artwork"][0].endswith(f"/v1/books/{dante['id']}/cover"), metadata
    assert room.execute_script("return navigator.mediaSession.playbackState") == "playing"
    # And each action has a handler
    handlers = set(room.execute_script("return Object.keys(window.__media.handlers)"))
    assert {"play", "pause", "seekbackward", "seekforward", "previoustrack", "nexttrack", "seekto"} <= handlers, handlers
    # And the position state follows the audio
    wait(room, 10).until(lambda d: d.execute_script("return window.__media.positions.length") > 0)
    position = room.execute_script("return window.__media.positions.at(-1)")
    assert abs(position["duration"] - audio(room, "duration")) < 0.01 and position["playbackRate"] == 1
    # When the system calls them, the player does what they say
    call = "window.__media.handlers[arguments[0]](arguments[1] || {action: arguments[0]})"
    room.execute_script(call, "seekto", {"action": "seekto", "seekTime": 10})
    wait(room, 5).until(lambda d: 10 <= audio(d, "currentTime") < 12)
    room.execute_script(call, "seekforward", {"action": "seekforward", "seekOffset": 5})
    wait(room, 5).until(lambda d: 15 <= audio(d, "currentTime") < 17)
    assert abs(room.execute_script("return window.__media.positions.at(-1).position") - audio(room, "currentTime")) < 1
    room.execute_script(call, "seekbackward", {"action": "seekbackward", "seekOffset": 3})
    wait(room, 5).until(lambda d: 12 <= audio(d, "currentTime") < 14)
    room.execute_script(call, "pause")
    wait(room, 5).until(lambda d: audio(d, "paused") and d.find_element(By.ID, "play").get_attribute("aria-pressed") == "false")
    assert room.execute_script("return navigator.mediaSession.playbackState") == "paused"
    room.execute_script(call, "play")
    wait(room, 5).until(lambda d: not audio(d, "paused"))
    later = next(c for c in dante["toc"] if c["page_index"] > page["index"])
    room.execute_script(call, "nexttrack")
    wait(room, 30).until(lambda d: f"({later['page_index']} of" in d.find_element(By.ID, "page-label").text)
    wait(room, 30).until(lambda d: d.execute_script("return navigator.mediaSession.metadata.title") == later["title"])
    room.execute_script(call, "previoustrack")
    wait(room, 30).until(lambda d: f"({later['page_index']} of" not in d.find_element(By.ID, "page-label").text)
    room.execute_script(call, "pause")


def test_the_keys_are_listed_in_a_help_dialog_and_brackets_change_the_speed(server, room, dante):
    # Given a book open
    look(room, "dark", 1280)
    open_page(room, server, dante["id"], 1)
    body = room.find_element(By.TAG_NAME, "body")
    # When ? is pressed, the help dialog lists the keys; Escape closes it
    body.send_keys("?")
    wait(room, 5).until(lambda d: d.execute_script("return document.getElementById('help').open"))
    keys = room.find_element(By.ID, "help").text
    assert all(key in keys for key in ("Space", "[", "]", "Shift")), keys
    room.save_screenshot(str(_shot("help-dialog-1280")))
    ActionChains(room).send_keys(Keys.ESCAPE).perform()
    wait(room, 5).until(lambda d: not d.execute_script("return document.getElementById('help').open"))
    # When ] and [ are pressed, the speed goes one step up, then back
    body.send_keys("]")
    assert room.find_element(By.ID, "speed").get_attribute("value") == "1.25"
    body.send_keys("[")
    body.send_keys("[")
    assert room.find_element(By.ID, "speed").get_attribute("value") == "0.75"
    body.send_keys("]")
    assert room.find_element(By.ID, "speed").get_attribute("value") == "1"


def test_the_page_is_installable_without_a_service_worker(server, room):
    # Given the room open
    look(room, "light", 1280)
    room.get(server.http + "/")
    wait(room).until(lambda d: d.find_elements(By.ID, "library-view"))
    # When Chromium reads its manifest
    manifest = room.execute_cdp_cmd("Page.getAppManifest", {})
    # Then it parses without error, under the page's policy, and its icons are served
    assert manifest["url"].endswith("/manifest.webmanifest"), manifest
    assert not [e for e in manifest.get("errors", []) if e.get("critical")], manifest["errors"]
    assert '"short_name": "Narrate"' in manifest["data"]
    for icon in ("/web/icon.svg", "/web/icon-192.png", "/web/icon-512.png", "/web/icon-maskable.png"):
        answer = requests.get(server.http + icon, timeout=30)
        assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("image/"), icon
        assert "unsafe-inline" not in answer.headers["Content-Security-Policy"]
    assert "manifest-src 'self'" in requests.get(server.http + "/", timeout=30).headers["Content-Security-Policy"]
    # And no service worker is registered, so an upgrade is never hidden behind an old page
    assert room.execute_async_script("navigator.serviceWorker.getRegistrations().then(r => arguments[0](r.length))") == 0


def _shot(name: str):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
