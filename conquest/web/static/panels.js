// @ts-check
// Panels beside the board: one per seat (name, colour, score, holdings: built by the ruleset from the seat's
// own view), the result table, rules help, and the raw view as a tree (for rulesets without a board hook).
import { h, swatch, color, label, toast } from "./ui.js";

/** @param {SeatIndex} seat @param {string[] | null | undefined} colors */
function seatSwatch(seat, colors) {
  const el = swatch(seat);
  if (colors && colors[seat]) el.style.background = colors[seat];
  return el;
}

/** board.panels: [{seat, title, score: [[label, value, help?]], holds: [[label, value, help?]], badges: [[text, help]]}]
 * @param {GameData} d
 * @param {(seat: SeatIndex) => string} seatName */
export function playerPanels(d, seatName) {
  const g = d.game;
  /** @type {Panel[]} */
  const panels = (d.board && d.board.panels) || g.seats.map(x => ({ seat: x.seat }));
  const colors = d.board && d.board.colors;
  return h("div", { class: "players", id: "players", "aria-label": "Players" }, panels.map(p => {
    const seat = g.seats.find(x => x.seat === p.seat);
    const toMove = g.to_move === p.seat;
    const you = d.you && d.you.seat === p.seat;
    const thinking = d.thinking === p.seat;
    const kind = seat && seat.kind !== "human" ? `computer (${seat.kind})` : "";
    /** @param {[string, unknown, string?]} fact */
    const fact = ([lab, val, help]) => h("span", { class: "fact" + (help ? " has-help" : ""), title: help || null, tabindex: help ? 0 : null,
      onclick: help ? () => toast(help) : null }, // a tap shows the tooltip (a hand's cards and what they do)
      h("b", { text: `${lab} ` }), h("span", { text: val === null || val === undefined ? "?" : String(val) }));
    const box = h("div", { class: "player" + (toMove ? " to-move" : "") + (you ? " you" : ""), "data-seat": p.seat },
      h("div", { class: "who" }, seatSwatch(p.seat, colors), h("b", { text: seatName(p.seat) }),
        p.title ? h("span", { class: "muted", text: ` ${p.title}` }) : null,
        you ? h("span", { class: "tag", text: "you" }) : null,
        kind ? h("span", { class: "muted", text: ` ${kind}` }) : null,
        toMove && !g.over ? h("span", { class: "tag turn-tag", text: thinking ? "thinking…" : "to move" }) : null),
      p.score && p.score.length ? h("div", { class: "facts score" }, p.score.map(fact)) : null,
      p.holds && p.holds.length ? h("div", { class: "facts" }, p.holds.map(fact)) : null,
      p.badges && p.badges.length ? h("div", { class: "badges" }, p.badges.map(([t, help]) =>
        h("span", { class: "badge" + (help ? " has-help" : ""), title: help || null, tabindex: help ? 0 : null, text: t }))) : null);
    if (colors && colors[p.seat]) box.style.borderLeftColor = colors[p.seat]; else box.style.borderLeftColor = color(p.seat);
    return box;
  }));
}

/** Rules help: every term the board uses (board.help: {term: {name, kind, text}}), grouped by kind.
 * @param {Board | null | undefined} board
 * @param {string} rulesId */
export function helpPanel(board, rulesId) {
  const help = (board && board.help) || {};
  /** @type {Record<string, [string, HelpTerm][]>} */
  const byKind = {};
  for (const [key, t] of Object.entries(help)) (byKind[t.kind || "term"] ||= []).push([key, t]);
  const kinds = Object.keys(byKind);
  return h("details", { class: "card rules-help", id: "rules-help" },
    h("summary", {}, h("b", { text: "Rules help" }), " ",
      rulesId ? h("a", { href: `/howto/${rulesId}`, target: "_blank", rel: "noopener", class: "howto-link", text: "how to play" }) : null,
      rulesId ? " · " : null,
      rulesId ? h("a", { href: `/rules/${rulesId}`, target: "_blank", rel: "noopener", text: "the rules readings" }) : null),
    kinds.length ? kinds.map(k => h("section", {}, h("h3", { text: label(k) + "s" }),
      h("dl", { class: "terms" }, byKind[k].map(([key, t]) => [
        h("dt", { id: `help-${key}`, "data-term": key, text: t.name || key }),
        h("dd", { text: t.text || "" })])))) : h("p", { class: "help", text: "This game gives no rules help yet." }));
}

