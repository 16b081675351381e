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
  audio: new Map(), // "index voice" -> Promise of an object URL
  playing: false,
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
  item.append(cover, open, author, progress, remove);
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

const TYPES = { epub: "application/epub+zip", txt: "text/plain", text: "text/plain", html: "text/html", htm: "text/html", xhtml: "application/xhtml+xml", md: "text/markdown", markdown: "text/markdown" };

function upload(file) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/v1/books?filename=${encodeURIComponent(file.name)}`);
    const extension = (file.name.split(".").pop() || "").toLowerCase();
    request.setRequestHeader("Content-Type", TYPES[extension] || file.type || "application/octet-stream");
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
    document.title = `${book.title} \u2014 Narrate`;
    renderContents();
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
  const article = $("page");
  article.replaceChildren();
  for (const paragraph of text.split(/\n\s*\n/)) {
    if (!paragraph.trim()) continue;
    const p = document.createElement("p");
    p.textContent = paragraph.trim();
    article.append(p);
  }
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

function audioFor(index) {
  const voice = $("voice").value;
  const key = `${index} ${voice}`;
  if (!state.audio.has(key)) {
    const page = state.pages[index];
    const query = new URLSearchParams({ format: "mp3" });
    if (voice) query.set("voice", voice);
    const made = api(`/v1/books/${state.book.id}/pages/${encodeURIComponent(page.page)}/audio?${query}`)
      .then((response) => response.blob())
      .then((blob) => URL.createObjectURL(blob));
    made.catch(() => state.audio.delete(key));
    state.audio.set(key, made);
  }
  return state.audio.get(key);
}

async function playPage() {
  const index = state.index;
  state.playing = true;
  setPlayButton();
  status("Preparing the page\u2019s audio\u2026");
  let url;
  try {
    url = await audioFor(index);
  } catch (error) {
    state.playing = false;
    setPlayButton();
    report(error);
    return;
  }
  if (state.index !== index || !state.playing) return;
  const audio = $("audio");
  audio.src = url;
  audio.playbackRate = Number($("speed").value);
  status("");
  try { await audio.play(); } catch (error) { state.playing = false; setPlayButton(); report(error); return; }
  // The next page is made while this one plays, so reading goes on without a gap.
  if (index + 1 < state.pages.length) audioFor(index + 1).catch(() => {});
}

function stop() {
  state.playing = false;
  const audio = $("audio");
  if (audio) audio.pause();
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
  $("audio").pause();
  $("audio").removeAttribute("src");
  showPage(index, play).catch(report);
}

function chapter(step) {
  const starts = chapterStarts();
  const current = starts.filter((start) => start <= state.index).pop() ?? 0;
  const position = starts.indexOf(current);
  const target = step < 0 ? (state.index > current ? current : starts[Math.max(0, position - 1)]) : starts[position + 1];
  if (target !== undefined) goTo(target, state.playing);
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
    const groups = { preset: "Presets", kokoro: "Kokoro", piper: "Piper", espeak: "eSpeak NG" };
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
  $("speed").addEventListener("change", () => { $("audio").playbackRate = Number($("speed").value); });
  $("voice").addEventListener("change", () => { if (state.playing) goTo(state.index, true); });
  $("preview").addEventListener("click", playPreview);
  const audio = $("audio");
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
