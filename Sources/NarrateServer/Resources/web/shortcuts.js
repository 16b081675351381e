// The keyboard: the shortcuts the help dialog lists (`?` opens it). None acts while a field,
// a menu or a dialog has the keys, or with Ctrl, Alt or the Meta key held.
import { $, state } from "./state.js";
import { toggle, goTo, chapter, skip, speedStep } from "./player.js";
import { addBookmark } from "./bookmarks.js";
import { toggleContents, closeContents, contentsOpen } from "./contents.js";

function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

export function openHelp() {
  const dialog = $("help");
  if (!dialog.open) dialog.showModal();
}

// What each key does in a book; the help dialog lists the same.
const KEYS = {
  " ": () => toggle(),
  ArrowLeft: (event) => skip(event.shiftKey ? -30 : -15),
  ArrowRight: (event) => skip(event.shiftKey ? 30 : 15),
  "[": () => speedStep(-1),
  "]": () => speedStep(1),
  n: () => goTo(state.index + 1, state.playing),
  p: () => goTo(state.index - 1, state.playing),
  N: () => chapter(1),
  P: () => chapter(-1),
  b: () => addBookmark(),
  c: () => toggleContents(),
};

function onKey(event) {
  if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]")) return;
  if (event.key === "?") { event.preventDefault(); openHelp(); return; }
  if ($("book-view").hidden) return;
  if (event.key === "Escape" && contentsOpen()) { closeContents(); return; }
  const action = KEYS[event.key];
  if (!action) return;
  // Space on a button presses the button.
  if (event.key === " " && event.target instanceof HTMLButtonElement) return;
  event.preventDefault();
  action(event);
}

export function wireShortcuts() {
  document.addEventListener("keydown", onKey);
  $("help-open").addEventListener("click", openHelp);
  $("help-close").addEventListener("click", () => $("help").close());
}
