// Narrate's listening room: the library, a book's pages read aloud one after another, and the
// place kept through the progress API (the same one `narrate next` reads). Everything comes
// from this service's own API; a book's text and titles are only ever set as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const KEY = "narrate-api-key";

const state = {
  book: null,       // the book's detail
  pages: [],        // [{index, page, chapter, words}]
  toc: [],          // [{title, depth, page_index, page}]
  index: 0,         // the page shown (0-based)
  audio: new Map(), // "index voice speed" -> Promise of an object URL
  timing: new Map(), // the same key -> Promise of the page's timing (sentences, words)
  shown: null,      // the timing the page's text is laid out with, and its spans
  lit: { sentence: -1, word: -1 },
  playingKey: null, // the key of the audio in the player
  export: null,     // the export shown: the latest of this book
  playing: false,
  // Pauses the page made itself (a change of page, voice or speed, the pause button), not yet
  // seen as "pause" events: any other pause is the browser's or the system's media controls.
  ownPauses: 0,
};

// ---- The API ----------------------------------------------------------------------------

class APIError extends Error {
  constructor(status, message, code) { super(message); this.status = status; this.code = code; }
}

function headers(extra = {}) {
  const key = sessionStorage.getItem(KEY);
  return key ? { ...extra, Authorization: `Bearer ${key}` } : extra;
}

async function failure(response) {
  let message = `${response.status} ${response.statusText}`, code = null;
  try {
    const body = await response.json();
    if (body && body.error) { message = body.error.message || message; code = body.error.code || null; }
  } catch (_) { /* not JSON */ }
  if (response.status === 401) askForKey(message);
  return new APIError(response.status, message, code);
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers(options.headers || {}) });
  if (!response.ok) throw await failure(response);
  return response;
}

const json = async (path, options) => (await api(path, options)).json();

// ---- Views ------------------------------------------------------------------------------

function show(view) {
  for (const id of ["key-view", "library-view", "book-view"]) $(id).hidden = id !== view;
}

function status(text) { $("status").textContent = text; }

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

function report(error) {
  if (error instanceof APIError && error.status === 401) return;
  status(error.message || String(error));
}

// ---- The library ------------------------------------------------------------------------

async function openLibrary() {
  stop();
  state.book = null;
  const { books } = await json("/v1/books");
  const list = $("books");
  list.replaceChildren();
  for (const book of books) list.append(bookItem(book));
  if (!books.length) {
    const empty = document.createElement("li");
    empty.textContent = "No books yet: add one above.";
    list.append(empty);
  }
  show("library-view");
  document.title = "Narrate";
  status(`${books.length} book${books.length === 1 ? "" : "s"}`);
  // When the list can be used (scripts/benchmark-web.sh measures it).
  performance.mark("narrate:library");
}

function bookItem(book) {
  const item = document.createElement("li");
  item.dataset.id = book.id;
  const cover = document.createElement("img");
  cover.className = "cover";
  cover.alt = "";
  if (book.cover) loadCover(book.cover, cover);
  const open = document.createElement("button");
  open.type = "button";
  open.className = "open";
  open.textContent = book.title;
  open.setAttribute("aria-label", `Open ${book.title}`);
  open.addEventListener("click", () => { location.hash = `#/book/${book.id}`; });
  const author = document.createElement("p");
  author.className = "meta author";
  author.textContent = book.authors.join(", ");
  const progress = document.createElement("p");
  progress.className = "meta";
  progress.textContent = book.progress ? `Page ${book.progress.page_index} of ${book.page_count}` : `${book.page_count} pages, ${book.chapter_count} chapters`;
  const format = document.createElement("p");
  format.className = "meta format";
  format.textContent = formatName(book.format);
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "remove";
  remove.textContent = "Remove";
  remove.setAttribute("aria-label", `Remove ${book.title}`);
  remove.addEventListener("click", async () => {
    if (!confirm(`Remove \u201C${book.title}\u201D from the library? The audio already made stays in the cache.`)) return;
    try {
      await api(`/v1/books/${book.id}`, { method: "DELETE" });
      await openLibrary();
    } catch (error) { report(error); }
  });
  item.append(cover, open, author, progress, format, remove);
  return item;
}

