// The player: a page's audio (streamed as it is narrated when not made yet, else the whole
// file), play and pause (followed when the browser's or the system's controls do it), pages
// and chapters, skips of seconds that cross pages, speed and voice changes that go on from the
// sentence being spoken, and the next page made while this one plays.
import { $, state, emit, status } from "./state.js";
import { api, json, report } from "./api.js";
import { layOut, highlight, currentSentence, sentenceAtOffset } from "./reader.js";
import { showPage } from "./book.js";

// Other modules' parameters of a page's audio (a voice per character, say): each function adds
// to the query, which is also the key the page's audio is kept under.
export const audioParameters = [];

function pageQuery(extra) {
  const query = new URLSearchParams(extra);
  if ($("voice").value) query.set("voice", $("voice").value);
  if ($("speed").value !== "1") query.set("speed", $("speed").value);
  for (const add of audioParameters) add(query);
  return query;
}

export function pageKey(index) {
  return `${index} ${pageQuery({})}`;
}

function pagePath(index, what) {
  return `/v1/books/${state.book.id}/pages/${encodeURIComponent(state.pages[index].page)}/${what}`;
}

// The page's audio at the chosen voice and speed (the engine's rate: the text keeps in step).
function audioFor(index) {
  const key = pageKey(index);
  if (!state.audio.has(key)) {
    const made = api(`${pagePath(index, "audio")}?${pageQuery({ format: "mp3" })}`)
      .then((response) => response.blob())
      .then((blob) => URL.createObjectURL(blob));
    made.catch(() => state.audio.delete(key));
    state.audio.set(key, made);
  }
  return state.audio.get(key);
}

// A page not made yet, played as the service narrates it: its first sentence is heard as soon
// as it is spoken. The stream is fed to a MediaSource (fetched, so an API key goes along); the
// service keeps the whole page, which any later request (a replay, the timing) gets.
function streamFor(index) {
  const source = new MediaSource();
  const url = URL.createObjectURL(source);
  // Asked for at once, not when the player has opened the source.
  const response = api(`${pagePath(index, "audio")}?${pageQuery({ format: "mp3", stream: "true" })}`);
  response.catch(() => {});
  source.addEventListener("sourceopen", async () => {
    try {
      const buffer = source.addSourceBuffer("audio/mpeg");
      const updated = (change) => new Promise((resolve, reject) => {
        buffer.addEventListener("updateend", resolve, { once: true });
        buffer.addEventListener("error", reject, { once: true });
        change();
      });
      const appended = (bytes) => updated(() => buffer.appendBuffer(bytes));
      // While the service speaks the first sentence, the player readies itself for MP3: a few
      // silent frames an hour past the start make it choose its decoder and open its output,
      // and are removed before the page's audio, which starts at 0, comes. The first sound
      // then comes some 4 ms sooner after the first bytes (Chromium).
      buffer.timestampOffset = 3600;
      await appended(silentFrames());
      await updated(() => buffer.remove(3600, Infinity));
      buffer.timestampOffset = 0;
      const reader = (await response).body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        await appended(value);
      }
      if (source.readyState === "open") source.endOfStream();
    } catch (error) {
      // A source no longer open: the player moved on (another page, voice or speed).
      if (source.readyState !== "open") return;
      source.endOfStream("network");
      report(error);
    }
  }, { once: true });
  return url;
}

// A browser loads its media decoders and opens its audio output the first time a page plays,
// which made the first play in a tab some 200 ms slower than the next. A book being opened has
// a muted player play a few silent frames, made here, so that is done before play is pressed.
let warmed = false;
export function warmPlayer() {
  if (warmed || !streams()) return;
  warmed = true;
  const player = new Audio();
  player.muted = true;
  const source = new MediaSource();
  source.addEventListener("sourceopen", () => {
    const buffer = source.addSourceBuffer("audio/mpeg");
    buffer.addEventListener("updateend", () => { source.endOfStream(); player.play().catch(() => {}); }, { once: true });
    buffer.appendBuffer(silentFrames());
  }, { once: true });
  player.addEventListener("playing", () => performance.mark("narrate:player-warm"), { once: true });
  player.addEventListener("ended", () => { URL.revokeObjectURL(player.src); player.removeAttribute("src"); player.load(); }, { once: true });
  player.src = URL.createObjectURL(source);
}

// Silent MPEG-2 Layer III frames (32 kbit/s, mono, at 22,050 Hz): a header, then zeroed side
// information and main data; 0.26 s of them.
function silentFrames() {
  const size = Math.floor((72 * 32000) / 22050);
  const frames = new Uint8Array(10 * size);
  for (let frame = 0; frame < 10; frame++) frames.set([0xff, 0xf3, 0x40, 0xc0], frame * size);
  return frames;
}

function streams() {
  return Boolean(window.MediaSource && MediaSource.isTypeSupported("audio/mpeg"));
}

