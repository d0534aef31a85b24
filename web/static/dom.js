// Small DOM helpers shared by every page. Text always goes in as text nodes: seat names
// are typed by players and must never be read as HTML.

// el("li", {class: "x", "data-seat": 2, "aria-label": "…", onclick: fn}, "text", child…)
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role" || key === "for") {
      node.setAttribute(key, value === true ? "" : String(value));
    } else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

// The same for SVG, whose elements live in their own namespace.
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

export function byId(id) { return document.getElementById(id); }

export function show(node, visible) { node.hidden = !visible; }

// Set a node's text only when it changed, so screen readers do not repeat it.
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// "Ann", "Ann and Bob", "Ann, Bob and Cid".
export function listOf(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
