// The setup page's deck choice (Master Crok): one taught deck per seat, from GET /api/decks.
// The server checks each deck again at setup (MC-01, MC-02) and names the one it refuses.
import { el, byId, show } from "./dom.js";

let taught = null;

async function load() {
  if (taught === null) {
    const response = await fetch("/api/decks", { cache: "no-store" });
    taught = (await response.json()).decks.filter((d) => !d.error && d.has_catalog);
  }
  return taught;
}

// Show the deck choice when the game is played with taught decks, one select per seat.
export async function showDecks(game, seatNames) {
  const box = byId("deck-choice");
  const wanted = game === "master-crok";
  show(box, wanted);
  box.disabled = !wanted;
  if (!wanted) return;
  const decks = await load();
  show(byId("no-decks"), decks.length === 0);
  const list = byId("deck-seats");
  const before = [...list.querySelectorAll("select")].map((s) => s.value);
  list.replaceChildren(...seatNames.map((name, i) => el("li", {},
    el("label", {}, `${name}'s deck `,
      el("select", { name: "deck", "data-seat": i, required: true },
        ...decks.map((d, k) => el("option", { value: d.name, selected: before[i] ? before[i] === d.name : k === i % decks.length },
          `${d.name} (${d.croks} Croks${d.untaught.length ? `, ${d.untaught.length} not taught` : ""})`)))))));
}

export function chosenDecks() {
  const box = byId("deck-choice");
  if (box.hidden) return null;
  return [...byId("deck-seats").querySelectorAll("select")].map((s) => s.value);
}
