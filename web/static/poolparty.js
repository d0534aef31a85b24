// Crocodile Pool Party on the live page: whose turn, the pool (6 x 14 squares with every
// tile, stack and its height), both bars. Only public facts: nobody knows a swimmer's number.
import { el, listOf } from "./dom.js";

const COLOUR = { red: "Red", yellow: "Yellow" };

function playerOf(view, colour) {
  return `${view.players[colour]} (${COLOUR[colour]})`;
}

export function poolHeadline(view) {
  switch (view.phase) {
    case "placing": return "Lay out the swimmers";
    case "revealing": return "Turn the swimmers at the bars over";
    case "over": {
      const winners = (view.outcome ? view.outcome.winners : []).map((seat) => playerOf(view, seat === 0 ? "red" : "yellow"));
      return winners.length ? `Game over: ${listOf(winners)} ${winners.length === 1 ? "wins" : "win"}` : "Game over: a draw";
    }
    default: {
      const flip = view.pending_flip ? ` · move the crocodile on ${view.pending_flip}` : "";
      return `${playerOf(view, view.to_move)}'s turn${flip}`;
    }
  }
}

export function poolSubline(view, round) {
  return `Crocodile Pool Party · game ${view.game_number || round} · ${view.bar_opened ? "the bars are open" : "the first tiles at a bar must be a stack"}`;
}

function tileLabel(face) {
  return face.side === "crocodile" ? `${face.colour} crocodile ${face.number}` : `${face.colour} swimmer`;
}

function tile(stack) {
  const top = stack[stack.length - 1];
  const label = tileLabel(top) + (stack.length > 1 ? `, on a stack of ${stack.length}` : "");
  return el("span", { class: `tile ${top.colour} ${top.side}`, role: "img", "aria-label": label, title: label },
    top.side === "crocodile" ? String(top.number) : "",
    stack.length > 1 ? el("span", { class: "height" }, `×${stack.length}`) : null);
}

function cellKinds(board) {
  const kinds = {};
  for (const cells of Object.values(board.step_cells || {})) for (const name of cells) kinds[name] = "step";
  for (const cells of Object.values(board.bar_cells || {})) for (const name of cells) kinds[name] = "bar";
  return kinds;
}

// The pool as Red sees it from their seat: row 1 at the bottom.
export function renderPool(node, view) {
  const board = view.board, kinds = cellKinds(board);
  const rows = [];
  for (let row = board.rows; row >= 1; row -= 1) {
    const cells = [];
    for (let col = 1; col <= board.cols; col += 1) {
      const name = `c${col}r${row}`;
      const stack = view.squares[name];
      cells.push(el("td", { class: `square ${kinds[name] || "water"}`, "data-square": name,
        "aria-label": name + (stack ? `: ${tileLabel(stack[stack.length - 1])}` : "") },
      stack ? tile(stack) : null));
    }
    rows.push(el("tr", {}, el("th", { scope: "row" }, String(row)), ...cells));
  }
  const head = el("tr", {}, el("th", {}, ""), ...Array.from({ length: board.cols }, (_, i) => el("th", { scope: "col" }, `c${i + 1}`)));
  const bars = ["red", "yellow"].map((colour) => el("li", { class: `bar ${colour}`, "data-bar": colour },
    `${playerOf(view, colour)}'s bar: ${view.bar_counts[colour]} tile${view.bar_counts[colour] === 1 ? "" : "s"}`,
    " ", ...view.bars[colour].map((face) => tile([face]))));
  node.replaceChildren(
    el("table", { class: "pool-board", "aria-label": "The pool, seen from Red's seat" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    el("ul", { class: "bars" }, ...bars));
}
