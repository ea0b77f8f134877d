// Conquest web page: lobby, game and replay. Plain JavaScript served by the app (nothing from the internet).
// Every text from the server is put in the page with textContent (never as HTML).
"use strict";

const COLORS = ["#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#795548", "#ad1457"];
const KIND_FILL = { land: "#efe6cf", sea: "#b9d3e6", lake: "#cfe3ef", water: "#b9d3e6", mountain: "#d8cbb5",
  forest: "#cfe0bf", cave: "#d9d0c7", settlement: "#f1d9b5", empty: "#f4efe4", castle: "#e8d7b0",
  hill: "#e3d6b8", swamp: "#c9d3b4", farmland: "#efe3a8" };
const SVGNS = "http://www.w3.org/2000/svg";
const app = document.getElementById("app");

// ---- small helpers ------------------------------------------------------------------------------------
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const kid of kids.flat()) if (kid) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return el;
}
function color(seat) { return seat === null || seat === undefined || seat < 0 ? "#888" : COLORS[seat % COLORS.length]; }
function swatch(seat) { const el = h("span", { class: "swatch" }); el.style.background = color(seat); return el; }

let toastTimer = null;
function toast(msg) {
  const t = document.getElementById("toast");
  t.textContent = msg; t.hidden = false;
  clearTimeout(toastTimer); toastTimer = setTimeout(() => { t.hidden = true; }, 6000);
}
function status(msg) { document.getElementById("status").textContent = msg || ""; }

class Refused extends Error {}
async function api(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Conquest-Token"] = token;
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) { throw new Refused("the server cannot be reached"); }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) throw new Refused((data && data.error) || `the server answered ${resp.status}`);
  return data;
}