async function loadCover(link, image) {
  try {
    const blob = await (await api(link)).blob();
    image.src = URL.createObjectURL(blob);
  } catch (_) {
    image.classList.add("none");
  }
}

const TYPES = {
  epub: "application/epub+zip", txt: "text/plain", text: "text/plain", html: "text/html", htm: "text/html", xhtml: "application/xhtml+xml",
  md: "text/markdown", markdown: "text/markdown", docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  odt: "application/vnd.oasis.opendocument.text", fb2: "application/x-fictionbook+xml", zip: "application/zip",
};

// What the service's book formats are called on the page (GET /v1/books' `format`).
const FORMAT_NAMES = { plainText: "Text", epub: "EPUB", html: "HTML", markdown: "Markdown", docx: "DOCX", odt: "ODT", fb2: "FB2" };

function formatName(format) {
  return FORMAT_NAMES[format] || String(format || "").toUpperCase();
}

function upload(file) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/v1/books?filename=${encodeURIComponent(file.name)}`);
    const extension = (file.name.split(".").pop() || "").toLowerCase();
    request.setRequestHeader("Content-Type", TYPES[extension] || "application/octet-stream");
    for (const [name, value] of Object.entries(headers())) request.setRequestHeader(name, value);
    const bar = $("upload-progress");
    bar.hidden = false;
    bar.value = 0;
    request.upload.addEventListener("progress", (event) => { if (event.lengthComputable) bar.value = event.loaded / event.total; });
    request.addEventListener("load", () => {
      bar.hidden = true;
      let body = null;
      try { body = JSON.parse(request.responseText); } catch (_) { /* not JSON */ }
      if (request.status >= 200 && request.status < 300) resolve(body);
      else {
        if (request.status === 401) askForKey((body && body.error && body.error.message) || "The key was refused.");
        reject(new APIError(request.status, (body && body.error && body.error.message) || `${file.name}: ${request.status}`, body && body.error && body.error.code));
      }
    });
    request.addEventListener("error", () => { bar.hidden = true; reject(new Error(`${file.name} could not be sent: the service is unreachable.`)); });
    request.send(file);
  });
}

async function addFiles(files) {
  $("upload-error").textContent = "";
  for (const file of files) {
    status(`Adding ${file.name}\u2026`);
    try {
      const book = await upload(file);
      status(`Added \u201C${book.title}\u201D.`);
    } catch (error) {
      $("upload-error").textContent = `${file.name}: ${error.message}`;
      status("");
    }
  }
  await openLibrary().catch(report);
}

// ---- A book -----------------------------------------------------------------------------

async function openBook(id, pageIndex) {
  if (!state.book || state.book.id !== id) {
    stop();
    const [book, toc, pages] = await Promise.all([json(`/v1/books/${id}`), json(`/v1/books/${id}/toc`), json(`/v1/books/${id}/pages`)]);
    state.book = book;
    state.toc = toc.chapters;
    state.pages = pages.pages;
    state.audio.clear();
    $("book-title").textContent = book.title;
    $("book-author").textContent = book.authors.join(", ");
    $("book-format").textContent = formatName(book.format);
    document.title = `${book.title} \u2014 Narrate`;
    renderContents();
    warmPlayer();
    prepareExport(book).catch(report);
    if (pageIndex === null) pageIndex = book.progress ? book.progress.page_index - 1 : 0;
  }
  show("book-view");
  await showPage(pageIndex === null ? state.index : pageIndex, false);
}

function renderContents() {
  const list = $("toc");
  list.replaceChildren();
  state.toc.forEach((chapter) => {
    const item = document.createElement("li");
    item.className = `depth-${Math.min(chapter.depth, 2)}`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = chapter.title;
    button.dataset.page = String(chapter.page_index - 1);
    button.addEventListener("click", () => goTo(chapter.page_index - 1, state.playing));
    item.append(button);
    list.append(item);
  });
}

function chapterStarts() {
  return [...new Set(state.toc.map((chapter) => chapter.page_index - 1))].sort((a, b) => a - b);
}

async function showPage(index, play) {
  index = Math.max(0, Math.min(index, state.pages.length - 1));
  state.index = index;
  const page = state.pages[index];
  const text = await (await api(`/v1/books/${state.book.id}/pages/${encodeURIComponent(page.page)}/text`)).text();
  if (state.index !== index) return;
  layOut(text, null);
  // A page whose audio is already made (played, or fetched ahead) is clickable at once.
  if (state.audio.has(pageKey(index))) timingFor(index).then((timing) => { if (state.index === index) layOut(timing.text, timing); }).catch(() => {});
  $("page-label").textContent = `Page ${page.page} (${index + 1} of ${state.pages.length})`;
  const starts = chapterStarts();
  const current = starts.filter((start) => start <= index).pop();
  for (const button of $("toc").querySelectorAll("button")) button.setAttribute("aria-current", String(Number(button.dataset.page) === current));
  const wanted = `#/book/${state.book.id}/${index + 1}`;
  if (location.hash !== wanted) history.replaceState(null, "", wanted);
  saveProgress(index);
  if (play) await playPage();
}

