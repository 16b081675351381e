"""Another web site's page, in a real Chromium, against the local service: its form POST,
`fetch` and `<audio src>` get nothing and change nothing, while the listening room keeps
working on its own origin, on localhost and on the bound address."""

from __future__ import annotations

import http.server
import socketserver
import threading
import time
import warnings
from urllib.parse import urlparse

import requests
from selenium.webdriver.support.ui import WebDriverWait

from narrate_service import CORPUS

BOOK = CORPUS / "epub" / "wasteland.epub"

ATTACK = """<!doctype html><meta charset="utf-8"><title>attacker</title>
<iframe name="sink" style="display:none"></iframe><iframe name="sink2" style="display:none"></iframe>
<form id="form" method="post" enctype="text/plain" target="sink" action="{service}/v1/audio/speech">
<input name='{{"model": "tts-1", "voice": "alloy", "input": "pwned", "x": "' value='"}}'></form>
<form id="upload" method="post" enctype="text/plain" target="sink2" action="{service}/v1/books?filename=pwned.md">
<input name="# Pwned" value="planted by another site"></form>
<script>
window.results = {{}};
const service = "{service}";
(async () => {{
  document.getElementById("form").submit();
  document.getElementById("upload").submit();
  try {{
    await fetch(service + "/v1/books?filename=pwned.txt", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}}, body: "# Pwned\\n\\nAgain."}});
    results.noCorsUpload = "sent";
  }} catch (error) {{ results.noCorsUpload = "failed"; }}
  try {{
    const answer = await fetch(service + "/v1/books");
    results.read = await answer.text();
  }} catch (error) {{ results.read = "blocked"; }}
  try {{
    await fetch(service + "/v1/exports/anything", {{method: "DELETE", mode: "no-cors"}});
    results.delete = "sent";
  }} catch (error) {{ results.delete = "failed"; }}
  const audio = new Audio(service + "/v1/books/1/pages/1/audio?voice=alloy&format=mp3");
  audio.addEventListener("error", () => {{ results.audio = "error"; }});
  audio.addEventListener("canplay", () => {{ results.audio = "played"; }});
  audio.play().catch(() => {{}});
}})();
</script>"""


class AttackerSite:
    """A page on another origin (another host name and port), served from memory."""

    def __init__(self, service: str):
        page = ATTACK.format(service=service).encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args):
                pass

        self.server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        # "localhost" is another site than the service's 127.0.0.1.
        return f"http://localhost:{self.server.server_address[1]}/"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Steps:
    """The wall time of each step; a step past 5 s is reported in pytest's warnings summary
    (a busy CI run once took 60 s here that no run by hand reproduced)."""

    def __init__(self):
        self.last = time.monotonic()

    def done(self, step: str):
        now = time.monotonic()
        if now - self.last > 5:
            warnings.warn(f"cross-site test: {step} took {now - self.last:.1f} s")
        self.last = now


def _books(server) -> list[dict]:
    return requests.get(server.v1 + "/books", timeout=30).json()["books"]


def test_another_sites_page_gets_nothing_and_changes_nothing(server, browser):
    # Given: a book in the library, and a page of another site open in the browser
    steps = Steps()
    requests.post(server.v1 + "/books", data=BOOK.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    before = _books(server)
    site = AttackerSite(server.http)
    steps.done("adding the book")
    try:
        # When: the page tries a form POST, fetch and <audio src> against the service
        browser.get(site.url)
        steps.done("opening the other site's page")
        WebDriverWait(browser, 60).until(lambda d: {"noCorsUpload", "read", "delete", "audio"} <= set(d.execute_script("return Object.keys(window.results)")))
        results = browser.execute_script("return window.results")
        steps.done(f"the page's requests ({results})")
        # The forms' answers arrive in the hidden frames.
        for _ in range(120):
            if server.log.read_text(errors="replace").count("POST /v1/audio/speech 403") >= 1:
                break
            time.sleep(0.5)
        steps.done("the form's refusal in the service's log")
    finally:
        site.close()

    # The console shows the refusals the page provoked; they are this test's point.
    browser.get_log("browser")

    # Then: nothing was read, played or added, and the service refused each request
    assert results["read"] == "blocked", results
    assert results["audio"] == "error", results
    assert [b["id"] for b in _books(server)] == [b["id"] for b in before]
    log = server.log.read_text(errors="replace")
    assert "POST /v1/books 403" in log, log[-3000:]
    assert "POST /v1/audio/speech 403" in log, log[-3000:]
    assert "/pages/{page}/audio 403" in log, log[-3000:]


def test_the_room_works_on_its_own_origin_localhost_and_the_bound_address(server, browser):
    requests.post(server.v1 + "/books", data=BOOK.read_bytes(), headers={"Content-Type": "application/epub+zip"}, timeout=60)
    port = urlparse(server.http).port
    for base in (server.http, f"http://localhost:{port}", f"http://127.0.0.1:{port}"):
        browser.get(base + "/")
        WebDriverWait(browser, 60).until(lambda d: "The Waste Land" in d.page_source)
        # The page's own requests are same-origin: its library loaded and a page's text reads.
        text = browser.execute_script("return fetch('/v1/books/1/pages/1/text').then(r => r.status)")
        assert text == 200, base
