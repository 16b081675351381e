// Narrate's listening room: the library, a book's pages read aloud one after another, and the
// place kept through the progress API (the same one `narrate next` reads). Everything comes
// from this service's own API; a book's text and titles are only ever set as text, never as
// HTML. Each view is a module of its own under /web/; this one routes and wires them.
import { $, on, show } from "./web/state.js";
import { KEY, report } from "./web/api.js";
import { openLibrary, wireLibrary } from "./web/library.js";
import { openBook } from "./web/book.js";
import { stop, playSentence, wirePlayer } from "./web/player.js";
import { wireReader, resumeFollowing } from "./web/reader.js";
import { wireContents } from "./web/contents.js";
import { wireExports } from "./web/exporter.js";
import { loadVoices, wireVoices } from "./web/voices.js";
import { wireSleep } from "./web/sleep.js";
import { wireBookmarks } from "./web/bookmarks.js";
import { wireShortcuts } from "./web/shortcuts.js";
import { wireMediaSession } from "./web/media-session.js";
import { wireCast } from "./web/cast.js";

function askForKey(message) {
  stop();
  show("key-view");
  $("key-error").textContent = sessionStorage.getItem(KEY) ? message : "";
  $("key").focus();
}

function route() {
  const match = location.hash.match(/^#\/book\/(\d+)(?:\/(\d+))?$/);
  if (match) openBook(match[1], match[2] ? Number(match[2]) - 1 : null).catch(report);
  else openLibrary().catch(report);
}

function start() {
  on("unauthorized", askForKey);
  $("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY, $("key").value.trim());
    $("key").value = "";
    loadVoices();
    route();
  });
  $("back").addEventListener("click", () => { location.hash = "#/"; });
  $("page").addEventListener("click", (event) => {
    const sentence = event.target instanceof Element && event.target.closest(".sentence");
    if (sentence && !(window.getSelection() && String(window.getSelection()))) {
      resumeFollowing();
      playSentence(Number(sentence.dataset.index)).catch(report);
    }
  });
  wireLibrary();
  wirePlayer();
  wireReader();
  wireContents();
  wireExports();
  wireVoices();
  wireSleep();
  wireBookmarks();
  wireShortcuts();
  wireMediaSession();
  wireCast();
  window.addEventListener("hashchange", route);
  loadVoices();
  route();
}

// A module runs once the document is parsed.
start();
