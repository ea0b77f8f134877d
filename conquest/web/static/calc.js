// @ts-check
// The battle calculator page of a game (/calc/{ruleset}; /calc: the first game that offers one, GET /api/odds):
// piece steppers for each side (the attacker, the defender, the defender's ally when one is stated; in a dungeon
// the Heroes against the Guardian tiles), the battle's settings, and the exact result from POST
// /api/odds/{ruleset} (bars, survivors, expected gold lost and rounds, a dungeon's Rewards). What the form offers
// (pieces, cards, Guardians, the kinds that fight at sea) comes from GET /api/odds/{ruleset}.
// Reads and writes the battle in the address's hash (odds.js calcHash: #a=footsoldier,siege&d=wizard,castle&sea=1,
// &l=... the ally's pieces, &dungeon=1 with the Guardians as d), so a game can link a battle here.
import { el, battleBars, survivorTable, battleFigures, battleLine, rewardLine, calcHash, ALLY_SPLIT } from "/static/odds.js";

/** @typedef {"attacker" | "defender" | "ally" | "guardians"} Side */
/** @type {Set<string>} */
let SEA_KINDS = new Set();
/** @type {string | null} */
let ruleset = null;   // the game whose calculator this is
const FACEDOWN = "facedown";
/** @type {Side[]} */
const SIDES = ["attacker", "defender", "ally", "guardians"];
// the page's elements (calc.html has every id this script names)
const form = /** @type {HTMLFormElement} */ (document.getElementById("calc-form"));
const result = /** @type {HTMLElement} */ (document.getElementById("result"));
/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** An <input> of the page. @param {string} id */
const $in = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** A <select> of the page. @param {string} id */
const $sel = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));
/** How many of each kind each side has. @type {Record<Side, Record<string, number>>} */
const counts = { attacker: {}, defender: {}, ally: {}, guardians: {} };
/** Each side's steppers, by kind. @type {Record<Side, Record<string, {input: HTMLInputElement, row: HTMLElement, set: (n: number) => void}>>} */
const inputs = { attacker: {}, defender: {}, ally: {}, guardians: {} };
/** @type {CalculatorInfo} */
let info;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
let asked = 0;

const isSea = () => $in("where-sea").checked && !isDungeon();
const isDungeon = () => $in("mode-dungeon").checked;
const allyOn = () => $in("ally-on").checked && !isDungeon();

// one kind's row: its name and a − count + stepper (`max`: the most of that kind)
/** @param {Side} side @param {string} id @param {string} name @param {string} note @param {number} max */
function stepper(side, id, name, note, max) {
  const inputId = `n-${side}-${id}`;
  const input = el("input", { type: "number", id: inputId, min: 0, max, value: 0, inputmode: "numeric",
    "aria-label": `${side}: ${name}` });
  /** @param {number} n */
  const set = (n) => { n = Math.max(0, Math.min(max, Number.isFinite(n) ? Math.trunc(n) : 0));
    counts[side][id] = n; input.value = String(n); row.classList.toggle("some", n > 0); changed(); };
  input.addEventListener("input", () => set(Number(input.value)));
  const row = el("div", { class: "stepper", "data-piece": id },
    el("label", { for: inputId, class: "pname" }, name, " ", el("small", { text: note })),
    el("button", { type: "button", class: "step", "aria-label": `one ${name} fewer (${side})`, "data-step": `${side}-${id}-minus`,
      onclick: () => set((counts[side][id] || 0) - 1) }, "−"),
    input,
    el("button", { type: "button", class: "step", "aria-label": `one more ${name} (${side})`, "data-step": `${side}-${id}-plus`,
      onclick: () => set((counts[side][id] || 0) + 1) }, "+"));
  inputs[side][id] = { input, row, set };
  return row;
}

/** @param {CalculatorInfo["guardians"][number]} g */
function guardianNote(g) {
  return [g.dice.map(d => `d${d}`).join(" "), g.first_strike ? "First Strike" : null,
    g.heroes_need ? `Heroes need ${g.heroes_need}+` : null, g.reward ? `Reward ${g.reward}` : null].filter(Boolean).join(" · ");
}

