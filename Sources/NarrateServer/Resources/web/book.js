// A book opened: its title, contents and the page shown, the place saved through the progress
// API (the one `narrate next` reads), the page's sentences lit as they are spoken.
import { $, state, emit, show } from "./state.js";
import { api, json, sendJSON, report } from "./api.js";
import { layOut, resumeFollowing } from "./reader.js";
import { stop, warmPlayer, playPage, timingFor, pageKey, chapterStarts } from "./player.js";
import { renderContents } from "./contents.js";
import { formatName } from "./library.js";

export async function openBook(id, pageIndex) {
  if (!state.book || state.book.id !== id) {
    stop();
    const [book, toc, pages] = await Promise.all([json(`/v1/books/${id}`), json(`/v1/books/${id}/toc`), json(`/v1/books/${id}/pages`)]);
    state.book = book;
    state.toc = toc.chapters;
    state.pages = pages.pages;
    state.audio.clear();
    state.timing.clear();
    $("book-title").textContent = book.title;
    $("book-author").textContent = book.authors.join(", ");
    $("book-format").textContent = formatName(book.format);
    document.title = `${book.title} \u2014 Narrate`;
    renderContents();
    warmPlayer();
    emit("book", book);
    if (pageIndex === null) pageIndex = book.progress ? book.progress.page_index - 1 : 0;
  }
  show("book-view");
  await showPage(pageIndex === null ? state.index : pageIndex, false);
}

// The chapter (its index in the contents) the page `index` is in, or -1 before the first.
export function chapterOf(index) {
  let found = -1;
  state.toc.forEach((chapter, position) => { if (chapter.page_index - 1 <= index) found = position; });
  return found;
}

// Shows page `index`; with `play`, plays it (from `from`, as `playPage` takes it); without,
// a `from` readies its audio there, paused.
export async function showPage(index, play, from = null) {
  index = Math.max(0, Math.min(index, state.pages.length - 1));
  state.index = index;
  const page = state.pages[index];
  const text = await (await api(`/v1/books/${state.book.id}/pages/${encodeURIComponent(page.page)}/text`)).text();
  if (state.index !== index) return;
  layOut(text, null);
  window.scrollTo({ top: 0, behavior: "instant" });
  resumeFollowing();
  // A page whose audio is already made (played, or fetched ahead) is clickable at once.
  if (state.audio.has(pageKey(index))) timingFor(index).then((timing) => { if (state.index === index) layOut(timing.text, timing); }).catch(() => {});
  $("page-label").textContent = `Page ${page.page} (${index + 1} of ${state.pages.length})`;
  const current = chapterStarts().filter((start) => start <= index).pop();
  for (const button of $("toc").querySelectorAll("button")) button.setAttribute("aria-current", String(Number(button.dataset.page) === current));
  const wanted = `#/book/${state.book.id}/${index + 1}`;
  if (location.hash !== wanted) history.replaceState(null, "", wanted);
  saveProgress(index);
  emit("page", index);
  if (play) await playPage(from);
  else if (from) await playPage(from, { start: false });
}

function saveProgress(index) {
  sendJSON(`/v1/books/${state.book.id}/progress`, "PUT", { page_index: index + 1 }).catch(report);
}