// ---- remembered games (this browser's links) ------------------------------------------------------------
const STORE_KEY = "conquest.games";
function remembered() { try { return JSON.parse(localStorage.getItem(STORE_KEY) || "[]"); } catch (e) { return []; } }
function remember(entry) {
  const all = remembered().filter(e => !(e.id === entry.id && e.token === entry.token));
  all.unshift(entry); localStorage.setItem(STORE_KEY, JSON.stringify(all.slice(0, 200)));
}
function forget(id) { localStorage.setItem(STORE_KEY, JSON.stringify(remembered().filter(e => e.id !== id))); }
function tokensOf(id) { return remembered().filter(e => e.id === id); }
function hashToken() { const m = location.hash.match(/[#&]t=([A-Za-z0-9_-]+)/); return m ? m[1] : null; }
function absolute(link) { return location.origin + link; }

// ---- router -----------------------------------------------------------------------------------------------
function route() {
  const p = location.pathname;
  let m;
  if ((m = p.match(/^\/game\/([A-Za-z0-9_-]+)\/replay$/))) return replayPage(m[1]);
  if ((m = p.match(/^\/game\/([A-Za-z0-9_-]+)$/))) return gamePage(m[1]);
  return lobby();
}
window.addEventListener("hashchange", () => { if (location.pathname.startsWith("/game/")) route(); });

// ---- lobby ------------------------------------------------------------------------------------------------
async function lobby() {
  status("");
  document.title = "Conquest";
  app.replaceChildren(h("div", { class: "cols" },
    h("section", { class: "card lobby-new", "aria-labelledby": "newgame" }, h("h2", { id: "newgame", text: "New game" }),
      h("div", { id: "newform", text: "Loading the rulesets…" })),
    h("section", { class: "card lobby-mine", "aria-labelledby": "mine" }, h("h2", { id: "mine", text: "Your games" }),
      h("div", { id: "mylist" }),
      h("h2", { text: "Replay a record" }),
      h("p", { class: "help", text: "A record file (conquest-record/1, from “Download record” or conquest play) is shown step by step." }),
      h("input", { type: "file", id: "record-file", accept: ".json,application/json", "aria-label": "Record file", onchange: importRecord }))));
  listMine();
  let data;
  try { data = await api("GET", "/api/rulesets"); } catch (e) { toast(e.message); return; }
  newGameForm(data);
}

function newGameForm(data) {
  const box = document.getElementById("newform");
  const rulesets = data.rulesets;
  if (!rulesets.length) { box.textContent = "No ruleset is installed."; return; }
  const rsSel = h("select", { id: "ruleset", name: "ruleset" },
    rulesets.map(r => h("option", { value: r.id, text: `${r.title} (${r.id})` })));
  const summary = h("p", { class: "help", id: "rs-summary" });
  const playersSel = h("select", { id: "players", name: "players" });
  const optsBox = h("div", { id: "options" });
  const seatsBox = h("table", { class: "seats", id: "seats" });
  const result = h("div", { id: "created" });
  const form = h("form", { id: "create" },
    h("label", { for: "ruleset", text: "Game" }), rsSel, summary,
    h("label", { for: "players", text: "Players" }), playersSel,
    h("fieldset", {}, h("legend", { text: "Options" }), optsBox),
    h("fieldset", {}, h("legend", { text: "Seats" }), seatsBox),
    h("p", {}, h("button", { type: "submit", class: "primary", id: "create-btn", text: "Create the game" })),
    result);
  box.replaceChildren(form);

  const current = () => rulesets.find(r => r.id === rsSel.value);
  function fillPlayers() {
    const r = current();
    playersSel.replaceChildren();
    for (let n = r.min_players; n <= r.max_players; n++) playersSel.append(h("option", { value: n, text: n, selected: n === r.default_players }));
    summary.textContent = r.summary || "";
    optsBox.replaceChildren();
    if (!r.options.length) optsBox.append(h("p", { class: "help", text: "This game has no options." }));
    for (const o of r.options) {
      const id = "opt-" + o.name;
      let input;
      if (o.type === "bool") input = h("input", { type: "checkbox", id, "data-opt": o.name, "data-type": "bool", checked: !!o.default });
      else if (o.choices) input = h("select", { id, "data-opt": o.name, "data-type": o.type },
        o.choices.map(c => h("option", { value: c, text: c, selected: c === o.default })));
      else input = h("input", { type: o.type === "int" ? "number" : "text", id, "data-opt": o.name, "data-type": o.type,
        value: o.default, min: o.minimum, max: o.maximum });
      optsBox.append(h("label", { for: id, text: o.name }), input, h("p", { class: "help", text: `${o.help} (default: ${o.default})` }));
    }
    fillSeats();
  }
  function fillSeats() {
    const r = current(); const n = Number(playersSel.value);
    const names = (r.seat_names && r.seat_names[String(n)]) || [];
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      const kindSel = h("select", { id: `seat-${i}-kind`, "aria-label": `Seat ${i + 1} is played by` },
        data.seat_kinds.map(k => h("option", { value: k, text: k === "human" ? "a person" : `computer (${k})`,
          selected: i === 0 ? k === "human" : k === "greedy" })));
      const name = h("input", { type: "text", id: `seat-${i}-name`, maxlength: 40, placeholder: names[i] || `Player ${i + 1}`,
        "aria-label": `Seat ${i + 1} name` });
      seatsBox.append(h("tr", {}, h("td", {}, swatch(i)), h("td", {}, name), h("td", {}, kindSel)));
    }
  }
  rsSel.addEventListener("change", fillPlayers);
  playersSel.addEventListener("change", fillSeats);
  fillPlayers();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = current(); const n = Number(playersSel.value);
    const options = {};
    for (const el of optsBox.querySelectorAll("[data-opt]")) {
      const t = el.dataset.type;
      options[el.dataset.opt] = t === "bool" ? el.checked : t === "int" ? Number(el.value) : el.value;
    }
    const seats = [];
    for (let i = 0; i < n; i++) seats.push({ kind: document.getElementById(`seat-${i}-kind`).value,
      name: document.getElementById(`seat-${i}-name`).value || null });
    const btn = document.getElementById("create-btn"); btn.disabled = true;
    let made;
    try { made = await api("POST", "/api/games", { ruleset: r.id, players: n, options, seats }); }
    catch (e) { toast(e.message); btn.disabled = false; return; }
    btn.disabled = false;
    const g = made.game;
    const humans = made.seats.filter(x => x.token);
    for (const x of humans) remember({ id: g.id, token: x.token, seat: x.seat, name: x.name, title: g.title, created: g.created_at });
    if (!humans.length) remember({ id: g.id, token: made.spectator.token, seat: null, name: "spectator", title: g.title, created: g.created_at });
    if (humans.length === 1) { location.assign(humans[0].link); return; }
    result.replaceChildren(h("h3", { text: "Game created: send each player their link" }),
      h("ul", { class: "links" },
        humans.map(x => h("li", {}, swatch(x.seat), `${x.name}: `, h("a", { href: x.link, text: "play" }), " ",
          h("button", { type: "button", onclick: () => copy(absolute(x.link)), text: "copy link" }), " ",
          h("code", { text: absolute(x.link) }))),
        h("li", {}, "Spectators: ", h("a", { href: made.spectator.link, text: "watch" }), " ",
          h("button", { type: "button", onclick: () => copy(absolute(made.spectator.link)), text: "copy link" }))),
      humans.length > 1 ? h("p", { class: "help", text: "Playing hot-seat on this computer? Open any seat: the page follows the turn and hides each player's secrets until they take the device." }) : null);
    listMine();
  });
}

