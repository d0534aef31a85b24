// Rule chips: "CR-18" on a ruling opens the rule's text as the referee plays it (the rules
// pages served by the table, /rules/<game>#<id>). A tap shows the rule's own passage in a
// dialog, with a link to its whole page; without scripts the chip is a plain link there.
import { el, byId, setText } from "./dom.js";

export function ruleChip(id) {
  return el("a", { class: "rule-id", href: `/rules/rule/${encodeURIComponent(id)}`, "data-rule": id,
                   "aria-label": `Rule ${id}: read it`,
                   onclick: (event) => { event.preventDefault(); openRule(id); } }, id);
}

async function openRule(id) {
  const dialog = byId("rule-dialog");
  if (!dialog) { window.location.assign(`/rules/rule/${encodeURIComponent(id)}`); return; }
  setText(byId("rule-title"), `Rule ${id}`);
  const text = byId("rule-text");
  text.replaceChildren(el("p", { class: "muted" }, "Loading the rule…"));
  byId("rule-page").href = `/rules/rule/${encodeURIComponent(id)}`;
  if (!dialog.open) dialog.showModal();
  try {
    const response = await fetch(`/api/rules/${encodeURIComponent(id)}`);
    const rule = await response.json();
    if (!response.ok) throw new Error(rule.error || response.statusText);
    setText(byId("rule-title"), `Rule ${id} · ${rule.title.split(":")[0]}`);
    // The passage is the table's own rules page, rendered by the server from Markdown
    // with raw HTML switched off.
    text.innerHTML = rule.html;
    byId("rule-page").href = rule.url;
  } catch (err) {
    text.replaceChildren(el("p", { class: "error" }, `The rule could not be loaded: ${err.message}`));
  }
}

export function setupRules() {
  const dialog = byId("rule-dialog");
  if (dialog) byId("rule-close").addEventListener("click", () => dialog.close());
}
