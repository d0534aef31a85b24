// The setup page: the game, the seats and their names, the dealer, the house rules and
// the admin PIN, sent as one JSON POST (/api/setup). The server checks it again and its
// refusal is shown as is: it names the field.
import { el, byId, show, setText } from "./dom.js";
import { adminStatus, connect, onState, post } from "./live.js";
import { chosenDecks, showDecks } from "./setup-decks.js";

const form = byId("setup-form");
const seatList = byId("seat-names");

function chosenGame() { return form.querySelector("input[name=game]:checked"); }

function seatInputs() { return [...seatList.querySelectorAll("input[name=seat]")]; }

function limits() {
  const game = chosenGame();
  return { min: Number(game.dataset.min), max: Number(game.dataset.max) };
}

function rulesFieldset(name) { return form.querySelector(`fieldset.house-rules[data-game="${name}"]`); }

// Only the chosen game's house rules show, and only they are validated and sent.
function showGame() {
  const name = chosenGame().value;
  for (const fieldset of form.querySelectorAll("fieldset.house-rules")) {
    const mine = fieldset.dataset.game === name;
    fieldset.hidden = !mine;
    fieldset.disabled = !mine;
  }
  showMatchEnds();
  const { min, max } = limits();
  while (seatInputs().length < min) addSeat();
  while (seatInputs().length > max) seatList.lastElementChild.remove();
  updateSeats();
  showRulesChanged();
}

function addSeat() {
  const n = seatInputs().length + 1;
  const input = el("input", { type: "text", name: "seat", value: `Seat ${n}`, required: true, maxLength: 40,
                              autocomplete: "off" });
  input.setAttribute("list", "known-players");
  seatList.append(el("li", {}, el("label", {}, `Seat ${n} `, input)));
}

// How the match ends: one of the game's common ends, or another total or number of rounds.
const MATCH_ENDS = JSON.parse(byId("match-end").dataset.ends);
let matchEndsOf = null;

function showMatchEnds() {
  const radios = [...form.querySelectorAll("input[name=game]")];
  const index = radios.indexOf(chosenGame());
  if (index !== matchEndsOf) {
    matchEndsOf = index;
    const select = byId("match-end");
    const custom = [...select.options].filter((o) => o.dataset.custom);
    select.replaceChildren(...(MATCH_ENDS[index] || []).map((end, i) => el("option", {
      value: String(i), "data-target": end.target ?? "", "data-rounds": end.rounds ?? "" }, end.label)), ...custom);
    select.value = "0";
  }
  syncMatchEnd();
}

function syncMatchEnd() {
  const number = byId("match-end-number");
  const option = byId("match-end").selectedOptions[0];
  const custom = option && option.dataset.custom;
  show(byId("match-end-number-row"), Boolean(custom));
  number.disabled = !custom;
  setText(byId("match-end-number-label"), custom === "rounds" ? "The number of rounds" : "The total that ends the match");
  if (custom === "rounds" && Number(number.value) > 100) number.value = "3";
  number.max = custom === "rounds" ? "100" : "100000";
}

function matchEnd() {
  const option = byId("match-end").selectedOptions[0];
  if (!option) return {};
  const number = byId("match-end-number").valueAsNumber;
  if (option.dataset.custom === "target") return { target: number };
  if (option.dataset.custom === "rounds") return { rounds: number };
  return { target: option.dataset.target ? Number(option.dataset.target) : null,
           rounds: option.dataset.rounds ? Number(option.dataset.rounds) : null };
}

// A name picked from the list is that player (by id); another is a new player, or nobody
// for a seat left as "Seat 3".
function chosenPlayers(names) {
  const known = new Map([...byId("known-players").options].map((o) => [o.value.trim().toLowerCase(), Number(o.dataset.id)]));
  return names.map((name) => known.get(name.trim().toLowerCase()) ?? null);
}

// The dealer list follows the names; the add/remove buttons follow the game's limits.
function updateSeats() {
  const game = chosenGame();
  const roles = game.dataset.roles ? game.dataset.roles.split(",") : [];
  setText(byId("dealer-label"), game.dataset.firstLabel || "Dealer");
  seatInputs().forEach((input, i) => {
    const label = input.closest("label");
    if (label && label.firstChild.nodeType === Node.TEXT_NODE) {
      label.firstChild.textContent = `Seat ${i + 1}${roles[i] ? ` (${roles[i]})` : ""} `;
    }
  });
  const names = seatInputs().map((input, i) => input.value.trim() || `Seat ${i + 1}`);
  const dealer = byId("dealer");
  const chosen = Math.min(Number(dealer.value) || 0, names.length - 1);
  dealer.replaceChildren(...names.map((name, i) => el("option", { value: String(i) }, name)));
  dealer.value = String(chosen);
  const { min, max } = limits();
  byId("add-seat").disabled = names.length >= max;
  byId("remove-seat").disabled = names.length <= min;
  showDecks(game.value, names).catch(() => {});
}

