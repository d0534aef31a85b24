// Every move by hand: the legal moves of the round in play (GET /api/moves, built by the
// referee from the engine's legal actions) offered a few taps at a time: who, then each
// label of the move's path ("Smack down a card", "Bob's card 2"), then the cards the
// players must name (rank, then suit), then one tap to enter it (POST /api/act). Nothing
// here is written per game: the labels, the actions and the picks all come from the table.
import { el, byId, show, setText } from "./dom.js";
import { post } from "./live.js";
import { face, pretty } from "./cards.js";

const SUIT_NAMES = { s: ["♠", "spades"], h: ["♥", "hearts"], d: ["♦", "diamonds"], c: ["♣", "clubs"] };
const RANK_NAMES = { T: "10", JOKER: "Joker" };

let state = null;        // the latest public state
let data = { moves: [], cards: [] };
let choice = null;       // {seat, path: [labels], codes: [codes of the picks so far], rank}
let version = null;
let waitSeq = 0;         // the last move entered here: the moves are loaded once it is handled
let waiting = null;      // resolves when the state shows it handled

function nameOf(seat) {
  if (seat === null || seat === undefined) return "The table";
  const entry = state.seats.find((s) => s.seat === seat);
  return entry ? entry.name : `Seat ${seat + 1}`;
}

function fresh() { return { seat: undefined, path: [], codes: [], rank: null }; }

function matching() {
  return data.moves.filter((move) => move.seat === choice.seat
    && choice.path.every((label, i) => move.path[i] === label));
}

// The single move the choices lead to, once the whole path is chosen.
function chosenMove() {
  const moves = matching();
  return moves.length === 1 && moves[0].path.length === choice.path.length ? moves[0] : null;
}

function button(label, onclick, attrs = {}) {
  return el("button", { type: "button", class: "choice-button", onclick, ...attrs }, label);
}

function render() {
  const choices = byId("move-choices");
  show(byId("move-error"), false);
  show(byId("move-send"), false);
  byId("move-back").disabled = choice.seat === undefined;
  const crumbs = choice.seat === undefined ? [] : [nameOf(choice.seat), ...choice.path];
  const move = chosenMove();
  if (move) crumbs.push(...choice.codes.map(pretty));
  setText(byId("move-where"), crumbs.join(" › "));
  if (!data.moves.length) {
    setText(byId("move-prompt"), "No move can be entered now.");
    choices.replaceChildren();
    return;
  }
  if (choice.seat === undefined) {
    setText(byId("move-prompt"), "Whose move?");
    const seats = [...new Set(data.moves.map((m) => m.seat))];
    const turn = state.game && state.game.view ? state.game.view.turn : null;
    seats.sort((a, b) => (a === turn ? -1 : b === turn ? 1 : (a ?? 99) - (b ?? 99)));
    choices.replaceChildren(...seats.map((seat) => button(nameOf(seat), () => { choice.seat = seat; render(); },
      { "data-seat": seat ?? "", class: `choice-button${seat === turn ? " turn" : ""}` })));
    return;
  }
  if (!move) {
    const level = choice.path.length;
    const labels = [...new Set(matching().map((m) => m.path[level]))];
    setText(byId("move-prompt"), level === 0 ? `${nameOf(choice.seat)}: what?` : "Which?");
    choices.replaceChildren(...labels.map((label) => button(label, () => { choice.path.push(label); render(); })));
    return;
  }
  if (choice.codes.length < move.picks.length) {
    renderPick(move.picks[choice.codes.length], choices);
    return;
  }
  setText(byId("move-prompt"), "Enter this move?");
  choices.replaceChildren(el("p", { class: "move-sentence" }, crumbs.join(" › ")));
  show(byId("move-send"), true);
  byId("move-send").focus();
}

