// The sleep timer: after 15, 30, 45 or 60 minutes of listening, or at the end of the chapter,
// the voice fades out and the reading pauses. The choice is remembered in this browser; the
// next play counts the whole time again. A pause or play during the fade cancels it.
import { $, state, on, status } from "./state.js";
import { stop, chapterStarts } from "./player.js";

const KEY = "narrate-sleep";
const CHOICES = ["off", "15", "30", "45", "60", "chapter"];
// The longest fade, in milliseconds (a third of a shorter timer).
const FADE = 10000;

// A test's hook: how many milliseconds a minute of the timer lasts, from this tab's
// sessionStorage (the browser suite shortens it); a real minute otherwise.
function minute() {
  const given = Number(sessionStorage.getItem("narrate-sleep-minute"));
  return given > 0 ? given : 60000;
}

let left = 0;        // milliseconds of listening before the reading pauses
let fadeLength = 0;  // the last so many of them fade out
let fading = false;
let ticking = null;
let last = 0;

const chosen = () => $("sleep").value;

// The whole time again, from the choice made.
function arm() {
  endFade();
  state.sleepAtPageEnd = false;
  const value = chosen();
  left = /^\d+$/.test(value) ? Number(value) * minute() : 0;
  fadeLength = Math.min(FADE, left / 3);
  showLeft();
  follow();
}

function endFade() {
  if (fading) $("audio").volume = 1;
  fading = false;
}

function showLeft() {
  const value = chosen();
  let text = "";
  if (value === "chapter") text = "Sleep at the chapter\u2019s end";
  else if (value !== "off") {
    const seconds = Math.ceil(left / Math.max(minute() / 60, 1));
    text = `Sleep in ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }
  $("sleep-left").textContent = text;
}

// Counts down while the reading plays.
function follow() {
  const counting = state.playing && /^\d+$/.test(chosen());
  if (counting && !ticking) {
    last = performance.now();
    ticking = setInterval(tick, 100);
  } else if (!counting && ticking) {
    clearInterval(ticking);
    ticking = null;
  }
}

function tick() {
  const now = performance.now();
  left -= now - last;
  last = now;
  if (left <= 0) { fallAsleep(); return; }
  if (left <= fadeLength) { fading = true; $("audio").volume = Math.max(0, Math.min(1, left / fadeLength)); }
  showLeft();
}

function fallAsleep() {
  fading = false;
  stop();
  $("audio").volume = 1;
  arm();
  status("The sleep timer paused the reading.");
}

// At the chapter's end: this page is the chapter's last when the next one starts a chapter (or
// there is none); its last seconds fade out and its end pauses the reading (the player asks
// `state.sleepAtPageEnd`).
function followChapter() {
  if (chosen() !== "chapter" || !state.book) return;
  const next = state.index + 1;
  state.sleepAtPageEnd = next >= state.pages.length || chapterStarts().includes(next);
  const audio = $("audio");
  if (!state.sleepAtPageEnd || !Number.isFinite(audio.duration) || audio.paused) return;
  const length = Math.min(FADE / 1000, audio.duration / 3);
  const remaining = audio.duration - audio.currentTime;
  if (remaining <= length) { fading = true; audio.volume = Math.max(0, Math.min(1, remaining / length)); }
  else endFade();
}

export function wireSleep() {
  const select = $("sleep");
  const kept = localStorage.getItem(KEY);
  if (CHOICES.includes(kept)) select.value = kept;
  select.addEventListener("change", () => {
    if (chosen() === "off") localStorage.removeItem(KEY); else localStorage.setItem(KEY, chosen());
    arm();
  });
  on("playing", () => {
    // A listener who pauses or plays during the fade is awake: the whole time again.
    if (fading) arm(); else follow();
  });
  on("page", () => { endFade(); state.sleepAtPageEnd = false; });
  on("slept", () => { $("audio").volume = 1; fading = false; state.sleepAtPageEnd = false; status("The sleep timer paused the reading at the chapter\u2019s end."); });
  $("audio").addEventListener("timeupdate", followChapter);
  arm();
}
