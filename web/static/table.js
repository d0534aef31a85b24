// The live table page: renders the public state the referee pushes over the live stream.
// It shows only what the state holds, and the state holds only public facts.
import { el, byId, show, setText, listOf } from "./dom.js";
import { connect, onState, post } from "./live.js";
import { face, back, gap, pretty } from "./cards.js";
import { renderScoreboard, matchEnd } from "./scoreboard.js";
import { setupAdmin } from "./admin.js";
import { poolHeadline, poolSubline, renderPool } from "./poolparty.js";
import { ruleChip, setupRules } from "./rules.js";
import { movesFollow, openMoves, setupMoves } from "./moves.js";
import { scoresFollow, setupScores } from "./scores.js";
import { setupCamera } from "./camera.js";
import { crapoHeadline, crapoSubline, renderCrapo } from "./crapo.js";
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

// What the match says before the round's own news: over, or a round scored by hand.
function matchHeadline(state, game) {
  const scores = game.scores;
  if (scores.over) {
    const winners = scores.winners.map((s) => nameOf(state, s));
    return winners.length ? `Match over: ${listOf(winners)} ${winners.length === 1 ? "wins" : "win"}`
      : "Match over: no round scored";
  }
  if (scores.round_over && game.view.phase !== "over") {
    return `Round ${game.round} scored by hand`;
  }
  return null;
}

