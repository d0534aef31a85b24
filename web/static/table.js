// The live table page: renders the public state the referee pushes over the live stream.
// It shows only what the state holds, and the state holds only public facts.
import { el, byId, show, setText, listOf } from "./dom.js";
import { connect, onState, post } from "./live.js";
import { face, back, gap, pretty } from "./cards.js";
import { renderScoreboard } from "./scoreboard.js";
import { setupAdmin } from "./admin.js";
import { poolHeadline, poolSubline, renderPool } from "./poolparty.js";
import { crokHeadline, crokSubline, renderCroks } from "./mastercrok.js";

// The games' own words for the call and the out-of-turn claim.
const WORDS = {
  crocodile: { game: "Crocodile", call: "Crocodile", claim: "smackdown", claims: "smackdowns" },
  recall: { game: "Recall", call: "Recall", claim: "match", claims: "matches" },
};

function words(game) {
  return WORDS[game] || { game, call: "the call", claim: "claim", claims: "claims" };
}

function nameOf(state, seat) {
  const entry = state.seats.find((s) => s.seat === seat);
  return entry ? entry.name : `Seat ${seat + 1}`;
}

function plural(n, one, many) { return `${n} ${n === 1 ? one : many || one + "s"}`; }

// -- whose turn, the window, the final round -----------------------------------------------

function headline(state, game) {
  const view = game.view;
  const turn = view.turn === null ? null : nameOf(state, view.turn);
  switch (view.phase) {
    case "deal": return "Deal, then turn up the first card";
    case "look": return "Everyone looks at their cards";
    case "reveal": return "Reveal: turn every card face up";
    case "over": {
      const winners = (view.winners || []).map((s) => nameOf(state, s));
      return winners.length ? `Round over: ${listOf(winners)} ${winners.length === 1 ? "wins" : "win"}` : "Round over";
    }
    default: return turn ? `${turn}'s turn` : "Play on";
  }
}

function pendingText(state, item) {
  const who = nameOf(state, item.seat);
  const may = item.optional ? "may" : "must";
  if (item.kind === "reward") return `${who} ${may} discard one of their own cards (reward)`;
  if (item.kind === "give") return `${who} must give one of their cards`;
  if (item.kind === "power") return `${who} ${may} use the power${item.power ? ` (${item.power.replaceAll("_", " ")})` : ""}`;
  return `${who}: ${item.kind}`;
}

function renderStatus(state) {
  const game = state.game;
  setText(byId("session"), String(state.session));
  setText(byId("input-count"), String(state.inputs));
  const subline = byId("subline");
  if (!game) {
    setText(byId("headline"), "Waiting for a game");
    subline.replaceChildren("No game is running. ", el("a", { href: "/setup" }, "Start one"), ".");
    for (const id of ["final-round", "window", "pending"]) show(byId(id), false);
    return;
  }
  const view = game.view, w = words(game.game);
  if (game.game === "pool-party") {
    setText(byId("headline"), poolHeadline(view));
    subline.replaceChildren(poolSubline(view, game.round));
    for (const id of ["final-round", "window", "pending"]) show(byId(id), false);
    return;
  }
  if (game.game === "master-crok") {
    setText(byId("headline"), crokHeadline(state, game));
    subline.replaceChildren(crokSubline(state, game));
    for (const id of ["final-round", "window", "pending"]) show(byId(id), false);
    return;
  }
  setText(byId("headline"), headline(state, game));
  subline.replaceChildren(`${w.game} · round ${game.round} · dealer ${nameOf(state, view.dealer)}`);

  const final = byId("final-round");
  show(final, Boolean(view.final_round));
  if (view.final_round) {
    const still = view.final_round.still_to_play.map((s) => nameOf(state, s));
    const over = ["reveal", "over"].includes(view.phase);
    setText(final, `${nameOf(state, view.final_round.caller)} called “${w.call}”: ` +
      (over ? "the final round is over" : "final round") + (still.length ? ` · still to play: ${listOf(still)}` : ""));
  }
  const win = byId("window");
  show(win, Boolean(view.window));
  if (view.window) {
    const on = view.window.card ? ` on ${pretty(view.window.card)}` : "";
    const won = view.window.won_by !== null && view.window.won_by !== undefined
      ? ` · won by ${nameOf(state, view.window.won_by)}` : "";
    setText(win, `The ${w.claim} window is open${on}${won}`);
  }
  const pending = byId("pending");
  pending.replaceChildren(...view.pending.map((item) => el("li", {}, pendingText(state, item))));
  show(pending, view.pending.length > 0);
}