async function importRecord(ev) {
  const file = ev.target.files && ev.target.files[0];
  if (!file) return;
  let record;
  try { record = JSON.parse(await file.text()); } catch (e) { toast("This file is not JSON."); return; }
  let made;
  try { made = await api("POST", "/api/records", { record }); } catch (e) { toast(e.message); return; }
  remember({ id: made.game.id, token: made.spectator.token, seat: null, name: "spectator", title: made.game.title, created: made.game.created_at });
  location.assign(made.spectator.replay);
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); toast("Link copied"); } catch (e) { window.prompt("Copy this link", text); }
}

async function listMine() {
  const box = document.getElementById("mylist");
  if (!box) return;
  const mine = remembered();
  if (!mine.length) { box.replaceChildren(h("p", { class: "help", text: "Games you create or join in this browser appear here." })); return; }
  let data;
  try { data = await api("POST", "/api/my-games", { games: mine.map(e => ({ id: e.id, token: e.token })) }); }
  catch (e) { box.textContent = e.message; return; }
  const ul = h("ul", { class: "links" });
  data.games.forEach((g, i) => {
    const e = mine[i];
    if (g.error) { ul.append(h("li", { class: "muted" }, `${e.title || e.id}: ${g.error} `, h("button", { type: "button", onclick: () => { forget(e.id); listMine(); }, text: "forget" }))); return; }
    const state = g.over ? "over" : (g.to_move === e.seat ? "your turn" : `${g.to_move_name} to move`);
    ul.append(h("li", {}, swatch(e.seat), h("a", { href: `/game/${g.id}#t=${e.token}`, text: `${g.title}` }),
      ` as ${g.you.name}: step ${g.step}, ${state} `,
      h("button", { type: "button", onclick: () => { forget(e.id); listMine(); }, text: "forget", "aria-label": `forget ${g.title} ${g.id}` })));
  });
  box.replaceChildren(ul);
}

