// @ts-check
// The lobby: a new game (ruleset, players, seats, options), this browser's games, a record to replay.
import { h, app, api, toast, status, swatch, copy, label, setSeatColors } from "./ui.js";
import { remembered, remember, forget, absolute } from "./store.js";
import { paceFields, paceShort } from "./pace.js";
import { accountGames } from "./accounts.js";

export async function lobby() {
  status("");
  setSeatColors(null);
  document.title = "Conquest";
  app.replaceChildren(h("div", { class: "cols" },
    h("section", { class: "card lobby-new", "aria-labelledby": "newgame" }, h("h2", { id: "newgame", text: "New game" }),
      h("div", { id: "newform", text: "Loading the rulesets…" })),
    h("section", { class: "card lobby-mine", "aria-labelledby": "mine" }, h("h2", { id: "mine", text: "Your games" }),
      h("div", { id: "account-box" }),
      h("div", { id: "mylist" }),
      h("h2", { text: "Replay a record" }),
      h("p", { class: "help", text: "A record file (conquest-record/1, from “Download record” or conquest play) is shown step by step." }),
      h("input", { type: "file", id: "record-file", accept: ".json,application/json", "aria-label": "Record file", onchange: importRecord }))));
  listMine();
  accountGames(document.getElementById("account-box"));
  /** @type {RulesetsData} */
  let data;
  try { data = await api("GET", "/api/rulesets"); } catch (e) { toast(/** @type {Error} */ (e).message); return; }
  newGameForm(data);
}

// ---- who plays a seat: a person, a level by name (one line each), a trained policy the server lists, or, under
// "Advanced", an agent by its name or any agent spec ----
const SPEC = "\u0000spec";
/** @param {unknown} t */
const capital = t => String(t).charAt(0).toUpperCase() + String(t).slice(1);
/** @param {RulesetsData} data */
function levelsOf(data) { return Object.entries(data.levels || {}); }
/** @param {RulesetsData} data @returns {{kind: string | undefined, label?: string, help?: string}[]} */
function policiesOf(data) {
  // the server lists installed policies: {id|kind|spec, label?, help?} or a seat kind as a string; never a bare
  // "policy" (it needs a file) nor a policy:path=... spec built here
  return (data.policies || []).map(p => typeof p === "string" ? { kind: p } : { kind: p.kind || p.id || p.spec, label: p.label || p.name, help: p.help })
    .filter(p => p.kind && p.kind !== "policy" && !String(p.kind).startsWith("policy:path="));
}
/** @param {RulesetsData} data @param {number} i */
function seatKindSelect(data, i) {
  const levels = levelsOf(data);
  const levelIds = new Set(levels.map(([k]) => k));
  const pol = policiesOf(data);
  // the named agents the server's operator enables (a client's text is never an agent spec: the server refuses it)
  const agents = data.agents ? data.agents.map(a => a.kind)
    : (data.seat_kinds || []).filter(k => k !== "human" && !String(k).startsWith("policy") && !levelIds.has(k));
  const deflt = i === 0 ? "human" : (levelIds.has("easy") ? "easy" : (levels[0] || [agents[0]])[0]);
  return h("select", { id: `seat-${i}-kind`, "aria-label": `Seat ${i + 1} is played by` },
    h("option", { value: "human", text: "a person", selected: deflt === "human" }),
    h("optgroup", { label: "Computer" },
      levels.map(([k, v]) => h("option", { value: k, text: `computer: ${v.label || capital(k)}`, selected: deflt === k })),
      pol.map(p => h("option", { value: p.kind, text: `computer: ${p.label || "trained policy"}` }))),
    agents.length ? h("optgroup", { label: "Advanced (agents by name)" },
      agents.map(k => h("option", { value: k, text: `agent ${k}` }))) : null);
}
/** @param {RulesetsData} data @param {string} kind */
function kindHelp(data, kind) {
  if (kind === "human") return "Played in the browser by a person (hot-seat or with a link).";
  const lv = (data.levels || {})[kind];
  if (lv) return `${lv.label || capital(kind)}: ${lv.help}`;
  const p = policiesOf(data).find(x => x.kind === kind);
  if (p) return p.help || "A policy trained for this game.";
  if (kind === SPEC) return "Any agent spec the server accepts (name:param=value…).";
  return `The ${kind} agent with its default settings.`;
}

