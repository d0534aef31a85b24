// Crapô on the live page: whose turn, both players' decks and trashes (counts and top card),
// the eight foundations, the eight tableau columns, the Stop! window and the games won.
// Nothing in Crapô is hidden but the order of the decks, which the view never holds.
import { el, listOf } from "./dom.js";
import { face, back, gap, pretty } from "./cards.js";

function nameOf(view, seat) {
  return (view.players && view.players[seat]) || `Seat ${seat + 1}`;
}

function plural(n, one, many) { return `${n} ${n === 1 ? one : many || one + "s"}`; }

export function crapoHeadline(view) {
  switch (view.phase) {
    case "deal": return "Deal four cards each face up";
    case "over": {
      const winners = (view.outcome ? view.outcome.winners : []).map((seat) => nameOf(view, seat));
      return winners.length ? `Game over: ${listOf(winners)} wins` : "Game over: a draw";
    }
    case "opening": return `${nameOf(view, view.turn)}'s turn: the dealt aces to the centre`;
    case "drawn": return `${nameOf(view, view.turn)}'s turn: play or trash the drawn card`;
    default: return `${nameOf(view, view.turn)}'s turn`;
  }
}

// "Crapô · game 2 · games won: Ann 1, Bob 0"
export function crapoSubline(view, round, scores) {
  const totals = (scores && scores.totals) || {};
  const won = [0, 1].map((seat) => `${nameOf(view, seat)} ${totals[String(seat)] ?? 0}`).join(", ");
  return `Crapô · game ${Math.max(round, 1)} · games won: ${won}`;
}

function topCard(code, label) {
  return code ? face(code) : gap(label);
}

function player(view, seat) {
  if (view.phase === "deal") {
    return el("li", { class: "crapo-player", "data-seat": seat }, el("span", { class: "seat-name" }, nameOf(view, seat)));
  }
  const trash = view.trash[seat], deck = view.decks[seat], name = nameOf(view, seat);
  const turn = view.turn === seat && view.phase !== "over";
  return el("li", { class: `crapo-player${turn ? " turn" : ""}`, "data-seat": seat, "aria-current": turn ? "step" : null },
    el("div", { class: "seat-head" }, el("span", { class: "seat-name" }, name),
      turn ? el("span", { class: "tag turn-tag" }, "to play") : null),
    el("div", { class: "crapo-piles" },
      el("figure", { class: "pile", "data-pile": `deck${seat}` },
        el("div", { class: "pile-card" }, deck ? back(`${name}'s deck`) : gap(`${name}'s deck: empty`)),
        el("figcaption", {}, "Deck · ", el("span", { class: "count" }, plural(deck, "card")))),
      el("figure", { class: "pile", "data-pile": `trash${seat}` },
        el("div", { class: "pile-card" }, topCard(trash.top, `${name}'s trash: empty`)),
        el("figcaption", {}, "Trash · ", el("span", { class: "count" }, plural(trash.count, "card"))))));
}

function foundations(view) {
  return el("ol", { class: "crapo-foundations", "aria-label": "The foundations" },
    ...view.foundations.map((pile, i) => el("li", { "data-pile": `foundation${i}` },
      topCard(pile[pile.length - 1], `foundation ${i + 1}: empty`))));
}

function tableau(view) {
  return el("ol", { class: "crapo-tableau", "aria-label": "The tableau" },
    ...view.tableau.map((column, i) => el("li", { "data-pile": `tableau${i}`,
      "aria-label": `tableau ${i + 1}: ${column.length ? column.map(pretty).join(", ") : "empty"}` },
    el("span", { class: "muted small" }, String(i + 1)),
    ...(column.length ? column.map((code) => face(code)) : [gap(`tableau ${i + 1}: empty`)]))));
}

export function renderCrapo(node, view) {
  const parts = [el("ol", { class: "crapo-players" }, player(view, 1), player(view, 0))];
  if (view.phase === "deal") {
    const cut = (view.cut || []).map(([a, b]) => `${nameOf(view, 0)} ${pretty(a)}, ${nameOf(view, 1)} ${pretty(b)}`);
    if (cut.length) parts.push(el("p", { class: "crapo-cut" }, `Turned up: ${cut.join("; then ")}`));
    node.replaceChildren(...parts);
    return;
  }
  if (view.stop_window) {
    parts.push(el("p", { class: "banner window", id: "stop-window" },
      `${nameOf(view, 1 - view.stop_window.offender)} may call Stop! (${view.stop_window.rule_id})`));
  }
  if (view.drawn) parts.push(el("p", { class: "holding" }, `${nameOf(view, view.turn)} holds ${view.drawn.card ? pretty(view.drawn.card) : "a drawn card"}`));
  parts.push(el("h3", { class: "visually-hidden" }, "Foundations"), foundations(view),
    el("h3", { class: "visually-hidden" }, "Tableau"), tableau(view));
  node.replaceChildren(...parts);
}