/** @param {unknown} v */
function scalar(v) { return v === null || typeof v !== "object" || (Array.isArray(v) && v.every(x => x === null || typeof x !== "object")); }
/** @param {unknown} v */
function cell(v) {
  if (v === null || v === undefined) return "–";
  if (Array.isArray(v)) return v.map(x => x === null ? "?" : String(x)).join(", ");
  return String(v);
}
/** @param {[string, Record<string, unknown>][]} rows */
function table(rows) {
  /** @type {string[]} */
  const cols = [];
  for (const [, o] of rows) for (const k of Object.keys(o)) if (!cols.includes(k)) cols.push(k);
  return h("table", { class: "viewtable" },
    h("tr", {}, h("th", { text: "" }), cols.map(c => h("th", { text: c }))),
    rows.map(([lab, o]) => h("tr", {}, h("th", { text: lab }), cols.map(c => h("td", { text: cell(o[c]) })))));
}
/** The view as a tree: lists, tables of like records, key-value lists.
 * @param {unknown} value
 * @param {number} [depth]
 * @returns {HTMLElement} */
function tree(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "muted", text: value === null ? "hidden / none" : "—" });
  /** @param {unknown[]} xs @returns {xs is Record<string, unknown>[]} */
  const flatObjects = xs => xs.length > 1 && xs.every(v => v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every(scalar));
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted", text: "(empty)" });
    if (value.every(v => v === null || typeof v !== "object")) return h("span", { text: value.map(v => v === null ? "?" : String(v)).join(", ") });
    if (flatObjects(value)) return table(value.map((v, i) => [String(i), v]));
    return h("ol", { start: 0 }, value.map(v => h("li", {}, tree(v, depth + 1))));
  }
  if (typeof value === "object" && flatObjects(Object.values(value))) return table(/** @type {[string, Record<string, unknown>][]} */ (Object.entries(value)));
  if (typeof value === "object" && Object.keys(value).length > 6 && Object.values(value).every(scalar))
    return h("div", { class: "kvs" }, Object.entries(value).map(([k, v]) => h("span", { class: "kv" }, h("b", { text: k }), " ", cell(v))));
  if (typeof value === "object") {
    const dl = h("dl");
    for (const [k, v] of Object.entries(value)) dl.append(h("dt", { text: k }), h("dd", {}, tree(v, depth + 1)));
    return dl;
  }
  return h("span", { text: String(value) });
}

/** @param {GameData} data @param {boolean} open */
export function viewPanel(data, open) {
  const hide = new Set(["format", "ruleset", "rules_version"]);
  const view = Object.fromEntries(Object.entries(data.view || {}).filter(([k]) => !hide.has(k)));
  const parts = [];
  if (data.board && data.board.private) parts.push(h("h3", { text: "Your private information" }), h("div", { class: "tree" }, tree(data.board.private)));
  parts.push(h("details", { open: open && !data.text_board },
    h("summary", { text: data.you && data.you.seat !== null ? "Everything you can see" : "Everything a spectator can see" }),
    h("div", { class: "tree", id: "view-tree" }, tree(view))));
  return parts;
}

/** @param {GameInfo} g */
export function resultTable(g) {
  if (!g.over) return null;
  return h("table", { class: "result" },
    g.variant ? h("caption", { class: "variant-tag", text: `Played with a variant: ${g.variant}` }) : null,
    h("tr", {}, h("th", { text: "Seat" }), h("th", { text: "Score" }), h("th", { text: "Result" })),
    g.seats.map(x => h("tr", {}, h("td", {}, swatch(x.seat), x.name),
      h("td", { text: g.scores ? g.scores[x.seat] : "" }),
      h("td", { text: g.result ? (g.result[x.seat] >= 1 ? "won" : g.result[x.seat] > 0 ? `shared win (${g.result[x.seat]})` : "lost") : "" }))));
}
