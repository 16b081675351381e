// Take it home: the book or some chapters exported as M4B, MP3, WAV or a read-along EPUB, with
// a progress bar (the job's server-sent events) and a download button.
import { $, state, on, status } from "./state.js";
import { api, json, sendJSON, report } from "./api.js";

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
    followExport(await sendJSON(`/v1/books/${state.book.id}/exports`, "POST", body));
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

export function wireExports() {
  $("export-form").addEventListener("submit", startExport);
  $("export-download").addEventListener("click", downloadExport);
  $("export-cancel").addEventListener("click", cancelExport);
  on("book", (book) => { if (book) prepareExport(book).catch(report); });
}