// When each sentence (and, with eSpeak, word) of that audio is spoken, and how long it is;
// asked for once the audio is made, so it costs the service a file read.
export function timingFor(index, made = audioFor(index)) {
  const key = pageKey(index);
  if (!state.timing.has(key)) {
    const timing = made.then(() => json(`${pagePath(index, "timing")}?${pageQuery({})}`));
    timing.catch(() => state.timing.delete(key));
    state.timing.set(key, timing);
  }
  return state.timing.get(key);
}

// Plays the page shown, from its start or from `from`: `{sentence}` (its index in the timing),
// `{offset}` (a place in the page's text) or `{time}` (seconds into its audio). With `start`
// false the audio is only made ready there, paused.
export async function playPage(from = null, { start = true } = {}) {
  const run = ++state.run;
  const index = state.index;
  const key = pageKey(index);
  state.playing = start;
  setPlayButton();
  if (start) status("Preparing the page\u2019s audio\u2026");
  let url, streamed;
  try {
    // A time is sought in the whole file; a sentence can wait for the stream to reach it.
    streamed = !state.audio.has(key) && streams() && !(from && from.time !== undefined);
    url = streamed ? streamFor(index) : await audioFor(index);
  } catch (error) {
    state.playing = false;
    setPlayButton();
    report(error);
    return;
  }
  if (run !== state.run) return;
  const audio = $("audio");
  // Streamed, the page's timing comes when the service has narrated it all; it is asked for
  // once the first sound plays (unless a place to start from needs it now), so its request
  // does not compete with the page's first sentence.
  const started = new Promise((resolve) => {
    for (const name of ["playing", "pause", "error"]) audio.addEventListener(name, resolve, { once: true });
  });
  const timing = timingFor(index, !streamed ? audioFor(index) : from === null ? started : Promise.resolve());
  timing.then((found) => { if (state.index === index && pageKey(index) === key) layOut(found.text, found); }).catch(report);
  // A new source drops the events not yet fired, the "pause" of a pause just made among them.
  state.ownPauses = 0;
  audio.src = url;
  state.playingKey = key;
  if (from !== null) {
    try {
      let time = from.time;
      if (time === undefined) {
        const found = await timing;
        const sentence = from.sentence !== undefined ? from.sentence : sentenceAtOffset(found, from.offset);
        time = found.sentences[sentence] ? found.sentences[sentence].start : 0;
      }
      await seek(audio, time);
    } catch (_) { /* reported above; play from the start */ }
    if (run !== state.run) return;
  }
  status("");
  if (!start) { highlight(); return; }
  try {
    await audio.play();
  } catch (error) {
    if (run !== state.run) return;
    state.playing = false;
    setPlayButton();
    report(error);
    return;
  }
  // The next page is made while this one plays, so reading goes on without a gap.
  if (index + 1 < state.pages.length) timingFor(index + 1).catch(() => {});
}

function seek(audio, time) {
  return new Promise((resolve) => {
    const go = () => { audio.currentTime = time; resolve(); };
    if (audio.readyState >= 1) go(); else audio.addEventListener("loadedmetadata", go, { once: true });
  });
}

// Whether the player holds this page's audio at the voice and speed chosen.
function holdsThisPage() {
  return state.playingKey === pageKey(state.index) && Boolean($("audio").src);
}

// A click on a sentence: the reading goes on from there.
export async function playSentence(index) {
  const audio = $("audio");
  const timing = state.shown && state.shown.timing;
  if (!timing || !timing.sentences[index]) return;
  if (holdsThisPage()) {
    audio.currentTime = timing.sentences[index].start;
    highlight();
    if (audio.paused) {
      state.playing = true;
      setPlayButton();
      audio.play().catch(report);
    }
  } else {
    await playPage({ sentence: index });
  }
}

// The voice or speed changed: the page is read again with it, from the sentence being spoken.
export function restart() {
  if (!state.book) return;
  const sentence = currentSentence();
  const playing = state.playing;
  pauseAudio();
  state.playingKey = null;
  if (playing) playPage(sentence === null ? null : { sentence }).catch(report);
}

export function stop() {
  state.playing = false;
  state.run++;
  if ($("audio")) pauseAudio();
  setPlayButton();
}

// Pauses the audio as the page's own doing (see `ownPauses`).
export function pauseAudio() {
  const audio = $("audio");
  if (!audio.paused) state.ownPauses += 1;
  audio.pause();
}

// The audio paused or resumed by the browser's or the system's media controls (a headset's
// button, the lock screen): the play button and the next press follow it.
function followMediaControls(event) {
  const audio = event.target;
  if (event.type === "pause") {
    if (state.ownPauses > 0) { state.ownPauses -= 1; return; }
    if (audio.ended || !state.playing) return;
    state.playing = false;
  } else {
    if (state.playing) return;
    state.playing = true;
  }
  setPlayButton();
}

