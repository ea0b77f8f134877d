// @ts-check
// The board: one SVG drawn from the ruleset's board_json (map polygons, per-region owner, pieces, markers,
// icons, overlays), with zoom and pan (wheel, pinch, drag, buttons) and clickable places.
import { h, s, color, toast } from "./ui.js";

/** @type {Record<string, string>} */
const KIND_FILL = { land: "#efe6cf", sea: "#b9d3e6", lake: "#cfe3ef", water: "#b9d3e6", mountain: "#d8cbb5",
  forest: "#cfe0bf", dungeon: "#a1887f", cave: "#d9d0c7", settlement: "#f1d9b5", empty: "#f4efe4", castle: "#e8d7b0",
  hill: "#e3d6b8", swamp: "#c9d3b4", farmland: "#efe3a8" };
const SHAPES = ["circle", "square", "diamond", "triangle", "hexagon"];

// the view box each board keeps while the page re-draws (zoom and pan survive a move)
/** @type {Map<string, Box>} */
const views = new Map();

/** @param {number[][]} poly @returns {Box} */
function bbox(poly) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of poly) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  return [x0, y0, x1 - x0, y1 - y0];
}

/** @param {string} kind @param {number} x @param {number} y @param {number} r @param {string} fill */
function shape(kind, x, y, r, fill) {
  const st = { fill, stroke: "#fff", "stroke-width": r * 0.12 };
  if (kind === "square") return s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: r * 0.2, ...st });
  if (kind === "diamond") return s("path", { d: `M${x},${y - r * 1.15}L${x + r * 1.15},${y}L${x},${y + r * 1.15}L${x - r * 1.15},${y}Z`, ...st });
  if (kind === "triangle") return s("path", { d: `M${x},${y - r * 1.15}L${x + r * 1.1},${y + r * 0.85}L${x - r * 1.1},${y + r * 0.85}Z`, ...st });
  if (kind === "hexagon") {
    const pts = []; for (let k = 0; k < 6; k++) pts.push(`${x + r * Math.cos(Math.PI / 3 * k)},${y + r * Math.sin(Math.PI / 3 * k)}`);
    return s("path", { d: "M" + pts.join("L") + "Z", ...st });
  }
  return s("circle", { cx: x, cy: y, r, ...st });
}

/** A name on one line, or two (split at the space nearest the middle) when it is long.
 * @param {string} name */
function wrap(name) {
  if (name.length <= 9 || !name.includes(" ")) return [name];
  let best = -1;
  for (let i = 0; i < name.length; i++) if (name[i] === " " && (best < 0 || Math.abs(i - name.length / 2) < Math.abs(best - name.length / 2))) best = i;
  return [name.slice(0, best), name.slice(best + 1)];
}

/** ": <rules text>" of a help term (board.help), or "".
 * @param {Record<string, HelpTerm> | null | undefined} help
 * @param {string | null | undefined} key */
export function helpText(help, key) {
  const t = key && help && help[key];
  return t ? `: ${t.text}` : "";
}

/** The text of a piece for titles and screen readers: "3 footsoldiers of Karkoth".
 * @param {Piece} p
 * @param {(seat: SeatIndex) => string} seatName */
export function pieceText(p, seatName) {
  const n = p.count ?? 1;
  return `${n} ${p.kind || "piece"}${p.seat !== undefined && p.seat !== null ? " of " + seatName(p.seat) : ""}`;
}

/** opts: {places:Set, selected:[], onRegion(id), seatName(seat), colors:[], key:string}
 * @param {Board & {map: BoardMap}} board
 * @param {BoardOptions} opts
 * @returns {BoardSvg} */