function renderPick(pick, choices) {
  if (pick.options) {  // named cards (a player's Croks): one button each
    setText(byId("move-prompt"), pick.prompt);
    choices.replaceChildren(...pick.options.map((option) => button(option.label, () => {
      choice.codes.push(option.code);
      render();
    }, { class: "choice-button", "data-code": option.code })));
    return;
  }
  const codes = data.cards;
  if (choice.rank === null) {
    setText(byId("move-prompt"), `${pick.prompt} The rank:`);
    const ranks = [...new Set(codes.map((code) => (code === "JOKER" ? code : code[0])))];
    choices.replaceChildren(...ranks.map((rank) => button(RANK_NAMES[rank] || rank, () => {
      if (rank === "JOKER") { choice.codes.push("JOKER"); } else { choice.rank = rank; }
      render();
    }, { class: "choice-button rank", "data-rank": rank })));
    return;
  }
  setText(byId("move-prompt"), `${pick.prompt} The suit:`);
  const suits = codes.filter((code) => code[0] === choice.rank && code !== "JOKER").map((code) => code[1]);
  choices.replaceChildren(...suits.map((suit) => button(face(choice.rank + suit), () => {
    choice.codes.push(choice.rank + suit);
    choice.rank = null;
    render();
  }, { class: "choice-button suit", "aria-label": `${RANK_NAMES[choice.rank] || choice.rank} of ${SUIT_NAMES[suit][1]}` })));
}

function back() {
  const move = chosenMove();
  if (move && choice.rank !== null) choice.rank = null;
  else if (move && choice.codes.length) choice.codes.pop();
  else if (choice.path.length) choice.path.pop();
  else choice.seat = undefined;
  render();
}

function filled(move) {
  const action = JSON.parse(JSON.stringify(move.action));
  move.picks.forEach((pick, i) => {
    let target = action;
    for (const key of pick.at.slice(0, -1)) target = target[key];
    target[pick.at[pick.at.length - 1]] = choice.codes[i];
  });
  return action;
}

async function send() {
  const move = chosenMove();
  if (!move) return;
  const sendButton = byId("move-send");
  sendButton.disabled = true;
  try {
    const answer = await post("/api/act", { action: filled(move) });
    waitSeq = Math.max(waitSeq, answer.seq || 0);
    handledSession = state.session;
    setText(byId("admin-done"), `Entered: ${byId("move-where").textContent}`);
    byId("move-dialog").close();
  } catch (err) {
    setText(byId("move-error"), err.message);
    show(byId("move-error"), true);
  } finally {
    sendButton.disabled = false;
  }
}

let handledSession = null;

// Whether the referee has handled the last move entered here (its sequence number is in
// the state's latest inputs), so the moves loaded are those after it.
function handled() {
  if (!waitSeq || !state || state.session !== handledSession || !Array.isArray(state.recent)) return true;
  return state.recent.some((input) => input.seq >= waitSeq);
}

async function load() {
  if (!handled()) {
    // Not for ever: a state lost on the way still lets the moves load (a refused stale
    // move is then the referee's ruling, as for any move).
    await new Promise((resolve) => { waiting = resolve; setTimeout(resolve, 3000); });
    waiting = null;
  }
  const response = await fetch("/api/moves", { cache: "no-store" });
  const loaded = await response.json();
  if (!response.ok) throw new Error(loaded.error || response.statusText);
  data = loaded;
  const lost = choice.seat !== undefined && !matching().length;
  if (lost) choice = fresh();
  render();
  if (lost) {
    setText(byId("move-error"), "The table changed: choose again.");
    show(byId("move-error"), true);
  }
}

// Open the dialog; `seat`: start at that seat's moves (a question waiting on their move).
export async function openMoves(seat) {
  await open();
  if (seat !== undefined && seat !== null && data.moves.some((m) => m.seat === seat)) {
    choice.seat = seat;
    render();
  }
}

async function open() {
  choice = fresh();
  data = { moves: [], cards: [] };
  setText(byId("move-prompt"), "Loading the moves…");
  byId("move-choices").replaceChildren();
  byId("move-dialog").showModal();
  try { await load(); } catch (err) {
    setText(byId("move-prompt"), `The moves could not be loaded: ${err.message}`);
  }
}

// The dialog follows the table: a new state while it is open reloads the moves.
export function movesFollow(newState, newVersion) {
  state = newState;
  if (waiting && handled()) {
    const resolve = waiting;
    waiting = null;
    resolve();
    return;  // the load waiting for it goes on
  }
  if (newVersion === version) return;
  version = newVersion;
  if (byId("move-dialog").open && !waiting) load().catch(() => {});
}

export function setupMoves() {
  byId("move-button").addEventListener("click", () => open());
  byId("move-close").addEventListener("click", () => byId("move-dialog").close());
  byId("move-back").addEventListener("click", back);
  byId("move-send").addEventListener("click", send);
}
