// The book's contents and bookmarks: a column beside the page on a wide screen, a drawer on a
// phone (opened by its button, closed by it, by Escape or by a choice made in it; the focus
// goes in when it opens and back to the button when it closes, and the rest of the page is
// inert meanwhile).
import { $, state, narrow } from "./state.js";
import { goTo } from "./player.js";

export function renderContents() {
  const list = $("toc");
  list.replaceChildren();
  state.toc.forEach((chapter, position) => {
    const item = document.createElement("li");
    item.className = `depth-${Math.min(chapter.depth, 2)}`;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.page = String(chapter.page_index - 1);
    // The number is drawn beside the title's first line (a list marker follows the last line
    // of a button's text); the list itself tells a screen reader the position.
    const number = document.createElement("span");
    number.className = "number";
    number.setAttribute("aria-hidden", "true");
    number.textContent = `${position + 1}.`;
    const title = document.createElement("span");
    title.className = "title";
    title.textContent = chapter.title;
    button.append(number, title);
    button.addEventListener("click", () => { closeContents(); goTo(chapter.page_index - 1, state.playing); });
    item.append(button);
    list.append(item);
  });
}

// What is outside the drawer, made inert while it is open on a phone.
const OUTSIDE = ["top", "book-head", "reading", "player", "back-to-voice"];

export function contentsOpen() {
  return $("drawer").classList.contains("open");
}

export function openContents() {
  if (!narrow.matches || contentsOpen()) return;
  const drawer = $("drawer");
  drawer.classList.add("open");
  drawer.setAttribute("role", "dialog");
  drawer.setAttribute("aria-modal", "true");
  drawer.setAttribute("aria-labelledby", "contents-title");
  $("scrim").hidden = false;
  $("contents-open").setAttribute("aria-expanded", "true");
  for (const id of OUTSIDE) $(id).inert = true;
  const current = drawer.querySelector("#toc button[aria-current='true']") || $("contents-close");
  current.focus();
  current.scrollIntoView({ block: "center" });
}

export function closeContents() {
  if (!contentsOpen()) return;
  const drawer = $("drawer");
  drawer.classList.remove("open");
  drawer.removeAttribute("role");
  drawer.removeAttribute("aria-modal");
  drawer.removeAttribute("aria-labelledby");
  $("scrim").hidden = true;
  $("contents-open").setAttribute("aria-expanded", "false");
  for (const id of OUTSIDE) $(id).inert = false;
  if (narrow.matches) $("contents-open").focus();
}

export function toggleContents() {
  if (contentsOpen()) closeContents(); else if (narrow.matches) openContents(); else $("toc").querySelector("button")?.focus();
}

export function wireContents() {
  $("contents-open").addEventListener("click", toggleContents);
  $("contents-close").addEventListener("click", closeContents);
  $("scrim").addEventListener("click", closeContents);
  $("drawer").addEventListener("keydown", (event) => {
    if (event.key === "Escape" && contentsOpen()) { event.preventDefault(); event.stopPropagation(); closeContents(); }
  });
  // Wide again: the contents are a column, nothing is inert.
  narrow.addEventListener("change", () => { if (!narrow.matches) closeContents(); });
}
