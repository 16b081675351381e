// The page being read: its text as paragraphs, each timed sentence (and word) a span that is
// lit while it is spoken, and the view kept on that sentence, above the player bar, until the
// listener scrolls away (then "Back to the voice" brings it back). Text only, never HTML.
import { $, state, emit, on } from "./state.js";
import { pageKey } from "./player.js";

// The page's text; with a timing, each sentence (and word) a span of its own that lights up
// while it is spoken and starts the reading there when clicked.
export function layOut(text, timing) {
  const article = $("page");
  article.replaceChildren();
  const sentences = timing ? timing.sentences : [];
  const words = timing && timing.timing === "words" ? timing.words : [];
  const shown = { timing, sentences: sentences.map(() => []), words: words.map(() => []) };
  let s = 0, w = 0;
  const boundary = /\n\s*\n/g;
  let start = 0;
  const paragraphs = [];
  for (let match; (match = boundary.exec(text)) !== null; start = match.index + match[0].length) paragraphs.push([start, match.index]);
  paragraphs.push([start, text.length]);
  for (let [from, to] of paragraphs) {
    while (from < to && /\s/.test(text[from])) from++;
    while (to > from && /\s/.test(text[to - 1])) to--;
    if (from === to) continue;
    const p = document.createElement("p");
    let at = from;
    const plain = (end) => { if (end > at) p.append(text.slice(at, end)); at = Math.max(at, end); };
    while (s < sentences.length && sentences[s].from < to) {
      const sentence = sentences[s];
      const begin = Math.max(sentence.from, at), end = Math.min(sentence.to, to);
      if (end <= begin) { if (sentence.to <= to) s++; else break; continue; }
      plain(begin);
      const span = document.createElement("span");
      span.className = "sentence";
      span.dataset.index = String(s);
      span.dataset.start = String(sentence.start);
      let inner = begin;
      while (w < words.length && words[w].from < end) {
        const word = words[w];
        if (word.from >= inner && word.to <= end) {
          if (word.from > inner) span.append(text.slice(inner, word.from));
          const mark = document.createElement("span");
          mark.className = "word";
          mark.textContent = text.slice(word.from, word.to);
          span.append(mark);
          shown.words[w].push(mark);
          inner = word.to;
        }
        w++;
      }
      if (end > inner) span.append(text.slice(inner, end));
      shown.sentences[s].push(span);
      p.append(span);
      at = end;
      if (sentence.to <= to) s++; else break;
    }
    plain(to);
    article.append(p);
  }
  state.shown = shown;
  state.lit = { sentence: -1, word: -1 };
  highlight();
}

// The last span starting at or before `time` (spans are in order).
export function spanAt(spans, time) {
  let low = 0, high = spans.length - 1, found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (spans[middle].start <= time) { found = middle; low = middle + 1; } else high = middle - 1;
  }
  return found >= 0 && time < spans[found].end + 0.05 ? found : -1;
}

// The sentence of `timing` that holds text offset `offset` (the last one starting at or before it).
export function sentenceAtOffset(timing, offset) {
  let found = 0;
  timing.sentences.forEach((sentence, index) => { if (sentence.from <= offset) found = index; });
  return found;
}

function light(kind, index, className) {
  const spans = state.shown[kind === "sentence" ? "sentences" : "words"];
  if (state.lit[kind] === index) return;
  if (state.lit[kind] >= 0) for (const element of spans[state.lit[kind]] || []) element.classList.remove(className);
  state.lit[kind] = index;
  if (index < 0) return;
  for (const element of spans[index] || []) element.classList.add(className);
  if (kind === "sentence") {
    if (state.following) keepInView();
    emit("sentence", index);
  }
}

// Lights the sentence and word being spoken, if the audio playing is this page's.
export function highlight() {
  const shown = state.shown;
  if (!shown || !shown.timing || state.playingKey !== pageKey(state.index)) return;
  const time = $("audio").currentTime;
  light("sentence", spanAt(shown.timing.sentences, time), "speaking");
  if (shown.timing.timing === "words") light("word", spanAt(shown.timing.words, time), "speaking-word");
}

