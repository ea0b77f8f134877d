// @ts-check
// Exact odds in the page: a badge and a small panel beside each dice-driven action of a game (fetched from
// GET /api/games/{id}/odds), and the drawing of a battle's result (bars) that the calculator page shares.
// An ES module; every text from the server goes in with textContent.

/**
 * An HTML element: attributes (`on…` listeners, `text` its text), then its children (one level of lists).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Kid[]} kids
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

/** A probability as a percentage to show: "0%", "<0.1%", "37%", "4.2%", ">99.9%", "100%".
 * @param {number} p */
export function pct(p) {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  if (p < 0.001) return "<0.1%";
  if (p > 0.999) return ">99.9%";
  return (100 * p).toFixed(p < 0.1 || p > 0.9 ? 1 : 0) + "%";
}

/** @type {["attacker_wins" | "defender_holds" | "both_destroyed", string, string][]} */
const OUTCOMES = [
  ["attacker_wins", "Attacker wins", "win"],
  ["defender_holds", "Defender holds", "hold"],
  ["both_destroyed", "Both destroyed", "both"],
];

// the three results of a battle as one stacked bar and a legend (ids prefixed with `id` when given)
/** @param {Partial<OddsResult>} r @param {string} [id] */
export function battleBars(r, id) {
  const bar = el("div", { class: "odds-stack", role: "img",
    "aria-label": OUTCOMES.map(([k, label]) => `${label} ${pct(/** @type {number} */ (r[k]))}`).join(", ") });
  const legend = el("ul", { class: "odds-legend" });
  for (const [k, label, cls] of OUTCOMES) {
    const seg = el("span", { class: `seg ${cls}` });
    const p = /** @type {number} */ (r[k]);
    seg.style.width = `${(100 * p).toFixed(3)}%`;
    bar.append(seg);
    legend.append(el("li", { class: cls }, el("span", { class: "dot" }), `${label} `,
      el("b", { id: id ? `${id}-${cls}` : null, "data-p": p, text: pct(p) })));
  }
  if (r.attacker_retreats !== undefined && r.attacker_retreats > 0)
    legend.append(el("li", { class: "muted" }, `(the attacker retreats in ${pct(r.attacker_retreats)})`));
  return el("div", { class: "odds-bars" }, bar, legend);
}

/** "2 footsoldier, wizard", or "none". @param {string[]} pieces */
function pieceList(pieces) {
  if (!pieces.length) return "none";
  const counts = new Map();
  for (const p of pieces) counts.set(p, (counts.get(p) || 0) + 1);
  return [...counts].map(([p, n]) => n > 1 ? `${n} ${p}` : p).join(", ");
}

// allied defenders' pieces, realm by realm ("realm: castle; other realm: 2 footsoldier")
/** @param {Record<string, string[]>} byRealm */
function realmList(byRealm) {
  return Object.entries(byRealm).map(([r, p]) => `${r}: ${pieceList(p)}`).join("; ");
}

// the most likely survivors of each side, as rows of small bars; `names` the sides' captions
/** @param {Partial<OddsResult>} r @param {number} [limit] @param {{attacker: string, defender: string}} [names] */
export function survivorTable(r, limit = 6, names = { attacker: "Attacker", defender: "Defender" }) {
  const box = el("div", { class: "odds-surv" });
  for (const side of /** @type {const} */ (["attacker", "defender"])) {
    const rows = r[`${side}_survivors`] || [];
    const tb = el("table", { class: "odds-table", id: `surv-${side}` },
      el("caption", { text: `${names[side]}: what is left` }));
    for (const row of rows.slice(0, limit)) {
      const fill = el("span", { class: "fill" }); fill.style.width = `${(100 * row.probability).toFixed(2)}%`;
      tb.append(el("tr", {}, el("td", { class: "who", text: row.by_realm ? realmList(row.by_realm) : pieceList(row.pieces) }),
        el("td", { class: "meter" }, el("span", { class: "track" }, fill)), el("td", { class: "p", text: pct(row.probability) })));
    }
    if (rows.length > limit) {
      const rest = rows.slice(limit).reduce((a, x) => a + x.probability, 0);
      tb.append(el("tr", { class: "muted" }, el("td", { text: `${rows.length - limit} other outcomes` }), el("td"), el("td", { class: "p", text: pct(rest) })));
    }
    box.append(tb);
  }
  return box;
}

