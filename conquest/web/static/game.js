// @ts-check
// The game page: the board, the player panels, the action input, the log; live updates over a WebSocket;
// hot-seat hand-over (an opaque screen, and the next seat's view is fetched only once that player confirms).
import { h, app, api, toast, status, swatch, seatNamer, downloadRecord, copy, setSeatColors, setSeatWords } from "./ui.js";
import { remember, tokensOf, hashToken, absolute } from "./store.js";
import { drawBoard, fitLabels, zoomBar, legend } from "./board.js";
import { actionCard } from "./actions.js";
import { playerPanels, helpPanel, viewPanel, resultTable } from "./panels.js";
import * as LOG from "./log.js";
import { paceLine, notifyBox, tellTurn } from "./pace.js";

/** @type {Live | null} */
let live = null; // {gid, token, ws, data, selected, filter, steps, open}

export function stopLive() { if (live && live.ws) { live.closed = true; live.ws.close(); } live = null; }

/** @param {string} gid */
export async function gamePage(gid) {
  let token = hashToken();
  if (!token) { const known = tokensOf(gid); if (known.length) token = known[0].token; }
  stopLive();
  hideOverlay();
  if (!token) { app.replaceChildren(h("p", { text: "This link has no seat token (the part after #t=). Ask the game's creator for your link." })); return; }
  live = { gid, token, ws: null, data: null, selected: [], filter: "", steps: {}, open: new Set(), closed: false };
  await refresh();
  const started = /** @type {Live | null} */ (live); // (refresh() may have changed it)
  if (started && started.data) {
    const d = started.data;
    /** @type {Partial<StoredGame>} */
    const known = tokensOf(gid).find(e => e.token === token) || {};
    remember({ id: gid, token, seat: d.you.seat, name: d.you.name, title: d.game.title, created: d.game.created_at, spectator: known.spectator });
    connect();
  }
}

async function refresh() {
  // one request at a time; updates that arrive meanwhile are folded into one more request
  const me = live;
  if (!me) return;
  if (me.refreshing) { me.again = true; return; }
  me.refreshing = true;
  try { await refreshOnce(me); } finally { me.refreshing = false; }
  if (me.again && me === live) { me.again = false; await refresh(); }
}

/** @param {Live} me */
async function refreshOnce(me) {
  /** @type {GameData} */
  let fresh;
  try { fresh = await api("GET", `/api/games/${me.gid}`, undefined, me.token); }
  catch (e) { app.replaceChildren(h("p", { role: "alert", text: /** @type {Error} */ (e).message }), h("p", {}, h("a", { href: "/", text: "Back to the lobby" }))); return; }
  if (me !== live) return;
  if (me.data && JSON.stringify(fresh) === JSON.stringify(me.data) && app.querySelector(".game")) return; // nothing new
  if (me.data && fresh.game.revision < me.data.game.revision) return; // an older answer overtaken by a newer one
  const before = me.data;
  me.data = fresh;
  tellTurn(before, fresh);
  renderGame();
}

function connect() {
  const me = live;
  if (!me) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try { ws = new WebSocket(`${proto}//${location.host}/api/games/${me.gid}/ws`); } catch (e) { return poll(me); }
  me.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ token: me.token }));
  /** @param {MessageEvent} ev */
  ws.onmessage = (ev) => {
    let msg; try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "update" && me === live && me.data &&
        (msg.revision > me.data.game.revision || (msg.thinking ?? null) !== (me.data.thinking ?? null))) refresh();
  };
  ws.onclose = () => { if (!me.closed && me === live) setTimeout(() => { if (me === live) connect(); }, 2000); };
}
/** @param {Live} me */
function poll(me) { setTimeout(async () => { if (me === live) { await refresh(); poll(me); } }, 3000); }

/** Plays an action (after the question of an irreversible one); false when it is not played.
 * @param {string} text */
async function send(text) {
  const me = live;
  if (!text || !me || !me.data) return false;
  const why = LOG.confirmText(me.data.legal, text);
  if (why && !(await LOG.ask(why))) return false;
  try {
    me.data = /** @type {GameData} */ (await api("POST", `/api/games/${me.gid}/actions`, { action: text, step: me.data.game.step }, me.token));
    me.selected = []; me.filter = ""; me.pieces = null;
  } catch (e) {
    toast(`Refused: ${/** @type {Error} */ (e).message}`);
    await refresh();
    return false;
  }
  renderGame(true);
  return true;
}

