// @ts-check
// Small helpers shared by every module of the page: element builders, colours, the toast, the API.
// Every text from the server is put in the page with textContent (never as HTML).

export const COLORS = ["#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#795548", "#ad1457",
  "#9e9d24", "#37474f"];
export const SVGNS = "http://www.w3.org/2000/svg";
export const app = /** @type {HTMLElement} */ (document.getElementById("app"));

/**
 * An HTML element: attributes (`on…` listeners, `text` its text), then its children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Kid[]} kids
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === "text") el.textContent = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of /** @type {unknown[]} */ (kids).flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
/**
 * An SVG element: attributes (`on…` listeners), then its children.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Kid[]} kids
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else el.setAttribute(k, String(v));
  }
  for (const kid of /** @type {unknown[]} */ (kids).flat(Infinity)) if (kid !== null && kid !== undefined && kid !== false) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return el;
}
// The game's own colours (board.colors: Narby's dragons, Nerath's realms), set by the game and replay pages
// before they draw; every seat named on the page (board, panels, log, dice, prompts, hand-over, result) takes
// its colour from here, the default palette only where the game has none.
/** @type {string[] | null} */
let seatColors = null;
/** @param {string[] | null | undefined} colors */
export function setSeatColors(colors) { seatColors = Array.isArray(colors) && colors.length ? colors.slice() : null; }
// The words a seat is named by in the story (its name, "You" for this seat, its panel's title such as "Gold
// dragon" or a race), set with the colours: a die rolled by "The Gold dragon" is drawn in that seat's colour.
/** @type {[SeatIndex, string[]][]} */
let seatWords = [];
/** @param {GameData | null | undefined} d */
export function setSeatWords(d) {
  seatWords = [];
  if (!d || !d.game) return;
  const panels = (d.board && d.board.panels) || [];
  for (const x of d.game.seats) {
    const p = panels.find(q => q.seat === x.seat);
    const words = [x.name.toLowerCase()];
    if (d.you && d.you.seat === x.seat) words.push("you");
    if (p && p.title) words.push(p.title.toLowerCase());
    seatWords.push([x.seat, words]);
  }
}
/** The seat a piece of story text names at its start ("The Gold dragon", "Ann's Ratmen", "You"), or null.
 * @param {unknown} text
 * @returns {SeatIndex | null} */
export function seatOf(text) {
  const t = String(text || "").toLowerCase().replace(/^the /, "");
  for (const [seat, words] of seatWords) if (words.some(w => w && (t === w || t.startsWith(w + "'") || t.startsWith(w + " ") || t.startsWith(w + ":")))) return seat;
  return null;
}
/** A seat's colour (grey for no seat, chance or a bad value).
 * @param {unknown} seat
 * @returns {string} */
export function color(seat) {
  if (seat === null || seat === undefined || typeof seat !== "number" || seat < 0) return "#888";
  return (seatColors && seatColors[seat]) || COLORS[seat % COLORS.length];
}
/** @param {unknown} seat */
export function swatch(seat) { const el = h("span", { class: "swatch" }); el.style.background = color(seat); return el; }
/** "max_rounds" -> "Max rounds"
 * @param {unknown} name */
export function label(name) { const t = String(name).replace(/[_-]+/g, " "); return t.charAt(0).toUpperCase() + t.slice(1); }

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
/** @param {string} msg */
export function toast(msg) {
  const t = /** @type {HTMLElement} */ (document.getElementById("toast"));
  t.textContent = msg; t.hidden = false;
  clearTimeout(toastTimer); toastTimer = setTimeout(() => { t.hidden = true; }, 6000);
}
/** @param {string} [msg] */
export function status(msg) { /** @type {HTMLElement} */ (document.getElementById("status")).textContent = msg || ""; }

export class Refused extends Error {}
// the session's CSRF token (accounts.js), sent with every write: the session cookie alone writes nothing
/** @type {string | null} */
let csrf = null;
/** @param {string | null | undefined} t */
export function setCsrf(t) { csrf = t || null; }
/**
 * A call of the server's API: its JSON answer, or Refused with the server's one-line reason.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<any>} the answer's JSON (its shape is the endpoint's: the caller names it)
 */
export async function api(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Conquest-Token"] = token;
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) { throw new Refused("the server cannot be reached"); }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) throw new Refused((data && data.error) || `the server answered ${resp.status}`);
  return data;
}

/** @param {string} text */
export async function copy(text) {
  try { await navigator.clipboard.writeText(text); toast("Link copied"); } catch (e) { window.prompt("Copy this link", text); }
}

/** @param {string} gid @param {string} token */
export async function downloadRecord(gid, token) {
  let resp;
  try { resp = await fetch(`/api/games/${gid}/record`, { headers: { "X-Conquest-Token": token } }); }
  catch (e) { toast("the server cannot be reached"); return; }
  if (!resp.ok) { let d = null; try { d = await resp.json(); } catch (e) { /* */ } toast((d && d.error) || `refused (${resp.status})`); return; }
  const blob = await resp.blob();
  const a = h("a", { href: URL.createObjectURL(blob), download: `conquest-${gid}.json` });
  document.body.append(a); a.click(); a.remove();
}

/** @param {GameInfo} game @returns {(seat: SeatIndex | null | undefined) => string} */
export function seatNamer(game) { return seat => { const x = game.seats.find(q => q.seat === seat); return x ? x.name : "chance"; }; }
