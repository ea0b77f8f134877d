// @ts-check
// Action input: the legal actions grouped by verb and space, count steppers for actions that differ only in
// a number ("move k07 k06 footsoldier 3"), narrowing by the places chosen on the board, and typed notation.
import { h } from "./ui.js";
import { decorateAction } from "./odds.js";

const FLAT_LIMIT = 14; // up to this many entries the list is flat; more are grouped in folding sections

/** Actions whose notation differs only in a final number, and whose descriptions differ only in numbers (a
 * count, not a choice: "move k07 k06 footsoldier 3", never "pick 3" of different combinations), become one
 * entry with a stepper.
 * @param {LegalAction[]} actions
 * @returns {ActionEntry[]} */
export function entries(actions) {
  /** @type {ActionEntry[]} */
  const out = [];
  /** @type {Map<string, ActionEntry>} */
  const byKey = new Map();
  for (const a of actions) {
    const m = a.text.match(/^(.*\S) (\d+)$/);
    const key = m ? m[1] + " #" : a.text;
    // the description without its numbers and plural endings ("1 army" and "3 armies" are the same choice)
    const same = m ? key + "\u0000" + a.description.replace(/\d+/g, "#").replace(/\b(\w+?)(ies|s|y)\b/g, "$1") : null;
    const known = same === null ? undefined : byKey.get(same);
    if (m && known) { known.options.push({ n: Number(m[2]), a }); continue; }
    const e = { key, options: [{ n: m ? Number(m[2]) : null, a }] };
    if (same !== null) byKey.set(same, e);
    out.push(e);
  }
  for (const e of out) e.options.sort((x, y) => (x.n ?? 0) - (y.n ?? 0));
  return out;
}

/** Sections: by verb, and by verb and first space where a verb has several entries from one space
 * ("Move from Karkoth Keep"), so a big turn reads as the player thinks: from where, then what, then where to.
 * @param {ActionEntry[]} es
 * @param {(id: string) => string} names
 * @returns {Map<string, ActionEntry[]>} the entries by their section's title */
function sections(es, names) {
  /** @param {ActionEntry} e */
  const verb = e => e.options[0].a.text.split(" ")[0];
  /** @param {ActionEntry} e @returns {string | undefined} */
  const first = e => (e.options[0].a.places || [])[0];
  /** @type {Map<string, {n: number, firsts: Set<string>}>} */
  const stats = new Map();
  for (const e of es) {
    const v = verb(e), st = stats.get(v) || { n: 0, firsts: new Set() };
    const f = first(e);
    st.n += 1; if (f) st.firsts.add(f); stats.set(v, st);
  }
  /** @type {Map<string, ActionEntry[]>} */
  const groups = new Map();
  for (const e of es) {
    const v = verb(e), st = /** @type {{n: number, firsts: Set<string>}} */ (stats.get(v));
    const k = first(e) && st.firsts.size < st.n && st.n > 4 ? `${v}\u0000${first(e)}` : v;
    const group = groups.get(k);
    if (group) group.push(e); else groups.set(k, [e]);
  }
  const titled = new Map();
  for (const [k, group] of groups) titled.set(sectionTitle(k, group, names), group);
  return titled;
}

/** A section's title as the game speaks: the word its descriptions start with ("Move", not the notation's
 * "move"), and the space they share ("Move from Blackmere" when every one says "from Blackmere").
 * @param {string} key the verb, or the verb and the first space (joined by a NUL)
 * @param {ActionEntry[]} group
 * @param {(id: string) => string} names */
export function sectionTitle(key, group, names) {
  const [v, place] = key.split("\u0000");
  const descs = group.map(e => e.options[0].a.description || "");
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const d of descs) { const w = d.split(/\s+/)[0]; if (w) counts.set(w, (counts.get(w) || 0) + 1); }
  const word = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const said = word && (counts.get(word) || 0) * 2 > descs.length ? word.replace(/[:,.;]$/, "") : v;
  const title = said.charAt(0).toUpperCase() + said.slice(1);
  if (place === undefined) return title;
  const name = names(place);
  return descs.every(d => d.includes(`from ${name}`)) ? `${title} from ${name}` : `${title} · ${name}`;
}