// a battle in words: "2 fighter, wizard against the Guardians (troll, facedown) (casualties cheapest, pressing
// always)"; `b` is a game's battle record ({attacker, defender, kind, sea, order, press, allies?})
/** @param {BattleRecord} b */
export function battleLine(b) {
  return el("p", { class: "help battle-line" }, `${pieceList(b.attacker)} against `,
    b.allies ? realmList(b.allies) : b.kind === "dungeon" ? `the Guardians (${pieceList(b.defender)})` : pieceList(b.defender),
    b.sea ? " at sea" : "", ` (casualties ${b.order}, pressing ${b.press})`);
}

// what a won dungeon brings, as the odds report it (null outside a dungeon)
/** @param {Partial<OddsResult>} r @param {BattleRecord | null | undefined} b */
export function rewardLine(r, b) {
  if (!b || b.kind !== "dungeon" || r.reward_gold === undefined) return null;
  const avg = b.defender.includes("facedown") ? " on average" : "";
  return el("p", { class: "help reward-line" }, `A won dungeon: a Treasure card and the Guardians' Rewards, ${+r.reward_gold.toFixed(2)} gold${avg}`,
    r.expected_reward_gold !== undefined ? `; counting the battles lost, ${+r.expected_reward_gold.toFixed(2)} gold expected.` : ".");
}

// how allied defenders share the damage (docs/odds.md, "Allied defenders")
export const ALLY_SPLIT = "Allied defenders share each roll's hits: half each, an odd hit to the realm with more pieces in " +
  "the space (the Castle counts for its owner; on equal numbers either, ½ each), and hits beyond what one realm can " +
  "take go to the other. Each realm takes its share in its own casualty order and rolls with its own cards.";

/** @param {Partial<OddsResult>} r */
export function battleFigures(r) {
  const g = r.expected_gold_lost || {};
  return el("dl", { class: "odds-figs" },
    el("dt", { text: "Expected gold lost" }),
    el("dd", { id: "gold-lost" }, `attacker ${(g.attacker ?? 0).toFixed(2)} · defender ${(g.defender ?? 0).toFixed(2)}`),
    el("dt", { text: "Expected rounds" }), el("dd", { id: "expected-rounds", text: (r.expected_rounds ?? 0).toFixed(2) }));
}

// the calculator page's address hash for a battle given as POST /api/odds/{ruleset}'s body (pieces as lists of ids):
// a=attacker&d=defender (or the Guardians with dungeon=1)&l=the ally's pieces (present when an ally is stated)
// &sea=1&order=listed&press=until-below=K&ac=, dc=, lc=: the attacker's, defender's, ally's cards
/**
 * @param {{attacker: string[], defender: string[], ally?: string[] | null, dungeon?: boolean, sea?: boolean,
 *   order?: string, press?: string, attacker_cards?: string[], defender_cards?: string[], ally_cards?: string[]}} b
 */
export function calcHash(b) {
  const q = new URLSearchParams({ a: b.attacker.join(","), d: b.defender.join(",") });
  if (b.ally) q.set("l", b.ally.join(","));
  if (b.dungeon) q.set("dungeon", "1");
  if (b.sea) q.set("sea", "1");
  if (b.order && b.order !== "cheapest") q.set("order", b.order);
  if (b.press && b.press !== "always") q.set("press", b.press);
  for (const [k, key] of /** @type {const} */ ([["attacker_cards", "ac"], ["defender_cards", "dc"], ["ally_cards", "lc"]])) {
    const cards = b[k];
    if (cards && cards.length) q.set(key, cards.join(","));
  }
  return q.toString();
}

// a calculator link with a game's battle record filled in (allied defenders: the first realm is the defender,
// the second its ally; a dungeon: its Guardians, facedown for a tile not seen); `ruleset` the game's
/** @param {BattleRecord} battle @param {string | undefined} ruleset */
export function calcLink(battle, ruleset) {
  const realms = battle.allies ? Object.values(battle.allies) : null;
  return `/calc/${ruleset}#` + calcHash({ attacker: battle.attacker, defender: realms ? realms[0] : battle.defender,
    ally: realms ? realms[1] : null, dungeon: battle.kind === "dungeon", sea: battle.sea,
    order: battle.order, press: battle.press });
}

// an outcome in words: a summary text, or a record such as {result, attacker_keeps: [pieces]}
/** @param {unknown} o */
function outcomeText(o) {
  if (typeof o === "string") return o;
  if (!o || typeof o !== "object") return String(o);
  return Object.entries(o).map(([k, v]) => k === "result" ? String(v)
    : `${k.replace(/_/g, " ")}: ${Array.isArray(v) ? pieceList(v.map(String)) : String(v)}`).join("; ");
}