// ---- the board --------------------------------------------------------------------------------------------
function drawBoard(board, opts) {
  const m = board.map;
  const vb = m.viewbox || [0, 0, 100, 100];
  const drawn = (m.regions || []).filter(r => r.polygon).length || 1;
  const unit = Math.sqrt(vb[2] * vb[3] / drawn) / 22; // text and pieces scale with a typical region
  const svg = s("svg", { class: "board", viewBox: vb.join(" "), role: "group", "aria-label": `Board: ${m.name || m.id}` });
  const places = opts.places || new Set();
  const selected = opts.selected || [];
  const info = board.regions || {};
  for (const r of m.regions || []) {
    if (!r.polygon) continue;
    const st = info[r.id] || {};
    const g = s("g", { class: "region" + (places.has(r.id) ? " can" : "") + (selected.includes(r.id) ? " sel" : ""),
      "data-region": r.id });
    const d = "M" + r.polygon.map(p => `${p[0]},${p[1]}`).join("L") + "Z";
    const fill = st.fill || (st.owner !== null && st.owner !== undefined ? color(st.owner) : (KIND_FILL[r.kind] || "#eee"));
    const path = s("path", { d, fill, "fill-opacity": st.owner !== null && st.owner !== undefined ? 0.35 : 1 });
    g.append(path);
    const title = [r.name || r.id];
    if (st.label) title.push(st.label);
    for (const p of st.pieces || []) title.push(`${p.count ?? 1} ${p.kind || "piece"}${p.seat !== undefined && p.seat !== null ? " of " + (opts.seatName(p.seat)) : ""}`);
    for (const mk of st.markers || []) title.push(String(mk));
    g.append(s("title", {}, title.join(", ")));
    const [cx, cy] = r.center || r.polygon[0];
    g.append(s("text", { x: cx, y: cy - 2.2 * unit, "text-anchor": "middle", "font-size": 2.6 * unit, fill: "#3b2a14" }, r.name || r.id));
    let px = cx - ((st.pieces || []).length - 1) * 2.6 * unit;
    for (const p of st.pieces || []) {
      g.append(s("circle", { cx: px, cy: cy + 1.6 * unit, r: 2.2 * unit, fill: color(p.seat), stroke: "#fff", "stroke-width": 0.3 * unit }));
      g.append(s("text", { x: px, y: cy + 2.5 * unit, "text-anchor": "middle", "font-size": 2.4 * unit, fill: "#fff", "font-weight": "bold" },
        p.label !== undefined ? p.label : (p.count ?? "")));
      px += 5.2 * unit;
    }
    const marks = (st.markers || []).map(String);
    if (st.label) marks.unshift(String(st.label));
    if (marks.length) g.append(s("text", { x: cx, y: cy + 6.2 * unit, "text-anchor": "middle", "font-size": 2.1 * unit, fill: "#3b2a14" }, marks.join(" · ")));
    if (places.has(r.id)) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `${r.name || r.id}: choose`);
      g.addEventListener("click", () => opts.onRegion(r.id));
      g.addEventListener("keydown", ev => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); opts.onRegion(r.id); } });
    }
    svg.append(g);
  }
  return svg;
}

function scalar(v) { return v === null || typeof v !== "object" || (Array.isArray(v) && v.every(x => x === null || typeof x !== "object")); }
function cell(v) {
  if (v === null || v === undefined) return "–";
  if (Array.isArray(v)) return v.map(x => x === null ? "?" : String(x)).join(", ");
  return String(v);
}
function table(rows) {
  // rows: [[label, object]] whose objects hold only scalars (or lists of scalars): one line each
  const cols = [];
  for (const [, o] of rows) for (const k of Object.keys(o)) if (!cols.includes(k)) cols.push(k);
  return h("table", { class: "viewtable" },
    h("tr", {}, h("th", { text: "" }), cols.map(c => h("th", { text: c }))),
    rows.map(([label, o]) => h("tr", {}, h("th", { text: label }), cols.map(c => h("td", { text: cell(o[c]) })))));
}
function tree(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "muted", text: value === null ? "hidden / none" : "—" });
  const flatObjects = xs => xs.length > 1 && xs.every(v => v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every(scalar));
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted", text: "(empty)" });
    if (value.every(v => v === null || typeof v !== "object")) return h("span", { text: value.map(v => v === null ? "?" : String(v)).join(", ") });
    if (flatObjects(value)) return table(value.map((v, i) => [String(i), v]));
    return h("ol", { start: 0 }, value.map(v => h("li", {}, tree(v, depth + 1))));
  }
  if (typeof value === "object" && flatObjects(Object.values(value))) return table(Object.entries(value));
  if (typeof value === "object" && Object.keys(value).length > 6 && Object.values(value).every(scalar))
    return h("div", { class: "kvs" }, Object.entries(value).map(([k, v]) => h("span", { class: "kv" }, h("b", { text: k }), " ", cell(v))));
  if (typeof value === "object") {
    const dl = h("dl");
    for (const [k, v] of Object.entries(value)) dl.append(h("dt", { text: k }), h("dd", {}, tree(v, depth + 1)));
    return dl;
  }
  return h("span", { text: String(value) });
}

