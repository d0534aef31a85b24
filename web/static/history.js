// The history page: every finished game at this table (GET /api/history), newest first,
// with its scoreboard and chart. It reloads when a new game starts (the old one is then
// finished), which the live stream tells by a new session number.
import { el, byId, setText, listOf } from "./dom.js";
import { connect, onState } from "./live.js";
import { renderScoreboard } from "./scoreboard.js";

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString() : "";
}

function gameItem(entry) {
  const result = entry.result;
  const names = result.players || result.seats || [];
  const winners = (result.winners || []).map((s) => names[s]);
  const rounds = result.rounds || [];
  const outcome = result.over && winners.length ? `Won by ${listOf(winners)}`
    : `Not played to the end: ${rounds.length} round${rounds.length === 1 ? "" : "s"} scored`;
  const board = el("div", { class: "history-board" });
  renderScoreboard(board, names, { rounds, totals: result.totals || {}, target: result.target, over: result.over,
                                   winners: result.winners || [] });
  const title = (entry.game || result.game || "game").replace(/^./, (c) => c.toUpperCase());
  return el("li", { class: "panel history-game", "data-session": entry.session },
    el("h2", {}, `${title} · ${listOf(names)}`),
    el("p", { class: "muted" }, `${when(entry.started)} – ${when(entry.finished)}`),
    el("p", { class: "outcome" }, outcome),
    board);
}

async function load() {
  const status = byId("history-status");
  try {
    const response = await fetch("/api/history", { cache: "no-store" });
    const games = (await response.json()).games;
    byId("history").replaceChildren(...games.map(gameItem));
    setText(status, games.length ? `${games.length} finished game${games.length === 1 ? "" : "s"}` : "No finished game yet.");
  } catch (err) {
    setText(status, `The history could not be loaded: ${err.message}`);
  }
}

let session = null;
onState((state) => {
  if (state.session !== session) {
    session = state.session;
    load();
  }
});
connect();
