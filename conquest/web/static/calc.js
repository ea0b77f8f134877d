// The Nerath battle calculator page: two sides of piece steppers, the battle's settings, and the exact result
// from POST /api/odds/nerath (bars, survivors, expected gold lost and rounds). Reads and writes the battle in
// the address's hash (#a=footsoldier,siege&d=wizard,castle&sea=1), so a game can link a battle here.
import { el, battleBars, survivorTable, battleFigures } from "/static/odds.js";

const SEA_KINDS = new Set(["storm", "dragon", "warship", "fighter", "wizard"]);
const LAND_ONLY = new Set(["footsoldier", "siege", "monster"]);
const form = document.getElementById("calc-form");
const result = document.getElementById("result");
const counts = { attacker: {}, defender: {} };
const inputs = { attacker: {}, defender: {} };
let info = null;
let timer = null;
let asked = 0;

const isSea = () => document.getElementById("where-sea").checked;

function stepper(side, p) {
  const id = `n-${side}-${p.id}`;
  const input = el("input", { type: "number", id, min: 0, max: info.max_side, value: 0, inputmode: "numeric",
    "aria-label": `${side} ${p.name}s` });
  const set = (n) => { n = Math.max(0, Math.min(info.max_side, Number.isFinite(n) ? Math.trunc(n) : 0));
    counts[side][p.id] = n; input.value = String(n); row.classList.toggle("some", n > 0); changed(); };
  input.addEventListener("input", () => set(Number(input.value)));
  const row = el("div", { class: "stepper", "data-piece": p.id },
    el("label", { for: id, class: "pname" }, p.name, el("small", { text: ` d${p.die} · ${p.cost} gold` })),
    el("button", { type: "button", class: "step", "aria-label": `one ${p.name} fewer (${side})`, "data-step": `${side}-${p.id}-minus`,
      onclick: () => set((counts[side][p.id] || 0) - 1) }, "−"),
    input,
    el("button", { type: "button", class: "step", "aria-label": `one more ${p.name} (${side})`, "data-step": `${side}-${p.id}-plus`,
      onclick: () => set((counts[side][p.id] || 0) + 1) }, "+"));
  inputs[side][p.id] = { input, row, set };
  return row;
}

function applyWhere() {
  const sea = isSea();
  for (const side of ["attacker", "defender"]) for (const p of info.pieces) {
    const s = inputs[side][p.id]; if (!s) continue;
    const off = sea ? !SEA_KINDS.has(p.id) : p.id === "warship";
    s.row.classList.toggle("off", off);
    for (const b of s.row.querySelectorAll("input, button")) b.disabled = off;
  }
  const castle = document.getElementById("castle");
  castle.disabled = sea;
  document.querySelector(".side.defender .check").classList.toggle("off", sea);
}

function sideList(side) {
  const sea = isSea(); const out = [];
  for (const p of info.pieces) {
    const n = counts[side][p.id] || 0;
    if (!n || (sea ? !SEA_KINDS.has(p.id) : p.id === "warship")) continue;
    for (let i = 0; i < n; i++) out.push(p.id);
  }
  if (side === "defender" && !sea && document.getElementById("castle").checked) out.push("castle");
  return out;
}

function cardsOf(side) { return [...document.querySelectorAll(`#cards-${side} input:checked`)].map(x => x.value); }

function body() {
  const press = document.getElementById("press").value === "always" ? "always" : `until-below=${document.getElementById("press-k").value || 1}`;
  return { attacker: sideList("attacker"), defender: sideList("defender"), sea: isSea(),
    order: document.getElementById("order").value, press, attacker_cards: cardsOf("attacker"), defender_cards: cardsOf("defender") };
}

function writeHash(b) {
  const q = new URLSearchParams({ a: b.attacker.join(","), d: b.defender.join(",") });
  if (b.sea) q.set("sea", "1");
  if (b.order !== "cheapest") q.set("order", b.order);
  if (b.press !== "always") q.set("press", b.press);
  history.replaceState(null, "", `#${q.toString()}`);
}

function changed() { clearTimeout(timer); timer = setTimeout(compute, 120); }

