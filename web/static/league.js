// What the league board's pages share: the board's live stream, game names, dates, and the
// standings table. Player names are typed at the tables: they go in as text, never as HTML.
import { el } from "./dom.js";

const GAME_NAMES = { "crocodile": "Crocodile", "recall": "Recall", "pool-party": "Crocodile Pool Party",
                     "crapo": "Crapô", "master-crok": "Master Crok" };

export function gameName(game) {
  return GAME_NAMES[game] || String(game || "").replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

export function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString([], { weekday: "short", day: "numeric", month: "short",
                                                                  hour: "2-digit", minute: "2-digit" }) : "";
}

export function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString([], { weekday: "long", day: "numeric", month: "long" });
}

export function playerLink(name, key) {
  return key ? el("a", { href: `/player/${encodeURIComponent(key)}` }, name) : el("span", {}, name);
}

// rows: [{key, name, played, wins, points}] -> a table; `mine` marks one player's row.
export function standingsTable(rows, caption, mine) {
  const head = el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, "Player"),
    el("th", { scope: "col" }, "Points"), el("th", { scope: "col" }, "Wins"), el("th", { scope: "col" }, "Games"));
  const body = rows.map((row, i) => el("tr", { "data-player": row.key, class: row.key === mine ? "mine" : "" },
    el("td", {}, String(i + 1)), el("th", { scope: "row" }, playerLink(row.name, row.key)),
    el("td", { class: "points" }, String(row.points)), el("td", {}, String(row.wins)),
    el("td", {}, String(row.played))));
  return el("table", { class: "score-table standings" }, el("caption", { class: "visually-hidden" }, caption),
    el("thead", {}, head), el("tbody", {}, ...body));
}

function setIndicator(state, text) {
  const node = document.getElementById("connection");
  if (!node) return;
  node.dataset.state = state;
  node.textContent = text;
}

// The board's stream: `handlers` has one function per event (board, table, standings, status).
export function follow(handlers) {
  const source = new EventSource("/api/board/events");
  source.addEventListener("open", () => setIndicator("live", "live"));
  source.addEventListener("error", () => setIndicator("reconnecting", "reconnecting…"));
  for (const [name, fn] of Object.entries(handlers)) {
    source.addEventListener(name, (msg) => {
      setIndicator("live", "live");
      fn(JSON.parse(msg.data), Number(msg.lastEventId));
    });
  }
  return source;
}
