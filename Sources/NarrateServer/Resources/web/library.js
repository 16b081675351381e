// The library view: the books with their covers and progress, added by drag-and-drop or the
// file picker (with an upload bar and the parser's one-line reason for a refused book), removed
// after a confirmation.
import { $, state, show, status, emit } from "./state.js";
import { APIError, api, headers, json, report } from "./api.js";
import { stop } from "./player.js";

export async function openLibrary() {
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
  emit("book", null);
  // When the list can be used (scripts/benchmark-web.sh measures it).
  performance.mark("narrate:library");
}

function bookItem(book) {
  const item = document.createElement("li");
  item.dataset.id = book.id;
  const cover = document.createElement("img");
  cover.className = "cover";
  cover.alt = "";
  if (book.cover) loadCover(book.cover).then((url) => { cover.src = url; }, () => cover.classList.add("none"));
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

// A cover as an object URL (fetched, so an API key goes along).
export async function loadCover(link) {
  const blob = await (await api(link)).blob();
  return URL.createObjectURL(blob);
}

const TYPES = {
  epub: "application/epub+zip", txt: "text/plain", text: "text/plain", html: "text/html", htm: "text/html", xhtml: "application/xhtml+xml",
  md: "text/markdown", markdown: "text/markdown", docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  odt: "application/vnd.oasis.opendocument.text", pdf: "application/pdf", fb2: "application/x-fictionbook+xml", zip: "application/zip",
};

// What the service's book formats are called on the page (GET /v1/books' `format`).
const FORMAT_NAMES = { plainText: "Text", epub: "EPUB", html: "HTML", markdown: "Markdown", docx: "DOCX", odt: "ODT", fb2: "FB2", pdf: "PDF" };

export function formatName(format) {
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
      const message = body && body.error && body.error.message;
      if (request.status >= 200 && request.status < 300) resolve(body);
      else {
        if (request.status === 401) emit("unauthorized", message || "The key was refused.");
        reject(new APIError(request.status, message || `${file.name}: ${request.status}`, body && body.error && body.error.code));
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

export function wireLibrary() {
  $("files").addEventListener("change", (event) => { addFiles([...event.target.files]); event.target.value = ""; });
  const drop = $("drop");
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    addFiles([...event.dataTransfer.files]);
  });
}
