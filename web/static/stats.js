// The players page: the players kept across games, their statistics per game (GET
// /api/stats) and head to head; each player leads to their games in the history.
import { el, byId, show, setText } from "./dom.js";
import { connect, post } from "./live.js";

const LABELS = Object.fromEntries([...byId("stats-game").options].map((o) => [o.value, o.textContent]));

function percent(rate) { return rate === null ? "–" : `${Math.round(rate * 100)} %`; }
function number(value) { return value === null || value === undefined ? "–" : String(value); }

function playerLink(player) {
  const query = player.id !== null ? `player=${player.id}` : `player=${encodeURIComponent(player.name)}`;
  return el("a", { href: `/history?${query}` }, player.name);
}

function renderStats(stats, game) {
  const rows = stats.players.filter((r) => (game ? r.game === game : true));
  const head = el("tr", {}, ...["Player", "Game", "Games", "Wins", "Win rate", "Average total", "Best round"]
    .map((text) => el("th", { scope: "col" }, text)));
  const body = rows.map((r) => el("tr", { "data-player": r.player.id ?? "", "data-game": r.game ?? "" },
    el("th", { scope: "row" }, playerLink(r.player)),
    el("td", {}, r.game ? LABELS[r.game] || r.game : "All games"),
    el("td", {}, String(r.games)), el("td", {}, String(r.wins)), el("td", {}, percent(r.win_rate)),
    el("td", {}, number(r.average)), el("td", {}, number(r.best_round))));
  byId("stats").replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
  setText(byId("stats-status"), rows.length ? "" : "No game has been played to the end yet.");
  byId("head-to-head").replaceChildren(...stats.head_to_head.map((h) => el("li", {},
    el("strong", {}, LABELS[h.game] || h.game), ": ", playerLink(h.a), ` ${h.a_ahead} – ${h.b_ahead} `,
    playerLink(h.b), h.level ? ` (${h.level} level)` : "", ` · ${h.games} game${h.games === 1 ? "" : "s"}`)));
}

async function load() {
  const game = byId("stats-game").value;
  try {
    const response = await fetch(`/api/stats${game ? `?game=${encodeURIComponent(game)}` : ""}`, { cache: "no-store" });
    const stats = await response.json();
    if (!response.ok) throw new Error(stats.error || response.statusText);
    renderStats(stats, game);
  } catch (err) {
    setText(byId("stats-status"), `The statistics could not be loaded: ${err.message}`);
  }
}

async function loadPlayers() {
  const response = await fetch("/api/players", { cache: "no-store" });
  const players = (await response.json()).players;
  byId("player-list").replaceChildren(...players.map((p) => el("li", {}, playerLink(p))));
}

byId("stats-game").addEventListener("change", load);
byId("add-player").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = byId("new-player").value.trim();
  const pin = byId("player-pin");
  try {
    await post("/api/players", pin.hidden || !pin.value ? { name } : { name, pin: pin.value });
    byId("new-player").value = "";
    show(byId("players-error"), false);
    setText(byId("stats-status"), `${name} is kept for the games to come.`);
    await loadPlayers();
  } catch (err) {
    if (err.status === 403) { show(pin, true); pin.focus(); }
    setText(byId("players-error"), err.message);
    show(byId("players-error"), true);
  }
});
load();
connect();
