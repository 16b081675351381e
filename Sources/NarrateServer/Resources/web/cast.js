// The cast: the book's main characters, each read in a voice of its own (cast=auto on the page
// audio and timing), every one's voice a person may change; the page is read again with it.
import { $, state, on } from "./state.js";
import { json, report } from "./api.js";
import { audioParameters, restart } from "./player.js";

// How many characters, most lines first, the picker offers.
const MAIN = 8;
const chosen = new Map();
let proposed = new Map();

function castQuery(query) {
  if (!$("cast-on").checked) return;
  query.set("cast", "auto");
  for (const [name, voice] of chosen) if (proposed.get(name) !== voice) query.append("character", `${name}=${voice}`);
}

function picker(character, voices) {
  const label = document.createElement("label");
  label.className = "field cast-member";
  label.textContent = `${character.name} `;
  const select = document.createElement("select");
  select.setAttribute("aria-label", `Voice of ${character.name}`);
  select.dataset.character = character.name;
  const names = [character.voice, ...voices.filter((voice) => voice.name !== character.voice).map((voice) => voice.name)];
  for (const name of names) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    select.append(option);
  }
  select.value = chosen.get(character.name) || character.voice;
  select.addEventListener("change", () => { chosen.set(character.name, select.value); restart(); });
  label.append(select);
  return label;
}

export async function loadCast() {
  const list = $("cast-members");
  if (!state.book || !$("cast-on").checked) { list.replaceChildren(); return; }
  try {
    const query = new URLSearchParams();
    if ($("voice").value) query.set("voice", $("voice").value);
    const cast = await json(`/v1/books/${state.book.id}/cast?${query}`);
    const main = cast.characters.slice(0, MAIN);
    proposed = new Map(cast.characters.map((character) => [character.name, character.voice]));
    list.replaceChildren(...main.map((character) => picker(character, cast.voices)));
    if (!main.length) list.textContent = "Nobody speaks in this book: the narrator reads it all.";
  } catch (error) { report(error); }
}

export function wireCast() {
  audioParameters.push(castQuery);
  $("cast-on").addEventListener("change", () => { loadCast().then(restart); });
  $("voice").addEventListener("change", () => { chosen.clear(); loadCast(); });
  on("book", () => { chosen.clear(); loadCast(); });
}