// the notation (what one would type) is on hover only: the button reads as the game speaks
/** @param {LegalAction} a @param {string | null} tip */
function notationTip(a, tip) { return [tip, a.description !== a.text ? `notation: ${a.text}` : null].filter(Boolean).join("\n") || null; }

// quiet (board.notation "title"): the rules help's verb text is left out of the tooltip, which gives the notation only
/**
 * @param {ActionEntry} e
 * @param {Live} me
 * @param {(text: string) => unknown} send
 * @param {Set<LegalAction>} matchSet
 * @param {Record<string, HelpTerm>} help
 * @param {boolean} quiet
 */
function entryView(e, me, send, matchSet, help, quiet) {
  const isMatch = matchSet.has(e.options[0].a);
  const verb = help[`verb:${e.options[0].a.text.split(" ")[0]}`];
  const tip = !quiet && verb ? `${verb.name}: ${verb.text}` : null;
  if (e.options.length === 1) {
    const a = e.options[0].a;
    const li = h("li", { class: isMatch ? "match" : "" },
      h("button", { type: "button", "data-action": a.text, title: notationTip(a, tip), onclick: () => send(a.text) }, a.description));
    decorateAction(li, a, { gid: me.gid, token: me.token, step: me.data && me.data.game ? me.data.game.step : null });
    return li;
  }
  const values = e.options.map(o => o.n);
  const kept = me.steps[e.key];
  let i = kept !== undefined ? Math.max(0, values.indexOf(kept)) : values.length - 1;
  const out = h("output", { class: "count", "aria-live": "polite" });
  const go = h("button", { type: "button", class: "go primary" });
  const desc = h("span", { class: "desc" });
  const show = () => {
    const a = e.options[i].a;
    out.textContent = String(values[i]);
    const title = notationTip(a, null);
    go.dataset.action = a.text;
    go.setAttribute("aria-label", a.description);
    desc.textContent = a.description;
    go.textContent = "Play";
    if (title) go.title = title; else go.removeAttribute("title"); // (a null title would read "null")
    minus.disabled = i === 0; plus.disabled = i === values.length - 1;
  };
  const minus = h("button", { type: "button", class: "step minus", "aria-label": "one fewer", text: "−",
    onclick: () => { i = Math.max(0, i - 1); me.steps[e.key] = values[i]; show(); } });
  const plus = h("button", { type: "button", class: "step plus", "aria-label": "one more", text: "+",
    onclick: () => { i = Math.min(values.length - 1, i + 1); me.steps[e.key] = values[i]; show(); } });
  go.addEventListener("click", () => send(go.dataset.action || ""));
  show();
  return h("li", { class: "stepper" + (isMatch ? " match" : ""), "data-key": e.key, title: tip },
    desc, h("span", { class: "stepbox" }, minus, out, plus, go));
}

/**
 * The "Your actions" card. me: {selected, filter, steps}; legal: [{text, description, places}];
 * names(regionId) -> the space's name; send(text); rerender().
 */
/** The pieces of the chosen space, a count each (0 to all), before the destination is clicked.
 * @param {Live} me
 * @param {Compose} compose
 * @param {(id: string) => string} names */
function composer(me, compose, names) {
  const p = /** @type {NonNullable<Live["pieces"]>} */ (me.pieces);
  const max = compose.counts[p.from];
  const rows = Object.entries(max).map(([kind, mx]) => {
    const out = h("output", { class: "count", "data-kind": kind });
    const minus = h("button", { type: "button", class: "step minus", "aria-label": `one ${compose.names[kind] || kind} fewer`, text: "−" });
    const plus = h("button", { type: "button", class: "step plus", "aria-label": `one ${compose.names[kind] || kind} more`, text: "+" });
    const show = () => { out.textContent = `${p.n[kind]} of ${mx}`; minus.disabled = p.n[kind] <= 0; plus.disabled = p.n[kind] >= mx; };
    minus.addEventListener("click", () => { p.n[kind] = Math.max(0, p.n[kind] - 1); show(); });
    plus.addEventListener("click", () => { p.n[kind] = Math.min(mx, p.n[kind] + 1); show(); });
    show();
    return h("li", { class: "stepper", "data-kind": kind }, h("span", { class: "desc", text: compose.names[kind] || kind }),
      h("span", { class: "stepbox" }, minus, out, plus));
  });
  return h("div", { class: "composer", id: "composer" },
    h("p", { class: "help" }, h("b", { text: `Move from ${names(p.from)}: ` }), "set how many of each, then click the destination on the board."),
    h("ul", {}, rows));
}