// A rule that takes a list of values or a number: "a number" shows the number field.
function syncRange(rule) {
  const select = rule.querySelector("select.rule-choice");
  const number = rule.querySelector("input.rule-number");
  if (!select || !number || select.disabled) return;
  const range = select.value === "range";
  number.hidden = !range;
  number.disabled = !range;
}

function ruleValue(rule) {
  const select = rule.querySelector("select.rule-choice");
  if (select && select.value !== "range") return JSON.parse(select.value);
  return rule.querySelector("input.rule-number").valueAsNumber;
}

// Only the rules that differ from their default are sent: the record stays short and says
// what this table changed.
function houseRules() {
  const out = {};
  for (const rule of rulesFieldset(chosenGame().value).querySelectorAll(".rule")) {
    const value = ruleValue(rule);
    if (JSON.stringify(value) !== JSON.stringify(JSON.parse(rule.dataset.default))) out[rule.dataset.rule] = value;
  }
  return out;
}

function showRulesChanged() {
  const changed = Object.keys(houseRules()).length;
  setText(byId("rules-changed"), changed ? `${changed} changed` : "all at their defaults");
}

function showError(message, named) {
  const error = byId("setup-error");
  setText(error, message);
  show(error, Boolean(message));
  // The server names the field first ("seats: …", "pin: …"): take the player there.
  const field = { seats: seatInputs()[0], players: seatInputs()[0], pin: byId("pin"), admin_pin: byId("admin-pin"),
                  dealer: byId("dealer"), decks: byId("deck-seats").querySelector("select") }[(named || message.split(/[:.[]/)[0]).split(/[.[]/)[0]];
  if (field) field.focus();
}

async function submit(event) {
  event.preventDefault();
  showError("");
  if (!form.reportValidity()) return;
  const seats = seatInputs().map((input) => input.value.trim());
  const body = {
    game: chosenGame().value,
    seats,
    players: chosenPlayers(seats),
    house_rules: houseRules(),
    dealer: Number(byId("dealer").value),
    ...matchEnd(),
  };
  const decks = chosenDecks();
  if (decks) body.decks = decks;
  if (byId("pin").value && !byId("new-pin-field").hidden) body.pin = byId("pin").value;
  if (!byId("admin-pin-field").hidden && byId("admin-pin").value) body.admin_pin = byId("admin-pin").value;
  const start = byId("start");
  start.disabled = true;
  try {
    await post("/api/setup", body);
    window.location.assign("/");
  } catch (err) {
    // Asked for the table's PIN (this phone is not signed in): show where it goes.
    if (err.status === 403 && err.data && err.data.field === "admin_pin") show(byId("admin-pin-field"), true);
    showError(err.message, err.data && err.data.field);
    start.disabled = false;
  }
}

for (const radio of form.querySelectorAll("input[name=game]")) radio.addEventListener("change", showGame);
byId("match-end").addEventListener("change", syncMatchEnd);
for (const rule of form.querySelectorAll(".rule")) {
  const select = rule.querySelector("select.rule-choice");
  if (select) select.addEventListener("change", () => syncRange(rule));
}
seatList.addEventListener("input", updateSeats);
byId("add-seat").addEventListener("click", () => { addSeat(); updateSeats(); });
byId("remove-seat").addEventListener("click", () => { seatList.lastElementChild.remove(); updateSeats(); });
byId("house-rules").addEventListener("change", showRulesChanged);
form.addEventListener("submit", submit);
showGame();

// Whether a game is running is only news: the table's PIN is asked for by the admin rules
// (GET /api/admin), whatever the game.
onState((state) => show(byId("running-note"), Boolean(state.game)));

async function showAdmin() {
  const status = await adminStatus();
  show(byId("admin-pin-field"), status.setup_needs_pin);
  show(byId("new-pin-field"), status.pin_source !== "config");
  show(byId("config-pin-note"), status.pin_source === "config");
  byId("pin").required = status.setup_must_choose_pin;
  setText(byId("pin-label"), status.pin_set ? "A new admin PIN for this table (optional)" : "An admin PIN for this table");
}
showAdmin().catch(() => {});
connect();