function viewPanel(data, open) {
  const hide = new Set(["format", "ruleset", "rules_version"]);
  const view = Object.fromEntries(Object.entries(data.view || {}).filter(([k]) => !hide.has(k)));
  const parts = [];
  if (data.board && data.board.private) parts.push(h("h3", { text: "Your private information" }), h("div", { class: "tree" }, tree(data.board.private)));
  parts.push(h("details", { open: open && !data.text_board },
    h("summary", { text: data.you && data.you.seat !== null ? "Everything you can see" : "Everything a spectator can see" }),
    h("div", { class: "tree", id: "view-tree" }, tree(view))));
  return parts;
}

function logList(entries, seatName) {
  const ol = h("ol", { class: "log", start: 1, "aria-label": "Game log" });
  for (const e of entries) {
    const who = e.chance ? "chance" : seatName(e.seat);
    ol.append(h("li", { class: (e.chance ? "chance " : "") + (e.hidden ? "hidden" : "") },
      e.chance ? null : swatch(e.seat), `${who}: `, e.hidden ? "(hidden)" : h("code", { text: e.text })));
  }
  return ol;
}

function resultTable(g) {
  if (!g.over) return null;
  return h("table", { class: "result" },
    h("tr", {}, h("th", { text: "Seat" }), h("th", { text: "Score" }), h("th", { text: "Result" })),
    g.seats.map(x => h("tr", {}, h("td", {}, swatch(x.seat), x.name),
      h("td", { text: g.scores ? g.scores[x.seat] : "" }),
      h("td", { text: g.result ? (g.result[x.seat] >= 1 ? "won" : g.result[x.seat] > 0 ? `shared win (${g.result[x.seat]})` : "lost") : "" }))));
}

// ---- the game page ----------------------------------------------------------------------------------------
let live = null; // {gid, token, ws, data, selected}

async function gamePage(gid) {
  let token = hashToken();
  if (!token) { const known = tokensOf(gid); if (known.length) token = known[0].token; }
  if (live && live.ws) { live.closed = true; live.ws.close(); }
  if (!token) { app.replaceChildren(h("p", { text: "This link has no seat token (the part after #t=). Ask the game's creator for your link." })); return; }
  live = { gid, token, ws: null, data: null, selected: [], filter: "", closed: false, lastSeat: undefined };
  await refresh();
  if (live && live.data) {
    const d = live.data;
    remember({ id: gid, token, seat: d.you.seat, name: d.you.name, title: d.game.title, created: d.game.created_at });
    connect();
  }
}

function seatNamer(game) { return seat => { const x = game.seats.find(q => q.seat === seat); return x ? x.name : "chance"; }; }

async function refresh() {
  // one request at a time; updates that arrive meanwhile are folded into one more request
  const me = live;
  if (!me) return;
  if (me.refreshing) { me.again = true; return; }
  me.refreshing = true;
  try { await refreshOnce(me); } finally { me.refreshing = false; }
  if (me.again && me === live) { me.again = false; await refresh(); }
}

async function refreshOnce(me) {
  let fresh;
  try { fresh = await api("GET", `/api/games/${me.gid}`, undefined, me.token); }
  catch (e) { app.replaceChildren(h("p", { role: "alert", text: e.message }), h("p", {}, h("a", { href: "/", text: "Back to the lobby" }))); return; }
  if (me !== live) return;
  if (me.data && JSON.stringify(fresh) === JSON.stringify(me.data) && app.querySelector(".game")) return; // nothing new
  if (me.data && fresh.game.revision < me.data.game.revision) return; // an older answer overtaken by a newer one
  me.data = fresh;
  renderGame();
}

