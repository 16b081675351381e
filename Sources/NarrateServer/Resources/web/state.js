// The listening room's one state, and the few events its views tell each other of. Every
// module reads and writes this object; none keeps a copy of its own.

export const $ = (id) => document.getElementById(id);

export const state = {
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
  following: true,  // the view follows the sentence being spoken (a manual scroll stops it)
  bookmarks: [],    // the book's bookmarks, in reading order
  run: 0,           // bumped by each play, stop and change of page: a run that sees it moved gives up
  sleepAtPageEnd: false, // the sleep timer stops the reading when this page ends
};

const listeners = new Map();

// `name` happened: "book" (a book opened), "page" (a page shown), "playing" (play or pause),
// "sentence" (another sentence lit), "bookmarks" (the list changed).
export function emit(name, detail) {
  for (const listener of listeners.get(name) || []) listener(detail);
}

export function on(name, listener) {
  if (!listeners.has(name)) listeners.set(name, []);
  listeners.get(name).push(listener);
}

export function status(text) { $("status").textContent = text; }

// Whether the phone layout is in force (the contents are a drawer, the player compact).
export const narrow = window.matchMedia("(max-width: 47.99rem)");

// Shows one of the three views.
export function show(view) {
  for (const id of ["key-view", "library-view", "book-view"]) $(id).hidden = id !== view;
}
