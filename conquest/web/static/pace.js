// A game's pace (live, or turn-based with a deadline per turn), chosen on the new-game form and shown on the game
// page and in the lobby; the turn notifications: the seat's e-mail address (PUT /api/games/{id}/notify) and the
// browser's notification (the Notification API) when the turn comes while the page is in the background.
// @ts-check
import { h, api, toast } from "./ui.js";

/** @type {[number, string][]} */
const DEADLINES = [[3600, "1 hour"], [4 * 3600, "4 hours"], [12 * 3600, "12 hours"], [86400, "24 hours"],
  [2 * 86400, "2 days"], [3 * 86400, "3 days"], [7 * 86400, "1 week"]];

/** A deadline in words ("24 hours"). @param {number} seconds @returns {string} */
export function duration(seconds) {
  const known = DEADLINES.find(([s]) => s === seconds);
  if (known) return known[1];
  if (seconds % 86400 === 0) return `${seconds / 86400} days`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hours`;
  return `${Math.round(seconds / 60)} minutes`;
}

/** The "Pace" part of the new-game form: returns {box, value(), update(ruleset)}.
 * @param {RulesetsData} data */
export function paceFields(data) {
  const levels = Object.entries(data.levels || {});
  const mode = h("select", { id: "pace-mode", "aria-label": "Pace" },
    h("option", { value: "live", text: "Live: played at one sitting", selected: true }),
    h("option", { value: "turn", text: "Turn-based: a deadline per turn" }));
  const deadline = h("select", { id: "pace-deadline", "aria-label": "Time for each turn" },
    DEADLINES.map(([s, t]) => h("option", { value: s, text: t, selected: s === 86400 })));
  const at = h("select", { id: "pace-at", "aria-label": "At the deadline" });
  const help = h("p", { class: "help", id: "pace-help" });
  const more = h("div", { class: "row2", id: "pace-turn", hidden: true },
    h("div", {}, h("label", { for: "pace-deadline", text: "Time for each turn" }), deadline),
    h("div", {}, h("label", { for: "pace-at", text: "At the deadline" }), at));
  /** @type {RulesetInfo | null} */
  let ruleset = null;
  function explain() {
    more.hidden = mode.value !== "turn";
    if (mode.value !== "turn") { help.textContent = "Everyone plays now, with the game open."; return; }
    const v = at.value;
    const lines = [`Each player has ${duration(Number(deadline.value))} for each of their turns; players are told by e-mail (if they give an address on the game page) and by their browser.`];
    if (v === "drop") lines.push("A player who lets the time run out leaves the game; it goes on without them as its rules say.");
    else lines.push(`A player who lets the time run out has that turn played by the computer (${((data.levels || {})[v] || {}).label || v}).`);
    if (ruleset && !ruleset.can_drop_seat) lines.push(`${ruleset.title} cannot drop a seat (its rules have no way for a player to leave), so the computer plays a missed turn.`);
    help.textContent = lines.join(" ");
  }
  /** @param {RulesetInfo} r */
  function update(r) {
    ruleset = r;
    const was = at.value;
    at.replaceChildren(...levels.map(([k, v]) => h("option", { value: k, text: `a computer plays it (${v.label || k})`, selected: k === (was || "normal") })),
      h("option", { value: "drop", text: r.can_drop_seat ? "the player is dropped" : "drop the player (not in this game)", disabled: !r.can_drop_seat, selected: was === "drop" && r.can_drop_seat }));
    if (!at.value || (at.value === "drop" && !r.can_drop_seat)) at.value = levels.length ? (levels.find(([k]) => k === "normal") || levels[0])[0] : "";
    explain();
  }
  for (const el of [mode, deadline, at]) el.addEventListener("change", explain);
  const box = h("fieldset", { id: "pace" }, h("legend", { text: "Pace" }), mode, more, help);
  /** @returns {PaceChoice} */
  function value() {
    if (mode.value !== "turn") return { mode: "live" };
    /** @type {PaceChoice} */
    const p = { mode: "turn", deadline_seconds: Number(deadline.value) };
    if (at.value === "drop") p.at_deadline = "drop"; else { p.at_deadline = "computer"; p.level = at.value; }
    return p;
  }
  return { box, value, update };
}

/** A deadline as a date and the time left. @param {string} iso */
function when(iso) {
  const t = new Date(iso);
  const left = t.getTime() - Date.now();
  /** @type {Intl.DateTimeFormatOptions} */
  const opts = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  const abs = t.toLocaleString(undefined, opts);
  if (left <= 0) return `${abs} (passed: the server plays it shortly)`;
  const hours = Math.floor(left / 3600000); const minutes = Math.floor((left % 3600000) / 60000);
  return `${abs} (in ${hours ? `${hours} h ` : ""}${minutes} min)`;
}

/** One line for the lobby's list: "" for a live game.
 * @param {GameInfo} g @param {SeatIndex | null | undefined} seat @returns {string} */
export function paceShort(g, seat) {
  const p = g.pace;
  if (!p || p.mode !== "turn") return "";
  const mine = seat !== null && seat !== undefined && g.to_move === seat;
  return `turn-based, ${duration(p.deadline_seconds || 0)} a turn` + (mine && p.deadline_at ? `; move by ${when(p.deadline_at)}` : "");
}

/** The pace shown on the game page (a card's paragraph). @param {GameData} d */
export function paceLine(d) {
  const g = d.game; const p = g.pace;
  if (!p || p.mode !== "turn") return h("p", { class: "help pace", id: "pace-line", text: "Live game: played at one sitting." });
  const what = p.at_deadline === "drop" ? "the player is dropped" : `the computer (${p.level}) plays the turn`;
  const parts = [`Turn-based: ${duration(p.deadline_seconds || 0)} a turn; at the deadline ${what}.`];
  if (!g.over && p.deadline_at && typeof g.to_move === "number") {
    const who = d.you.seat === g.to_move ? "Your turn" : `${g.to_move_name}'s turn`;
    parts.push(`${who}: move by ${when(p.deadline_at)}.`);
  }
  if (p.missed) parts.push(`${p.missed} turn${p.missed === 1 ? "" : "s"} reached the deadline.`);
  return h("p", { class: "pace", id: "pace-line", text: parts.join(" ") });
}