async function compute() {
  const b = body();
  writeHash(b);
  if (!b.attacker.length || !b.defender.length) {
    result.replaceChildren(el("p", { class: "help", text: !b.attacker.length && !b.defender.length
      ? "Add pieces to both sides." : `Add pieces to the ${b.attacker.length ? "defending" : "attacking"} side.` }));
    delete result.dataset.ready; document.getElementById("mini").replaceChildren(); return;
  }
  const mine = ++asked;
  result.classList.add("busy");
  let data = null, error = null;
  try {
    const resp = await fetch("/api/odds/nerath", { method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" }, body: JSON.stringify(b) });
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok) error = (data && data.error) || `the server answered ${resp.status}`;
  } catch (e) { error = "the server cannot be reached"; }
  if (mine !== asked) return;   // a newer question is on its way
  result.classList.remove("busy");
  if (error) { document.getElementById("mini").replaceChildren(); result.replaceChildren(el("p", { class: "odds-error", role: "alert", text: error })); delete result.dataset.ready; return; }
  document.getElementById("mini").replaceChildren(battleBars(data));   // the phone's summary at the bottom
  result.replaceChildren(battleBars(data, "p"), battleFigures(data), survivorTable(data),
    el("p", { class: "help", text: `${data.method}; ${(1000 * data.seconds).toFixed(1)} ms.` }));
  result.dataset.ready = String(mine);
}

function readHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  for (const side of ["attacker", "defender"]) counts[side] = {};
  document.getElementById("castle").checked = false;
  document.getElementById(q.get("sea") === "1" ? "where-sea" : "where-land").checked = true;
  document.getElementById("order").value = q.get("order") === "listed" ? "listed" : "cheapest";
  const press = q.get("press");
  if (press && press.startsWith("until-below=")) { document.getElementById("press").value = "until"; document.getElementById("press-k").value = press.split("=")[1]; document.getElementById("press-k").hidden = false; }
  for (const [side, key] of [["attacker", "a"], ["defender", "d"]]) {
    for (const p of (q.get(key) || "").split(",").map(x => x.trim()).filter(Boolean)) {
      if (p === "castle" && side === "defender") { document.getElementById("castle").checked = true; continue; }
      if (inputs[side][p]) { counts[side][p] = (counts[side][p] || 0) + 1; }
    }
    for (const [p, s] of Object.entries(inputs[side])) { s.input.value = String(counts[side][p] || 0); s.row.classList.toggle("some", (counts[side][p] || 0) > 0); }
  }
}

async function start() {
  try { const r = await fetch("/api/odds/nerath"); info = await r.json(); }
  catch (e) { result.replaceChildren(el("p", { class: "odds-error", text: "the server cannot be reached" })); return; }
  for (const side of ["attacker", "defender"]) {
    const box = document.getElementById(`side-${side}`);
    for (const p of info.pieces) if (p.id !== "castle") box.append(stepper(side, p));
    const cards = document.getElementById(`cards-${side}`);
    for (const c of info.cards) {
      const id = `card-${side}-${c.id}`;
      const bonus = c.bonus.map(x => `+${x.value} ${x.piece === "*" ? "all" : x.piece}`).join(", ");
      cards.append(el("label", { class: "check", for: id }, el("input", { type: "checkbox", id, value: c.id, onchange: changed }), `${c.name} `, el("small", { text: bonus })));
    }
  }
  readHash();
  applyWhere();
  for (const r of document.querySelectorAll("input[name=where]")) r.addEventListener("change", () => { applyWhere(); changed(); });
  document.getElementById("castle").addEventListener("change", changed);
  document.getElementById("order").addEventListener("change", changed);
  const press = document.getElementById("press"), k = document.getElementById("press-k");
  press.addEventListener("change", () => { k.hidden = press.value === "always"; changed(); });
  k.addEventListener("input", changed);
  document.getElementById("reset").addEventListener("click", () => {
    for (const side of ["attacker", "defender"]) for (const s of Object.values(inputs[side])) s.set(0);
    document.getElementById("castle").checked = false; changed();
  });
  form.addEventListener("submit", ev => ev.preventDefault());
  window.addEventListener("hashchange", () => { readHash(); applyWhere(); compute(); });  // a battle linked here
  compute();
}

start();
