// A player's page: tonight, their place in each game's season table, and their games. It
// reloads when the board's standings change.
import { el, byId, setText } from "./dom.js";
import { follow, gameName, when, playerLink } from "./league.js";

const key = byId("player").dataset.key;

function render(p) {
  setText(byId("player-name"), p.name);
  setText(byId("player-status"), `${p.games.length} game${p.games.length === 1 ? "" : "s"} this season.`);
  byId("player-evening").replaceChildren(p.evening
    ? el("p", { class: "player-evening" }, `Tonight: ${p.evening.points} points, ${p.evening.wins} win${p.evening.wins === 1 ? "" : "s"} in ${p.evening.played} game${p.evening.played === 1 ? "" : "s"}.`)
    : el("p", { class: "muted" }, "No game tonight yet."));
  const head = el("tr", {}, ...["Game", "Place", "Points", "Wins", "Games"].map((t) => el("th", { scope: "col" }, t)));
  byId("player-season").replaceChildren(el("table", { class: "score-table" }, el("thead", {}, head),
    el("tbody", {}, ...p.season.map((g) => el("tr", { "data-game": g.game }, el("th", { scope: "row" }, gameName(g.game)),
      el("td", {}, `${g.place} of ${g.of}`), el("td", {}, String(g.points)), el("td", {}, String(g.wins)),
      el("td", {}, String(g.played)))))));
  byId("player-games").replaceChildren(...p.games.map((g) => el("li", { class: "recent-result", "data-won": g.won },
    el("span", { class: "muted" }, `${when(g.when)} · ${g.table_name} · ${gameName(g.game)}: `),
    ...g.players.flatMap((q, i) => [i ? ", " : "", q.key === key ? el("strong", {}, q.name) : playerLink(q.name, q.key),
      ` ${q.total}`, q.winner ? el("strong", { class: "winner" }, " ★") : ""]))));
}

async function load() {
  try {
    const response = await fetch(`/api/player/${encodeURIComponent(key)}`, { cache: "no-store" });
    const data = await response.json();
    if (!response.ok) { setText(byId("player-status"), data.error); return; }
    render(data);
  } catch (err) {
    setText(byId("player-status"), `The player's page could not be loaded: ${err.message}`);
  }
}

follow({ board: load, standings: load });