/** "Tell me when it's my turn": the browser's notifications and the seat's e-mail address (a seat only).
 * @param {GameData} d @param {string} token @returns {HTMLElement | null} */
export function notifyBox(d, token) {
  if (d.you.seat === null || d.game.over) return null;
  const gid = d.game.id;
  const box = h("details", { class: "card notify", id: "notify" }, h("summary", { text: "Tell me when it is my turn" }));
  const can = "Notification" in window;
  const state = h("span", { class: "help", id: "notify-browser-state" });
  const showState = () => {
    state.textContent = !can ? "This browser has no notifications." : Notification.permission === "granted"
      ? "On: this browser tells you while a tab of this game is open." : Notification.permission === "denied"
        ? "Blocked in this browser's settings." : "";
  };
  const ask = h("button", { type: "button", id: "notify-browser", text: "Browser notifications", disabled: !can,
    onclick: async () => { try { await Notification.requestPermission(); } catch (e) { /* refused */ } showState(); } });
  showState();
  const input = h("input", { type: "email", id: "notify-email", maxlength: 254, placeholder: "you@example.org",
    autocomplete: "email", "aria-label": "E-mail address for this seat" });
  const mailHelp = h("p", { class: "help", id: "notify-email-help" });
  const save = h("button", { type: "button", id: "notify-save", text: "Save", onclick: async () => {
    try {
      const r = await api("PUT", `/api/games/${gid}/notify`, { email: input.value.trim() || null }, token);
      toast(r.email ? `Saved: ${r.email} is told when your turn begins.` : "No e-mail for this seat.");
    } catch (e) { toast(/** @type {Error} */ (e).message); }
  } });
  box.append(h("p", {}, ask, " ", state),
    h("div", { class: "notify-mail" }, h("label", { for: "notify-email", text: "E-mail" }), input, save), mailHelp);
  api("GET", `/api/games/${gid}/notify`, undefined, token).then(r => {
    input.value = r.email || "";
    mailHelp.textContent = r.mail ? (d.game.pace && d.game.pace.mode === "turn"
      ? "A mail with your link to this game comes when your turn begins. Only you see this address."
      : "Mails are sent in turn-based games only; this one is live.")
      : "This server sends no e-mail (its operator has not set up a mail server).";
  }).catch(() => {});
  return box;
}

/** A browser notification when this seat's turn has come and the page is not being looked at.
 * @param {GameData | null} before @param {GameData} after */
export function tellTurn(before, after) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  const seat = after.you.seat; const g = after.game;
  if (seat === null || g.over || g.to_move !== seat) return;
  if (before && before.game.to_move === seat) return; // the turn was already this seat's
  if (document.visibilityState === "visible" && document.hasFocus()) return;
  try {
    const n = new Notification(`Your turn in ${g.title}`, { body: `${after.you.name}, it is your turn.`, tag: `conquest-${g.id}` });
    n.onclick = () => { window.focus(); n.close(); };
  } catch (e) { /* a browser that only notifies from a service worker */ }
}