// can this kind fight here? (greyed out otherwise: land pieces at sea, Warships on land, all but Heroes in a dungeon)
/** @param {Side} side @param {string} id */
function fights(side, id) {
  if (side === "guardians") return true;
  if (isDungeon()) return side !== "attacker" || info.heroes.includes(id);
  return isSea() ? SEA_KINDS.has(id) : id !== "warship";
}

// show what the kind of battle asks for: a dungeon hides the sea, the Castle, the ally and the defender's pieces
function applyMode() {
  const dungeon = isDungeon(), sea = isSea(), ally = allyOn();
  for (const side of /** @type {Side[]} */ (["attacker", "defender", "ally"])) for (const [id, s] of Object.entries(inputs[side])) {
    const off = !fights(side, id);
    s.row.classList.toggle("off", off);
    s.row.hidden = dungeon && side === "attacker" && off;   // in a dungeon only the Heroes' rows are left
    for (const b of /** @type {NodeListOf<HTMLInputElement | HTMLButtonElement>} */ (s.row.querySelectorAll("input, button"))) b.disabled = off;
  }
  $("heroes-note").hidden = !dungeon;
  $("attacker-legend").textContent = dungeon ? "Heroes (the attacker)" : "Attacker";
  $("defender-legend").textContent = dungeon ? "Dungeon Guardians" : "Defender";
  $("side-defender").hidden = dungeon;
  $("guardians-box").hidden = !dungeon;
  $("castle-row").hidden = dungeon;
  $("where").hidden = dungeon;
  $("ally-box").hidden = dungeon;
  $("ally-body").hidden = !ally;
  $("ally-off-help").hidden = ally;
  $("cards-defender-col").hidden = dungeon;
  $("cards-ally-col").hidden = !ally;
  for (const id of ["castle", "ally-castle"]) { $in(id).disabled = sea; $(`${id}-row`).classList.toggle("off", sea); }
  /** @type {ChildNode} */ ($("castle-row").lastChild).textContent = ally ? " a Castle defends (d20; the defender's: it controls the space)"
    : " a Castle defends (d20, the defender only)";
}

// a side's pieces as the API takes them, in the table's order (the Castle last, with its owner)
/** @param {Side} side */
function sideList(side) {
  /** @type {string[]} */
  const out = [];
  const kinds = side === "guardians" ? [...info.guardians.map(g => g.id), FACEDOWN] : info.pieces.map(p => p.id);
  for (const id of kinds) {
    const n = counts[side][id] || 0;
    if (!n || !fights(side, id)) continue;
    for (let i = 0; i < n; i++) out.push(id);
  }
  if (!isSea() && ((side === "defender" && $in("castle").checked) || (side === "ally" && $in("ally-castle").checked))) out.push("castle");
  return out;
}

/** @param {Side} side */
function cardsOf(side) { return [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(`#cards-${side} input:checked`))].map(x => x.value); }

// POST /api/odds/{ruleset}'s body for the battle on the page
/** @returns {CalcBody} */
function body() {
  const press = $sel("press").value === "always" ? "always" : `until-below=${$in("press-k").value || 1}`;
  const common = { order: $sel("order").value, press, attacker_cards: cardsOf("attacker") };
  if (isDungeon()) return { attacker: sideList("attacker"), defender: sideList("guardians"), dungeon: true, ...common };
  /** @type {CalcBody} */
  const b = { attacker: sideList("attacker"), defender: sideList("defender"), sea: isSea(), ...common,
    defender_cards: cardsOf("defender") };
  if (allyOn()) { b.ally = sideList("ally"); b.ally_cards = cardsOf("ally"); }
  return b;
}

function changed() { clearTimeout(timer); timer = setTimeout(compute, 120); }

