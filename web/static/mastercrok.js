// Master Crok on the live page: the battle (its type, who attacks, each Crok face down or
// revealed with its stats and ability), every player's deck, hand and piles, and the group
// symbols each has won (six different ones win, MC-14). Only public facts: a face-down Crok
// shows who played it, nothing more.
import { el, listOf } from "./dom.js";

const STATS = ["power", "intelligence", "reflex"];
const SHORT = { power: "P", intelligence: "I", reflex: "R" };
const STATUS = {
  waiting: "to decide", used: "used", declined: "declined", reserved: "reserved (waits for its turn)",
  lapsed: "lapsed", cancelled: "cancelled", off: "no abilities in a blind battle",
};
const GROUPS_TO_WIN = 6;

function nameOf(state, seat) {
  const entry = state.seats.find((s) => s.seat === seat);
  return entry ? entry.name : `Seat ${seat + 1}`;
}

function capital(word) { return word ? word[0].toUpperCase() + word.slice(1) : ""; }

function crokName(game, id) {
  const info = (game.mastercrok.croks || {})[id];
  return info ? info.name : id || "an unread card";
}

// -- the headline --------------------------------------------------------------------------------

function deciding(view) {
  const battle = view.battle;
  if (battle.pending_immediate && battle.pending_immediate.length) return battle.pending_immediate[0];
  return battle.to_act;
}

export function crokHeadline(state, game) {
  const view = game.view, battle = view.battle;
  if (view.phase === "over") {
    const winners = (view.outcome ? view.outcome.winners : []).map((s) => nameOf(state, s));
    const how = view.outcome && view.outcome.rule_id === "MC-14" ? "a sixth group victory" : "more winners";
    return winners.length ? `Game over: ${listOf(winners)} ${winners.length === 1 ? "wins" : "win"} (${how})` : "Game over";
  }
  const title = `Battle ${battle.number}${battle.blind ? " (blind)" : ""}`;
  const type = battle.battle_type ? ` · ${battle.battle_type}` : "";
  const attacker = nameOf(state, battle.attacker);
  switch (view.phase) {
    case "choose": return `${title}: ${attacker} attacks and chooses the battle type`;
    case "play": return `${title}${type}: ${nameOf(state, battle.to_play[0])} plays a Crok face down`;
    case "reveal": return `${title}${type}: turn every Crok face up`;
    default: {
      const seat = deciding(view);
      return seat === null || seat === undefined ? `${title}${type}` : `${title}${type}: ${nameOf(state, seat)}'s ability`;
    }
  }
}

export function crokSubline(state, game) {
  const decks = game.mastercrok.decks || [];
  const named = decks.length ? ` · decks ${decks.map((d, i) => `${nameOf(state, i)}: ${d}`).join(", ")}` : "";
  return `Master Crok · game ${game.round}${named}`;
}

// -- a Crok ----------------------------------------------------------------------------------------

// A group symbol as a chip with the group's name: initials alone repeat (sun, star, stone).
function groupSymbol(group, won = true) {
  return el("span", { class: `group-symbol${won ? "" : " missing"}`, "data-group": group,
                      "aria-label": `${group} group${won ? "" : " (not won yet)"}` }, group);
}

function statLine(crok, battleType, value, changes) {
  return el("ul", { class: "crok-stats" }, ...STATS.map((stat) => {
    const chosen = stat === battleType;
    const change = chosen ? (changes || []).filter((c) => c.stat === stat).reduce((sum, c) => sum + c.amount, 0) : 0;
    const shown = chosen && value !== undefined && value !== crok[stat] ? `${crok[stat]} → ${value}` : String(crok[stat]);
    return el("li", { class: chosen ? "chosen" : "", "data-stat": stat, title: stat + (change ? ` (${change > 0 ? "+" : ""}${change})` : "") },
      `${SHORT[stat]} ${shown}`);
  }));
}

function crokCard(state, game, entry, battleType) {
  const crok = entry.crok;
  const who = nameOf(state, entry.played_by);
  if (!crok) {
    return el("div", { class: "crok face-down", role: "img", "aria-label": `${who}'s Crok, face down` },
      el("span", { class: "card back" }), el("span", { class: "muted" }, "face down"));
  }
  const ability = crok.ability;
  const outright = entry.wins_outright ? "wins outright" : entry.loses_outright ? "loses outright" : "";
  const held = entry.holder !== entry.played_by ? el("p", { class: "muted small" }, `held by ${nameOf(state, entry.holder)} after a swap`) : null;
  return el("article", { class: "crok face-up", "data-crok": crok.id, "aria-label": `${who}'s ${crok.name}` },
    el("header", { class: "crok-head" }, groupSymbol(crok.group), el("strong", {}, crok.name)),
    statLine(crok, battleType, entry.value, entry.changes),
    el("p", { class: "crok-ability" },
      el("strong", {}, ability.name), ` (${ability.timing}) `,
      el("span", { class: "ability-status", "data-status": entry.status }, STATUS[entry.status] || entry.status || ""),
      ability.text ? el("span", { class: "ability-text" }, ` ${ability.text}`) : null),
    outright ? el("p", { class: "outright" }, outright) : null,
    held);
}

