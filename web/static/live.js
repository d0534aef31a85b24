// The live connection: one EventSource per page, the full state in every message.
// EventSource reconnects by itself; we only show whether we are live or reconnecting.

const listeners = [];

function setIndicator(state, text) {
  const node = document.getElementById("connection");
  if (!node) return;
  node.dataset.state = state;
  node.textContent = text;
}

export function connect(url = "/api/events") {
  const source = new EventSource(url);
  source.addEventListener("open", () => setIndicator("live", "live"));
  source.addEventListener("state", (msg) => {
    setIndicator("live", "live");
    const state = JSON.parse(msg.data);
    for (const fn of listeners) fn(state, Number(msg.lastEventId));
  });
  source.addEventListener("error", () => setIndicator("reconnecting", "reconnecting…"));
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
