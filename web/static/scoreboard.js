// The scoreboard: one row per player (every name stays in view, however many seats), the
// points of the last rounds and the total, the leader and the winners marked; and a small
// chart of the running totals (one line per seat). Used by the live table (the last few
// rounds, the rest a tap away) and by the history page (every round).
import { el, svg, listOf } from "./dom.js";

const W = 320, H = 180, LEFT = 34, RIGHT = 10, TOP = 10, BOTTOM = 24;

// Running totals per seat: [[0, r1, r1+r2, …] per seat]. Rounds are {"seat": points}.
export function runningTotals(seats, rounds) {
  return seats.map((_, seat) => {
    let total = 0;
    return [0, ...rounds.map((round) => (total += Number(round[String(seat)] || 0)))];
  });
}

export function niceNumber(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

// An inline SVG chart: x is the round (0 = before the first), y the running total.
export function scoreChart(names, rounds, target) {
  const lines = runningTotals(names, rounds);
  const values = lines.flat().concat(typeof target === "number" ? [target] : []);
  const low = Math.min(0, ...values), high = Math.max(1, ...values);
  const x = (i) => LEFT + (i * (W - LEFT - RIGHT)) / Math.max(1, rounds.length);
  const y = (v) => TOP + ((high - v) * (H - TOP - BOTTOM)) / (high - low || 1);
  const title = `Running totals after each of ${rounds.length} round${rounds.length === 1 ? "" : "s"}`;
  const chart = svg("svg", { class: "score-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title },
    svg("title", {}, title),
    svg("line", { class: "axis", x1: LEFT, y1: y(low), x2: W - RIGHT, y2: y(low) }),
    svg("line", { class: "axis", x1: LEFT, y1: TOP, x2: LEFT, y2: y(low) }),
    svg("text", { class: "tick", x: LEFT - 4, y: y(high) + 4, "text-anchor": "end" }, niceNumber(high)),
    svg("text", { class: "tick", x: LEFT - 4, y: y(low), "text-anchor": "end" }, niceNumber(low)));
  if (low < 0) chart.append(svg("line", { class: "zero", x1: LEFT, y1: y(0), x2: W - RIGHT, y2: y(0) }));
  for (let i = 0; i <= rounds.length; i++) {
    chart.append(svg("text", { class: "tick", x: x(i), y: H - 6, "text-anchor": "middle" }, String(i)));
  }
  if (typeof target === "number") {
    chart.append(svg("line", { class: "target", x1: LEFT, y1: y(target), x2: W - RIGHT, y2: y(target) }),
      // Label above the line, or below it when the line runs along the top.
      svg("text", { class: "tick", x: W - RIGHT, y: y(target) - TOP > 12 ? y(target) - 3 : y(target) + 11,
                    "text-anchor": "end" }, `target ${target}`));
  }
  lines.forEach((totals, seat) => {
    const points = totals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { class: `line seat-${seat % 8}`, "data-seat": seat, points },
      svg("title", {}, `${names[seat]}: ${niceNumber(totals[totals.length - 1])}`)));
  });
  return chart;
}

// How the match ends, in words: "to 100 points", "3 rounds", "until finished by hand".
export function matchEnd(scores) {
  if (typeof scores.target === "number") return `to ${scores.target} points`;
  if (typeof scores.rounds_to_play === "number") {
    return `${scores.rounds_to_play} round${scores.rounds_to_play === 1 ? "" : "s"}`;
  }
  return "until finished by hand";
}

// The score table into `container`. `scores`: {rounds, totals, target, over, winners,
// lower_wins}. `last`: how many of the latest rounds get a column (all when omitted).
export function renderScoreboard(container, names, scores, { last = null, chart = true } = {}) {
  const winners = new Set((scores.winners || []).map(Number));
  const rounds = scores.rounds || [];
  const first = last === null ? 0 : Math.max(0, rounds.length - last);
  const shown = rounds.slice(first);
  const totals = names.map((_, seat) => Number((scores.totals || {})[String(seat)] || 0));
  const best = rounds.length ? (scores.lower_wins ? Math.min(...totals) : Math.max(...totals)) : null;
  const head = el("tr", {}, el("th", { scope: "col" }, "Player"),
    ...shown.map((_, i) => el("th", { scope: "col", class: "round" }, `R${first + i + 1}`)),
    el("th", { scope: "col", class: "total" }, "Total"));
  const body = names.map((name, seat) => {
    const marks = winners.has(seat) ? " winner" : !scores.over && totals[seat] === best ? " leader" : "";
    return el("tr", { class: `seat-${seat % 8}${marks}`, "data-seat": seat },
      el("th", { scope: "row", class: "player" }, el("span", { class: "swatch", "aria-hidden": "true" }), name,
        winners.has(seat) ? el("span", { class: "tag win-tag" }, "wins") : null),
      ...shown.map((round) => el("td", { class: "round" }, niceNumber(Number(round[String(seat)] || 0)))),
      el("td", { class: "total", "data-seat": seat }, niceNumber(totals[seat])));
  });
  const table = el("table", { class: "score-table" },
    el("caption", { class: "visually-hidden" }, `Points per round${first ? ` (rounds ${first + 1} on)` : ""} and totals`),
    el("thead", {}, head), el("tbody", {}, ...body));
  const parts = [table];
  if (scores.over && winners.size) {
    parts.push(el("p", { class: "match-winner" }, `Match won by ${listOf([...winners].map((s) => names[s]))}`));
  } else if (scores.over) {
    parts.push(el("p", { class: "match-winner" }, "Match finished with no round scored"));
  }
  if (chart && rounds.length) {
    const legend = el("ul", { class: "legend" }, ...names.map((name, seat) =>
      el("li", { class: `seat-${seat % 8}` }, el("span", { class: "swatch", "aria-hidden": "true" }), name)));
    parts.push(el("figure", { class: "chart" }, scoreChart(names, rounds, scores.target), legend));
  }
  container.replaceChildren(...parts);
}
