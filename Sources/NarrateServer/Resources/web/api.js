// The service's HTTP API, the listening room's only backend; an API key, when the service asks
// for one, is kept for the browser tab only.
import { emit, status } from "./state.js";

export const KEY = "narrate-api-key";

export class APIError extends Error {
  constructor(status, message, code) { super(message); this.status = status; this.code = code; }
}

export function headers(extra = {}) {
  const key = sessionStorage.getItem(KEY);
  return key ? { ...extra, Authorization: `Bearer ${key}` } : extra;
}

async function failure(response) {
  let message = `${response.status} ${response.statusText}`, code = null;
  try {
    const body = await response.json();
    if (body && body.error) { message = body.error.message || message; code = body.error.code || null; }
  } catch (_) { /* not JSON */ }
  if (response.status === 401) emit("unauthorized", message);
  return new APIError(response.status, message, code);
}

export async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers(options.headers || {}) });
  if (!response.ok) throw await failure(response);
  return response;
}

export const json = async (path, options) => (await api(path, options)).json();

export function sendJSON(path, method, body) {
  return json(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

export function report(error) {
  if (error instanceof APIError && error.status === 401) return;
  status(error.message || String(error));
}