export function follow() {
  highlight();
  if (!$("audio").paused) requestAnimationFrame(follow);
}

// The sentence being spoken now (or the first), to go on from after a change of voice or speed.
export function currentSentence() {
  return state.shown && state.lit.sentence >= 0 ? state.lit.sentence : null;
}

// The place on the page being read: the sentence being spoken, else the first one in view.
export function currentOffset() {
  const timing = state.shown && state.shown.timing;
  if (!timing || !timing.sentences.length) return 0;
  if (state.lit.sentence >= 0) return timing.sentences[state.lit.sentence].from;
  const bottom = visibleBottom();
  const index = state.shown.sentences.findIndex((spans) => spans[0] && spans[0].getBoundingClientRect().bottom > 0 && spans[0].getBoundingClientRect().top < bottom);
  return timing.sentences[Math.max(index, 0)].from;
}

// ---- Keeping the voice in view ----------------------------------------------------------

// The top of the player bar: what lies below it is covered.
function visibleBottom() {
  return Math.min(window.innerHeight, $("player").getBoundingClientRect().top);
}

// The window position this page set last, to tell its own scrolls from the listener's.
let ownScroll = null;
// When the listener last did something that scrolls (a wheel, a touch, a key, the scrollbar).
let intent = -Infinity;

// Scrolls so that the sentence being spoken is in view above the player, a third of the way
// down what is visible, when it is not already there.
export function keepInView(force = false) {
  const spans = state.shown && state.lit.sentence >= 0 ? state.shown.sentences[state.lit.sentence] : null;
  if (!spans || !spans.length) return;
  const first = spans[0].getBoundingClientRect(), last = spans[spans.length - 1].getBoundingClientRect();
  const margin = 12, bottom = visibleBottom();
  if (!force && first.top >= margin && last.bottom <= bottom - margin) return;
  const room = bottom - margin * 2;
  const height = last.bottom - first.top;
  const offset = height >= room * 0.66 ? margin : Math.max(margin, room / 3 - height / 2);
  const top = Math.max(0, Math.round(window.scrollY + first.top - offset));
  const most = document.documentElement.scrollHeight - window.innerHeight;
  ownScroll = Math.max(0, Math.min(top, most));
  window.scrollTo({ top: ownScroll, behavior: "instant" });
}

function pauseFollowing() {
  if (!state.following) return;
  state.following = false;
  $("back-to-voice").hidden = !state.playing;
}

// Follows the voice again (the button, a new page, a click on a sentence).
export function resumeFollowing() {
  state.following = true;
  $("back-to-voice").hidden = true;
  keepInView(true);
}

export function wireReader() {
  // What the player bar covers, for the page's padding and for scrolls.
  const bar = $("player");
  new ResizeObserver(() => {
    if (bar.offsetHeight) document.documentElement.style.setProperty("--player-height", `${bar.offsetHeight}px`);
  }).observe(bar);
  for (const name of ["wheel", "touchmove"]) window.addEventListener(name, () => { intent = performance.now(); }, { passive: true });
  // A press on the window's scroll bar (beside the page's own width).
  window.addEventListener("mousedown", (event) => { if (event.clientX >= document.documentElement.clientWidth) intent = performance.now(); }, { passive: true });
  window.addEventListener("keydown", (event) => {
    if (["PageUp", "PageDown", "Home", "End", "ArrowUp", "ArrowDown"].includes(event.key)) intent = performance.now();
  });
  window.addEventListener("scroll", () => {
    const ours = ownScroll !== null && Math.abs(window.scrollY - ownScroll) <= 2;
    ownScroll = null;
    if (!ours && performance.now() - intent < 1000 && !$("book-view").hidden) pauseFollowing();
  }, { passive: true });
  $("back-to-voice").addEventListener("click", resumeFollowing);
  const audio = $("audio");
  audio.addEventListener("play", follow);
  audio.addEventListener("seeked", highlight);
  audio.addEventListener("timeupdate", highlight);
  on("playing", () => { $("back-to-voice").hidden = state.following || !state.playing; });
}
