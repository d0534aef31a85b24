// The scoreboard: points per round and in total, and a small chart of the running
// totals (one line per seat). Used by the live table and by the history page.
import { el, svg, listOf } from "./dom.js";

const W = 320, H = 180, LEFT = 34, RIGHT = 10, TOP = 10, BOTTOM = 24;

// Running totals per seat: [[0, r1, r1+r2, …] per seat]. Rounds are {"seat": points}.
export function runningTotals(seats, rounds) {
  return seats.map((_, seat) => {
    let total = 0;
    return [0, ...rounds.map((round) => (total += Number(round[String(seat)] || 0)))];
  });
}

function niceNumber(value) {
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

// The score table and the chart into `container`. `scores`: {rounds, totals, target, over, winners}.
export function renderScoreboard(container, names, scores) {
  const winners = new Set((scores.winners || []).map(Number));
  const head = el("tr", {}, el("th", { scope: "col" }, "Round"),
    ...names.map((name, seat) => el("th", { scope: "col", class: `score-seat seat-${seat % 8}` }, name)));
  const body = scores.rounds.map((round, i) => el("tr", {}, el("th", { scope: "row" }, String(i + 1)),
    ...names.map((_, seat) => el("td", {}, niceNumber(Number(round[String(seat)] || 0))))));
  const total = el("tr", { class: "totals" }, el("th", { scope: "row" }, "Total"),
    ...names.map((_, seat) => el("td", { class: winners.has(seat) ? "winner" : "", "data-seat": seat },
      niceNumber(Number(scores.totals[String(seat)] || 0)))));
  const table = el("table", { class: "score-table" }, el("thead", {}, head), el("tbody", {}, ...body),
    el("tfoot", {}, total));
  const parts = [el("div", { class: "score-table-wrap" }, table)];
  if (typeof scores.target === "number") parts.push(el("p", { class: "muted" }, `The match ends at ${scores.target} points.`));
  if (scores.over && winners.size) {
    parts.push(el("p", { class: "match-winner" }, `Match won by ${listOf([...winners].map((s) => names[s]))}`));
  }
  if (scores.rounds.length) {
    const legend = el("ul", { class: "legend" }, ...names.map((name, seat) =>
      el("li", { class: `seat-${seat % 8}` }, el("span", { class: "swatch", "aria-hidden": "true" }), name)));
    parts.push(el("figure", { class: "chart" }, scoreChart(names, scores.rounds, scores.target), legend));
  }
  container.replaceChildren(...parts);
}
