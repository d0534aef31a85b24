// The live connection: one EventSource per page, the full state in every message.
// EventSource reconnects by itself; we only show whether we are live or reconnecting.
"use strict";

const Live = (() => {
  const listeners = [];
  let source = null;

  function setIndicator(state, text) {
    const el = document.getElementById("connection");
    if (!el) return;
    el.dataset.state = state;
    el.textContent = text;
  }

  function connect(url) {
    source = new EventSource(url);
    source.addEventListener("open", () => setIndicator("live", "live"));
    source.addEventListener("state", (msg) => {
      setIndicator("live", "live");
      const state = JSON.parse(msg.data);
      for (const fn of listeners) fn(state, Number(msg.lastEventId));
    });
    source.addEventListener("error", () => setIndicator("reconnecting", "reconnecting…"));
  }

  function onState(fn) { listeners.push(fn); }

  // POSTs carry JSON, which a page of another site cannot send without a preflight.
  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  return { connect, onState, post };
})();