/** An option's value as the form shows it ("yes", "no", "until below"). @param {RulesetOption} _o the option @param {unknown} c */
function optionText(_o, c) { return typeof c === "boolean" ? (c ? "yes" : "no") : String(c).replace(/_/g, " "); }

// An option whose value is a document (a variant of the game's data): a text area for YAML or JSON, and a file.
/** @param {RulesetOption} o @param {string} id @returns {HTMLElement[]} */
function documentOption(o, id) {
  const area = h("textarea", { id, "data-opt": o.name, "data-type": "document", rows: 7, spellcheck: "false",
    autocapitalize: "off", placeholder: "name: my variant\n# the fields below, in YAML or JSON" });
  const file = h("input", { type: "file", id: id + "-file", accept: ".yaml,.yml,.json,text/yaml,application/json" });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (f) area.value = await f.text();
  });
  return [h("summary", { text: "Advanced: a variant of the rules' data" }),
    h("div", { class: "opt doc-opt" }, h("label", { for: id, text: label(o.name), title: o.name }), area,
      h("p", { class: "help" }, h("label", { for: id + "-file", text: "Load a variant file: " }), file),
      h("p", { class: "help", text: o.help }))];
}

/** @param {RulesetsData} data */
function newGameForm(data) {
  const box = /** @type {HTMLElement} */ (document.getElementById("newform"));
  const rulesets = data.rulesets;
  if (!rulesets.length) { box.textContent = "No ruleset is installed."; return; }
  const rsSel = h("select", { id: "ruleset", name: "ruleset" },
    rulesets.map(r => h("option", { value: r.id, text: r.title })));
  const summary = h("p", { class: "help", id: "rs-summary" });
  const howtoLink = h("a", { id: "rs-howto", target: "_blank", rel: "noopener", text: "How to play" });
  const rulesLink = h("a", { id: "rs-rules", target: "_blank", rel: "noopener", text: "Rules readings" });
  const playersSel = h("select", { id: "players", name: "players" });
  const optsBox = h("div", { id: "options", class: "options" });
  const advBox = h("details", { class: "opts", id: "advanced" });
  const seatsBox = h("table", { class: "seats", id: "seats" });
  const result = h("div", { id: "created" });
  const pace = paceFields(data);
  const form = h("form", { id: "create" },
    h("div", { class: "row2" },
      h("div", {}, h("label", { for: "ruleset", text: "Game" }), rsSel),
      h("div", {}, h("label", { for: "players", text: "Players" }), playersSel)),
    h("p", { class: "help" }, summary, " ", howtoLink, " · ", rulesLink),
    h("fieldset", {}, h("legend", { text: "Seats" }), seatsBox),
    pace.box,
    h("p", {}, h("button", { type: "submit", class: "primary", id: "create-btn", text: "Create the game" })),
    result,
    h("details", { class: "opts", open: true }, h("summary", { text: "Options" }), optsBox),
    advBox);
  box.replaceChildren(form);

  const current = () => /** @type {RulesetInfo} */ (rulesets.find(r => r.id === rsSel.value));
  function fillPlayers() {
    const r = current();
    playersSel.replaceChildren();
    for (let n = r.min_players; n <= r.max_players; n++) playersSel.append(h("option", { value: n, text: n, selected: n === r.default_players }));
    summary.textContent = r.summary ? r.summary.charAt(0).toUpperCase() + r.summary.slice(1) + (/[.!?]$/.test(r.summary) ? "" : ".") : "";
    rulesLink.setAttribute("href", `/rules/${r.id}`);
    howtoLink.setAttribute("href", `/howto/${r.id}`);
    optsBox.replaceChildren();
    if (!r.options.length) optsBox.append(h("p", { class: "help", text: "This game has no options." }));
    advBox.replaceChildren(); advBox.hidden = true; advBox.open = false;
    for (const o of r.options) {
      const id = "opt-" + o.name;
      if (o.document) { advBox.hidden = false; advBox.append(...documentOption(o, id)); continue; }
      let input;
      if (o.type === "bool") input = h("input", { type: "checkbox", id, "data-opt": o.name, "data-type": "bool", checked: !!o.default });
      else if (o.choices) input = h("select", { id, "data-opt": o.name, "data-type": o.type },
        o.choices.map(c => h("option", { value: c, text: optionText(o, c), selected: c === o.default })));
      else input = h("input", { type: o.type === "int" ? "number" : "text", id, "data-opt": o.name, "data-type": o.type,
        value: o.default, min: o.minimum, max: o.maximum });
      optsBox.append(h("div", { class: "opt" }, h("label", { for: id, text: label(o.name), title: o.name }), input,
        h("p", { class: "help", text: `${o.help} (default: ${optionText(o, o.default)})` })));
    }
    pace.update(r);
    fillSeats();
  }
  function fillSeats() {
    const r = current(); const n = Number(playersSel.value);
    const names = (r.seat_names && r.seat_names[String(n)]) || [];
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      const kindSel = seatKindSelect(data, i);
      const spec = h("input", { type: "text", id: `seat-${i}-spec`, hidden: true, placeholder: "agent spec, e.g. ismcts:time=1.0",
        "aria-label": `Seat ${i + 1} agent spec`, autocomplete: "off", autocapitalize: "off" });
      const line = h("div", { class: "help seat-help", id: `seat-${i}-help` });
      const explain = () => { line.textContent = kindHelp(data, kindSel.value); spec.hidden = kindSel.value !== SPEC; };
      kindSel.addEventListener("change", explain); explain();
      const name = h("input", { type: "text", id: `seat-${i}-name`, maxlength: 40, placeholder: names[i] || `Player ${i + 1}`,
        "aria-label": `Seat ${i + 1} name` });
      seatsBox.append(h("tr", {}, h("td", {}, swatch(i)), h("td", {}, name), h("td", {}, kindSel, spec, line)));
    }
  }
  rsSel.addEventListener("change", fillPlayers);
  playersSel.addEventListener("change", fillSeats);
  fillPlayers();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = current(); const n = Number(playersSel.value);
    /** @type {Record<string, unknown>} */
    const options = {};
    for (const el of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>} */ (form.querySelectorAll("[data-opt]"))) {
      const t = el.dataset.type;
      options[el.dataset.opt || ""] = t === "bool" ? /** @type {HTMLInputElement} */ (el).checked : t === "int" ? Number(el.value) : el.value;
    }
    /** @param {string} id */
    const field = id => /** @type {HTMLInputElement} */ (document.getElementById(id));
    const seats = [];
    for (let i = 0; i < n; i++) {
      let kind = field(`seat-${i}-kind`).value;
      if (kind === SPEC) kind = field(`seat-${i}-spec`).value.trim();
      if (!kind) { toast(`Seat ${i + 1}: write an agent spec, or choose a level.`); return; }
      seats.push({ kind, name: field(`seat-${i}-name`).value || null });
    }
    const btn = /** @type {HTMLButtonElement} */ (document.getElementById("create-btn")); btn.disabled = true;
    /** @type {{game: GameInfo, seats: SeatInfo[], spectator: {link: string, token: string}}} */
    let made;
    try { made = await api("POST", "/api/games", { ruleset: r.id, players: n, options, seats, pace: pace.value() }); }
    catch (e) { toast(/** @type {Error} */ (e).message); btn.disabled = false; return; }
    btn.disabled = false;
    const g = made.game;
    const humans = made.seats.filter(x => x.token);
    const spectator = made.spectator.link;
    for (const x of humans) remember({ id: g.id, token: x.token || "", seat: x.seat, name: x.name, title: g.title, created: g.created_at, spectator });
    if (!humans.length) remember({ id: g.id, token: made.spectator.token, seat: null, name: "spectator", title: g.title, created: g.created_at, spectator });
    if (humans.length === 1) { location.assign(humans[0].link || ""); return; }
    result.replaceChildren(h("h3", { text: "Game created: send each player their link" }),
      h("ul", { class: "links" },
        humans.map(x => h("li", {}, swatch(x.seat), `${x.name}: `, h("a", { href: x.link, text: "play" }), " ",
          h("button", { type: "button", onclick: () => copy(absolute(x.link || "")), text: "copy link" }), " ",
          h("code", { text: absolute(x.link || "") }))),
        h("li", {}, "Spectators: ", h("a", { href: spectator, text: "watch" }), " ",
          h("button", { type: "button", onclick: () => copy(absolute(spectator)), text: "copy link" }))),
      // (replaceChildren writes a null as the text "null": a game of computers only has no hot-seat line)
      ...(humans.length > 1 ? [h("p", { class: "help", text: "Playing hot-seat on this computer? Open any seat: the page follows the turn and hides each player's secrets until they take the device." })] : []));
    listMine();
  });
}