/** Several actions one after the other (a move of pieces of several kinds); stops at the first refusal.
 * @param {string[]} texts */
async function sendMany(texts) {
  for (const text of texts) if (!(await send(text))) return;
}

/** @param {string} template @param {Record<string, unknown>} values */
function fillTemplate(template, values) { return template.replace(/\{(\w+)\}/g, (_, k) => String(values[k])); }

async function undo() {
  const me = live;
  if (!me || !me.data) return;
  try { me.data = /** @type {GameData} */ (await api("POST", `/api/games/${me.gid}/undo`, { count: 1, step: me.data.game.step }, me.token)); me.selected = []; }
  catch (e) { toast(`Refused: ${/** @type {Error} */ (e).message}`); await refresh(); return; }
  renderGame(true);
}

/** The turn line: whose turn it is, from this seat's side.
 * @param {GameData} d */
export function turnText(d) {
  const g = d.game;
  if (g.over) return "The game is over.";
  if (d.you.seat !== null && g.to_move === d.you.seat) return "Your turn.";
  if (g.to_move_kind === "record") return "A recorded game: it stops here.";
  // a computer seat to move is being played by the server (its turn is many decisions, the server's "thinking"
  // flag is set during each one): it is thinking for the whole of its turn
  if (g.to_move_kind && g.to_move_kind !== "human" && g.to_move_kind !== "chance" && g.to_move_kind !== "record")
    return `${g.to_move_name} (computer, ${g.to_move_kind}) is thinking…`;
  if (g.to_move === "chance") return "Rolling / drawing…";
  return `${g.to_move_name} is to move.`;
}

function hideOverlay() { const ov = /** @type {HTMLElement} */ (document.getElementById("overlay")); ov.hidden = true; ov.replaceChildren(); }

/** Hot-seat: this browser holds the token of the (other) seat to move. The previous player's view leaves the
 * page at once; the next player's view is fetched only after they confirm.
 * @param {GameData} d */
function handOver(d) {
  const g = d.game;
  if (g.over || d.you.seat === null || g.to_move === d.you.seat || typeof g.to_move !== "number") return false;
  const other = tokensOf(g.id).find(e => e.seat === g.to_move);
  if (!other) return false;
  const name = g.to_move_name;
  stopLive();
  app.replaceChildren(h("p", { class: "muted", text: `Waiting for ${name}.` }));
  status(`${g.title}: pass the device`);
  const ov = /** @type {HTMLElement} */ (document.getElementById("overlay"));
  const btn = h("button", { class: "primary", type: "button", id: "handover", text: `I am ${name}: show my game`,
    onclick: () => { hideOverlay(); location.hash = `t=${other.token}`; } });
  ov.replaceChildren(h("div", { class: "handover" }, h("div", {}, swatch(g.to_move), `${name}'s turn. Pass the device.`),
    h("p", { class: "help", text: "Nothing of the previous player's game is on the page." }), btn));
  ov.hidden = false;
  btn.focus();
  return true;
}

/** Region ids to their names. @param {Board | null | undefined} board @returns {(id: string) => string} */
function names(board) {
  /** @type {Record<string, string>} */
  const byId = {};
  const info = (board && board.regions) || {};
  for (const r of (board && board.map && board.map.regions) || []) byId[r.id] = (info[r.id] && info[r.id].name) || r.name || r.id;
  return id => byId[id] || id;
}

/** The board card: the board, its legend, banners and notes; or the text board and the view as a tree.
 * @param {GameData} d @param {BoardOptions} opts */