// -- the battle, the players, the last battle -------------------------------------------------------

function battlePanel(state, game) {
  const view = game.view, battle = view.battle, extra = game.mastercrok;
  const type = battle.battle_type ? capital(battle.battle_type) : "not chosen yet";
  const lines = [el("p", { class: "battle-type", "data-battle-type": battle.battle_type || "" },
    `Battle ${battle.number}${battle.blind ? " (blind battle)" : ""} · type: `, el("strong", {}, type),
    ` · ${nameOf(state, battle.attacker)} attacks`)];
  if (extra.pad && extra.pad.battle === battle.number) {
    lines.push(el("p", { class: "pad-choice muted" },
      `${nameOf(state, extra.pad.seat)}'s pad: ${extra.pad.battle_type} (${extra.pad.presses} ` +
      `${extra.pad.presses === 1 ? "press" : "presses"}; once more for ${extra.pad.next})`));
  }
  const bySeat = new Map(battle.croks.map((c) => [c.played_by, c]));
  const spots = battle.participants.map((seat) => {
    const entry = bySeat.get(seat);
    return el("li", { class: "spot", "data-seat": seat },
      el("span", { class: "seat-name" }, nameOf(state, seat)),
      entry ? crokCard(state, game, entry, battle.battle_type)
        : el("div", { class: "crok empty muted" }, battle.to_play.includes(seat) ? "to play" : "—"));
  });
  return el("section", { class: "battle", "aria-label": "The battle" }, ...lines,
    el("ol", { class: "spots" }, ...spots));
}

function playerItem(state, game, player) {
  const view = game.view, extra = game.mastercrok;
  const groups = player.groups || [];
  const all = extra.groups || [];
  const untaught = (extra.untaught || [])[player.seat] || [];
  const tags = [];
  if (view.battle.attacker === player.seat && view.phase !== "over") tags.push(el("span", { class: "tag turn-tag" }, "attacks"));
  if (view.outcome && view.outcome.winners.includes(player.seat)) tags.push(el("span", { class: "tag" }, "wins"));
  const top = (pile) => (pile.length ? crokName(game, pile[pile.length - 1].crok) : "none");
  return el("li", { class: "seat crok-player", "data-seat": player.seat },
    el("div", { class: "seat-head" }, el("span", { class: "seat-name" }, player.name), ...tags),
    el("p", { class: "seat-facts" }, `deck ${player.deck} · hand ${player.hand} · ` +
      `winners ${player.winners.length} (top: ${top(player.winners)}) · losers ${player.losers.length}`),
    el("p", { class: "groups", "data-groups": groups.length, "aria-label": `${groups.length} of ${GROUPS_TO_WIN} group symbols won` },
      `Groups ${groups.length}/${GROUPS_TO_WIN}: `, ...all.map((g) => groupSymbol(g, groups.includes(g)))),
    untaught.length ? el("p", { class: "muted small" }, `Not taught to the camera: ${untaught.map((id) => crokName(game, id)).join(", ")} (the referee asks)`) : null);
}

function lastBattle(state, game) {
  const last = game.view.last_battle;
  if (!last) return null;
  const croks = last.croks.map((c) => `${nameOf(state, c.holder)}: ${crokName(game, c.crok)} ${c.value}` +
    (c.wins_outright ? " (won outright)" : c.loses_outright ? " (lost outright)" : ""));
  const result = last.winner !== null && last.winner !== undefined ? `${nameOf(state, last.winner)} won` : "a tie";
  return el("p", { class: "last-battle muted" }, `Battle ${last.number} (${last.battle_type}): ${croks.join(" · ")} — ${result}`);
}

export function renderCroks(node, state) {
  const game = state.game, view = game.view;
  node.replaceChildren(
    view.phase === "over" ? el("p", { class: "battle" }, crokHeadline(state, game)) : battlePanel(state, game),
    lastBattle(state, game) || "",
    el("ol", { class: "seats crok-players" }, ...view.players.map((p) => playerItem(state, game, p))));
}
