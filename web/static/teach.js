// The Teach page: a deck of Croks shown to the camera card by card, through the service
// that owns it. The lesson's progress is asked for twice a second (GET /api/teach); every
// change of what the table knows is an admin's POST, refused with a message that names why.
import { el, byId, show, setText } from "./dom.js";
import { adminStatus, connect, post } from "./live.js";

let catalogs = [];
let pictures = -1;

function showError(id, message) {
  const node = byId(id);
  setText(node, message || "");
  show(node, Boolean(message));
}

function withPin(body) {
  const pin = byId("teach-pin").value;
  return byId("teach-pin-field").hidden || !pin ? body : { ...body, pin };
}

async function act(url, body, errorId) {
  showError(errorId, "");
  try {
    return await post(url, withPin(body || {}));
  } catch (err) {
    if (err.status === 403) show(byId("teach-pin-field"), true);
    showError(errorId, err.message);
    return null;
  }
}

function fillCatalogs(data) {
  catalogs = data.catalogs;
  const select = byId("catalog");
  select.replaceChildren(...catalogs.map((c) => el("option", { value: c.name }, `${c.title || c.name} (${c.croks} Croks)`)));
  fillDeckLists();
  byId("taught-decks").replaceChildren(...(data.decks.length ? data.decks.map((d) => el("li", { "data-deck": d.name },
    d.error ? `${d.name}: ${d.error}` : `${d.name}: ${d.croks} Croks, ${d.taught} pictures (catalog ${d.catalog || "unknown"})` +
      (d.untaught.length ? ` · not taught: ${d.untaught.join(", ")}` : ""))) : [el("li", { class: "muted" }, "None yet.")]));
}

function fillDeckLists() {
  const catalog = catalogs.find((c) => c.name === byId("catalog").value);
  const decks = catalog ? Object.entries(catalog.decks) : [];
  byId("deck-list").replaceChildren(el("option", { value: "" }, "every Crok of the catalog, once"),
    ...decks.map(([name, size]) => el("option", { value: name }, `its deck “${name}” (${size} Croks)`)));
}

async function refreshDecks() {
  const response = await fetch("/api/decks", { cache: "no-store" });
  fillCatalogs(await response.json());
}

function renderLesson(lesson) {
  show(byId("teach-lesson"), Boolean(lesson));
  show(byId("teach-start"), !lesson || Boolean(lesson.stored));
  if (!lesson) return;
  setText(byId("lesson-title"), `Teaching deck ${lesson.deck} (${lesson.catalog})`);
  byId("lesson-progress").max = lesson.total;
  byId("lesson-progress").value = lesson.position;
  setText(byId("lesson-count"), `${Math.min(lesson.position + 1, lesson.total)} / ${lesson.total} · ` +
    `${lesson.taken.length} taught${lesson.skipped.length ? `, ${lesson.skipped.length} skipped` : ""}`);
  setText(byId("lesson-asking"), lesson.asking ? `Show: ${lesson.asking.prompt}` : (lesson.stored ? "Stored." : "Every card is shown."));
  setText(byId("lesson-message"), lesson.message);
  show(byId("lesson-skip"), !lesson.done);
  show(byId("lesson-store"), lesson.done && !lesson.stored);
  show(byId("lesson-cancel"), !lesson.stored);
  if (lesson.pictures !== pictures) {
    pictures = lesson.pictures;
    show(byId("lesson-figure"), pictures > 0);
    if (pictures > 0) {
      byId("lesson-picture").src = `/api/teach/picture/${pictures - 1}.jpg?n=${pictures}`;
      setText(byId("lesson-caption"), `Learned: ${lesson.taken[pictures - 1]}`);
    }
  }
  byId("lesson-problems").replaceChildren(...lesson.problems.map((p) => el("li", {}, `Warning: ${p}`)));
}

async function poll() {
  try {
    const response = await fetch("/api/teach", { cache: "no-store" });
    const data = await response.json();
    if (response.ok) renderLesson(data.lesson);
    else showError("teach-error", data.error);
  } finally {
    setTimeout(poll, 500);
  }
}

byId("catalog").addEventListener("change", fillDeckLists);
byId("teach-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!byId("teach-form").reportValidity()) return;
  pictures = -1;
  const lesson = await act("/api/teach/start", {
    deck: byId("deck-name").value.trim(), catalog: byId("catalog").value, deck_list: byId("deck-list").value || null,
  }, "teach-error");
  if (lesson) renderLesson(lesson);
});
byId("lesson-skip").addEventListener("click", () => act("/api/teach/skip", {}, "lesson-error"));
byId("lesson-cancel").addEventListener("click", async () => {
  if (await act("/api/teach/cancel", {}, "lesson-error")) renderLesson(null);
});
byId("lesson-store").addEventListener("click", async () => {
  byId("lesson-store").disabled = true;
  const lesson = await act("/api/teach/store", {}, "lesson-error");
  byId("lesson-store").disabled = false;
  if (lesson) { renderLesson(lesson); refreshDecks(); }
});

adminStatus().then((status) => show(byId("teach-pin-field"), status.pin_set && !status.admin)).catch(() => {});
refreshDecks();
poll();
connect();
