"""scripts/benchmark-web.sh's measurements (see there): the listening room in headless Chromium
against the speech API, round by round, the median round reported."""

from __future__ import annotations

import contextlib
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "ServiceClients"))
sys.path.insert(0, str(ROOT / "Tests" / "ListeningRoom"))
from narrate_service import CORPUS, start_server  # noqa: E402
from room_support import chromium  # noqa: E402

RUNS = int(os.environ.get("RUNS", "3"))
VOICE = os.environ.get("VOICE", "alloy")
BOOKS = 200


def wait(driver, seconds: float = 120) -> WebDriverWait:
    return WebDriverWait(driver, seconds, poll_frequency=0.01)


def library_books() -> list[tuple[str, bytes]]:
    """200 Markdown books, each a different stretch of the corpus's Gutenberg texts."""
    paragraphs = []
    for source in sorted((CORPUS / "txt").glob("*.txt")):
        text = source.read_bytes().decode("utf-8", errors="replace")
        paragraphs += [p.strip() for p in re.split(r"\n\s*\n", text) if len(p.strip()) > 200]
    books = []
    for number in range(BOOKS):
        body = "\n\n".join(paragraphs[(number * 7) % len(paragraphs):][:6])
        books.append((f"book-{number:03}.md", f"# Book {number + 1}: a stretch of the corpus\n\n{body}\n".encode()))
    return books


def first_paint_and_list(driver, url: str) -> tuple[float, float]:
    driver.get("about:blank")
    driver.get(url + "/")
    wait(driver).until(lambda d: d.execute_script("return performance.getEntriesByName('narrate:library').length") > 0)
    wait(driver).until(lambda d: d.execute_script("return performance.getEntriesByName('first-contentful-paint').length") > 0)
    paint = driver.execute_script("return performance.getEntriesByName('first-contentful-paint')[0].startTime")
    ready = driver.execute_script("return performance.getEntriesByName('narrate:library')[0].startTime")
    count = len(driver.find_elements(By.CSS_SELECTOR, "#books .open"))
    assert count >= BOOKS, count
    return paint, ready


def speech_first_byte(url: str, text: str) -> float:
    start = time.monotonic()
    with requests.post(url + "/v1/audio/speech", json={"model": "tts-1", "voice": VOICE, "input": text, "response_format": "mp3"}, stream=True, timeout=300) as response:
        response.raise_for_status()
        next(response.iter_content(1))
        first = time.monotonic() - start
        for _ in response.iter_content(65536):
            pass
    return first


def page_stream_first_byte(url: str, book: str, page: str) -> float:
    """The page audio route's first byte, streamed (what the page asks for), on a page not yet made."""
    start = time.monotonic()
    with requests.get(f"{url}/v1/books/{book}/pages/{page}/audio", params={"format": "mp3", "voice": VOICE, "stream": "true"}, stream=True, timeout=300) as response:
        response.raise_for_status()
        next(response.iter_content(1))
        first = time.monotonic() - start
        for _ in response.iter_content(65536):
            pass
    return first


def play_to_sound(driver, url: str, book: str, page: int) -> float:
    """Seconds from pressing play on page `page` (1-based, not yet made) to its first 'playing'."""
    driver.get(f"{url}/#/book/{book}/{page}")
    wait(driver).until(lambda d: f"({page} of" in d.find_element(By.ID, "page-label").text)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#voice option[value='" + VOICE + "']"))
    Select(driver.find_element(By.ID, "voice")).select_by_value(VOICE)
    # One script that waits for the sound itself: polling the page from here every few
    # milliseconds would take the page's main thread and a core from what is measured.
    times = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const times = {};
        const audio = document.getElementById('audio');
        audio.addEventListener('playing', () => { times.playing = performance.now(); done(times); }, { once: true });
        // When the page's audio answer arrives: its headers, sent once the first chunk is spoken.
        const fetched = window.fetch;
        window.fetch = function (...args) {
            const answer = fetched.apply(this, args);
            if (String(args[0]).includes('/audio') && times.answer === undefined) {
                answer.then(() => { times.answer = performance.now(); }, () => {});
            }
            return answer;
        };
        times.click = performance.now();
        document.getElementById('play').click();""")
    driver.execute_script("document.getElementById('audio').pause()")
    return (times["playing"] - times["click"]) / 1000, (times["answer"] - times["click"]) / 1000


def page_gap(driver) -> float:
    """Seconds between the page playing's 'ended' and the next page's 'playing', the next page
    made while this one played (a second before its end)."""
    wait(driver).until(lambda d: d.execute_script("const a = document.getElementById('audio'); return isFinite(a.duration) && a.duration > 0"))
    driver.execute_script("document.getElementById('audio').play()")
    time.sleep(1.5)  # the next page's audio and timing are fetched while this one plays
    gap = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const gap = {};
        const audio = document.getElementById('audio');
        audio.addEventListener('ended', () => {
            gap.ended = performance.now();
            audio.addEventListener('playing', () => { gap.playing = performance.now(); done(gap); }, { once: true });
        }, { once: true });
        audio.currentTime = Math.max(0, audio.duration - 0.4);""")
    driver.execute_script("document.getElementById('audio').pause()")
    return (gap["playing"] - gap["ended"]) / 1000


