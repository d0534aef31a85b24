// Scores by hand: the admin enters a round's points (the round in play is then over, as
// written on paper) or corrects a round already scored. Every change, and who made it,
// goes to the history. The dialog also shows every round and the chart of the totals.
import { el, byId, show, setText } from "./dom.js";
import { adminAction } from "./admin.js";
import { renderScoreboard, niceNumber } from "./scoreboard.js";

let state = null;

function rounds() {
  const scores = state.game.scores;
  const out = scores.rounds.map((points, i) => ({ number: i + 1, points, inPlay: false }));
  if (scores.round_in_play !== null && scores.round_in_play !== undefined) {
    out.push({ number: scores.round_in_play, points: null, inPlay: true });
  }
  return out;
}

function fillSeats() {
  const number = Number(byId("scores-round").value);
  const round = rounds().find((r) => r.number === number);
  setText(byId("scores-note"), round && round.inPlay
    ? "This round is still in play: entering its points ends it, as scored on paper."
    : "Correct any seat's points; the history keeps what they were and who changed them.");
  byId("scores-seats").replaceChildren(...state.seats.map((seat) => {
    const id = `score-seat-${seat.seat}`;
    const value = round && round.points ? niceNumber(Number(round.points[String(seat.seat)] || 0)) : "";
    return el("li", {}, el("label", { for: id }, seat.name),
      el("input", { id, type: "number", step: "any", inputMode: "numeric", required: true, value,
                    "data-seat": seat.seat }));
  }));
}

function open() {
  if (!state || !state.game) return;
  const choices = rounds();
  byId("scores-round").replaceChildren(...choices.map((r) => el("option", { value: String(r.number) },
    `Round ${r.number}${r.inPlay ? " (in play)" : ""}`)));
  byId("scores-round").value = String(choices[choices.length - 1].number);
  fillSeats();
  show(byId("scores-error"), false);
  renderScoreboard(byId("all-rounds-board"), state.seats.map((s) => s.name), state.game.scores);
  byId("scores-dialog").showModal();
}

async function save(event) {
  event.preventDefault();
  const inputs = [...byId("scores-seats").querySelectorAll("input")];
  if (inputs.some((input) => Number.isNaN(input.valueAsNumber))) {
    setText(byId("scores-error"), "Every seat needs its points (a number).");
    show(byId("scores-error"), true);
    return;
  }
  const number = Number(byId("scores-round").value);
  const points = inputs.map((input) => input.valueAsNumber);
  const said = state.seats.map((s, i) => `${s.name} ${niceNumber(points[i])}`).join(", ");
  byId("scores-dialog").close();
  await adminAction({ url: "/api/score", body: { round: number, points }, by: true, confirm: "Save",
                      purpose: `Round ${number}: ${said}.`, done: `Round ${number}'s scores are saved.` });
}

export function scoresFollow(newState) { state = newState; }

export function setupScores() {
  byId("scores-button").addEventListener("click", open);
  byId("scores-close").addEventListener("click", () => byId("scores-dialog").close());
  byId("scores-round").addEventListener("change", fillSeats);
  byId("scores-form").addEventListener("submit", save);
}