export function play() {
  if (!state.book || state.playing) return;
  const audio = $("audio");
  if (holdsThisPage() && audio.currentTime > 0 && !audio.ended) {
    state.playing = true;
    setPlayButton();
    audio.play().catch(report);
  } else {
    playPage();
  }
}

export function toggle() {
  if (!state.book) return;
  if (state.playing) stop(); else play();
}

// The play button says what a press does; the other views hear of each change.
let shownPlaying = false;
function setPlayButton() {
  const button = $("play");
  if (button) {
    button.textContent = state.playing ? "\u275A\u275A" : "\u25B6";
    button.setAttribute("aria-label", state.playing ? "Pause (space)" : "Play (space)");
    button.setAttribute("aria-pressed", String(state.playing));
  }
  if (shownPlaying === state.playing) return;
  shownPlaying = state.playing;
  emit("playing", state.playing);
}

export function goTo(index, play, from = null) {
  if (!state.book || index < 0 || index >= state.pages.length) return;
  state.run++;
  pauseAudio();
  $("audio").removeAttribute("src");
  state.playingKey = null;
  showPage(index, play, from).catch(report);
}

// The 0-based indexes of the pages where chapters start, in order.
export function chapterStarts() {
  return [...new Set(state.toc.map((chapter) => chapter.page_index - 1))].sort((a, b) => a - b);
}

export function chapter(step) {
  const starts = chapterStarts();
  const current = starts.filter((start) => start <= state.index).pop() ?? 0;
  const position = starts.indexOf(current);
  const target = step < 0 ? (state.index > current ? current : starts[Math.max(0, position - 1)]) : starts[position + 1];
  if (target !== undefined) goTo(target, state.playing);
}

// Moves `seconds` back (negative) or on in the reading, across pages: a skip back from the
// first seconds of a page lands that far before the end of the page before (its audio made
// for the purpose, its length from its timing).
export async function skip(seconds) {
  if (!state.book || !seconds) return;
  const audio = $("audio");
  const run = state.run, playing = state.playing;
  const loaded = holdsThisPage();
  const position = loaded ? audio.currentTime : 0;
  const duration = loaded && Number.isFinite(audio.duration) ? audio.duration : Infinity;
  const target = position + seconds;
  if (target >= 0 && target < duration) {
    if (loaded) { audio.currentTime = target; highlight(); } else await playPage({ time: target }, { start: playing });
    return;
  }
  const step = target < 0 ? -1 : 1;
  let rest = target < 0 ? -target : target - duration;
  for (let index = state.index + step, hops = 0; index >= 0 && index < state.pages.length && hops < 20; index += step, hops++) {
    let length;
    try { length = (await timingFor(index)).duration; } catch (error) { report(error); return; }
    if (run !== state.run) return;
    if (rest <= length) { goTo(index, playing, { time: step < 0 ? Math.max(0, length - rest) : rest }); return; }
    rest -= length;
  }
  // Past the book's first or last moment: there.
  if (step < 0) { if (state.index === 0 && loaded) audio.currentTime = 0; else goTo(0, playing, { time: 0 }); }
  else if (loaded && Number.isFinite(duration)) audio.currentTime = duration;
}

// One step slower (-1) or faster (1) on the speed list.
export function speedStep(step) {
  const select = $("speed");
  const next = select.selectedIndex + step;
  if (next < 0 || next >= select.options.length) return;
  select.selectedIndex = next;
  select.dispatchEvent(new Event("change"));
  status(`Speed ${select.options[next].textContent}`);
}

export function wirePlayer() {
  const audio = $("audio");
  audio.addEventListener("play", followMediaControls);
  audio.addEventListener("pause", followMediaControls);
  audio.addEventListener("ended", () => {
    if (state.sleepAtPageEnd) { stop(); emit("slept"); return; }
    if (state.index + 1 < state.pages.length) goTo(state.index + 1, true);
    else { stop(); status("The end of the book."); }
  });
  $("play").addEventListener("click", toggle);
  $("prev-page").addEventListener("click", () => goTo(state.index - 1, state.playing));
  $("next-page").addEventListener("click", () => goTo(state.index + 1, state.playing));
  $("prev-chapter").addEventListener("click", () => chapter(-1));
  $("next-chapter").addEventListener("click", () => chapter(1));
  $("skip-back").addEventListener("click", () => skip(-15));
  $("skip-forward").addEventListener("click", () => skip(30));
  $("speed").addEventListener("change", restart);
  $("voice").addEventListener("change", restart);
  $("more").addEventListener("click", () => {
    const open = $("more").getAttribute("aria-expanded") !== "true";
    $("more").setAttribute("aria-expanded", String(open));
    $("player").classList.toggle("expanded", open);
  });
}