def main() -> None:
    rounds = []
    books = library_books()
    with tempfile.TemporaryDirectory(prefix="narrate-web-bench-") as scratch:
        scratch = Path(scratch)
        with contextlib.ExitStack() as stack:
            page_server = stack.enter_context(start_server(scratch / "page"))
            for name, body in books:
                requests.post(f"{page_server.v1}/books?filename={name}", data=body, headers={"Content-Type": "text/markdown"}, timeout=60).raise_for_status()
            moby = requests.post(page_server.v1 + "/books", data=(CORPUS / "epub" / "moby-dick.epub").read_bytes(),
                                 headers={"Content-Type": "application/epub+zip"}, timeout=120).json()["id"]
            pages = requests.get(f"{page_server.v1}/books/{moby}/pages", timeout=60).json()["pages"]
            # Pages of a few hundred words, from the middle of the book: one per round and measure.
            chosen = [p for p in pages if 150 <= p["words"] <= 400][10:]
            driver = chromium()
            stack.callback(driver.quit)
            size = sum(len(requests.get(page_server.http + path, timeout=30).content) for path in ("/app.js", "/app.css"))
            for run in range(RUNS):
                # A service for the speech API with an empty cache of its own each round.
                with start_server(scratch / f"api-{run}") as api_server:
                    page = chosen[run * 3]
                    text = requests.get(f"{page_server.v1}/books/{moby}/pages/{page['page']}/text", timeout=60).text
                    speech_first_byte(api_server.http, "Warming up the voice.")
                    first_byte = speech_first_byte(api_server.http, text)
                # The same page through the page route, streamed, on a service with an empty cache too.
                with start_server(scratch / f"route-{run}") as route_server:
                    speech_first_byte(route_server.http, "Warming up the voice.")
                    route_moby = requests.post(route_server.v1 + "/books", data=(CORPUS / "epub" / "moby-dick.epub").read_bytes(),
                                               headers={"Content-Type": "application/epub+zip"}, timeout=120).json()["id"]
                    route_first_byte = page_stream_first_byte(route_server.http, route_moby, page["page"])
                paints, lists = zip(*[first_paint_and_list(driver, page_server.http) for _ in range(5)])
                sound, answer = play_to_sound(driver, page_server.http, moby, page["index"])
                gap = page_gap(driver)
                rounds.append({"paint": statistics.median(paints) / 1000, "list": statistics.median(lists) / 1000,
                               "sound": sound, "first_byte": first_byte, "ratio": sound / first_byte, "gap": gap,
                               "route": route_first_byte, "route_ratio": route_first_byte / first_byte, "answer": answer, "media": sound - answer})
                print(f"round {run + 1}: paint {rounds[-1]['paint'] * 1000:.0f} ms, list {rounds[-1]['list'] * 1000:.0f} ms, "
                      f"play to sound {sound * 1000:.0f} ms against the API's first byte {first_byte * 1000:.0f} ms ({sound / first_byte:.2f}x), "
                      f"gap between pages {gap * 1000:.0f} ms; in the page: the answer after {answer * 1000:.0f} ms, sound {(sound - answer) * 1000:.0f} ms later", file=sys.stderr)

    def median(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print()
    print(f"The listening room, {RUNS} round(s), median (headless Chromium, {BOOKS} books, voice {VOICE}):")
    print(f"  library: first contentful paint {median('paint') * 1000:.0f} ms, list shown and usable {median('list') * 1000:.0f} ms (target <= 300 ms: {verdict(max(median('paint'), median('list')) <= 0.3)})")
    print(f"  play on a page not yet made to the first sound: {median('sound') * 1000:.0f} ms; the speech API's first byte for its text {median('first_byte') * 1000:.0f} ms -> {median('ratio'):.2f}x (target <= 1.2: {verdict(median('ratio') <= 1.2)})")
    print(f"  of which the service: the page route's first byte, streamed, {median('route') * 1000:.0f} ms -> {median('route_ratio'):.2f}x the API's (on a service of its own);"
          f" in the page, the answer arrives {median('answer') * 1000:.0f} ms after the click and sounds {median('media') * 1000:.0f} ms later (MediaSource, decoder, audio output)")
    print(f"  gap between two pages in continuous play: {median('gap') * 1000:.0f} ms (target <= 150 ms: {verdict(median('gap') <= 0.15)})")
    print(f"  the page's JavaScript and CSS: {size:,} bytes (at most 150 KB)")


if __name__ == "__main__":
    main()
