// Cards as people see them: a face with its rank and suit, a back, or the gap an
// emptied slot leaves. Codes are the project's (As, Td, JOKER); see companion/cards.py.
import { el } from "./dom.js";

const SUITS = { s: ["♠", "spades"], h: ["♥", "hearts"], d: ["♦", "diamonds"], c: ["♣", "clubs"] };
const RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king", T: "10" };

function parts(code) {
  if (typeof code !== "string" || code.length !== 2 || !SUITS[code[1]]) return null;
  return { rank: RANKS[code[0]] || code[0], word: RANK_WORDS[code[0]] || code[0], suit: SUITS[code[1]], red: "hd".includes(code[1]) };
}

// "7♣", "10♦", "Joker": the same text the referee's rulings use.
export function pretty(code) {
  if (code === "JOKER") return "Joker";
  const p = parts(code);
  return p ? p.rank + p.suit[0] : "a card";
}

// A face-up card. An unreadable code is shown as such, never guessed.
export function face(code) {
  if (code === "JOKER") {
    return el("span", { class: "card face joker", role: "img", "aria-label": "joker", "data-code": code },
      el("span", { class: "rank" }, "🃏"));
  }
  const p = parts(code);
  if (!p) return back("an unread card");
  return el("span", { class: `card face${p.red ? " red" : ""}`, role: "img", "aria-label": `${p.word} of ${p.suit[1]}`,
                      "data-code": code, title: pretty(code) },
    el("span", { class: "rank" }, p.rank), el("span", { class: "suit" }, p.suit[0]));
}

export function back(label = "face-down card") {
  return el("span", { class: "card back", role: "img", "aria-label": label, title: label });
}

export function gap(label = "empty slot") {
  return el("span", { class: "card gap", role: "img", "aria-label": label, title: label });
}