function saveProgress(index) {
  const id = state.book.id;
  api(`/v1/books/${id}/progress`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ page_index: index + 1 }) }).catch(report);
}

// ---- Audio and its timing ---------------------------------------------------------------

function pageKey(index) {
  return `${index} ${$("voice").value} ${$("speed").value}`;
}

function pageQuery(extra) {
  const query = new URLSearchParams(extra);
  if ($("voice").value) query.set("voice", $("voice").value);
  if ($("speed").value !== "1") query.set("speed", $("speed").value);
  return query;
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
function warmPlayer() {
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

// When each sentence (and, with eSpeak, word) of that audio is spoken; asked for once the audio
// is made, so it costs the service a file read.
function timingFor(index, made = audioFor(index)) {
  const key = pageKey(index);
  if (!state.timing.has(key)) {
    const timing = made.then(() => json(`${pagePath(index, "timing")}?${pageQuery({})}`));
    timing.catch(() => state.timing.delete(key));
    state.timing.set(key, timing);
  }
  return state.timing.get(key);
}

// The page's text as paragraphs; with a timing, each sentence (and word) a span of its own that
// lights up while it is spoken and starts the reading there when clicked. Text only, never HTML.
function layOut(text, timing) {
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
function spanAt(spans, time) {
  let low = 0, high = spans.length - 1, found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (spans[middle].start <= time) { found = middle; low = middle + 1; } else high = middle - 1;
  }
  return found >= 0 && time < spans[found].end + 0.05 ? found : -1;
}

function light(kind, index, className) {
  const spans = state.shown[kind === "sentence" ? "sentences" : "words"];
  if (state.lit[kind] === index) return;
  if (state.lit[kind] >= 0) for (const element of spans[state.lit[kind]] || []) element.classList.remove(className);
  state.lit[kind] = index;
  if (index < 0) return;
  for (const element of spans[index] || []) element.classList.add(className);
  if (kind === "sentence" && spans[index] && spans[index][0]) spans[index][0].scrollIntoView({ block: "nearest" });
}

// Lights the sentence and word being spoken, if the audio playing is this page's.
function highlight() {
  const shown = state.shown;
  if (!shown || !shown.timing || state.playingKey !== pageKey(state.index)) return;
  const time = $("audio").currentTime;
  light("sentence", spanAt(shown.timing.sentences, time), "speaking");
  if (shown.timing.timing === "words") light("word", spanAt(shown.timing.words, time), "speaking-word");
}

function follow() {
  highlight();
  if (!$("audio").paused) requestAnimationFrame(follow);
}

// The sentence being spoken now (or the first), to go on from after a change of voice or speed.
function currentSentence() {
  return state.shown && state.lit.sentence >= 0 ? state.lit.sentence : null;
}

// Plays the page shown, from its start, or from sentence `from` (its index in the timing).
async function playPage(from = null) {
  const index = state.index;
  const key = pageKey(index);
  state.playing = true;
  setPlayButton();
  status("Preparing the page\u2019s audio\u2026");
  let url, streamed;
  try {
    streamed = !state.audio.has(key) && streams();
    url = streamed ? streamFor(index) : await audioFor(index);
  } catch (error) {
    state.playing = false;
    setPlayButton();
    report(error);
    return;
  }
  if (state.index !== index || !state.playing) return;
  const audio = $("audio");
  // Streamed, the page's timing comes when the service has narrated it all; it is asked for
  // once the first sound plays (unless a sentence to start from needs it now), so its request
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
      const found = await timing;
      if (found.sentences[from]) await seek(audio, found.sentences[from].start);
    } catch (_) { /* reported above; play from the start */ }
    if (state.index !== index || !state.playing) return;
  }
  status("");
  try { await audio.play(); } catch (error) { state.playing = false; setPlayButton(); report(error); return; }
  // The next page is made while this one plays, so reading goes on without a gap.
  if (index + 1 < state.pages.length) timingFor(index + 1).catch(() => {});
}

