// The voice picker (presets, Kokoro, Piper, eSpeak NG and OpenAI's names) and its preview.
import { $, status } from "./state.js";
import { api, json, report } from "./api.js";

export async function loadVoices() {
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

export function wireVoices() {
  $("preview").addEventListener("click", playPreview);
}
