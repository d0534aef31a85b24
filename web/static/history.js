// The history page: every finished game at this table (GET /api/history), newest first,
// with its winner, its scoreboard and chart, the scores changed by hand and by whom, and
// downloads (CSV, JSON) of one game or of the history. Filtered by game and by player
// (the address keeps the filter: /history?player=3). It reloads when a new game starts
// (the old one is then finished), which the live stream tells by a new session number.
import { el, byId, setText, listOf } from "./dom.js";
import { connect, onState } from "./live.js";
import { renderScoreboard } from "./scoreboard.js";

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString() : "";
}

function changeText(change, names) {
  const after = change.after.map((v, i) => `${names[i]} ${v}`).join(", ");
  return change.before ? `Round ${change.round} corrected by ${change.by}: now ${after}`
    : `Round ${change.round} scored by hand by ${change.by}: ${after}`;
}

function gameItem(entry) {
  const result = entry.result;
  const names = entry.players.map((p) => p.name);
  const winners = entry.players.filter((p) => p.winner).map((p) => p.name);
  const rounds = result.rounds || [];
  const outcome = result.over && winners.length ? `Won by ${listOf(winners)}`
    : result.over ? "Finished with no round scored"
    : `Not played to the end: ${rounds.length} round${rounds.length === 1 ? "" : "s"} scored`;
  const board = el("div", { class: "history-board" });
  renderScoreboard(board, names, { rounds, totals: result.totals || {}, target: result.target, over: result.over,
                                   winners: result.winners || [], lower_wins: result.lower_wins });
  const notes = (result.score_changes || []).map((c) => el("li", {}, changeText(c, names)));
  if (result.finished_by) notes.push(el("li", {}, `Finished by ${result.finished_by}`));
  const session = entry.session;
  return el("li", { class: "panel history-game", "data-session": session },
    el("h2", {}, `${entry.label} · ${listOf(names)}`),
    el("p", { class: "muted" }, entry.live ? `${when(entry.started)} – still on the table` : `${when(entry.started)} – ${when(entry.finished)}`),
    el("p", { class: "outcome" }, outcome),
    board,
    notes.length ? el("ul", { class: "changes muted" }, ...notes) : null,
    el("p", { class: "row exports" },
      el("a", { href: `/api/history/${session}.csv`, download: true }, "This game as CSV"), " · ",
      el("a", { href: `/api/history/${session}.json`, download: true }, "as JSON")));
}

function query() {
  const params = new URLSearchParams();
  if (byId("filter-game").value) params.set("game", byId("filter-game").value);
  if (byId("filter-player").value) params.set("player", byId("filter-player").value);
  return params.toString();
}

async function load() {
  const status = byId("history-status");
  const filter = query();
  byId("export-csv").href = `/api/history.csv${filter ? `?${filter}` : ""}`;
  byId("export-json").href = `/api/history.json${filter ? `?${filter}` : ""}`;
  try {
    const response = await fetch(`/api/history${filter ? `?${filter}` : ""}`, { cache: "no-store" });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    const games = data.games;
    byId("history").replaceChildren(...games.map(gameItem));
    setText(status, games.length ? `${games.length} finished game${games.length === 1 ? "" : "s"}` : "No finished game yet.");
  } catch (err) {
    setText(status, `The history could not be loaded: ${err.message}`);
  }
}

// The filter from the address, kept there as it changes.
const params = new URLSearchParams(window.location.search);
for (const [name, id] of [["game", "filter-game"], ["player", "filter-player"]]) {
  const value = params.get(name);
  if (value && [...byId(id).options].some((o) => o.value === value)) byId(id).value = value;
}
byId("history-filter").addEventListener("change", () => {
  const filter = query();
  window.history.replaceState(null, "", `/history${filter ? `?${filter}` : ""}`);
  load();
});

let session = null;
onState((state) => {
  if (state.session !== session) {
    session = state.session;
    load();
  }
});
connect();