function seek(audio, time) {
  return new Promise((resolve) => {
    const go = () => { audio.currentTime = time; resolve(); };
    if (audio.readyState >= 1) go(); else audio.addEventListener("loadedmetadata", go, { once: true });
  });
}

// A click on a sentence: the reading goes on from there.
async function playSentence(index) {
  const audio = $("audio");
  const timing = state.shown && state.shown.timing;
  if (!timing || !timing.sentences[index]) return;
  if (state.playingKey === pageKey(state.index) && audio.src) {
    audio.currentTime = timing.sentences[index].start;
    highlight();
    if (audio.paused) {
      state.playing = true;
      setPlayButton();
      audio.play().catch(report);
    }
  } else {
    await playPage(index);
  }
}

// The voice or speed changed: the page is read again with it, from the sentence being spoken.
function restart() {
  if (!state.book) return;
  const from = currentSentence();
  const playing = state.playing;
  pauseAudio();
  state.playingKey = null;
  if (playing) playPage(from).catch(report);
}

function stop() {
  state.playing = false;
  if ($("audio")) pauseAudio();
  setPlayButton();
}

// Pauses the audio as the page's own doing (see `ownPauses`).
function pauseAudio() {
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

function toggle() {
  if (!state.book) return;
  const audio = $("audio");
  if (state.playing) {
    stop();
  } else if (audio.src && audio.currentTime > 0 && !audio.ended) {
    state.playing = true;
    setPlayButton();
    audio.play().catch(report);
  } else {
    playPage();
  }
}

function setPlayButton() {
  const button = $("play");
  if (!button) return;
  button.textContent = state.playing ? "\u275A\u275A" : "\u25B6";
  button.setAttribute("aria-label", state.playing ? "Pause (space)" : "Play (space)");
  button.setAttribute("aria-pressed", String(state.playing));
}

function goTo(index, play) {
  if (!state.book || index < 0 || index >= state.pages.length) return;
  pauseAudio();
  $("audio").removeAttribute("src");
  state.playingKey = null;
  showPage(index, play).catch(report);
}

function chapter(step) {
  const starts = chapterStarts();
  const current = starts.filter((start) => start <= state.index).pop() ?? 0;
  const position = starts.indexOf(current);
  const target = step < 0 ? (state.index > current ? current : starts[Math.max(0, position - 1)]) : starts[position + 1];
  if (target !== undefined) goTo(target, state.playing);
}

// ---- Take it home: exports -----------------------------------------------------------------

// The export form for `book`: its chapters to choose from, and its latest export followed.
async function prepareExport(book) {
  const titles = state.toc.length === book.chapter_count ? state.toc.map((chapter) => chapter.title) : [];
  for (const id of ["export-from", "export-to"]) {
    const select = $(id);
    select.replaceChildren();
    for (let number = 1; number <= Math.max(book.chapter_count, 1); number++) {
      const option = document.createElement("option");
      option.value = String(number);
      option.textContent = titles[number - 1] ? `${number}. ${titles[number - 1]}` : `Chapter ${number}`;
      select.append(option);
    }
  }
  $("export-to").value = String(Math.max(book.chapter_count, 1));
  showExport(null);
  const { exports } = await json("/v1/exports");
  const latest = exports.find((job) => job.book_id === book.id);
  if (latest && state.book && state.book.id === book.id) followExport(latest);
}

async function startExport(event) {
  event.preventDefault();
  const from = Number($("export-from").value), to = Number($("export-to").value);
  const body = { format: $("export-format").value };
  if (state.book.chapter_count > 0) body.chapters = [Math.min(from, to), Math.max(from, to)];
  if ($("voice").value) body.voice = $("voice").value;
  if ($("speed").value !== "1") body.speed = Number($("speed").value);
  try {
    const job = await json(`/v1/books/${state.book.id}/exports`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    followExport(job);
  } catch (error) { showExport(null, error.message); }
}

// Shows `job` (or none, or a line saying what went wrong).
function showExport(job, message = "") {
  state.export = job;
  const over = job && ["done", "failed", "cancelled"].includes(job.state);
  $("export-progress").hidden = !job || (over && job.state !== "done");
  $("export-progress").value = job ? job.fraction : 0;
  $("export-download").hidden = !job || job.state !== "done";
  $("export-cancel").hidden = !job || over;
  $("export-start").disabled = Boolean(job && !over);
  let text = message;
  if (job) {
    const name = { m4b: "M4B", mp3: "MP3", wav: "WAV", epub: "read-along EPUB" }[job.format] || job.format;
    text = job.state === "queued" ? `${name}: waiting for a free engine\u2026`
      : job.state === "running" ? `${name}: ${Math.round(job.fraction * 100)}%`
      : job.state === "done" ? `${name}: 100%, ${job.file_name} (${(job.bytes / 1048576).toFixed(1)} MB)`
      : job.state === "failed" ? `${name} failed: ${job.error}` : `${name}: cancelled`;
  }
  $("export-state").textContent = text;
}

// Follows a job's server-sent events (read through fetch, so an API key goes along) until it is over.
async function followExport(job) {
  showExport(job);
  if (["done", "failed", "cancelled"].includes(job.state)) return;
  try {
    const response = await api(job.events);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      for (let end; (end = buffer.indexOf("\n\n")) >= 0; buffer = buffer.slice(end + 2)) {
        const data = buffer.slice(0, end).split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n");
        if (data && state.export && state.export.id === job.id) showExport(JSON.parse(data));
      }
    }
  } catch (error) { report(error); }
}

async function downloadExport() {
  const job = state.export;
  if (!job || !job.download) return;
  status(`Downloading ${job.file_name}\u2026`);
  try {
    const blob = await (await api(job.download)).blob();
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = job.file_name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    status("");
  } catch (error) { report(error); }
}

async function cancelExport() {
  const job = state.export;
  if (!job) return;
  try {
    await api(`/v1/exports/${job.id}`, { method: "DELETE" });
    showExport({ ...job, state: "cancelled" });
  } catch (error) { report(error); }
}

// ---- Voices -----------------------------------------------------------------------------

async function loadVoices() {
  const select = $("voice");
  const standard = document.createElement("option");
  standard.value = "";
  standard.textContent = "The book's voice";
  select.replaceChildren(standard);
  try {
    const { voices } = await json("/v1/audio/voices");
    const groups = { preset: "Presets", kokoro: "Kokoro", piper: "Piper", espeak: "eSpeak NG", openai: "OpenAI\u2019s names" };
    for (const [kind, label] of Object.entries(groups)) {
      const ofKind = voices.filter((voice) => voice.kind === kind);
      if (!ofKind.length) continue;
      const group = document.createElement("optgroup");
      group.label = label;
      for (const voice of ofKind) {
        const option = document.createElement("option");
        option.value = voice.name;
        option.textContent = voice.language ? `${voice.name} (${voice.language})` : voice.name;
        group.append(option);
      }
      select.append(group);
    }
  } catch (error) { report(error); }
}

const preview = new Audio();

async function playPreview() {
  const voice = $("voice").value || "alloy";
  status(`Preview of ${voice}\u2026`);
  try {
    const response = await api("/v1/audio/speech", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ model: "tts-1", voice, input: "This is how this voice reads your book.", response_format: "mp3" }),
    });
    preview.src = URL.createObjectURL(await response.blob());
    await preview.play();
    status("");
  } catch (error) { report(error); }
}