// what is missing before the battle can be computed (null: nothing)
/** @param {CalcBody} b */
function missing(b) {
  const att = isDungeon() ? "Heroes" : "attacking pieces", def = isDungeon() ? "Guardians" : "defending pieces";
  if (!b.attacker.length && !b.defender.length) return `Add ${att} and ${def}.`;
  if (!b.attacker.length) return `Add ${att}.`;
  if (!b.defender.length) return `Add ${def}.`;
  if (b.ally && !b.ally.length) return "Add the ally's pieces (or turn the ally off).";
  return null;
}

// the page's battle as a game's battle record, for the line that states it
/** @param {CalcBody} b */
function summary(b) {
  /** @type {BattleRecord} */
  const s = { attacker: b.attacker, defender: b.defender, kind: b.dungeon ? "dungeon" : b.sea ? "sea" : "land",
    sea: b.sea, order: b.order, press: b.press };
  if (b.ally) s.allies = { defender: b.defender, ally: b.ally };
  return s;
}

async function compute() {
  const b = body();
  history.replaceState(null, "", `#${calcHash(b)}`);
  const lacking = missing(b);
  if (lacking) {
    result.replaceChildren(el("p", { class: "help", text: lacking }));
    delete result.dataset.ready; $("mini").replaceChildren(); return;
  }
  const mine = ++asked;
  result.classList.add("busy");
  /** @type {OddsResult | null} */
  let data = null;
  /** @type {string | null} */
  let error = null;
  try {
    const resp = await fetch(`/api/odds/${ruleset}`, { method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" }, body: JSON.stringify(b) });
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok) error = (data && data.error) || `the server answered ${resp.status}`;
  } catch (e) { error = "the server cannot be reached"; }
  if (mine !== asked) return;   // a newer question is on its way
  result.classList.remove("busy");
  if (error || !data) {   // the server's one-line reason, in the result and in the phone's summary
    error = error || "the server's answer is not JSON";
    $("mini").replaceChildren(el("p", { class: "odds-error", text: error }));
    result.replaceChildren(el("p", { class: "odds-error", role: "alert", text: error })); delete result.dataset.ready; return;
  }
  $("mini").replaceChildren(battleBars(data));   // the phone's summary at the bottom
  const s = summary(b);
  const names = b.dungeon ? { attacker: "Heroes", defender: "Guardians" } : { attacker: "Attacker", defender: "Defender" };
  result.replaceChildren(...[battleLine(s), battleBars(data, "p"), battleFigures(data), rewardLine(data, s),
    b.ally ? el("p", { class: "help ally-split", text: ALLY_SPLIT }) : null, survivorTable(data, 6, names),
    el("p", { class: "help", text: `${data.method}; ${(1000 * data.seconds).toFixed(1)} ms.` })].filter(x => x !== null));
  result.dataset.ready = String(mine);
}

function readHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  /** @param {string} key */
  const list = (key) => (q.get(key) || "").split(",").map(x => x.trim().toLowerCase()).filter(Boolean);
  const dungeon = q.get("dungeon") === "1";
  $in(dungeon ? "mode-dungeon" : "mode-battle").checked = true;
  $in(q.get("sea") === "1" ? "where-sea" : "where-land").checked = true;
  $in("ally-on").checked = q.has("l");
  $in("castle").checked = false; $in("ally-castle").checked = false;
  $sel("order").value = q.get("order") === "listed" ? "listed" : "cheapest";
  const press = q.get("press");
  const until = press !== null && press.startsWith("until-below=");
  $sel("press").value = until ? "until" : "always"; $in("press-k").hidden = !until;
  if (until) $in("press-k").value = press.split("=")[1];
  // the other kind of battle's sides keep what they had (the hash states the shown one)
  /** @type {[Side, string][]} */
  const read = dungeon ? [["attacker", "a"], ["guardians", "d"]] : [["attacker", "a"], ["defender", "d"], ["ally", "l"]];
  for (const [side, key] of read) {
    counts[side] = {};
    for (let p of list(key)) {
      if (side === "guardians") { p = p.replace(/^guardian:/, ""); if (p === "?") p = FACEDOWN; }
      if (p === "castle" && side !== "attacker") { $in(side === "ally" ? "ally-castle" : "castle").checked = true; continue; }
      if (inputs[side][p]) counts[side][p] = (counts[side][p] || 0) + 1;
    }
    for (const [p, s] of Object.entries(inputs[side])) { s.input.value = String(counts[side][p] || 0); s.row.classList.toggle("some", (counts[side][p] || 0) > 0); }
  }
  for (const [side, key] of [["attacker", "ac"], ["defender", "dc"], ["ally", "lc"]]) {
    const on = new Set(list(key));
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(`#cards-${side} input`))) box.checked = on.has(box.value);
    if (on.size) /** @type {HTMLDetailsElement} */ (document.querySelector("details.cards")).open = true;
  }
}

