// Admin actions on the live table (undo, the next round, the finish, scores by hand). A
// phone signed in as admin (one good PIN opens a session) only confirms; otherwise the
// dialog asks for the PIN and shows the server's refusal there: a wrong PIN can be retyped
// at once, and after too many the wait is shown as the server says it. A change the
// history keeps (scores, the finish) also asks who makes it.
import { byId, show, setText } from "./dom.js";
import { adminStatus, post } from "./live.js";

const ACTIONS = {
  "undo": { url: "/api/undo", purpose: "Undo the last thing the referee applied.", confirm: "Undo",
            done: "The last action was undone." },
  "next-round": { url: "/api/next-round", purpose: "Deal the next round of the match.", confirm: "Deal",
                  done: "The next round is dealt." },
  "finish": { url: "/api/finish", purpose: "Finish the match now: the best total wins, and a round still in play does not count.",
              confirm: "Finish", done: "The match is finished.", by: true },
};

const BY_KEY = "table-companion-admin-name";
let run = null;

// Ask (confirm, PIN when needed, who) and post an admin action. `action`: {url, purpose,
// confirm, done, by (ask who), body}. Resolves true once the server took it.
export function adminAction(action) {
  if (!run) throw new Error("setupAdmin() first");
  return run(action);
}

export function setupAdmin(purposeOf = () => "") {
  const dialog = byId("pin-dialog");
  const input = byId("pin-input");
  const by = byId("by-input");
  const error = byId("pin-error");
  let current = null;
  let needPin = true;
  let settle = null;

  function askForPin(value) {
    needPin = value;
    show(byId("pin-row"), needPin);
  }

  run = async (action) => {
    current = action;
    let status = { admin: false, pin_set: true };
    try { status = await adminStatus(); } catch { /* ask for the PIN */ }
    askForPin(!status.admin);
    const who = !status.pin_set ? " No admin PIN is set: anyone at the table may."
      : status.admin ? " You are signed in as admin." : "";
    setText(byId("pin-purpose"), action.purpose + who);
    setText(byId("pin-submit"), action.confirm);
    show(byId("by-row"), Boolean(action.by));
    by.required = Boolean(action.by);
    by.value = localStorage.getItem(BY_KEY) || "";
    input.value = "";
    show(error, false);
    dialog.showModal();
    (action.by && !by.value ? by : needPin ? input : byId("pin-submit")).focus();
    return new Promise((resolve) => { settle = resolve; });
  };

  for (const button of document.querySelectorAll("#admin-panel [data-action]")) {
    const name = button.dataset.action;
    button.addEventListener("click", () => {
      const extra = purposeOf(name);
      adminAction({ ...ACTIONS[name], purpose: ACTIONS[name].purpose + (extra ? ` ${extra}` : "") });
    });
  }
  function close(done) {
    dialog.close();
    if (settle) settle(done);
    settle = null;
  }
  byId("pin-cancel").addEventListener("click", () => close(false));
  dialog.addEventListener("cancel", () => { if (settle) settle(false); settle = null; });
  byId("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const submit = byId("pin-submit");
    if (current.by && !by.value.trim()) {
      setText(error, "Your name: who makes the change is kept in the history.");
      show(error, true);
      by.focus();
      return;
    }
    submit.disabled = true;
    try {
      const body = { ...(current.body || {}) };
      if (current.by) {
        body.by = by.value.trim();
        localStorage.setItem(BY_KEY, body.by);
      }
      if (needPin) body.pin = input.value;
      await post(current.url, body);
      setText(byId("admin-done"), current.done);
      close(true);
    } catch (err) {
      // A session that ended (expired, or the PIN was changed): ask for the PIN.
      if (err.status === 403 && !needPin) askForPin(true);
      setText(error, err.message);
      show(error, true);
      if (needPin && err.status === 403) input.select();
    } finally {
      submit.disabled = false;
    }
  });
}