// ---- Wiring -----------------------------------------------------------------------------

function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

document.addEventListener("DOMContentLoaded", () => {
  $("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY, $("key").value.trim());
    $("key").value = "";
    loadVoices();
    route();
  });
  $("files").addEventListener("change", (event) => { addFiles([...event.target.files]); event.target.value = ""; });
  const drop = $("drop");
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    addFiles([...event.dataTransfer.files]);
  });
  $("back").addEventListener("click", () => { location.hash = "#/"; });
  $("play").addEventListener("click", toggle);
  $("prev-page").addEventListener("click", () => goTo(state.index - 1, state.playing));
  $("next-page").addEventListener("click", () => goTo(state.index + 1, state.playing));
  $("prev-chapter").addEventListener("click", () => chapter(-1));
  $("next-chapter").addEventListener("click", () => chapter(1));
  $("speed").addEventListener("change", restart);
  $("voice").addEventListener("change", restart);
  $("preview").addEventListener("click", playPreview);
  $("export-form").addEventListener("submit", startExport);
  $("export-download").addEventListener("click", downloadExport);
  $("export-cancel").addEventListener("click", cancelExport);
  $("page").addEventListener("click", (event) => {
    const sentence = event.target instanceof Element && event.target.closest(".sentence");
    if (sentence && !(window.getSelection() && String(window.getSelection()))) playSentence(Number(sentence.dataset.index)).catch(report);
  });
  const audio = $("audio");
  audio.addEventListener("play", follow);
  audio.addEventListener("play", followMediaControls);
  audio.addEventListener("pause", followMediaControls);
  audio.addEventListener("seeked", highlight);
  audio.addEventListener("timeupdate", highlight);
  audio.addEventListener("ended", () => {
    if (state.index + 1 < state.pages.length) goTo(state.index + 1, true);
    else { stop(); status("The end of the book."); }
  });
  document.addEventListener("keydown", (event) => {
    if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey || $("book-view").hidden) return;
    if (event.key === " " && !(event.target instanceof HTMLButtonElement)) { event.preventDefault(); toggle(); }
    else if (event.key === "n") goTo(state.index + 1, state.playing);
    else if (event.key === "p") goTo(state.index - 1, state.playing);
    else if (event.key === "ArrowRight") audio.currentTime = Math.min(audio.duration || 0, audio.currentTime + 10);
    else if (event.key === "ArrowLeft") audio.currentTime = Math.max(0, audio.currentTime - 10);
  });
  window.addEventListener("hashchange", route);
  loadVoices();
  route();
});