// the answer of GET /api/games/{id}/odds, drawn: bars for a battle, a table of outcomes otherwise
/** @param {ActionOdds} data */
export function oddsPanel(data) {
  const box = el("div", { class: "odds-panel" });
  if (data.attacker_wins !== undefined) {
    const b = data.battle;
    if (b) box.append(battleLine(b));
    box.append(...[battleBars(data), battleFigures(data), rewardLine(data, b)].filter(x => x !== null));
    // the calculator states the pieces, the Guardian tiles and the policies; what else this battle has, it is told
    const beyond = (b && b.beyond_calculator) || [];
    if (b) box.append(el("p", { class: "calc-open" }, el("a", { href: calcLink(b, data.ruleset), target: "_blank", rel: "noopener", text: "Open in the battle calculator" }),
      beyond.length ? el("small", { class: "help", text: ` (there without ${beyond.join(", ")}: other odds)` }) : null));
    return box;
  }
  const tb = el("table", { class: "odds-table" });
  const outcomes = data.outcomes || [];
  for (const o of outcomes.slice(0, 12)) {
    const fill = el("span", { class: "fill" }); fill.style.width = `${(100 * o.probability).toFixed(2)}%`;
    tb.append(el("tr", {}, el("td", { class: "who", text: outcomeText(o.outcome) }),
      el("td", { class: "meter" }, el("span", { class: "track" }, fill)), el("td", { class: "p", text: pct(o.probability) })));
  }
  if (outcomes.length > 12) tb.append(el("tr", { class: "muted" }, el("td", { text: `${outcomes.length - 12} more outcomes` })));
  box.append(tb);
  return box;
}

/** @typedef {{gid: string, token: string, step: number | null}} OddsContext */
/** @type {Map<string, Promise<ActionOdds>>} */
const cache = new Map();
/** @param {OddsContext} ctx @param {string} text @returns {Promise<ActionOdds>} */
async function fetchOdds(ctx, text) {
  const key = `${ctx.gid}|${ctx.step}|${text}`;
  if (!cache.has(key)) {
    cache.set(key, (async () => {
      const resp = await fetch(`/api/games/${encodeURIComponent(ctx.gid)}/odds?action=${encodeURIComponent(text)}`,
        { headers: { "Accept": "application/json", "X-Conquest-Token": ctx.token } });
      let data = null; try { data = await resp.json(); } catch (e) { data = null; }
      if (!resp.ok) { cache.delete(key); throw new Error((data && data.error) || `the server answered ${resp.status}`); }
      return data;
    })());
  }
  return /** @type {Promise<ActionOdds>} */ (cache.get(key));
}

// The hook the game page calls for each listed action: `li` holds the action's button; `action` is an entry of
// the payload's `legal` list ({text, description, odds}); ctx = {gid, token, step}. Actions with odds get a
// small "odds" button that opens a panel under them; the battle window's `press` opens its panel at once.
/** @param {HTMLLIElement} li @param {LegalAction} action @param {OddsContext} ctx */
export function decorateAction(li, action, ctx) {
  if (!action || !action.odds) return;
  const panel = el("div", { class: "odds-drop", hidden: true, "aria-live": "polite" });
  const badge = el("span", { class: "odds-badge", "aria-hidden": "true" });
  const btn = el("button", { type: "button", class: "odds-btn", "aria-expanded": "false",
    "aria-label": `Odds of ${action.text}`, title: "Exact odds of this action", "data-odds": action.text }, "odds ", badge);
  const row = li.querySelector("button");
  const wrap = el("div", { class: "odds-row" });
  if (row) { row.replaceWith(wrap); wrap.append(row, btn); } else li.append(btn);
  li.append(panel);
  let loaded = false;
  async function load() {
    if (loaded) return;
    loaded = true;
    panel.replaceChildren(el("p", { class: "help", text: "Computing the exact odds…" }));
    try {
      const data = await fetchOdds(ctx, action.text);
      panel.replaceChildren(oddsPanel(data));
      if (data.attacker_wins !== undefined) { badge.textContent = pct(data.attacker_wins); badge.className = "odds-badge win"; }
    } catch (e) { loaded = false; panel.replaceChildren(el("p", { class: "odds-error", role: "alert", text: /** @type {Error} */ (e).message })); }
  }
  /** @param {boolean} open */
  function toggle(open) {
    panel.hidden = !open; btn.setAttribute("aria-expanded", String(open));
    if (open) load();
  }
  btn.addEventListener("click", () => toggle(Boolean(panel.hidden)));
  // a battle's chance of winning shows on the badge as soon as the action is hovered or focused
  if (row) for (const ev of ["mouseenter", "focus"]) row.addEventListener(ev, () => load(), { once: true });
  if (action.text === "press") toggle(true);
}

