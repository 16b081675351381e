// The lock screen and the headset: the Media Session's metadata (the chapter as the title, the
// author, the book, its cover) and actions (play, pause, seek back and forward, the previous
// and next chapter, seek to), with the position in the page's audio kept current.
import { $, state, on } from "./state.js";
import { api, headers } from "./api.js";
import { play, stop, skip, chapter } from "./player.js";
import { chapterOf } from "./book.js";

const session = navigator.mediaSession;
let artwork = [];

// The cover as the system may fetch it: its address, or, when the service asks for a key the
// system would not send, the image itself.
async function coverFor(book) {
  if (!book.cover) return [];
  const direct = !headers().Authorization;
  const src = direct ? new URL(book.cover, location.href).href : await dataURL(book.cover);
  return [{ src }];
}

async function dataURL(link) {
  const blob = await (await api(link)).blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener("load", () => resolve(reader.result));
    reader.addEventListener("error", () => reject(reader.error));
    reader.readAsDataURL(blob);
  });
}

function describe() {
  const book = state.book;
  if (!book) { session.metadata = null; return; }
  const chapter = state.toc[chapterOf(state.index)];
  session.metadata = new MediaMetadata({
    title: chapter ? chapter.title : book.title,
    artist: book.authors.join(", "),
    album: book.title,
    artwork,
  });
}

// Where the reading is in the page's audio (the track the system shows).
function position() {
  const audio = $("audio");
  if (!Number.isFinite(audio.duration) || audio.duration <= 0) return;
  try {
    session.setPositionState({ duration: audio.duration, position: Math.min(audio.currentTime, audio.duration), playbackRate: audio.playbackRate || 1 });
  } catch (_) { /* a position the system refuses: the next one will do */ }
}

export function wireMediaSession() {
  if (!session) return;
  const actions = {
    play: () => play(),
    pause: () => stop(),
    seekbackward: (details) => skip(-(details && details.seekOffset ? details.seekOffset : 15)),
    seekforward: (details) => skip(details && details.seekOffset ? details.seekOffset : 30),
    previoustrack: () => chapter(-1),
    nexttrack: () => chapter(1),
    seekto: (details) => {
      const audio = $("audio");
      if (!details || !Number.isFinite(details.seekTime)) return;
      if (details.fastSeek && audio.fastSeek) audio.fastSeek(details.seekTime); else audio.currentTime = details.seekTime;
      position();
    },
  };
  for (const [action, handler] of Object.entries(actions)) {
    try { session.setActionHandler(action, handler); } catch (_) { /* an action this browser does not know */ }
  }
  on("book", async (book) => {
    artwork = [];
    describe();
    if (!book) return;
    try { artwork = await coverFor(book); } catch (_) { artwork = []; }
    if (state.book === book) describe();
  });
  on("page", describe);
  on("playing", (playing) => { session.playbackState = playing ? "playing" : "paused"; });
  const audio = $("audio");
  for (const name of ["loadedmetadata", "durationchange", "seeked", "ratechange", "play", "pause"]) audio.addEventListener(name, position);
}