// the game of the page: /calc/{ruleset}, or the first game that offers a calculator
/** @returns {Promise<string | null>} */
async function whichGame() {
  const m = location.pathname.match(/^\/calc\/([a-z0-9_]+)\/?$/);
  if (m) return m[1];
  const r = await fetch("/api/odds");
  /** @type {{ruleset: string}[]} */
  const list = (await r.json()).calculators || [];
  return list.length ? list[0].ruleset : null;
}

async function start() {
  try {
    ruleset = await whichGame();
    if (!ruleset) { result.replaceChildren(el("p", { class: "odds-error", text: "no game offers a calculator" })); return; }
    const r = await fetch(`/api/odds/${ruleset}`); info = await r.json();
    if (!r.ok) { result.replaceChildren(el("p", { class: "odds-error", text: info.error || `the server answered ${r.status}` })); return; }
  }
  catch (e) { result.replaceChildren(el("p", { class: "odds-error", text: "the server cannot be reached" })); return; }
  SEA_KINDS = new Set(info.sea_kinds || []);
  document.title = info.title;
  /** @type {HTMLElement} */ (document.querySelector(".top-title")).textContent = info.title;
  for (const side of /** @type {Side[]} */ (["attacker", "defender", "ally"])) {
    const box = $(`side-${side}`);
    for (const p of info.pieces) if (p.id !== "castle") box.append(stepper(side, p.id, p.name, `d${p.die} · ${p.cost} gold`, info.max_side));
    const cards = $(`cards-${side}`);
    for (const c of info.cards) {
      const id = `card-${side}-${c.id}`;
      const bonus = c.bonus.map(x => `+${x.value} ${x.piece === "*" ? "all" : x.piece}`).join(", ");
      cards.append(el("label", { class: "check", for: id }, el("input", { type: "checkbox", id, value: c.id, onchange: changed }), `${c.name} `, el("small", { text: bonus })));
    }
  }
  const gbox = $("side-guardians");   // each Guardian tile is unique: 0 or 1 of each, any number face down
  for (const g of info.guardians) gbox.append(stepper("guardians", g.id, g.name, guardianNote(g), 1));
  gbox.append(stepper("guardians", FACEDOWN, "Face-down tiles", "not seen yet", info.guardians.length));
  readHash();
  applyMode();
  for (const r of document.querySelectorAll("input[name=where], input[name=mode], #ally-on"))
    r.addEventListener("change", () => { applyMode(); changed(); });
  // one Castle in the space, its owner's (the realm that controls the space)
  $("castle").addEventListener("change", () => { if ($in("castle").checked) $in("ally-castle").checked = false; changed(); });
  $("ally-castle").addEventListener("change", () => { if ($in("ally-castle").checked) $in("castle").checked = false; changed(); });
  $("order").addEventListener("change", changed);
  const press = $sel("press"), k = $in("press-k");
  press.addEventListener("change", () => { k.hidden = press.value === "always"; changed(); });
  k.addEventListener("input", changed);
  $("reset").addEventListener("click", () => {
    for (const side of SIDES) for (const s of Object.values(inputs[side])) s.set(0);
    $in("castle").checked = false; $in("ally-castle").checked = false; changed();
  });
  form.addEventListener("submit", ev => ev.preventDefault());
  window.addEventListener("hashchange", () => { readHash(); applyMode(); compute(); });  // a battle linked here
  compute();
}

start();