// -- the last ruling, in large type --------------------------------------------------------

let rulingKey = null;

function rulingMeta(ruling) {
  return el("p", { class: "ruling-meta" },
    ruling.rule_id ? el("span", { class: "rule-id" }, ruling.rule_id) : null, ruling.rule_id ? " " : null,
    el("span", { class: "ruling-kind" }, ruling.kind), ruling.round ? ` · round ${ruling.round}` : "");
}

function renderRuling(state) {
  const rulings = state.game ? state.game.rulings : [];
  const key = `${state.session}:${JSON.stringify(rulings[0] || null)}`;
  if (key === rulingKey) return;
  rulingKey = key;
  const box = byId("last-ruling");
  const last = rulings[0];
  box.dataset.kind = last ? last.kind : "none";
  box.replaceChildren(...[el("p", { class: "ruling-message" }, last ? last.message : "No ruling yet."),
    last ? rulingMeta(last) : null].filter(Boolean));
  const earlier = rulings.slice(1);
  byId("ruling-list").replaceChildren(...earlier.map((r) =>
    el("li", { "data-kind": r.kind }, r.message, " ", rulingMeta(r))));
  show(byId("earlier-rulings"), earlier.length > 0);
}

// -- the referee's question and notes ------------------------------------------------------

let questionKey = null;

function renderQuestion(state) {
  const question = state.game ? state.game.question : null;
  const panel = byId("question-panel");
  const key = question ? `${state.session}:${question.id}` : null;
  show(panel, Boolean(question));
  if (key === questionKey) return;
  questionKey = key;
  show(byId("answer-error"), false);
  if (!question) {
    byId("question-options").replaceChildren();
    return;
  }
  setText(byId("question-prompt"), question.prompt);
  const who = byId("question-who");
  show(who, question.seat !== null && question.seat !== undefined);
  if (!who.hidden) setText(who, `${nameOf(state, question.seat)}'s answer`);
  const buttons = question.options.map((option, index) => el("button", {
    type: "button", class: "option", "data-option": index,
    onclick: () => answer(question.id, index, buttons),
  }, option.code ? face(option.code) : null, option.label));
  byId("question-options").replaceChildren(...buttons);
}

async function answer(question, option, buttons) {
  for (const b of buttons) b.disabled = true;
  try {
    await post("/api/answer", { question, option });
  } catch (err) {
    const error = byId("answer-error");
    setText(error, err.message);
    show(error, true);
    for (const b of buttons) b.disabled = false;
  }
}

function renderNotes(state) {
  const notes = state.game ? state.game.notes : [];
  byId("notes").replaceChildren(...notes.map((note) => el("li", {}, note)));
  show(byId("notes-panel"), notes.length > 0);
}

// -- the table: piles and every seat's layout ----------------------------------------------

function slotCard(state, seat, slot) {
  if (!slot.card) return gap(`${seat.name}'s card ${slot.slot + 1}: empty`);
  if (slot.code) return face(slot.code);
  const seenBy = (slot.seen_by || []).map((s) => nameOf(state, s));
  return back(`${seat.name}'s card ${slot.slot + 1}: face down${seenBy.length ? `, seen by ${listOf(seenBy)}` : ""}`);
}

function seatItem(state, seat, view) {
  const game = state.game;
  const item = el("li", { "data-seat": seat.seat, class: "seat" });
  const badges = [];
  if (view) {
    const turn = view.turn === seat.seat;
    item.classList.toggle("turn", turn);
    if (turn) item.setAttribute("aria-current", "step");
    if (turn) badges.push(el("span", { class: "tag turn-tag" }, "to play"));
    if (view.dealer === seat.seat) badges.push(el("span", { class: "tag" }, "dealer"));
    if (view.final_round && view.final_round.caller === seat.seat) badges.push(el("span", { class: "tag caller" }, "called"));
  }
  item.append(el("div", { class: "seat-head" }, el("span", { class: "seat-name" }, seat.name), ...badges));
  if (!view) return item;
  const layout = view.seats[seat.seat];
  const facts = [plural(layout.cards, "card")];
  if (layout.smackdowns) {
    const w = words(game.game);
    facts.push(plural(layout.smackdowns, w.claim, w.claims));
  }
  if (layout.penalty_cards) facts.push(plural(layout.penalty_cards, "penalty card"));
  if (layout.locked) facts.push("locked");
  item.append(el("p", { class: "seat-facts", "data-count": layout.cards }, facts.join(" · ")),
    el("ol", { class: "slots", "aria-label": `${seat.name}'s cards` },
      ...layout.slots.map((slot) => el("li", { "data-slot": slot.slot }, slotCard(state, seat, slot)))));
  return item;
}