/** @param {Event} ev */
async function importRecord(ev) {
  const input = /** @type {HTMLInputElement} */ (ev.target);
  const file = input.files && input.files[0];
  if (!file) return;
  let record;
  try { record = JSON.parse(await file.text()); } catch (e) { toast("This file is not JSON."); return; }
  /** @type {{game: GameInfo, spectator: {token: string, replay: string}}} */
  let made;
  try { made = await api("POST", "/api/records", { record }); } catch (e) { toast(/** @type {Error} */ (e).message); return; }
  remember({ id: made.game.id, token: made.spectator.token, seat: null, name: "spectator", title: made.game.title, created: made.game.created_at });
  location.assign(made.spectator.replay);
}

async function listMine() {
  const box = document.getElementById("mylist");
  if (!box) return;
  const mine = remembered();
  if (!mine.length) { box.replaceChildren(h("p", { class: "help", text: "Games you create or join in this browser appear here." })); return; }
  /** @type {{games: (GameInfo & {error?: string, you: {name: string}})[]}} */
  let data;
  try { data = await api("POST", "/api/my-games", { games: mine.map(e => ({ id: e.id, token: e.token })) }); }
  catch (e) { box.textContent = /** @type {Error} */ (e).message; return; }
  const ul = h("ul", { class: "links" });
  data.games.forEach((g, i) => {
    const e = mine[i];
    if (g.error) { ul.append(h("li", { class: "muted" }, `${e.title || e.id}: ${g.error} `, h("button", { type: "button", onclick: () => { forget(e.id); listMine(); }, text: "forget" }))); return; }
    const state = g.over ? "over" : (g.to_move === e.seat ? "your turn" : `${g.to_move_name} to move`);
    const paced = paceShort(g, e.seat);
    ul.append(h("li", {}, swatch(e.seat), h("a", { href: `/game/${g.id}#t=${e.token}`, text: `${g.title}` }),
      g.variant ? h("span", { class: "variant-tag", title: "played with a variant of the rules' data", text: ` (variant: ${g.variant})` }) : null,
      ` as ${g.you.name}: step ${g.step}, ${state} `,
      paced ? h("span", { class: "help pace-short", text: `(${paced}) ` }) : null,
      h("button", { type: "button", onclick: () => { forget(e.id); listMine(); }, text: "forget", "aria-label": `forget ${g.title} ${g.id}` })));
  });
  box.replaceChildren(ul);
}