export function boardSection(d, opts) {
  const box = h("section", { class: "card board-card", "aria-label": "Board" });
  const board = d.board;
  if (board && board.map) {
    const svg = drawBoard(/** @type {Board & {map: BoardMap}} */ (board), opts);
    box.append(h("div", { class: "board-wrap" }, svg, zoomBar(() => svg)));
    const lg = legend(board);
    if (lg) box.append(lg);
    const banners = board.banners || [], send = opts.send;
    if (banners.length) box.append(h("div", { class: "banners-box" }, h("h3", { text: "Race and power banners (top first)" }),
      h("ol", { class: "banners" }, banners.map(b => {
        const legal = b.action && (d.legal || []).find(a => a.text === b.action);
        return h("li", { title: b.text }, h("b", { text: b.title }), b.note ? h("span", { class: "tag", text: b.note }) : null,
          legal && send ? h("button", { type: "button", class: "take", "data-action": legal.text, onclick: () => send(legal.text),
            text: "take it", title: legal.description }) : null,
          h("div", { class: "help", text: b.text }));
      }))));
    for (const n of board.notes || []) box.append(h("p", { class: "notes", text: String(n) }));
  } else {
    if (d.text_board) box.append(h("pre", { class: "textboard", text: d.text_board }));
    box.append(...viewPanel(d, true));
  }
  return box;
}

