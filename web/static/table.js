// The table page: renders the public state pushed by the referee.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

function renderSeats(state) {
  const list = document.getElementById("seats");
  list.replaceChildren(...state.seats.map((s) => el("li", { "data-seat": s.seat }, s.name)));
}

function renderRecent(state) {
  const list = document.getElementById("recent");
  list.replaceChildren(
    ...state.recent.map((e) =>
      el("li", { class: "event", "data-seq": e.seq },
        el("span", { class: "event-kind" }, e.kind),
        " ",
        el("span", { class: "event-seat" }, e.seat_name || ""),
        " ",
        el("span", { class: "muted" }, `${e.source} · #${e.seq}`)))
  );
}

function renderPads(state) {
  const grid = document.getElementById("pad-buttons");
  if (!grid || grid.childElementCount) return;
  for (const seat of state.seats) {
    for (const button of ["call", "slap"]) {
      const b = el("button", { class: `pad pad-${button}`, type: "button", "data-seat": seat.seat,
                                "data-button": button }, `${seat.name} ${button === "call" ? "Call" : "Slap"}`);
      b.addEventListener("click", () => Live.post("/api/demo/press", { seat: seat.seat, button })
        .catch((err) => alert(err.message)));
      grid.append(b);
    }
  }
}

Live.onState((state) => {
  document.getElementById("session").textContent = state.session;
  document.getElementById("input-count").textContent = state.inputs;
  renderSeats(state);
  renderRecent(state);
  renderPads(state);
});
Live.connect("/api/events");
