// Admin actions on the live table (undo, next round). A phone signed in as admin (one
// good PIN opens a session) only confirms; otherwise the dialog asks for the PIN and shows
// the server's refusal there: a wrong PIN can be retyped at once, and after too many the
// wait is shown as the server says it.
import { byId, show, setText } from "./dom.js";
import { adminStatus, post } from "./live.js";

const ACTIONS = {
  "undo": { purpose: "Undo the last action the referee applied.", confirm: "Undo", done: "The last action was undone." },
  "next-round": { purpose: "Deal the next round of the match.", confirm: "Deal", done: "The next round is dealt." },
};

export function setupAdmin() {
  const dialog = byId("pin-dialog");
  const input = byId("pin-input");
  const error = byId("pin-error");
  let action = null;
  let needPin = true;

  function askForPin(value) {
    needPin = value;
    show(byId("pin-row"), needPin);
  }

  async function ask(name) {
    action = name;
    const text = ACTIONS[name];
    let status = { admin: false, pin_set: true };
    try { status = await adminStatus(); } catch { /* ask for the PIN */ }
    askForPin(!status.admin);
    const who = !status.pin_set ? " No admin PIN is set: anyone at the table may."
      : status.admin ? " You are signed in as admin." : "";
    setText(byId("pin-purpose"), text.purpose + who);
    setText(byId("pin-submit"), text.confirm);
    input.value = "";
    show(error, false);
    dialog.showModal();
    if (needPin) input.focus();
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
      await post(`/api/${action}`, needPin ? { pin: input.value } : {});
      dialog.close();
      setText(byId("admin-done"), ACTIONS[action].done);
    } catch (err) {
      // A session that ended (expired, or the PIN was changed): ask for the PIN.
      if (err.status === 403 && !needPin) askForPin(true);
      setText(error, err.message);
      show(error, true);
      if (needPin) input.select();
    } finally {
      submit.disabled = false;
    }
  });
}