export function drawBoard(board, opts) {
  const m = board.map;
  const vb = (board.legible && board.legible.viewbox) || m.viewbox || [0, 0, 100, 100];
  const drawn = (m.regions || []).filter(r => r.polygon).length || 1;
  const unit = Math.sqrt(vb[2] * vb[3] / drawn) / 22; // a typical region's scale
  const colors = board.colors || null;
  /** @param {SeatIndex | null | undefined} seat */
  const col = seat => (colors && seat !== null && seat !== undefined && seat >= 0 && colors[seat]) || color(seat);
  const places = opts.places || new Set();
  const selected = opts.selected || [];
  const info = board.regions || {};
  const help = board.help || {};
  const svg = /** @type {BoardSvg} */ (s("svg", { class: "board", viewBox: vb.join(" "), role: "group", "aria-label": `Board: ${m.name || m.id}`,
    "data-board": board.kind || m.id || "", "data-home": vb.join(" ") }));
  const defs = s("defs", {},
    s("pattern", { id: "declined", patternUnits: "userSpaceOnUse", width: 2 * unit, height: 2 * unit, patternTransform: "rotate(45)" },
      s("rect", { width: 2 * unit, height: 2 * unit, fill: "#ffffff", "fill-opacity": 0.0 }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 2 * unit, stroke: "#333", "stroke-width": 0.7 * unit, "stroke-opacity": 0.45 })));
  svg.append(defs);
  const base = s("g", { class: "regions" }), top = s("g", { class: "pieces" }), labels = s("g", { class: "labels" });
  const showNames = m.labels !== false;
  // board.legible {name_px, count_px, focus?}: names and counts keep a size in pixels (Nerath)
  const legible = board.legible || null;
  /** @type {LegibleLayout["stacks"]} */
  const stacks = [];
  const rings = s("g", { class: "rings" });
  if (legible) svg.classList.add("legible");
  // the map's borders as lines (map.links, made by the server): between the centres of regions drawn as cells
  // set apart, under them; over the shapes where a line crosses a third region or bridges two shapes that meet
  // only at a corner
  const under = s("g", { class: "links" }), over = s("g", { class: "links over" }), backs = s("g", { class: "backs" });
  const names = new Map((m.regions || []).map(r => [r.id, (info[r.id] && info[r.id].name) || r.name || r.id]));
  for (const l of m.links || []) {
    const [x1, y1] = l.from, [x2, y2] = l.to;
    const g = s("g", { class: "link" + (l.bridge ? " bridge" : ""), "data-a": l.a, "data-b": l.b },
      s("title", {}, `${names.get(l.a) || l.a} and ${names.get(l.b) || l.b} border each other`));
    if (l.over) g.append(s("line", { x1, y1, x2, y2, class: "casing", "stroke-width": 1.5 * unit }));
    g.append(s("line", { x1, y1, x2, y2, class: "border", "stroke-width": 0.75 * unit }));
    (l.over ? over : under).append(g);
  }
  for (const r of m.regions || []) {
    if (!r.polygon) continue;
    const st = info[r.id] || {};
    const g = s("g", { class: "region" + (places.has(r.id) ? " can" : "") + (selected.includes(r.id) ? " sel" : "") + (st.declined ? " declined" : ""),
      "data-region": r.id });
    const d = [r.polygon, ...(r.parts || [])].map(ring => "M" + ring.map(p => `${p[0]},${p[1]}`).join("L") + "Z").join(""); // parts: more pieces of it
    if (r.cell_from_center) backs.append(s("path", { d })); // the lines under it do not show through a tint
    const owned = st.owner !== null && st.owner !== undefined;
    const ownerColor = st.color || col(st.owner);
    const fill = st.fill || (owned ? ownerColor : ((r.kind && KIND_FILL[r.kind]) || "#eee"));
    g.append(s("path", { d, fill, "fill-opacity": st.fill ? 1 : owned ? 0.38 : 1 }));
    if (st.fill && owned) g.append(s("path", { d, fill: ownerColor, "fill-opacity": 0.35, class: "tint" }));
    if (st.declined) g.append(s("path", { d, fill: "url(#declined)", class: "hatch" }));
    const name = st.name || r.name || "";
    const title = [name ? (legible ? name : `${name} (${r.id})`) : r.id]; // a legible board names no ids
    if (st.label) title.push(String(st.label));
    for (const p of st.pieces || []) title.push(pieceText(p, opts.seatName));
    for (const ic of st.icons || []) title.push(ic.title || ic.icon);
    for (const mk of st.markers || []) title.push(String(mk));
    g.append(s("title", {}, title.join(", ")));
    base.append(g);
    const [bx, by, bw, bh] = bbox(r.polygon);
    const [cx, cy] = r.label_at || r.center || [bx + bw / 2, by + bh / 2];
    const room = Math.min(bw, bh);
    if (legible) { // laid out once the board is on the page, at its size in pixels (legibleLayout)
      if (st.ring) rings.append(s("path", { d, fill: "none", stroke: st.ring, "stroke-width": 0.75 * unit, class: "ring", "stroke-linejoin": "round",
        transform: `translate(${cx} ${cy}) scale(0.9) translate(${-cx} ${-cy})` }));
      stacks.push({ id: r.id, name: showNames ? name : "", cx, cy, bw, bh, pieces: st.pieces || [], icons: st.icons || [],
        marks: (st.markers || []).map(String) });
    } else {
    // one vertical stack centred on the region: its name, a small line (label, markers), pieces, icons
    const pieces = st.pieces || [];
    const icons = st.icons || [];
    const marks = (st.markers || []).map(String);
    if (st.label && !st.hideLabel) marks.unshift(String(st.label));
    const named = !!(name && showNames);
    const lines = named ? wrap(name) : [];
    const longest = Math.max(...lines.map(x => x.length), 4);
    const labelSize = Math.max(Math.min(3 * unit, 1.75 * bw / longest, bh / (2.4 + lines.length)), 0.6 * unit);
    const small = marks.length && showNames ? Math.min(labelSize * 0.72, 1.6 * bw / Math.max(marks.join(" · ").length, 6)) : 0;
    const cols = Math.min(Math.max(pieces.length, 1), room > 12 * unit ? 3 : 2);
    const rows = Math.ceil(pieces.length / cols);
    const textH = lines.length * labelSize * 1.05 + (small ? small * 1.2 : 0);
    const chip = Math.min(2.1 * unit, 0.82 * bw / (cols * 2.3), Math.max(0.75 * bh - textH, 0.3 * bh) / (rows * 2.3 + (icons.length ? 2 : 0)));
    const isz = icons.length ? Math.min(showNames ? 1.25 * unit : room * 0.3, 0.8 * bw / (icons.length * 2.4), 0.4 * bh) : 0;
    const height = textH + rows * chip * 2.3 + (icons.length ? isz * 2.3 : 0);
    let y = cy - height / 2;
    if (named) {
      const text = s("text", { x: cx, y: y + labelSize * 0.85, "text-anchor": "middle", "font-size": labelSize, class: "label", "data-region": r.id });
      lines.forEach((line, i) => text.append(s("tspan", { x: cx, dy: i ? "1.05em" : 0 }, line)));
      labels.append(text);
      y += lines.length * labelSize * 1.05;
    }
    if (small) {
      labels.append(s("text", { x: cx, y: y + small * 0.9, "text-anchor": "middle", "font-size": small, class: "label small",
        "data-region": r.id }, marks.join(" · ")));
      y += small * 1.2;
    }
    // pieces: one chip per kind and seat, shape by kind, a letter and the count
    pieces.forEach((p, i) => {
      const row = Math.floor(i / cols), c = i % cols, inRow = Math.min(cols, pieces.length - row * cols);
      const x = cx + (c - (inRow - 1) / 2) * chip * 2.3, py = y + chip * 1.15 + row * chip * 2.3;
      const kind = p.shape || SHAPES[0];
      const pg = s("g", { class: "piece", "data-kind": p.kind || "" },
        s("title", {}, pieceText(p, opts.seatName) + helpText(help, p.help)));
      pg.append(shape(kind, x, py, chip, p.color || (p.seat === null || p.seat === undefined ? "#555" : col(p.seat))));
      const count = p.count ?? 1;
      const letter = p.icon !== undefined ? String(p.icon) : "";
      const txt = letter && count > 1 ? `${letter}${count}` : letter || String(count);
      pg.append(s("text", { x, y: py + chip * 0.36, "text-anchor": "middle", "font-size": chip * (txt.length > 2 ? 0.85 : 1.05),
        fill: "#fff", "font-weight": "bold" }, txt));
      top.append(pg);
    });
    y += rows * chip * 2.3;
    // icons (castles, dungeon entrances, bonus locations...): small badges under the pieces
    icons.forEach((ic, i) => {
      const x = cx + (i - (icons.length - 1) / 2) * isz * 2.4, iy = y + isz * 1.15;
      top.append(s("g", { class: "icon", "data-icon": ic.key || ic.icon },
        s("title", {}, (ic.title || ic.icon) + helpText(help, ic.help)),
        s("rect", { x: x - isz, y: iy - isz, width: 2 * isz, height: 2 * isz, rx: isz * 0.35, fill: ic.fill || "#fff8e1",
          stroke: ic.stroke || "#5a4a30", "stroke-width": isz * 0.12 }),
        s("text", { x, y: iy + isz * 0.38, "text-anchor": "middle", "font-size": isz * 1.1, fill: ic.color || "#3b2a14", "font-weight": "bold" }, ic.icon)));
    });
    }
    // a legible board: a tap (or click) on a space with no action here shows its name and the full list of pieces
    if (legible && !places.has(r.id)) g.addEventListener("click", () => { if (!svg.dragged) toast(title.join(", ")); });
    if (places.has(r.id)) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `${name || r.id}: choose`);
      g.addEventListener("click", () => { if (!svg.dragged) opts.onRegion(r.id); });
      g.addEventListener("keydown", ev => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); opts.onRegion(r.id); } });
    }
  }
  // overlays: pieces larger than a region (a Narby dragon covers 2x2 squares); clicks pass through them
  const overlays = s("g", { class: "overlays" });
  for (const o of board.overlays || []) {
    const fill = o.seat !== undefined && o.seat !== null ? col(o.seat) : (o.fill || "#555");
    const og = s("g", { class: "overlay " + (o.class || ""), "data-overlay": o.kind || "" }, s("title", {}, (o.title || o.label || "") + helpText(help, o.help)));
    og.append(s("rect", { x: o.x + 0.06, y: o.y + 0.06, width: o.w - 0.12, height: o.h - 0.12, rx: o.round ?? 0.25, fill,
      "fill-opacity": o.opacity ?? 0.85, stroke: o.stroke || "#222", "stroke-width": 0.08 }));
    if (o.label) og.append(s("text", { x: o.x + o.w / 2, y: o.y + o.h / 2 + Math.min(o.w, o.h) * 0.13, "text-anchor": "middle",
      "font-size": Math.min(o.w, o.h) * (o.label.length > 2 ? 0.28 : 0.4), fill: o.text || "#fff", "font-weight": "bold" }, o.label));
    overlays.append(og);
  }
  // a grid's column and row numbers (map.axes: {cols: [[x, text]], rows: [[y, text]], size}), in the margin
  if (m.axes) {
    const ax = s("g", { class: "axes", "aria-hidden": "true" }), size = m.axes.size || 0.5;
    const cy = m.axes.col_y ?? vb[1] + size * 1.25, rx = m.axes.row_x ?? vb[0] + size * 1.1;
    for (const [x, t] of m.axes.cols || []) ax.append(s("text", { x, y: cy, "text-anchor": "middle", "font-size": size, fill: "#5d4a2c" }, t));
    for (const [y, t] of m.axes.rows || []) ax.append(s("text", { x: rx, y: y + size * 0.35, "text-anchor": "middle", "font-size": size, fill: "#5d4a2c" }, t));
    labels.append(ax);
  }
  svg.append(under, backs, base, over, overlays, top, labels);
  if (legible) {
    base.after(rings);
    svg.legible = { spec: legible, stacks, top, labels, help, seatName: opts.seatName, col, focus: legible.focus ? focusBox(m, legible.focus, unit) : null };
    const saved = views.get(opts.key || m.id || "board");
    svg.dataset.fresh = saved ? "" : "1";
  }
  zoomable(svg, opts.key || m.id || "board", vb);
  return svg;
}