/** @param {boolean} [afterMove] */
function renderGame(afterMove) {
  const me = live;
  if (!me || !me.data) return;
  const d = me.data; const g = d.game;
  setSeatColors(d.board && d.board.colors); setSeatWords(d);
  if (handOver(d)) return;
  const seatName = seatNamer(g);
  document.title = `${g.title} — Conquest`;
  const mine = d.you.seat !== null && g.to_move === d.you.seat;
  status(`${g.title} · step ${g.step} · you are ${d.you.seat === null ? "a spectator" : d.you.name}`);

  const legal = d.legal || [];
  const sel = me.selected;
  const nm = names(d.board);
  const matching = legal.filter(a => sel.every(p => a.places.includes(p)));
  /** @type {Set<string>} */
  const places = new Set();
  for (const a of matching) for (const p of a.places) places.add(p);
  for (const p of sel) places.add(p);
  // the composer (board.compose): a space is picked, its pieces counted, then the destination is clicked
  const compose = mine && d.board && d.board.compose;
  const from = compose && sel.length === 1 && compose.counts[sel[0]] ? sel[0] : null;
  if (!from) me.pieces = null;
  else if (compose && (!me.pieces || me.pieces.from !== from)) me.pieces = { from, n: { ...compose.counts[from] } };
  /** @param {string} rid */
  const onRegion = (rid) => {
    const pieces = me.pieces;
    if (compose && pieces && rid !== pieces.from && sel.length === 1) {
      const texts = Object.entries(pieces.n).filter(([, n]) => n > 0)
        .map(([kind, n]) => fillTemplate(compose.template, { from: pieces.from, to: rid, kind, n }));
      const known = new Set(legal.map(a => a.text));
      if (texts.length && texts.every(x => known.has(x))) { sendMany(texts); return; }
      me.note = texts.length ? `Not all of these pieces can go to ${nm(rid)}: choose below.` : "";
    }
    let next = sel.includes(rid) ? sel.filter(x => x !== rid) : [...sel, rid];
    let cands = legal.filter(a => next.every(p => a.places.includes(p)));
    if (!cands.length) { next = [rid]; cands = legal.filter(a => a.places.includes(rid)); }
    const exact = cands.filter(a => a.places.length === next.length);
    if (cands.length === 1 || (exact.length === 1 && cands.length === exact.length)) { send((exact[0] || cands[0]).text); return; }
    me.selected = next; renderGame();
    const first = /** @type {HTMLButtonElement | null} */ (document.querySelector("#actions li.match button[data-action], #actions button[data-action]")); if (first) first.focus({ preventScroll: true });
  };
  const boardBox = boardSection(d, { places: mine ? places : new Set(), selected: sel, onRegion, seatName, key: `game-${g.id}`, send: mine ? send : null });

  const side = h("section", { class: "side" });
  const spectator = (tokensOf(g.id).find(e => e.spectator) || {}).spectator;
  const head = h("div", { class: "card" },
    h("div", { class: "turn" + (mine ? " mine" : "") + (/ is thinking…$/.test(turnText(d)) ? " thinking" : ""), id: "turn", tabindex: "-1",
      "aria-live": "polite", text: turnText(d) }),
    g.variant && !g.over ? h("p", { class: "help variant-tag", id: "variant", text: `Variant: ${g.variant}` }) : null,
    resultTable(g),
    paceLine(d),
    LOG.news(d.log, d.you.seat),
    LOG.recentDice(d.log, d.you.seat),
    h("div", { class: "bar" },
      h("a", { href: `/game/${g.id}/replay#t=${me.token}`, text: "Replay" }),
      h("a", { href: `/howto/${g.ruleset}`, target: "_blank", rel: "noopener", id: "howto", text: "How to play" }),
      h("a", { href: `/rules/${g.ruleset}`, target: "_blank", rel: "noopener", text: "Rules readings" }),
      spectator ? h("button", { type: "button", id: "share", onclick: () => copy(absolute(spectator)), text: "Copy watch link" }) : null,
      h("button", { type: "button", onclick: () => downloadRecord(g.id, me.token), text: "Download record" }),
      d.you.seat !== null && (d.undo || 0) > 0 ? h("button", { type: "button", id: "undo", onclick: undo, text: `Undo (${d.undo})` }) : null));
  side.append(head);
  const why = d.board && d.board.prompt ? h("p", { class: "why", id: "why", text: promptText(d) }) : LOG.promptWhy(d);
  if (mine && d.answered_for_you) side.append(h("div", { class: "card action-card", id: "action-card" }, why,
    h("p", { class: "help", id: "answered", text: "Nothing you hold answers this: the game passes for you." })));
  else if (mine) side.append(actionCard(d, me, { names: nm, send, rerender: () => renderGame(), matching, compose, why }));
  side.append(h("div", { class: "card" }, playerPanels(d, seatName)));
  if (!g.over && d.you.seat !== null) { me.notify = me.notify || notifyBox(d, me.token); if (me.notify) side.append(me.notify); }
  side.append(helpPanel(d.board, g.ruleset));
  if (d.board && d.board.map) side.append(h("details", { class: "card" }, h("summary", { text: "Details" }), ...viewPanel(d, false)));
  side.append(h("div", { class: "card" }, h("h2", { text: "Log" }), logList(d.log, seatName)));

  const focusId = document.activeElement && document.activeElement.id;
  const wasInActions = document.activeElement && document.activeElement.closest && document.activeElement.closest("#action-card, svg.board");
  app.replaceChildren(h("div", { class: "game", "data-board": (d.board && d.board.kind) || null,
    "data-layout": (d.board && d.board.layout) || null }, boardBox, side));
  for (const svg of /** @type {NodeListOf<BoardSvg>} */ (app.querySelectorAll("svg.board"))) fitLabels(svg);
  app.dataset.revision = String(g.revision);
  app.dataset.over = String(g.over);
  app.dataset.mine = String(mine && !d.answered_for_you); // a lone pass the server answers is not the seat's move
  app.dataset.ruleset = g.ruleset;
  const lg = app.querySelector(".log"); if (lg) lg.scrollTop = lg.scrollHeight;
  if (focusId === "notation") { const i = /** @type {HTMLInputElement | null} */ (document.getElementById("notation")); if (i) { i.focus(); i.setSelectionRange(i.value.length, i.value.length); } }
  else if (afterMove || wasInActions) {
    // after a move the focus goes to the turn line (it says what happens next), never to the top of the page
    const t = document.getElementById("turn"); if (t) t.focus({ preventScroll: true });
  }
  LOG.afterRender(app, d, me.token);
}

/** board.prompt {text, hits?}: the question of this decision; a casualty choice counts the roll's hits from the
 * log (the last roll of the scoring side in that battle): "{total}" -> "3 hits", "{nth}" -> "1 of 3".
 * @param {GameData} d */
export function promptText(d) {
  const p = d.board && d.board.prompt;
  if (!p) return "";
  const want = p.hits;
  if (!want) return p.text;
  const roll = [...(d.log || [])].reverse().find(e => e.group === want.group && e.side === want.side && typeof e.hits === "number");
  const total = Math.max(want.left, (roll && roll.hits) || 0);
  /** @param {number} n */
  const hits = n => `${n} hit${n === 1 ? "" : "s"}`;
  return p.text.replaceAll("{total}", hits(total)).replaceAll("{nth}", `${total - want.left + 1} of ${total}`);
}

// the log: the narrated story (log.js)
/** @param {LogEntry[]} entries @param {(seat: SeatIndex) => string} seatName */
export function logList(entries, seatName) { return LOG.renderLog(entries, { seatName }); }