function connect() {
  const me = live;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try { ws = new WebSocket(`${proto}//${location.host}/api/games/${me.gid}/ws`); } catch (e) { return poll(me); }
  me.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ token: me.token }));
  ws.onmessage = (ev) => {
    let msg; try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "update" && me === live && me.data &&
        (msg.revision > me.data.game.revision || (msg.thinking ?? null) !== (me.data.thinking ?? null))) refresh();
  };
  ws.onclose = () => { if (!me.closed && me === live) setTimeout(() => { if (me === live) connect(); }, 2000); };
}
function poll(me) { setTimeout(async () => { if (me === live) { await refresh(); poll(me); } }, 3000); }

async function send(text) {
  const me = live;
  if (!text) return;
  try {
    me.data = await api("POST", `/api/games/${me.gid}/actions`, { action: text, step: me.data.game.step }, me.token);
    me.selected = []; me.filter = "";
  } catch (e) {
    toast(`Refused: ${e.message}`);
    await refresh();
    return;
  }
  renderGame();
}

async function undo() {
  const me = live;
  try { me.data = await api("POST", `/api/games/${me.gid}/undo`, { count: 1, step: me.data.game.step }, me.token); me.selected = []; }
  catch (e) { toast(`Refused: ${e.message}`); await refresh(); return; }
  renderGame();
}

async function downloadRecord(gid, token) {
  let resp;
  try { resp = await fetch(`/api/games/${gid}/record`, { headers: { "X-Conquest-Token": token } }); }
  catch (e) { toast("the server cannot be reached"); return; }
  if (!resp.ok) { let d = null; try { d = await resp.json(); } catch (e) { /* */ } toast((d && d.error) || `refused (${resp.status})`); return; }
  const blob = await resp.blob();
  const a = h("a", { href: URL.createObjectURL(blob), download: `conquest-${gid}.json` });
  document.body.append(a); a.click(); a.remove();
}

function turnText(d) {
  const g = d.game;
  if (g.over) return "The game is over.";
  if (d.you.seat !== null && g.to_move === d.you.seat) return "Your turn.";
  if (g.to_move_kind === "record") return "A recorded game: it stops here.";
  if (g.to_move_kind && g.to_move_kind !== "human" && g.to_move_kind !== "chance")
    return `${g.to_move_name} (computer, ${g.to_move_kind}) is ${d.thinking === g.to_move ? "thinking…" : "to move."}`;
  if (g.to_move === "chance") return "Rolling / drawing…";
  return `${g.to_move_name} is to move.`;
}

function hotSeatCheck(d) {
  // hot-seat: this browser holds the token of the seat to move; offer to hand the device over
  const ov = document.getElementById("overlay");
  const g = d.game;
  if (g.over || d.you.seat === null || g.to_move === d.you.seat || typeof g.to_move !== "number") { ov.hidden = true; return; }
  const other = tokensOf(g.id).find(e => e.seat === g.to_move);
  if (!other) { ov.hidden = true; return; }
  const btn = h("button", { class: "primary", type: "button", text: `I am ${g.to_move_name}: show my game`,
    onclick: () => { ov.hidden = true; location.hash = `t=${other.token}`; } });
  ov.replaceChildren(h("div", {}, swatch(g.to_move), `${g.to_move_name}'s turn. Pass the device.`), btn);
  ov.hidden = false;
  btn.focus();
}