/** The view box around some regions (a seat's realm), a little margin around.
 * @param {BoardMap} m @param {string[]} ids @param {number} unit @returns {Box | null} */
function focusBox(m, ids, unit) {
  /** @type {number[][]} */
  const pts = [];
  for (const r of m.regions || []) if (ids.includes(r.id) && r.polygon) pts.push(...r.polygon);
  if (!pts.length) return null;
  const [x, y, w, hh] = bbox(pts);
  return [x - unit, y - unit, w + 2 * unit, hh + 2 * unit];
}

/** Greedy wrap of a name into lines of at most `max` characters (a word longer than that keeps its line).
 * @param {string} name @param {number} max */
function wrapTo(name, max) {
  /** @type {string[]} */
  const out = [];
  for (const w of name.split(" ")) {
    const last = /** @type {string | undefined} */ (out[out.length - 1]);
    if (last !== undefined && (last + " " + w).length <= max) out[out.length - 1] = last + " " + w;
    else out.push(w);
  }
  return out;
}

/** The names, pieces and icons of a legible board, at sizes in pixels: names at spec.name_px, piece counts at
 * spec.count_px for the board's width on the page (or, on a narrow screen, for the view zoomed on spec.focus).
 * A space shows one chip per piece kind and realm ("F3"), its Castle, capital and dungeon badges beside them;
 * the chip's title lists the pieces.
 * @param {BoardSvg & {legible: LegibleLayout}} svg */
