// @ts-check
// The story of a game: the narrated log, dice as dice, the battle (or conquest) window, what changed since
// you last acted, prompts that say why, confirmations of irreversible actions, and the result screen.
// Every line comes from the server, told from this seat's views; text goes in with textContent only.
import { h, color, swatch, seatOf } from "./ui.js";
export { color };

(function styles() {
  if (document.getElementById("log-css")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/log.css", id: "log-css" }));
})();

// ---- dice ---------------------------------------------------------------------------------------------
/** @type {Record<number, number[]>} */
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** One die face: pips for a d6 value, the number on any other die; a group of unrolled dice as "3×d8".
 * @param {DieRoll} d */
function dieFace(d) {
  const face = h("span", { class: "die-face", "aria-hidden": "true" });
  const kind = String(d.die || "");
  if (d.value !== undefined && d.value !== null) {
    const pips = PIPS[d.value];
    if (kind === "d6" && pips) {
      face.classList.add("pips");
      for (let i = 0; i < 9; i++) face.append(h("i", { class: pips.includes(i) ? "on" : "" }));
    } else face.textContent = String(d.value);
  } else face.textContent = (d.count && d.count > 1 ? `${d.count}×` : "") + kind;
  return face;
}

/** Dice chips: who rolled, the die (its face when the game keeps it), what was needed and what came of it.
 * @param {DieRoll[] | null | undefined} dice
 * @param {{who?: boolean}} [opts] */
export function diceChips(dice, opts) {
  const box = h("span", { class: "dice-chips" });
  let lastWho = null;
  for (const d of dice || []) {
    const label = [`${d.who}:`, d.count && d.count > 1 ? `${d.count} ${d.die}` : d.die,
      d.value !== undefined ? `rolled ${d.value}` : null, d.need ? `needing ${d.need}` : null,
      d.outcome ? `— ${d.outcome}` : null].filter(Boolean).join(" ");
    const chip = h("span", { class: "chip" + (d.hit === true ? " hit" : d.hit === false ? " miss" : ""), title: label, "aria-label": label },
      (opts && opts.who === false) || d.who === lastWho ? null : h("b", { text: d.who }),
      dieFace(d), d.need ? h("small", { text: `≥${String(d.need).replace(/\+$/, "")}` }) : null,
      d.outcome ? h("span", { class: "outcome", text: d.outcome }) : null);
    const by = typeof d.seat === "number" ? d.seat : seatOf(d.who);
    if (by !== null) { chip.style.borderLeft = `4px solid ${color(by)}`; chip.dataset.seat = String(by); }
    box.append(chip);
    lastWho = d.who;
  }
  return box;
}

// ---- the log ------------------------------------------------------------------------------------------
/** Consecutive entries of one event (a battle, a two-dice location) as one group.
 * @param {LogEntry[]} entries
 * @returns {{group: string | null, entries: LogEntry[]}[]} */
export function grouped(entries) {
  /** @type {{group: string | null, entries: LogEntry[]}[]} */
  const out = [];
  for (const e of entries) {
    const last = out[out.length - 1];
    if (e.group && last && last.group === e.group) last.entries.push(e);
    else out.push({ group: e.group || null, entries: [e] });
  }
  return out;
}

/** @param {LogEntry} e @param {(seat: SeatIndex) => string} _seatName (not read: the swatch and the story name the seat) */
function entryLine(e, _seatName) {
  const who = e.chance ? null : swatch(e.seat);
  const text = e.text || (e.hidden ? "(hidden)" : e.notation || "");
  const title = e.notation ? `${e.by}: ${e.notation}` : (e.hidden ? "the notation is hidden from you" : "");
  return h("div", { class: `line kind-${e.kind || "move"}${e.hidden ? " hidden" : ""}`, title, "data-step": e.step },
    who, h("span", { class: "say", text }), e.dice ? diceChips(e.dice) : null,
    e.battle_end ? h("strong", { class: "result-line", text: ` ${e.battle_end.result}.` }) : null);
}

/** @param {{entries: LogEntry[]}} g */
function isBattleGroup(g) { return g.entries.some(e => e.kind === "battle" || e.battle || e.battle_end); }

/** The log as a list: one item per event, its lines inside; the notation on hover; battles open a window.
 * @param {LogEntry[]} entries
 * @param {{seatName?: (seat: SeatIndex) => string}} [opts] */
export function renderLog(entries, opts) {
  const seatName = (opts && opts.seatName) || (/** @param {SeatIndex} s */ s => `seat ${s}`);
  const ol = h("ol", { class: "log story", "aria-label": "Game log" });
  for (const g of grouped(entries)) {
    const first = g.entries[0];
    const li = h("li", { class: (first.chance ? "chance " : "") + (first.hidden ? "hidden " : "") + (g.entries.length > 1 ? "grouped" : ""),
      "data-group": g.group || null, "data-kind": first.kind || null });
    for (const e of g.entries) li.append(entryLine(e, seatName));
    const group = g.group;
    if (group && isBattleGroup(g) && g.entries.length > 1)
      li.append(h("button", { type: "button", class: "link battle-open", text: windowTitle(g.entries) + " — show",
        onclick: () => openBattle(entries, group) }));
    ol.append(li);
  }
  return ol;
}

/** Since this seat last acted: the chance outcomes, grouped, as dice with who rolled and why.
 * @param {LogEntry[]} entries
 * @param {SeatIndex | null | undefined} mySeat */
export function recentDice(entries, mySeat) {
  /** @type {LogEntry[]} */
  const out = [];
  for (let i = entries.length - 1; i >= 0 && out.length < 6; i--) {
    const e = entries[i];
    if (mySeat !== null && mySeat !== undefined && e.seat === mySeat) break;
    if (e.chance && e.dice && e.dice.length) out.unshift(e);
  }
  if (!out.length) return null;
  return h("div", { class: "dice recent", "aria-label": "Dice since your last action" }, h("span", { class: "muted", text: "Dice since your last action: " }),
    out.map(e => h("div", { class: "recent-roll", title: e.text }, diceChips(e.dice))));
}

/** The headlines (a line's `news`) since this seat's last action: "Since your turn: Karkoth took Ravenrock, …".
 * @param {LogEntry[] | null | undefined} entries
 * @param {SeatIndex | null | undefined} mySeat */
export function news(entries, mySeat) {
  const since = sinceMine(entries || [], mySeat);
  const items = since.filter(e => e.news);
  // the battles that ended meanwhile, each a button that opens its window (a phone does not open it by itself)
  const ended = since.filter(e => e.battle_end && e.group).slice(-3);
  if (!items.length && !ended.length) return null;
  return h("div", { class: "news", id: "news", "aria-label": "Since your last action" },
    h("span", { class: "muted", text: mySeat === null || mySeat === undefined ? "Lately: " : "Since your turn: " }),
    h("ul", {}, items.slice(-8).map(e => { const li = h("li", { text: e.news }); if (e.tint) li.style.borderLeftColor = e.tint; return li; }),
      ended.map(e => h("li", { class: "battle-news" }, h("button", { type: "button", class: "link news-battle", "data-group": e.group,
        text: `${e.battle_end?.result} — show the battle`, onclick: () => openBattle(entries || [], e.group || "") })))));
}

// ---- the battle / conquest window ---------------------------------------------------------------------
/** @param {LogEntry[]} group */
function windowTitle(group) {
  const b = group.find(e => e.battle)?.battle;
  if (b) return `Battle in ${b.name}`;
  const first = group[0];
  if (first.group && first.group.startsWith("conquest-")) return "Conquest";
  if (first.group && first.group.startsWith("move-")) return "Move";
  return first.kind === "battle" ? "Battle" : "Event";
}

/** @param {Record<string, string> | undefined} forces @param {string | null} attacker */
function sidesTable(forces, attacker) {
  const all = forces || {}, sides = Object.keys(all);
  if (!sides.length) return h("p", { class: "muted", text: "No pieces." });
  return h("table", { class: "sides" },
    sides.map(r => h("tr", { class: r === attacker ? "attacker" : "defender" },
      h("th", { text: r + (r === attacker ? " (attacking)" : "") }), h("td", { text: all[r] }))));
}

/** The battle window: both sides at the start, each round's dice and hits, casualties, press or retreat,
 *  the result. Built from this seat's log lines of one group.
 * @param {LogEntry[]} entries
 * @param {string} group */
export function battleWindow(entries, group) {
  const lines = entries.filter(e => e.group === group);
  const start = lines.find(e => e.battle);
  const end = lines.find(e => e.battle_end);
  const body = h("div", { class: "battle-body" });
  const started = start && start.battle;
  if (started) body.append(h("h3", { text: "Forces" }), sidesTable(started.forces, started.attacker));
  /** @type {number | null} */
  let round = null;
  /** @type {HTMLUListElement | null} */
  let list = null;
  for (const e of lines) {
    if (e.battle) continue;
    if (e.round !== undefined && e.round !== round) {
      round = e.round;
      body.append(h("h3", { text: `Round ${round}` }));
      list = null;
    }
    if (!list) { list = h("ul", { class: "rounds" }); body.append(list); }
    list.append(h("li", { class: `kind-${e.kind}`, title: e.notation || "" }, h("span", { text: e.text }),
      e.dice ? diceChips(e.dice, { who: false }) : null));
  }
  const ending = end && end.battle_end;
  if (ending) {
    body.append(h("h3", { text: "Result" }), h("p", { class: "result-line", text: ending.result + "." }));
    if (ending.forces && Object.keys(ending.forces).length)
      body.append(h("h3", { text: "Left standing" }), sidesTable(ending.forces, started ? started.attacker : null));
  } else if (entries.length && entries[entries.length - 1].group === group && (start || !group.startsWith("conquest-")))
    body.append(h("p", { class: "muted", text: start ? "The battle goes on…" : "This goes on…" }));
  return { title: windowTitle(lines), body };
}

/** @type {string | null} */
let openGroup = null;
/** The battle window of a group of the log, opened (or redrawn when it is open).
 * @param {LogEntry[]} entries
 * @param {string} group */
export function openBattle(entries, group) {
  let dlg = /** @type {HTMLDialogElement | null} */ (document.getElementById("battle-window"));
  if (!dlg) {
    dlg = h("dialog", { id: "battle-window", class: "battle-window", "aria-labelledby": "battle-title" });
    document.body.append(dlg);
  }
  const { title, body } = battleWindow(entries, group);
  dlg.replaceChildren(h("div", { class: "battle-head" }, h("h2", { id: "battle-title", text: title }),
    h("button", { type: "button", class: "close", "aria-label": "Close the battle window", text: "Close",
      onclick: () => { dlg.close(); openGroup = null; } })), body);
  dlg.dataset.group = group;
  openGroup = group;
  if (!dlg.open) dlg.show();
}
export function closeWindows() {
  for (const id of ["battle-window", "result-screen", "confirm-box"]) {
    const d = /** @type {HTMLDialogElement | null} */ (document.getElementById(id)); if (d && d.open) d.close();
  }
  openGroup = null;
}

// ---- what changed since you last acted -----------------------------------------------------------------
/** The entries since this seat's last own action (all of them for a spectator: the last 12).
 * @param {LogEntry[]} entries
 * @param {SeatIndex | null | undefined} mySeat */
export function sinceMine(entries, mySeat) {
  let i = entries.length - 1;
  if (mySeat === null || mySeat === undefined) return entries.slice(-12);
  while (i >= 0 && entries[i].seat !== mySeat) i--;
  return entries.slice(i + 1);
}

/** @param {HTMLElement} root @param {LogEntry[]} entries @param {SeatIndex | null} mySeat @param {LogEntry[]} fresh */
function markBoard(root, entries, mySeat, fresh) {
  const since = sinceMine(entries, mySeat);
  /** @type {Set<string>} */
  const changed = new Set();
  /** @type {Set<string>} */
  const just = new Set();
  /** @type {Map<string, string>} */
  const tint = new Map(); // the colour of who changed it last (a line's tint), when the game gives one
  for (const e of since) for (const r of e.changed || []) { changed.add(r); if (e.tint) tint.set(r, e.tint); }
  for (const e of fresh) for (const r of e.changed || []) just.add(r);
  for (const g of /** @type {NodeListOf<SVGGElement>} */ (root.querySelectorAll("g.region[data-region]"))) {
    const id = g.dataset.region || "";
    const t = tint.get(id);
    if (changed.has(id)) { g.classList.add("changed"); if (t !== undefined) g.style.setProperty("--changed", t); }
    if (just.has(id)) g.classList.add("just");
  }
  return changed;
}

// ---- prompts that say why ------------------------------------------------------------------------------
/** When it is this seat's decision: what it answers (the last line by someone else, and whose turn it is).
 * @param {GameData} d */
export function promptWhy(d) {
  const q = d && d.board && d.board.question && d.you && d.you.seat !== null
    ? h("p", { class: "question", id: "question", text: d.board.question }) : null;
  const why = justBefore(d, !!q);
  return q && why ? h("div", {}, q, why) : (q || why);
}
/** plain: the game's question says what is asked; this line only says what came just before.
 * @param {GameData} d @param {boolean} plain */
function justBefore(d, plain) {
  if (!d || !d.log || d.you.seat === null) return null;
  const mine = d.you.seat;
  /** @type {LogEntry | null} */
  let last = null;
  for (let i = d.log.length - 1; i >= 0; i--) {
    const e = d.log[i];
    if (e.seat === mine) break;
    if (!e.chance) { last = e; break; }
  }
  const v = d.view || {};
  const turnOf = typeof v.current === "number" ? v.current : null;
  const reacting = v.node === "react" || v.node === "tribute_card" || !!v.reaction ||
    (v.battle && Array.isArray(v.battle.window) && v.battle.window.length > 0 && v.battle.attacker && v.to_move === mine && last && last.seat !== mine) ||
    (turnOf !== null && turnOf !== mine);
  if (!last) return null;
  return h("p", { class: "why", id: "why" }, swatch(last.seat),
    h("span", { text: reacting && !plain ? `${last.text}: your answer?` : `Just before: ${last.text}.` }));
}

// ---- confirmations --------------------------------------------------------------------------------------
/** Why an action cannot be taken back and deserves a second click, or null: the question the game's ruleset
 * sends with each legal action (`confirm`, from Ruleset.confirm_text). A typed action is matched by its text.
 * @param {LegalAction[] | null | undefined} legal
 * @param {string} text
 * @returns {string | null} */
export function confirmText(legal, text) {
  const a = (legal || []).find(x => x.text === String(text).trim());
  return a && a.confirm ? a.confirm : null;
}

/** A small modal that asks; resolves true or false.
 * @param {string} question
 * @returns {Promise<boolean>} */
export function ask(question) {
  return new Promise(resolve => {
    let found = /** @type {HTMLDialogElement | null} */ (document.getElementById("confirm-box"));
    if (!found) { found = h("dialog", { id: "confirm-box", class: "confirm-box" }); document.body.append(found); }
    const dlg = found;
    /** @param {boolean} v */
    const done = (v) => { dlg.close(); resolve(v); };
    const yes = h("button", { type: "button", class: "primary", id: "confirm-yes", text: "Yes, do it", onclick: () => done(true) });
    dlg.replaceChildren(h("p", { text: question }),
      h("div", { class: "bar" }, yes, h("button", { type: "button", id: "confirm-no", text: "Cancel", onclick: () => done(false) })));
    dlg.oncancel = (ev) => { ev.preventDefault(); done(false); };
    dlg.showModal();
    yes.focus();
  });
}

// ---- the result screen -------------------------------------------------------------------------------
/** The result screen: who won, the scores and their breakdown, how it ended.
 * @param {GameData} d @param {string} token */
export function resultScreen(d, token) {
  const g = d.game;
  let found = /** @type {HTMLDialogElement | null} */ (document.getElementById("result-screen"));
  if (!found) { found = h("dialog", { id: "result-screen", class: "result-screen", "aria-labelledby": "result-title" }); document.body.append(found); }
  const dlg = found;
  const seats = [...g.seats];
  const scores = g.scores, result = g.result;
  if (scores) seats.sort((a, b) => (scores[b.seat] ?? 0) - (scores[a.seat] ?? 0));
  /** @param {SeatIndex} s */
  const outcome = s => result ? (result[s] >= 1 ? "won" : result[s] > 0 ? `shared win (${result[s]})` : "lost") : "";
  const winners = result ? g.seats.filter(x => result[x.seat] > 0).map(x => x.name) : [];
  const you = d.you.seat;
  const head = you !== null && result ? (result[you] >= 1 ? "You won!" : result[you] > 0 ? "A shared win." : `${winners.join(" and ") || "Nobody"} won.`)
    : `${winners.join(" and ") || "Nobody"} won.`;
  const last = (d.log || []).slice(-3);
  dlg.replaceChildren(...[  // DOM's replaceChildren writes a null as the text "null": the parts left out are dropped
    h("h2", { id: "result-title", text: `${g.title}: the game is over. ${head}` }),
    g.variant ? h("p", { class: "variant-tag", id: "result-variant", text: `Played with a variant of the rules' data: ${g.variant}` }) : null,
    h("table", { class: "result" },
      h("tr", {}, h("th", { text: "Seat" }), h("th", { text: "Score" }), h("th", { text: "Result" })),
      seats.map(x => h("tr", { class: result && result[x.seat] > 0 ? "winner" : "" }, h("td", {}, swatch(x.seat), x.name),
        h("td", { text: scores ? String(scores[x.seat]) : "" }), h("td", { text: outcome(x.seat) })))),
    breakdown(d),
    last.length ? h("div", {}, h("h3", { text: "How it ended" }), h("ul", {}, last.map(e => h("li", { text: e.text || e.notation || "" })))) : null,
    h("div", { class: "bar" },
      h("a", { href: `/game/${g.id}/replay#t=${token}`, id: "result-replay", text: "Watch the replay" }),
      h("button", { type: "button", class: "primary", text: "Close", onclick: () => dlg.close() }))].filter(x => x !== null));
  if (!dlg.open) dlg.show();
}

/** A breakdown row's "who" with its seat's colour when it names a seat (its name, or "the Red dragon" as a
 *  panel's title says).
 * @param {GameData} d @param {string} who */
function breakdownWho(d, who) {
  const g = d.game, low = String(who).toLowerCase();
  const panels = (d.board && d.board.panels) || [];
  const seat = g.seats.find(x => x.name === who || (d.you.seat === x.seat && low === "you")) ||
    g.seats.find(x => { const p = panels.find(q => q.seat === x.seat); return p && p.title && low.includes(p.title.toLowerCase()); });
  return h("td", {}, seat ? swatch(seat.seat) : null, who);
}

/** The score breakdown the ruleset told with the last line (who, the parts, the total); else the board's notes.
 * @param {GameData} d */
function breakdown(d) {
  const fin = [...(d.log || [])].reverse().find(e => e.final);
  if (fin && fin.final) return h("div", { class: "breakdown" }, h("h3", { text: "Score breakdown" }),
    h("table", { class: "result" }, fin.final.map(r => h("tr", {}, breakdownWho(d, r.who),
      h("td", { text: r.parts.map(([k, v]) => `${k}: ${v}`).join(" · ") }),
      h("td", { text: r.total === undefined || r.total === null ? "" : `= ${r.total}` })))));
  if (d.board && d.board.notes && d.board.notes.length) return h("div", { class: "breakdown" }, h("h3", { text: "Final position" }),
    h("ul", {}, d.board.notes.map(n => h("li", { text: String(n) }))));
  return null;
}

// ---- after each render of the game page ----------------------------------------------------------------
/** What this tab has shown of a game's story: the log's length, the battle window opened, the result shown.
 * @typedef {{step: number | null, battle: string | null, over: boolean}} Seen */
/** @param {string} gid @param {string} token */
const seenKey = (gid, token) => `conquest.story.${gid}.${token}`;
/** @param {string} gid @param {string} token @returns {Seen | null} */
function seen(gid, token) { try { return JSON.parse(sessionStorage.getItem(seenKey(gid, token)) || "null"); } catch (e) { return null; } }
/** @param {string} gid @param {string} token @param {Seen} v */
function setSeen(gid, token, v) { try { sessionStorage.setItem(seenKey(gid, token), JSON.stringify(v)); } catch (e) { /* private mode */ } }

/** @type {string | null} */
let lastToken = null;
/** Marks the board, opens the window of a battle that just ended (once), shows the result screen (once).
 * @param {HTMLElement} root @param {GameData} d @param {string} token */
export function afterRender(root, d, token) {
  if (token !== lastToken) { closeWindows(); lastToken = token; }
  const g = d.game; const log = d.log || [];
  const was = seen(g.id, token) || { step: null, battle: null, over: false };
  const from = was.step;
  const fresh = from === null ? [] : log.filter(e => e.step >= from && e.seat !== d.you.seat);
  markBoard(root, log, d.you.seat, fresh);
  const ended = [...log].reverse().find(e => e.battle_end && e.group);
  if (ended && ended.group && from !== null && ended.step >= from && ended.group !== was.battle) {
    // a phone keeps its actions in view: the battle is offered under "Since your turn" (news) instead
    if (!(d.board && d.board.legible && window.innerWidth <= 600)) openBattle(log, ended.group);
    was.battle = ended.group;
  } else if (openGroup) {
    const dlg = /** @type {HTMLDialogElement | null} */ (document.getElementById("battle-window"));
    if (dlg && dlg.open) openBattle(log, openGroup);
  }
  if (g.over && !was.over) { resultScreen(d, token); was.over = true; }
  was.step = log.length;
  setSeen(g.id, token, was);
}
