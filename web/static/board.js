// The league board on the wall: every table live, tonight's standings, the season's table
// per game and the latest games, followed over the board's stream (/api/board/events).
import { el, byId, setText, show, listOf } from "./dom.js";
import { follow, gameName, when, day, playerLink, standingsTable } from "./league.js";

const tables = new Map();

function tableCard(entry) {
  const s = entry.summary;
  const parts = [el("h3", {}, entry.name, " ",
    el("span", { class: `online ${entry.online ? "yes" : "no"}` }, entry.online ? "live" : "offline"))];
  if (!s || !s.game) {
    parts.push(el("p", { class: "muted" }, "No game set up."));
  } else {
    const round = s.round ? ` · round ${s.round}` : "";
    parts.push(el("p", { class: "table-game" }, `${gameName(s.game)}${round}`));
    if (s.over) {
      const names = s.winners.map((i) => s.seats[i]);
      parts.push(el("p", { class: "table-turn" }, names.length ? `Won by ${listOf(names)}` : "Over"));
    } else if (s.turn) {
      parts.push(el("p", { class: "table-turn" }, `${s.turn} to play`));
    } else if (s.question) {
      parts.push(el("p", { class: "table-turn" }, "Waiting for an answer"));
    }
    parts.push(el("p", { class: "table-ruling", "data-n": s.last_ruling ? s.last_ruling.n : 0 },
      s.last_ruling ? s.last_ruling.message : "No ruling yet."));
    parts.push(el("ul", { class: "table-seats" }, ...s.seats.map((name, i) =>
      el("li", { class: `seat-${i % 8}` }, name, s.totals.length ? el("span", { class: "total" }, String(s.totals[i])) : ""))));
  }
  return el("li", { class: "panel table-card", "data-table": entry.table, "data-online": entry.online }, ...parts);
}

function renderTables() {
  const list = [...tables.values()].sort((a, b) => a.name.localeCompare(b.name) || a.table.localeCompare(b.table));
  byId("tables").replaceChildren(...list.map(tableCard));
  show(byId("tables-empty"), list.length === 0);
}

function renderStandings(st) {
  const evening = st.evening;
  setText(byId("evening-note"), `Since ${day(evening.since)}: ${evening.games} game${evening.games === 1 ? "" : "s"}.`);
  byId("evening").replaceChildren(evening.rows.length ? standingsTable(evening.rows, "Tonight's standings")
    : el("p", { class: "muted" }, "No game finished tonight yet."));
  const season = st.season;
  setText(byId("season-note"), season.since ? `Since ${day(season.since)}.` : "Every game the board has seen.");
  byId("season").replaceChildren(...season.games.map((g) => el("section", { class: "season-game", "data-game": g.game },
    el("h3", {}, `${gameName(g.game)} `, el("span", { class: "muted" },
      `${g.played} game${g.played === 1 ? "" : "s"}, ${g.points_for_win} point${g.points_for_win === 1 ? "" : "s"} a win`)),
    standingsTable(g.rows, `${gameName(g.game)}: the season`))));
  byId("recent").replaceChildren(...st.recent.map((r) => el("li", { class: "recent-result" },
    el("span", { class: "muted" }, `${when(r.when)} · ${r.table_name} · ${gameName(r.game)}: `),
    ...r.players.flatMap((p, i) => [i ? ", " : "", playerLink(p.name, p.key), ` ${p.total}`,
      p.winner ? el("strong", { class: "winner" }, " ★") : ""]))));
}

function renderStatus(status) {
  const parts = [`Broker: ${status.broker}`, `${status.results} result${status.results === 1 ? "" : "s"}`];
  if (status.database) parts.push(`Database: ${status.database}`);
  if (status.counts.refused) parts.push(`${status.counts.refused} message(s) refused (last: ${status.refusals[0]})`);
  setText(byId("board-status"), parts.join(" · "));
}

follow({
  board(board) {
    tables.clear();
    for (const entry of board.tables) tables.set(entry.table, entry);
    renderTables();
    renderStandings(board.standings);
    renderStatus(board.status);
  },
  table(entry) { tables.set(entry.table, entry); renderTables(); },
  standings: renderStandings,
  status: renderStatus,
});