function legibleLayout(svg) {
  const L = svg.legible;
  const home = (svg.dataset.home || "").split(" ").map(Number);
  const rect = { width: svg.clientWidth, height: svg.clientHeight };
  if (!rect.width || !home[2]) return;
  let k = Math.min(rect.width / home[2], rect.height / home[3]) * 0.995; // pixels per board unit, the whole board shown
  const want = L.spec.unit_px || 0;
  if (L.focus && want && k < want * 0.75) { // a phone: open on the seat's realm, zoomed until names are legible
    const w = Math.min(home[2], rect.width / want);
    const hgt = w * home[3] / home[2];
    k = Math.min(rect.width / w, rect.height / hgt) * 0.995;
    const [fx, fy, fw, fh] = L.focus;
    if (svg.dataset.fresh === "1" && svg.setView) svg.setView([fx + fw / 2 - w / 2, fy + fh / 2 - hgt / 2, w, hgt]);
  }
  svg.dataset.scale = String(k);
  const fn = L.spec.name_px / k, fc = L.spec.count_px / k;
  L.top.replaceChildren(); L.labels.replaceChildren();
  const charW = 0.56; // of the font size, for DejaVu Sans Condensed bold
  const widths0 = L.stacks.map(st => st.bw).sort((a, b) => a - b);
  const cell = widths0[Math.floor(widths0.length / 2)] || 1; // a typical space's width (a big sea's name stays on its hex)
  for (const st of L.stacks) {
    const maxChars = Math.max(6, Math.floor(Math.min(st.bw, cell) * 0.98 / (fn * charW)));
    const lines = st.name ? (st.name.length <= maxChars ? [st.name] : wrapTo(st.name, maxChars)) : [];
    /** @type {{icon?: RegionIcon, piece?: Piece, txt: string}[]} */
    const items = [];
    for (const ic of st.icons) items.push({ icon: ic, txt: String(ic.icon) });
    for (const p of st.pieces) {
      const n = p.count ?? 1, letter = p.icon !== undefined ? String(p.icon) : "";
      items.push({ piece: p, txt: letter && n > 1 ? `${letter}${n}` : letter || String(n) });
    }
    const ph = fc * 1.3, gap = fc * 0.18;
    const widths = items.map(it => Math.max(ph, it.txt.length * fc * 0.62 + fc * 0.45));
    /** @type {[typeof items[number], number][][]} */
    const rows = [];
    /** @type {[typeof items[number], number][]} */
    let cur = [], curW = 0;
    items.forEach((it, i) => {
      const w = widths[i];
      if (cur.length && curW + gap + w > Math.min(st.bw, cell) * 1.08) { rows.push(cur); cur = []; curW = 0; }
      cur.push([it, w]); curW += (cur.length > 1 ? gap : 0) + w;
    });
    if (cur.length) rows.push(cur);
    const marks = st.marks.join(" · ");
    const small = marks ? fn * 0.85 : 0;
    const height = lines.length * fn * 1.08 + (small ? small * 1.15 : 0) + rows.length * (ph + gap);
    let y = st.cy - height / 2;
    if (lines.length) {
      const text = s("text", { x: st.cx, y: y + fn * 0.86, "text-anchor": "middle", "font-size": fn, class: "label", "data-region": st.id });
      lines.forEach((line, i) => text.append(s("tspan", { x: st.cx, dy: i ? "1.08em" : 0 }, line)));
      L.labels.append(text);
      y += lines.length * fn * 1.08;
    }
    if (small) {
      L.labels.append(s("text", { x: st.cx, y: y + small * 0.9, "text-anchor": "middle", "font-size": small, class: "label small mark", "data-region": st.id }, marks));
      y += small * 1.15;
    }
    for (const row of rows) {
      const total = row.reduce((a, [, w]) => a + w, 0) + gap * (row.length - 1);
      let x = st.cx - total / 2;
      for (const [it, w] of row) {
        const mx = x + w / 2, my = y + gap / 2 + ph / 2;
        if (it.piece) {
          const p = it.piece;
          L.top.append(s("g", { class: "piece", "data-kind": p.kind || "", "data-region": st.id },
            s("title", {}, pieceText(p, L.seatName) + helpText(L.help, p.help)),
            s("rect", { x, y: y + gap / 2, width: w, height: ph, rx: ph * (p.shape === "circle" ? 0.5 : p.shape === "square" ? 0.12 : 0.3),
              fill: p.color || (p.seat === null || p.seat === undefined ? "#555" : L.col(p.seat)), stroke: "#fff", "stroke-width": fc * 0.1 }),
            s("text", { x: mx, y: my + fc * 0.36, "text-anchor": "middle", "font-size": fc, fill: "#fff", "font-weight": "bold", class: "count" }, it.txt)));
        } else {
          const ic = /** @type {RegionIcon} */ (it.icon);
          L.top.append(s("g", { class: "icon", "data-icon": ic.key || ic.icon, "data-region": st.id },
            s("title", {}, (ic.title || ic.icon) + helpText(L.help, ic.help)),
            s("rect", { x, y: y + gap / 2, width: w, height: ph, rx: ph * 0.2, fill: ic.fill || "#fff8e1", stroke: ic.stroke || "#5a4a30", "stroke-width": fc * 0.1 }),
            s("text", { x: mx, y: my + fc * 0.36, "text-anchor": "middle", "font-size": fc, fill: ic.color || "#3b2a14", "font-weight": "bold" }, it.txt)));
        }
        x += w + gap;
      }
      y += ph + gap;
    }
  }
}

