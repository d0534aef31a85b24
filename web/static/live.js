// The live connection: one EventSource per page, the full state in every message.
// We show whether we are live or reconnecting.

const listeners = [];

function setIndicator(state, text) {
  const node = document.getElementById("connection");
  if (!node) return;
  node.dataset.state = state;
  node.textContent = text;
}

// EventSource reconnects by itself after a dropped stream, but gives up for good on an
// answer that is not a stream (a 429 when this phone holds too many, a restart's 503): then
// we open a new one ourselves, waiting longer each time (at most half a minute).
const RETRY_MS = [1000, 2000, 5000, 10000, 30000];

export function connect(url = "/api/events", attempt = 0) {
  const source = new EventSource(url);
  source.addEventListener("open", () => setIndicator("live", "live"));
  source.addEventListener("state", (msg) => {
    attempt = 0;
    setIndicator("live", "live");
    const state = JSON.parse(msg.data);
    for (const fn of listeners) fn(state, Number(msg.lastEventId));
  });
  source.addEventListener("error", () => {
    setIndicator("reconnecting", "reconnecting…");
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => connect(url, attempt + 1), RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
    }
  });
  return source;
}

export function onState(fn) { listeners.push(fn); }

// POSTs carry JSON, which a page of another site cannot send without a preflight.
// A refusal throws an Error carrying the server's message (and .status, .data).
export async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

// This phone's standing with the table's admin rules (GET /api/admin).
export async function adminStatus() {
  const response = await fetch("/api/admin", { cache: "no-store" });
  return response.json();
}