function renderTable(state) {
  const pool = state.game && state.game.game === "pool-party";
  const croks = state.game && state.game.game === "master-crok";
  show(byId("pool"), pool);
  show(byId("croks"), croks);
  show(byId("seats"), !pool && !croks);
  if (croks) {
    show(byId("piles"), false);
    renderCroks(byId("croks"), state);
    return;
  }
  if (pool) {
    show(byId("piles"), false);
    renderPool(byId("pool"), state.game.view);
    return;
  }
  const view = state.game ? state.game.view : null;
  const names = state.seats.map((s) => ({ seat: s.seat, name: s.name }));
  byId("seats").replaceChildren(...names.map((seat) => seatItem(state, seat, view)));
  show(byId("piles"), Boolean(view));
  if (!view) return;
  byId("discard-top").replaceChildren(view.discard.top ? face(view.discard.top)
    : view.discard.size ? back("the discard pile's top, unread") : gap("the discard pile: empty"));
  setText(byId("discard-size"), plural(view.discard.size, "card"));
  setText(byId("deck-size"), plural(view.deck_size, "card"));
  const holding = byId("holding");
  show(holding, Boolean(view.holding));
  if (view.holding) {
    const from = view.holding.from === "discard" ? "taken from the discard pile" : "drawn from the deck";
    setText(holding, `${nameOf(state, view.holding.seat)} holds a card ${from}` +
      (view.holding.code ? ` (${pretty(view.holding.code)})` : ""));
  }
}

// -- scores, camera, admin, inputs ---------------------------------------------------------

function renderScores(state) {
  const game = state.game;
  show(byId("scoreboard-panel"), Boolean(game));
  if (game) renderScoreboard(byId("scoreboard"), state.seats.map((s) => s.name), game.scores);
}

let pictureVersion = null;

function renderCamera(state) {
  const camera = state.camera;
  show(byId("camera-panel"), Boolean(camera));
  if (!camera) return;
  const status = [camera.state || "", camera.message || ""].filter(Boolean).join(": ");
  setText(byId("camera-status"), status ? `Camera ${status}` : "");
  // The camera loop numbers its pictures; a new number means a new picture to fetch.
  const version = camera.picture ?? camera.version ?? null;
  const img = byId("camera-picture");
  show(img, version !== null);
  if (version !== null && version !== pictureVersion) {
    pictureVersion = version;
    img.src = `/camera.jpg?v=${encodeURIComponent(version)}`;
  }
}

function renderAdmin(state) {
  const game = state.game;
  show(byId("admin-panel"), Boolean(game));
  if (!game) return;
  show(byId("next-round-button"), game.scores.round_over && !game.scores.over);
}

function renderRecent(state) {
  byId("recent").replaceChildren(...state.recent.map((e) =>
    el("li", { class: "event", "data-seq": e.seq },
      el("span", { class: "event-kind" }, e.kind), " ",
      el("span", { class: "event-seat" }, e.seat_name || ""), " ",
      el("span", { class: "muted" }, `${e.source} · #${e.seq}`))));
}

let padNames = null;

function renderPads(state) {
  const grid = byId("pad-buttons");
  const names = JSON.stringify(state.seats);
  if (!grid || names === padNames) return;
  padNames = names;
  grid.replaceChildren(...state.seats.flatMap((seat) => ["call", "slap"].map((button) =>
    el("button", {
      class: `pad pad-${button}`, type: "button", "data-seat": seat.seat, "data-button": button,
      onclick: () => post("/api/demo/press", { seat: seat.seat, button }).catch((err) => alert(err.message)),
    }, `${seat.name} ${button === "call" ? "Call" : "Slap"}`))));
}

onState((state) => {
  renderStatus(state);
  renderRuling(state);
  renderQuestion(state);
  renderNotes(state);
  renderTable(state);
  renderScores(state);
  renderCamera(state);
  renderAdmin(state);
  renderRecent(state);
  renderPads(state);
});
setupAdmin();
connect();