/** Labels that still touch an earlier one get smaller, then are hidden (the region's title keeps the name).
 * @param {BoardSvg} svg */
export function fitLabels(svg) {
  if (svg.legible) { legibleLayout(/** @type {BoardSvg & {legible: LegibleLayout}} */ (svg)); return; }
  /** @type {DOMRect[]} */
  const kept = [];
  const [vx, vy, vw, vh] = (svg.dataset.home || "").split(" ").map(Number);
  /** @type {NodeListOf<SVGTextElement>} */
  const texts = svg.querySelectorAll("text.label");
  for (const t of texts) { // keep every label inside the board (no clipped names)
    if (!vw) break;
    const b = t.getBBox();
    const dx = b.x < vx ? vx - b.x : b.x + b.width > vx + vw ? vx + vw - b.x - b.width : 0;
    const dy = b.y < vy ? vy - b.y : b.y + b.height > vy + vh ? vy + vh - b.y - b.height : 0;
    if (dx) for (const e of [t, ...t.querySelectorAll("tspan")]) e.setAttribute("x", String(Number(e.getAttribute("x")) + dx));
    if (dy) t.setAttribute("y", String(Number(t.getAttribute("y")) + dy));
  }
  /** @param {DOMRect} a @param {DOMRect} b */
  const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  for (const t of /** @type {NodeListOf<SVGTextElement>} */ (svg.querySelectorAll("text.label"))) {
    for (let k = 0; k < 4; k++) {
      const b = t.getBBox();
      if (!kept.some(o => hit(o, b))) { kept.push(b); break; }
      if (k === 3) { t.setAttribute("visibility", "hidden"); t.classList.add("hidden"); break; }
      t.setAttribute("font-size", String(Number(t.getAttribute("font-size")) * 0.8));
    }
  }
}