function renderGame() {
  const me = live; const d = me.data; const g = d.game;
  const seatName = seatNamer(g);
  document.title = `${g.title} — Conquest`;
  const mine = d.you.seat !== null && g.to_move === d.you.seat;
  status(`${g.title} · step ${g.step} · you are ${d.you.seat === null ? "a spectator" : d.you.name}`);

  // board and clickable places
  const legal = d.legal || [];
  const sel = me.selected;
  const matching = legal.filter(a => sel.every(p => a.places.includes(p)));
  const places = new Set();
  for (const a of matching) for (const p of a.places) places.add(p);
  for (const p of sel) places.add(p);
  const onRegion = (rid) => {
    let next = sel.includes(rid) ? sel.filter(x => x !== rid) : [...sel, rid];
    let cands = legal.filter(a => next.every(p => a.places.includes(p)));
    if (!cands.length) { next = [rid]; cands = legal.filter(a => a.places.includes(rid)); }
    const exact = cands.filter(a => a.places.length === next.length);
    if (cands.length === 1 || (exact.length === 1 && cands.length === exact.length)) { send((exact[0] || cands[0]).text); return; }
    me.selected = next; renderGame();
    const first = document.querySelector(".actions li.match button"); if (first) first.focus();
  };
  const boardBox = h("section", { class: "card", "aria-label": "Board" });
  if (d.board && d.board.map) {
    boardBox.append(drawBoard(d.board, { places: mine ? places : new Set(), selected: sel, onRegion, seatName }));
    for (const n of d.board.notes || []) boardBox.append(h("p", { class: "notes", text: String(n) }));
  } else {
    if (d.text_board) boardBox.append(h("pre", { class: "textboard", text: d.text_board }));
    boardBox.append(...viewPanel(d, true));
  }

  // actions
  const side = h("section", { class: "side" });
  const head = h("div", { class: "card" },
    h("div", { class: "turn" + (mine ? " mine" : ""), id: "turn", text: turnText(d) }),
    h("div", { class: "bar" },
      h("span", {}, "Seats: ", g.seats.map(x => h("span", {}, swatch(x.seat), `${x.name}${x.kind !== "human" ? " (" + x.kind + ")" : ""}  `)))),
    resultTable(g),
    d.last_chance && d.last_chance.length ? h("div", { class: "dice", "aria-label": "Last dice and draws" }, "Last chance: ",
      d.last_chance.map(t => h("span", { text: t }))) : null,
    h("div", { class: "bar" },
      h("a", { href: `/game/${g.id}/replay#t=${me.token}`, text: "Replay" }),
      h("button", { type: "button", onclick: () => downloadRecord(g.id, me.token), text: "Download record" }),
      d.you.seat !== null && d.undo > 0 ? h("button", { type: "button", id: "undo", onclick: undo, text: `Undo (${d.undo})` }) : null));
  side.append(head);

  if (mine) {
    const input = h("input", { type: "text", id: "notation", placeholder: "filter, or type an action and press Enter",
      "aria-label": "Action in notation", value: me.filter, autocomplete: "off" });
    const list = h("ul", { class: "actions", id: "actions", "aria-label": "Legal actions" });
    const fill = () => {
      const f = input.value.trim().toLowerCase();
      list.replaceChildren();
      const ordered = sel.length ? [...matching, ...legal.filter(a => !matching.includes(a))] : legal;
      for (const a of ordered) {
        if (f && !a.text.toLowerCase().includes(f) && !a.description.toLowerCase().includes(f)) continue;
        const isMatch = sel.length && matching.includes(a);
        const li = h("li", { class: isMatch ? "match" : "" },
          h("button", { type: "button", "data-action": a.text, onclick: () => send(a.text) }, a.description,
            a.description !== a.text ? h("code", { text: a.text }) : null));
        if (window.conquestOdds) window.conquestOdds.decorateAction(li, a, { gid: me.gid, token: me.token, step: g.step }); // odds.js
        list.append(li);
      }
    };
    input.addEventListener("input", () => { me.filter = input.value; fill(); });
    input.addEventListener("keydown", ev => {
      if (ev.key === "Enter") { ev.preventDefault(); send(input.value.trim()); }
      if (ev.key === "Escape") { me.selected = []; input.value = ""; me.filter = ""; renderGame(); }
    });
    fill();
    side.append(h("div", { class: "card" }, h("h2", { text: "Your actions" }),
      sel.length ? h("p", { class: "help" }, `Chosen on the board: ${sel.join(", ")} `,
        h("button", { type: "button", onclick: () => { me.selected = []; renderGame(); }, text: "clear" })) : null,
      input, list, d.legal_truncated ? h("p", { class: "help", text: "Only the first actions are listed; type any other in notation." }) : null));
  }

  if (d.board && d.board.map) side.append(h("div", { class: "card" }, ...viewPanel(d, false)));
  side.append(h("div", { class: "card" }, h("h2", { text: "Log" }), logList(d.log, seatName)));

  const focusId = document.activeElement && document.activeElement.id;
  app.replaceChildren(h("div", { class: "game" }, boardBox, side));
  app.dataset.revision = String(g.revision);
  app.dataset.over = String(g.over);
  app.dataset.mine = String(mine);
  const lg = app.querySelector(".log"); if (lg) lg.scrollTop = lg.scrollHeight;
  if (focusId === "notation") { const i = document.getElementById("notation"); if (i) { i.focus(); i.setSelectionRange(i.value.length, i.value.length); } }
  hotSeatCheck(d);
}

