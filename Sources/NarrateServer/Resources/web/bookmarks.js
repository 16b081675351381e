// Bookmarks: a place on a page (the sentence being spoken, else the first one in view) with an
// optional note, kept in the library through the API (so `narrate bookmarks` and another
// browser see them), listed beside the contents, and a click plays from there.
import { $, state, on, status } from "./state.js";
import { api, json, sendJSON, report } from "./api.js";
import { goTo } from "./player.js";
import { currentOffset } from "./reader.js";
import { closeContents } from "./contents.js";

async function loadBookmarks() {
  const book = state.book;
  if (!book) return;
  const { bookmarks } = await json(`/v1/books/${book.id}/bookmarks`);
  if (state.book !== book) return;
  state.bookmarks = bookmarks;
  render();
}

function render() {
  const list = $("bookmarks");
  list.replaceChildren();
  $("bookmarks-empty").hidden = state.bookmarks.length > 0;
  for (const bookmark of state.bookmarks) {
    const item = document.createElement("li");
    item.dataset.id = bookmark.id;
    const jump = document.createElement("button");
    jump.type = "button";
    jump.className = "jump";
    const place = document.createElement("span");
    place.className = "place";
    place.textContent = `Page ${bookmark.page ?? bookmark.page_index}`;
    const excerpt = document.createElement("span");
    excerpt.className = "excerpt";
    excerpt.textContent = bookmark.excerpt;
    jump.append(place, excerpt);
    jump.addEventListener("click", () => jumpTo(bookmark));
    item.append(jump);
    if (bookmark.note) {
      const note = document.createElement("p");
      note.className = "bookmark-note";
      note.textContent = bookmark.note;
      item.append(note);
    }
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "remove";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove the bookmark on page ${bookmark.page ?? bookmark.page_index}`);
    remove.addEventListener("click", () => removeBookmark(bookmark).catch(report));
    item.append(remove);
    list.append(item);
  }
}

function jumpTo(bookmark) {
  closeContents();
  goTo(Math.min(bookmark.page_index, state.pages.length) - 1, true, { offset: bookmark.text_offset });
}

async function removeBookmark(bookmark) {
  await api(`/v1/books/${state.book.id}/bookmarks/${bookmark.id}`, { method: "DELETE" });
  await loadBookmarks();
  status(`The bookmark on page ${bookmark.page ?? bookmark.page_index} is removed.`);
}

// The first words of the page shown from `offset` on, as the service's excerpt cuts them.
function excerptAt(offset) {
  const text = state.shown && state.shown.timing ? state.shown.timing.text : $("page").textContent;
  const words = text.slice(offset, offset + 400).split(/\s+/).filter(Boolean);
  let excerpt = "";
  for (const word of words) {
    if ((excerpt ? excerpt.length + 1 : 0) + word.length > 80) return `${excerpt}\u2026`;
    excerpt = excerpt ? `${excerpt} ${word}` : word;
  }
  return excerpt;
}

let place = null;
let opener = null;

// Asks for a note for a bookmark at the place being read; Escape or Cancel adds none.
export function addBookmark() {
  if (!state.book || !state.pages.length || $("bookmark-dialog").open) return;
  const offset = currentOffset();
  place = { page_index: state.index + 1, text_offset: offset };
  $("bookmark-place").textContent = `Page ${state.pages[state.index].page}: \u201C${excerptAt(offset)}\u201D`;
  $("bookmark-note").value = "";
  opener = document.activeElement;
  $("bookmark-dialog").returnValue = "";
  $("bookmark-dialog").showModal();
  $("bookmark-note").focus();
}

async function save(chosen) {
  const book = state.book;
  const note = $("bookmark-note").value.trim();
  const bookmark = await sendJSON(`/v1/books/${book.id}/bookmarks`, "POST", note ? { ...chosen, note } : chosen);
  await loadBookmarks();
  status(`Bookmark added on page ${bookmark.page ?? bookmark.page_index}.`);
}

export function wireBookmarks() {
  $("bookmark-add").addEventListener("click", addBookmark);
  const dialog = $("bookmark-dialog");
  dialog.addEventListener("close", () => {
    const chosen = place;
    place = null;
    if (opener && opener.isConnected) opener.focus();
    if (dialog.returnValue === "save" && chosen && state.book) save(chosen).catch(report);
  });
  on("book", (book) => {
    state.bookmarks = [];
    render();
    if (book) loadBookmarks().catch(report);
  });
}