// ---- zoom and pan ------------------------------------------------------------------------------------
/** @param {BoardSvg} svg @param {string} key @param {Box} home */
function zoomable(svg, key, home) {
  let v = views.get(key) || home.slice();
  /** @param {Box} nv */
  const set = nv => {
    const w = Math.min(Math.max(nv[2], home[2] / 8), home[2]), hgt = w * home[3] / home[2];
    const x = Math.min(Math.max(nv[0], home[0] - w * 0.25), home[0] + home[2] - w * 0.75);
    const y = Math.min(Math.max(nv[1], home[1] - hgt * 0.25), home[1] + home[3] - hgt * 0.75);
    v = [x, y, w, hgt]; views.set(key, v); svg.setAttribute("viewBox", v.join(" "));
  };
  set(v);
  /** @param {number} cx @param {number} cy */
  const toBoard = (cx, cy) => {
    const r = svg.getBoundingClientRect();
    const sc = Math.max(v[2] / r.width, v[3] / r.height);
    const ox = (r.width - v[2] / sc) / 2, oy = (r.height - v[3] / sc) / 2;
    return [v[0] + (cx - r.left - ox) * sc, v[1] + (cy - r.top - oy) * sc, sc];
  };
  /** @param {number} f @param {number} [cx] @param {number} [cy] */
  const zoomAt = (f, cx, cy) => {
    const [bx, by] = cx === undefined || cy === undefined ? [v[0] + v[2] / 2, v[1] + v[3] / 2] : toBoard(cx, cy);
    set([bx - (bx - v[0]) * f, by - (by - v[1]) * f, v[2] * f, v[3] * f]);
  };
  svg.zoomBy = zoomAt;
  svg.setView = set;
  svg.resetZoom = () => set(home.slice());
  svg.addEventListener("wheel", ev => { ev.preventDefault(); zoomAt(ev.deltaY > 0 ? 1.2 : 1 / 1.2, ev.clientX, ev.clientY); }, { passive: false });
  /** @type {Map<number, number[]>} */
  const pts = new Map();
  /** @type {{v: Box, pts: Map<number, number[]>} | null} */
  let start = null;
  svg.addEventListener("pointerdown", ev => {
    pts.set(ev.pointerId, [ev.clientX, ev.clientY]);
    svg.dragged = false;
    start = { v: v.slice(), pts: new Map(pts) };
  });
  svg.addEventListener("pointermove", ev => {
    if (!pts.has(ev.pointerId) || !start) return;
    pts.set(ev.pointerId, [ev.clientX, ev.clientY]);
    const r = svg.getBoundingClientRect();
    const sc = Math.max(start.v[2] / r.width, start.v[3] / r.height);
    if (pts.size === 1) {
      const [x0, y0] = start.pts.get(ev.pointerId) || [ev.clientX, ev.clientY];
      const dx = ev.clientX - x0, dy = ev.clientY - y0;
      if (!svg.dragged && Math.hypot(dx, dy) < 6) return;
      if (start.v[2] >= home[2] && ev.pointerType === "touch") return; // an unzoomed board lets the page scroll
      svg.dragged = true; try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* */ }
      set([start.v[0] - dx * sc, start.v[1] - dy * sc, start.v[2], start.v[3]]);
    } else if (pts.size === 2 && start.pts.size === 2) {
      const [a, b] = [...pts.values()], [a0, b0] = [...start.pts.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]), d0 = Math.hypot(a0[0] - b0[0], a0[1] - b0[1]) || 1;
      svg.dragged = true;
      const f = d0 / d, mx = (a0[0] + b0[0]) / 2, my = (a0[1] + b0[1]) / 2;
      const bx = start.v[0] + (mx - r.left) * sc, by = start.v[1] + (my - r.top) * sc;
      set([bx - (bx - start.v[0]) * f, by - (by - start.v[1]) * f, start.v[2] * f, start.v[3] * f]);
    }
  });
  /** @param {PointerEvent} ev */
  const up = ev => { pts.delete(ev.pointerId); start = pts.size ? { v: v.slice(), pts: new Map(pts) } : null; setTimeout(() => { svg.dragged = false; }, 0); };
  svg.addEventListener("pointerup", up); svg.addEventListener("pointercancel", up);
}