// ---- replay -----------------------------------------------------------------------------------------------
async function replayPage(gid) {
  const token = hashToken() || (tokensOf(gid)[0] || {}).token;
  if (live && live.ws) { live.closed = true; live.ws.close(); }
  live = null;
  if (!token) { app.replaceChildren(h("p", { text: "This replay link has no token." })); return; }
  let step = 0, total = 0;
  async function show(k) {
    let d;
    try { d = await api("GET", `/api/games/${gid}/replay?step=${k}`, undefined, token); } catch (e) { toast(e.message); return; }
    step = d.step; total = d.total;
    const g = d.game; const seatName = seatNamer(g);
    status(`Replay of ${g.title}: step ${step} of ${total}`);
    const slider = h("input", { type: "range", min: 0, max: total, value: step, id: "replay-step", "aria-label": "Step" });
    slider.addEventListener("change", () => show(Number(slider.value)));
    const ctl = h("div", { class: "bar" },
      h("button", { type: "button", onclick: () => show(0), text: "|◀", "aria-label": "first step" }),
      h("button", { type: "button", id: "prev", onclick: () => show(Math.max(0, step - 1)), text: "◀", "aria-label": "previous step" }),
      h("span", { id: "replay-pos", text: `step ${step} / ${total}` }),
      h("button", { type: "button", id: "next", onclick: () => show(Math.min(total, step + 1)), text: "▶", "aria-label": "next step" }),
      h("button", { type: "button", onclick: () => show(total), text: "▶|", "aria-label": "last step" }),
      slider,
      h("a", { href: `/game/${gid}#t=${token}`, text: "Back to the game" }),
      h("button", { type: "button", onclick: () => downloadRecord(gid, token), text: "Download record" }));
    const boardBox = h("section", { class: "card" });
    const tm = d.to_move === null ? "game over" : d.to_move === "chance" ? "chance to draw" : `${d.to_move_name} to move`;
    if (d.board && d.board.map) {
      boardBox.append(drawBoard(d.board, { places: new Set(), selected: [], onRegion: () => {}, seatName }));
      for (const n of d.board.notes || []) boardBox.append(h("p", { class: "notes", text: String(n) }));
    } else {
      if (d.text_board) boardBox.append(h("pre", { class: "textboard", text: d.text_board }));
      boardBox.append(...viewPanel(d, true));
    }
    app.replaceChildren(h("div", { class: "card" }, h("h2", { text: `Replay: ${g.title}` }), ctl, h("p", { class: "turn", id: "replay-turn", text: tm })),
      h("div", { class: "game" }, boardBox, h("section", {},
        d.board && d.board.map ? h("div", { class: "card" }, ...viewPanel(d, false)) : null,
        h("div", { class: "card" }, h("h2", { text: "Log" }), logList(d.log, seatName)))));
  }
  document.onkeydown = (ev) => {
    if (!location.pathname.endsWith("/replay") || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowRight") show(Math.min(total, step + 1));
    if (ev.key === "ArrowLeft") show(Math.max(0, step - 1));
  };
  await show(0);
}

route();