/**
 * @param {GameData} d
 * @param {Live} me
 * @param {{names: (id: string) => string, send: (text: string) => unknown, rerender: () => void,
 *   matching: LegalAction[], compose: Compose | null | undefined | false, why: HTMLElement | null}} how
 */
export function actionCard(d, me, { names, send, rerender, matching, compose, why }) {
  const legal = d.legal || [];
  const help = (d.board && d.board.help) || {};
  const quiet = !!(d.board && d.board.notation === "title");
  const note = me.note; me.note = ""; // shown once
  const sel = me.selected;
  const matchSet = new Set(sel.length ? matching : []); // highlighted only when the board narrowed the list
  const input = h("input", { type: "text", id: "notation", placeholder: "filter, or type an action and press Enter",
    "aria-label": "Action in notation", value: me.filter, autocomplete: "off", autocapitalize: "off" });
  const list = h("div", { id: "actions", class: "actions", "aria-label": "Legal actions" });
  const fill = () => {
    const f = input.value.trim().toLowerCase();
    const shown = (sel.length ? matching : legal).filter(a => !f || a.text.toLowerCase().includes(f) || a.description.toLowerCase().includes(f));
    const es = entries(shown);
    list.replaceChildren();
    if (es.length <= FLAT_LIMIT) {
      list.append(h("ul", {}, es.map(e => entryView(e, me, send, matchSet, help, quiet))));
    } else {
      const groups = sections(es, names);
      let first = true;
      for (const [k, group] of groups) {
        const det = h("details", { class: "group", open: first || groups.size <= 3 || me.open.has(k) },
          h("summary", {}, k, h("span", { class: "muted", text: ` (${group.length})` })),
          h("ul", {}, group.map(e => entryView(e, me, send, matchSet, help, quiet))));
        det.addEventListener("toggle", () => { if (det.open) me.open.add(k); else me.open.delete(k); });
        list.append(det);
        first = false;
      }
    }
    if (!es.length) list.append(h("p", { class: "help", text: "No action matches." }));
  };
  input.addEventListener("input", () => { me.filter = input.value; fill(); });
  input.addEventListener("keydown", ev => {
    if (ev.key === "Enter") { ev.preventDefault(); send(input.value.trim()); }
    if (ev.key === "Escape") { me.selected = []; input.value = ""; me.filter = ""; rerender(); }
  });
  fill();
  const hint = sel.length
    ? h("p", { class: "help chosen" }, `Chosen on the board: ${sel.map(names).join(" → ")} `,
      h("button", { type: "button", id: "clear-sel", onclick: () => { me.selected = []; rerender(); }, text: "clear" }),
      matching.length ? ` — ${matching.length} action${matching.length > 1 ? "s" : ""}; pick a count, or click the next space on the board.` : "")
    : (legal.some(a => a.places && a.places.length) ? h("p", { class: "help", text: "Click a highlighted space on the board to narrow the list (from, then to)." }) : null);
  return h("div", { class: "card action-card", id: "action-card" }, h("h2", { text: "Your actions" }), why || null, hint,
    note ? h("p", { class: "help note", role: "status", text: note }) : null,
    me.pieces && compose ? composer(me, compose, names) : null, input, list,
    d.legal_truncated ? h("p", { class: "help", text: "Only the first actions are listed; type any other in notation." }) : null);
}