/** The zoom buttons under a board.
 * @param {() => BoardSvg | null | undefined} svgGetter */
export function zoomBar(svgGetter) {
  return h("div", { class: "zoombar", "aria-label": "Zoom" },
    h("button", { type: "button", title: "Zoom in", "aria-label": "Zoom in", onclick: () => svgGetter()?.zoomBy?.(1 / 1.4), text: "+" }),
    h("button", { type: "button", title: "Zoom out", "aria-label": "Zoom out", onclick: () => svgGetter()?.zoomBy?.(1.4), text: "−" }),
    h("button", { type: "button", title: "Whole board", "aria-label": "Whole board", onclick: () => svgGetter()?.resetZoom?.(), text: "⤢" }));
}

/** Legend entries (board.legend: [{icon, text, shape?, help?}]) shown beside the board, not as a footnote.
 * @param {Board} board */
export function legend(board) {
  const items = board.legend || [];
  if (!items.length) return null;
  return h("ul", { class: "legend", "aria-label": "Legend" }, items.map(it => {
    const sw = s("svg", { viewBox: "-2 -2 4 4", class: "legend-icon", "aria-hidden": "true" });
    if (it.line) sw.append(s("line", { x1: -1.8, y1: 0, x2: 1.8, y2: 0, class: "border", "stroke-width": 0.9 }));
    else if (it.shape) sw.append(shape(it.shape, 0, 0, 1.5, it.fill || "#666"));
    else sw.append(s("rect", { x: -1.6, y: -1.6, width: 3.2, height: 3.2, rx: 0.6, fill: it.fill || "#fff8e1", stroke: "#5a4a30", "stroke-width": 0.15 }));
    if (it.icon) sw.append(s("text", { x: 0, y: 0.6, "text-anchor": "middle", "font-size": 1.7, fill: it.shape ? "#fff" : "#3b2a14", "font-weight": "bold" }, it.icon));
    return h("li", { title: it.help || "" }, sw, h("span", { text: it.text }));
  }));
}
