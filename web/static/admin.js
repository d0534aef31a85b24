// Admin actions on the live table (undo, next round): each asks for the admin PIN in a
// dialog and shows the server's refusal there, so a wrong PIN can be retyped at once.
import { byId, show, setText } from "./dom.js";
import { post } from "./live.js";

const ACTIONS = {
  "undo": { purpose: "Undo the last action the referee applied.", confirm: "Undo", done: "The last action was undone." },
  "next-round": { purpose: "Deal the next round of the match.", confirm: "Deal", done: "The next round is dealt." },
};

let pinSet = true;

// Whether the running game has a PIN (from the public state): without one the dialog
// only confirms, and says so.
export function setPinSet(value) { pinSet = value; }

export function setupAdmin() {
  const dialog = byId("pin-dialog");
  const input = byId("pin-input");
  const error = byId("pin-error");
  let action = null;

  function ask(name) {
    action = name;
    const text = ACTIONS[name];
    setText(byId("pin-purpose"), pinSet ? text.purpose : `${text.purpose} No admin PIN was set: leave it empty.`);
    setText(byId("pin-submit"), text.confirm);
    input.value = "";
    show(error, false);
    dialog.showModal();
    input.focus();
  }

  for (const button of document.querySelectorAll("#admin-panel [data-action]")) {
    button.addEventListener("click", () => ask(button.dataset.action));
  }
  byId("pin-cancel").addEventListener("click", () => dialog.close());
  byId("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const submit = byId("pin-submit");
    submit.disabled = true;
    try {
      await post(`/api/${action}`, { pin: input.value });
      dialog.close();
      setText(byId("admin-done"), ACTIONS[action].done);
    } catch (err) {
      setText(error, err.message);
      show(error, true);
      input.select();
    } finally {
      submit.disabled = false;
    }
  });
}