function renderStatus(state) {
  const game = state.game;
  const subline = byId("subline");
  if (!game) {
    setText(byId("headline"), "Waiting for a game");
    subline.replaceChildren("No game is running. ", el("a", { href: "/setup" }, "Start one"), ".");
    for (const id of ["final-round", "window", "pending"]) show(byId(id), false);
    return;
  }
  const view = game.view, w = words(game.game);
  const news = matchHeadline(state, game);
  if (game.game === "pool-party" || game.game === "crapo") {
    const crapo = game.game === "crapo";
    setText(byId("headline"), news || (crapo ? crapoHeadline(view) : poolHeadline(view)));
    subline.replaceChildren(crapo ? crapoSubline(view, game.round, game.scores) : poolSubline(view, game.round));
    for (const id of ["final-round", "window", "pending"]) show(byId(id), false);
    return;
  }
  if (game.game === "master-crok") {
    setText(byId("headline"), news || crokHeadline(state, game));
    subline.replaceChildren(crokSubline(state, game));
    for (const id of ["final-round", "window", "pending"]) show(byId(id), false);
    return;
  }
  setText(byId("headline"), news || headline(state, game));
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

// A ruling as a sentence: "it is Cid's turn" -> "It is Cid's turn".
function sentence(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }

// A ruling's kind in the players' words (the referee's own names stay off the page).
const KIND_WORDS = { violation: "not allowed", penalty: "penalty", tie: "a tie to settle", result: "result", info: "" };

function rulingMeta(ruling) {
  const kind = KIND_WORDS[ruling.kind] ?? "";
  return el("p", { class: "ruling-meta" },
    ruling.rule_id ? ruleChip(ruling.rule_id) : null, ruling.rule_id ? " " : null,
    kind ? el("span", { class: "ruling-kind" }, kind) : null,
    ruling.round ? `${kind ? " · " : ""}round ${ruling.round}` : "");
}

function renderRuling(state) {
  const rulings = state.game ? state.game.rulings : [];
  const key = `${state.session}:${JSON.stringify(rulings[0] || null)}`;
  if (key === rulingKey) return;
  rulingKey = key;
  const box = byId("last-ruling");
  const last = rulings[0];
  box.dataset.kind = last ? last.kind : "none";
  box.replaceChildren(...[el("p", { class: "ruling-message" }, last ? sentence(last.message) : "No ruling yet."),
    last ? rulingMeta(last) : null].filter(Boolean));
  const earlier = rulings.slice(1);
  byId("ruling-list").replaceChildren(...earlier.map((r) =>
    el("li", { "data-kind": r.kind }, sentence(r.message), " ", rulingMeta(r))));
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
  if (!buttons.length) {  // too many moves for buttons: the players enter it by hand
    buttons.push(el("button", { type: "button", class: "option primary", onclick: () => openMoves(question.seat) },
      question.seat !== null && question.seat !== undefined ? `Enter ${nameOf(state, question.seat)}'s move` : "Enter the move"));
  }
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
  const crapo = state.game && state.game.game === "crapo";
  const croks = state.game && state.game.game === "master-crok";
  show(byId("pool"), pool);
  show(byId("crapo"), crapo);
  show(byId("croks"), croks);
  show(byId("seats"), !pool && !crapo && !croks);
  if (croks) {
    show(byId("piles"), false);
    renderCroks(byId("croks"), state);
    return;
  }
  if (pool || crapo) {
    show(byId("piles"), false);
    (pool ? renderPool : renderCrapo)(byId(pool ? "pool" : "crapo"), state.game.view);
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
  if (!game) return;
  setText(byId("match-end"), matchEnd(game.scores));
  renderScoreboard(byId("scoreboard"), state.seats.map((s) => s.name), game.scores, { last: 3, chart: false });
}

let pictureVersion = null;

function renderCamera(state) {
  const camera = state.camera;
  show(byId("camera-panel"), Boolean(camera));
  if (!camera) return;
  // Said plainly: no camera at all, or one that is lost and tried again, means taps.
  const words = { none: "No camera", gone: "Camera lost", stalled: "Camera stalled", ended: "Replay over",
                  live: "Camera live" }[camera.state] || (camera.state ? `Camera ${camera.state}` : "");
  const status = [words, camera.message || ""].filter(Boolean).join(": ");
  setText(byId("camera-status"), status);
  // The camera loop numbers its pictures; a new number means a new picture to fetch.
  const version = camera.picture ?? camera.version ?? null;
  const img = byId("camera-picture");
  show(byId("camera-open"), version !== null);
  if (version !== null && version !== pictureVersion) {
    pictureVersion = version;
    img.src = `/camera.jpg?v=${encodeURIComponent(version)}`;
  }
}

function renderAdmin(state) {
  const game = state.game;
  show(byId("admin-panel"), Boolean(game));
  if (!game) return;
  const scores = game.scores;
  show(byId("next-round-button"), scores.round_over && !scores.over);
  show(byId("move-button"), !scores.round_over && !scores.over);
  show(byId("finish-button"), !scores.over);
  show(byId("scores-button"), !scores.over);
  const names = JSON.stringify(state.seats);
  const list = byId("seat-names");
  if (list.dataset.names !== names) {
    list.dataset.names = names;
    list.replaceChildren(...state.seats.map((s) => el("option", { value: s.name })));
  }
}

// The admin's Finish says who leads, so nobody finishes a match by mistake.
function finishPurpose() {
  const game = latest && latest.game;
  if (!game || !game.scores.rounds.length) return "No round is scored yet: nobody would win.";
  const totals = latest.seats.map((s) => Number(game.scores.totals[String(s.seat)] || 0));
  const best = game.scores.lower_wins ? Math.min(...totals) : Math.max(...totals);
  const leaders = latest.seats.filter((s, i) => totals[i] === best).map((s) => s.name);
  return `${listOf(leaders)} ${leaders.length === 1 ? "leads" : "lead"} with ${best}.`;
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

let latest = null;

async function showJoin() {
  try {
    const response = await fetch("/api/join");
    setText(byId("join-url"), (await response.json()).url);
  } catch { /* the QR code says it */ }
}

onState((state, version) => {
  latest = state;
  renderStatus(state);
  renderRuling(state);
  renderQuestion(state);
  renderNotes(state);
  renderTable(state);
  renderScores(state);
  renderCamera(state);
  renderAdmin(state);
  renderPads(state);
  movesFollow(state, version);
  scoresFollow(state);
});
setupAdmin((name) => (name === "finish" ? finishPurpose() : ""));
setupRules();
setupMoves();
setupScores();
setupCamera();
showJoin();
connect();
