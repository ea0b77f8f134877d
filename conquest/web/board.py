"""The board a page draws: the ruleset's optional ``board_json`` hook, completed for drawing.

The hook (documented in docs/web.md) is ``ruleset.board_json(view: dict, seat: int | None) -> dict``.
It receives only what ``state.view(seat)`` returned, so it cannot leak what the seat may not see. (The
one-argument form ``board_json(state)`` is accepted too.) It returns
``{"map": <GameMap.to_json()>, "regions": {id: {owner, pieces, markers, label}}, "notes": [...]}``.
Map regions are drawn from ``polygon``, or ``cell: [col, row]`` (a grid square), or only ``center`` (this
module computes Voronoi cells inside the map's bounding box, set apart by a gap so that no two of them touch).
The map's ``borders`` are then drawn as ``links`` (see ``border_links``): a line between the centres of two
bordering regions when either has no shape of its own, and a short bridge where two shapes border each other
without a visible shared edge (they meet at a point, or not at all).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from conquest.core.game import Action, Ruleset

Point = tuple[float, float]


def _clip(poly: list[Point], a: Point, b: Point) -> list[Point]:
    """Keep the part of ``poly`` nearer to ``a`` than to ``b`` (Sutherland-Hodgman on the bisector)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]

    def inside(p: Point) -> bool:
        return (p[0] - mx) * nx + (p[1] - my) * ny <= 0

    def cross(p: Point, q: Point) -> Point:
        dp = (p[0] - mx) * nx + (p[1] - my) * ny
        dq = (q[0] - mx) * nx + (q[1] - my) * ny
        t = dp / (dp - dq) if dp != dq else 0.0
        return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))

    out: list[Point] = []
    for i, cur in enumerate(poly):
        prev = poly[i - 1]
        if inside(cur):
            if not inside(prev):
                out.append(cross(prev, cur))
            out.append(cur)
        elif inside(prev):
            out.append(cross(prev, cur))
    return out


def voronoi(centers: list[Point], box: tuple[float, float, float, float]) -> list[list[Point]]:
    x0, y0, x1, y1 = box
    cells = []
    for i, c in enumerate(centers):
        poly: list[Point] = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        for j, d in enumerate(centers):
            if i != j and d != c and poly:
                poly = _clip(poly, c, d)
        pts: list[Point] = []
        for x, y in poly:
            q = (round(x, 2), round(y, 2))
            if not pts or q != pts[-1]:
                pts.append(q)
        if len(pts) > 1 and pts[0] == pts[-1]:
            pts.pop()
        cells.append(pts)
    return cells


def _keep(poly: list[Point], n: Point, c: float) -> list[Point]:
    """Keep the part of ``poly`` where ``n . p <= c`` (Sutherland-Hodgman on one line)."""
    def side(p: Point) -> float:
        return p[0] * n[0] + p[1] * n[1] - c

    out: list[Point] = []
    for i, cur in enumerate(poly):
        prev = poly[i - 1]
        dc, dp = side(cur), side(prev)
        if (dc <= 0) != (dp <= 0):
            t = dp / (dp - dc)
            out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
        if dc <= 0:
            out.append(cur)
    return out


def _area(poly: list[Point]) -> float:
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1]))) / 2


def inset(cell: list[Point], center: Point, d: float) -> list[Point]:
    """A convex cell with every side moved ``d`` towards its inside (so that two cells that shared a side
    are ``2 d`` apart); a cell too small for that is scaled down about its centre instead."""
    poly = list(cell)
    for p, q in zip(cell, cell[1:] + cell[:1]):
        nx, ny = q[1] - p[1], p[0] - q[0]
        length = (nx * nx + ny * ny) ** 0.5
        if length == 0:
            continue
        nx, ny = nx / length, ny / length
        if nx * (center[0] - p[0]) + ny * (center[1] - p[1]) > 0:
            nx, ny = -nx, -ny  # the outward normal
        poly = _keep(poly, (nx, ny), nx * p[0] + ny * p[1] - d)
        if len(poly) < 3:
            break
    if len(poly) < 3 or _area(poly) < 0.2 * _area(cell):
        poly = [(center[0] + 0.6 * (x - center[0]), center[1] + 0.6 * (y - center[1])) for x, y in cell]
    return poly


def _seg_dist(a: Point, b: Point, c: Point, d: Point) -> float:
    """The distance between the segments ab and cd (0 when they cross)."""
    def cross(o: Point, p: Point, q: Point) -> float:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    d1, d2, d3, d4 = cross(a, b, c), cross(a, b, d), cross(c, d, a), cross(c, d, b)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return 0.0

    def pt(p: Point, s: Point, e: Point) -> float:
        vx, vy = e[0] - s[0], e[1] - s[1]
        ll = vx * vx + vy * vy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - s[0]) * vx + (p[1] - s[1]) * vy) / ll))
        return float(((p[0] - s[0] - t * vx) ** 2 + (p[1] - s[1] - t * vy) ** 2) ** 0.5)

    return min(pt(a, c, d), pt(b, c, d), pt(c, a, b), pt(d, a, b))


def _inside(p: Point, poly: list[Point]) -> bool:
    hit = False
    for a, b in zip(poly, poly[1:] + poly[:1]):
        if (a[1] > p[1]) != (b[1] > p[1]) and p[0] < a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]):
            hit = not hit
    return hit


def _edges(poly: list[Point]) -> list[tuple[Point, Point]]:
    return list(zip(poly, poly[1:] + poly[:1]))


def _shared(pa: list[Point], pb: list[Point], tol: float) -> float:
    """The length of the sides of ``pa`` and ``pb`` that lie on each other."""
    total = 0.0
    for p, q in _edges(pa):
        length = ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
        if length == 0:
            continue
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        for r, s in _edges(pb):
            if abs((r[0] - p[0]) * uy - (r[1] - p[1]) * ux) > tol or abs((s[0] - p[0]) * uy - (s[1] - p[1]) * ux) > tol:
                continue
            t1, t2 = (r[0] - p[0]) * ux + (r[1] - p[1]) * uy, (s[0] - p[0]) * ux + (s[1] - p[1]) * uy
            total += max(0.0, min(length, max(t1, t2)) - max(0.0, min(t1, t2)))
    return total


def _poly_dist(pa: list[Point], pb: list[Point]) -> tuple[float, Point]:
    """The distance between two outlines and the middle of the nearest points (approximately)."""
    best = (float("inf"), (0.0, 0.0))
    for p, q in _edges(pa):
        for r, s in _edges(pb):
            d = _seg_dist(p, q, r, s)
            if d < best[0]:
                cands = [(a, b) for a in (p, q, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2))
                         for b in (r, s, ((r[0] + s[0]) / 2, (r[1] + s[1]) / 2))]
                a, b = min(cands, key=lambda ab: (ab[0][0] - ab[1][0]) ** 2 + (ab[0][1] - ab[1][1]) ** 2)
                best = (d, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    return best


def _clear_corridors(polys: dict[str, list[Point]], centers: dict[str, Point], borders: list[Any],
                     gap: float) -> None:
    """Cut back the cells that a line between two bordering centres passes through or near (Red Hold's tip
    under the line from Fern March to Millbrook), so that every line shows; a cell that would lose more than
    half of itself is left whole (the line is then drawn over it)."""
    for b in borders:
        if not isinstance(b, (list, tuple)) or len(b) != 2 or b[0] not in centers or b[1] not in centers:
            continue
        pa, pc = centers[b[0]], centers[b[1]]
        dx, dy = pc[0] - pa[0], pc[1] - pa[1]
        length = (dx * dx + dy * dy) ** 0.5
        if length == 0:
            continue
        nx, ny = -dy / length, dx / length  # the line's normal
        lo_x, hi_x = min(pa[0], pc[0]) - gap, max(pa[0], pc[0]) + gap
        lo_y, hi_y = min(pa[1], pc[1]) - gap, max(pa[1], pc[1]) + gap
        for k, poly in polys.items():
            if k in (b[0], b[1]) or len(poly) < 3:
                continue
            if (max(p[0] for p in poly) < lo_x or min(p[0] for p in poly) > hi_x
                    or max(p[1] for p in poly) < lo_y or min(p[1] for p in poly) > hi_y):
                continue  # far from the line
            if min(_seg_dist(pa, pc, p, q) for p, q in _edges(poly)) >= gap / 2:
                continue
            ck = centers[k]
            side = (ck[0] - pa[0]) * nx + (ck[1] - pa[1]) * ny
            along = ((ck[0] - pa[0]) * dx + (ck[1] - pa[1]) * dy) / (length * length)
            if abs(side) < gap or not 0 < along < 1:
                continue
            sgn = 1.0 if side > 0 else -1.0
            # keep sgn * (n . (x - pa)) >= gap / 2, i.e. (-sgn n) . x <= -sgn (n . pa) - gap / 2
            cut = _keep(poly, (-sgn * nx, -sgn * ny), -sgn * (nx * pa[0] + ny * pa[1]) - gap / 2)
            if len(cut) >= 3 and _area(cut) >= 0.5 * _area(poly):
                polys[k] = cut


def border_links(regions: list[dict[str, Any]], borders: list[Any], made: set[str],
                 size: float) -> list[dict[str, Any]]:
    """The borders the drawing must show as lines. ``made``: the regions whose shape this module made from a
    centre (a line joins the two centres; ``over`` when it crosses a third region's shape, so the page draws it
    over the shapes, not under them, where it would seem to end in that region). Two given shapes that border
    each other without sharing a side of visible length (``size`` is a typical region's width) and without one
    lying inside the other get a short ``bridge`` across the place where they meet."""
    by_id = {r["id"]: r for r in regions if isinstance(r, dict) and "id" in r and "polygon" in r and "center" in r}
    poly = {k: [(float(p[0]), float(p[1])) for p in r["polygon"]] for k, r in by_id.items()}
    # a region's other pieces (map region "parts": more rings drawn with its polygon) show borders too
    rings = {k: [poly[k]] + [[(float(p[0]), float(p[1])) for p in part] for part in r.get("parts") or []
                             if isinstance(part, list) and len(part) >= 3] for k, r in by_id.items()}
    cen = {k: (float(r["center"][0]), float(r["center"][1])) for k, r in by_id.items()}
    boxes = {k: (min(p[0] for p in pl), min(p[1] for p in pl), max(p[0] for p in pl), max(p[1] for p in pl))
             for k, pl in poly.items()}
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for b in borders:
        if not isinstance(b, (list, tuple)) or len(b) != 2 or b[0] not in by_id or b[1] not in by_id:
            continue
        a, c = sorted((str(b[0]), str(b[1])))
        if (a, c) in seen or a == c:
            continue
        seen.add((a, c))
        ca, cc = cen[a], cen[c]
        if a in made or c in made:
            tol = size * 0.001
            x0, y0, x1, y1 = min(ca[0], cc[0]), min(ca[1], cc[1]), max(ca[0], cc[0]), max(ca[1], cc[1])
            near = [k for k, bx in boxes.items() if k not in (a, c)
                    and bx[0] <= x1 + tol and bx[2] >= x0 - tol and bx[1] <= y1 + tol and bx[3] >= y0 - tol]
            over = any(_inside(((ca[0] + cc[0]) / 2, (ca[1] + cc[1]) / 2), poly[k])
                       or any(_seg_dist(ca, cc, p, q) <= tol for p, q in _edges(poly[k])) for k in near)
            out.append({"a": a, "b": c, "from": [round(ca[0], 2), round(ca[1], 2)],
                        "to": [round(cc[0], 2), round(cc[1], 2)], "over": over})
            continue
        if (_inside(ca, poly[c]) or _inside(cc, poly[a])
                or sum(_shared(x, y, size * 0.004) for x in rings[a] for y in rings[c]) >= size * 0.05):
            continue  # the shapes show this border
        gap, mid = min((_poly_dist(x, y) for x in rings[a] for y in rings[c]), key=lambda d: d[0])
        dx, dy = cc[0] - ca[0], cc[1] - ca[1]
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        half = gap / 2 + size * 0.12
        ux, uy = dx / length * half, dy / length * half
        out.append({"a": a, "b": c, "from": [round(mid[0] - ux, 2), round(mid[1] - uy, 2)],
                    "to": [round(mid[0] + ux, 2), round(mid[1] + uy, 2)], "over": True, "bridge": True})
    return out


def _centroid(poly: list[Point]) -> Point:
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        f = x0 * y1 - x1 * y0
        a += f
        cx += (x0 + x1) * f
        cy += (y0 + y1) * f
    if abs(a) < 1e-9:
        return sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)
    return cx / (3 * a), cy / (3 * a)


def _label_point(poly: list[Point], center: Point) -> list[float]:
    """Where a cell made from a centre shows its name and pieces: the centre, unless it lies near the cell's top
    or bottom (a region on the upper or lower rim of a map given by centres: its cell reaches to the map's edge,
    its centre does not, and the stack of name and pieces would cross the edge), then at the height of the
    cell's centroid (inside a convex cell, as a Voronoi cell is)."""
    ys = [p[1] for p in poly]
    h = max(ys) - min(ys)
    if min(center[1] - min(ys), max(ys) - center[1]) >= 0.3 * h:
        return [center[0], center[1]]
    return [center[0], round(_centroid(poly)[1], 2)]


@lru_cache(maxsize=64)
def _complete_map(map_text: str) -> str:
    m = json.loads(map_text)
    regions = m.get("regions", [])
    pts: list[Point] = []
    for r in regions:
        if "cell" in r and isinstance(r["cell"], list) and len(r["cell"]) == 2:
            x, y = float(r["cell"][0]), float(r["cell"][1])
            r["polygon"] = [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]]
            r["center"] = [x + 0.5, y + 0.5]
        if "polygon" in r and "center" not in r:
            poly = r["polygon"]
            r["center"] = [sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)]
        if "polygon" in r:
            pts.extend((float(p[0]), float(p[1])) for p in r["polygon"])
        elif "center" in r:
            pts.append((float(r["center"][0]), float(r["center"][1])))
    need = [r for r in regions if "polygon" not in r and "center" in r]
    if pts:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
        pad = span * 0.06 if need else 0.0
        box = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
        if need:
            centers = [(float(r["center"][0]), float(r["center"][1])) for r in need]
            cells = voronoi(centers, box)
            # the cells are set apart (a gap of a sixth of the usual distance between neighbouring centres):
            # cells that touched would show a border the map may not have; the map's borders are drawn as lines
            near = sorted(min(((x - u) ** 2 + (y - v) ** 2) ** 0.5 for k, (u, v) in enumerate(centers) if k != i)
                          for i, (x, y) in enumerate(centers)) if len(centers) > 1 else [span]
            gap = near[len(near) // 2] / 6
            keys = [str(r.get("id", f"#{i}")) for i, r in enumerate(need)]
            polys = {k: inset(cell, c, gap / 2) if cell else cell for k, c, cell in zip(keys, centers, cells)}
            _clear_corridors(polys, dict(zip(keys, centers)), m.get("borders") or [], gap)
            for k, r in zip(keys, need):
                r["polygon"] = [[round(x, 2), round(y, 2)] for x, y in polys[k]]
                r["cell_from_center"] = True
                if "label_at" not in r and polys[k]:
                    r["label_at"] = _label_point(polys[k], (float(r["center"][0]), float(r["center"][1])))
        margin = span * 0.03  # room for the labels of regions on the edge
        # a grid's column and row numbers (map "axes") go in a wider margin above and on the left
        lead = margin + 1.6 * float((m.get("axes") or {}).get("size", 0.5)) if m.get("axes") else margin
        m["viewbox"] = [round(box[0] - lead, 2), round(box[1] - lead, 2),
                        round(box[2] - box[0] + lead + margin, 2), round(box[3] - box[1] + lead + margin, 2)]
    else:
        m["viewbox"] = [0, 0, 100, 100]
    if regions and isinstance(m.get("borders"), list) and m["borders"]:
        vb = m["viewbox"]
        size = (float(vb[2]) * float(vb[3]) / max(len(regions), 1)) ** 0.5
        m["links"] = border_links(regions, m["borders"], {r["id"] for r in need if "id" in r}, size)
    return json.dumps(m)


def complete_board(board: dict[str, Any]) -> dict[str, Any]:
    """Add drawing polygons and a view box to the map of a board returned by the hook."""
    if not isinstance(board, dict):
        return {}
    out = dict(board)
    m = board.get("map")
    if isinstance(m, dict):
        out["map"] = json.loads(_complete_map(json.dumps(m, sort_keys=True, default=str)))
        if out["map"].get("links") and isinstance(out.get("legend", []), list):
            out["legend"] = [*out.get("legend", []), {"line": True, "text": "border (a line joins two regions "
                                                      "that border each other)"}]
    return out


def auto_regions(game_map: dict[str, Any], view: dict[str, Any], players: int) -> dict[str, Any]:
    """Per-region facts found in a view without a ruleset's help: a mapping keyed by region ids (at the top
    of the view or one level down) whose name says owner/control gives the owner; lists of one number per
    seat become pieces; other numbers and short words become labels."""
    ids = {r["id"] for r in game_map.get("regions", []) if isinstance(r, dict) and "id" in r}
    out: dict[str, dict[str, Any]] = {rid: {"pieces": [], "markers": []} for rid in ids}
    found: list[tuple[str, dict[str, Any]]] = []
    for k, v in view.items():
        if isinstance(v, dict):
            if v and sum(1 for x in v if x in ids) * 2 >= len(v):
                found.append((k, v))
            else:
                for k2, v2 in v.items():
                    if isinstance(v2, dict) and v2 and sum(1 for x in v2 if x in ids) * 2 >= len(v2):
                        found.append((k2, v2))
    for name, table in found[:8]:
        owner_like = any(w in name.lower() for w in ("owner", "control", "held", "holder"))
        for rid, val in table.items():
            if rid not in out:
                continue
            cell = out[rid]
            if owner_like and (val is None or (isinstance(val, int) and not isinstance(val, bool))):
                cell["owner"] = val if isinstance(val, int) and 0 <= val < players else None
            elif (isinstance(val, list) and len(val) == players
                  and all(isinstance(x, int) and not isinstance(x, bool) for x in val)):
                cell["pieces"].extend({"seat": i, "kind": name, "count": x} for i, x in enumerate(val) if x)
            elif isinstance(val, bool):
                if val:
                    cell["markers"].append(name)
            elif isinstance(val, (int, float)) or (isinstance(val, str) and len(val) <= 16):
                cell["markers"].append(f"{name} {val}")
    return out


def board_for(ruleset: Ruleset, state: Any, view: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """The board for ``seat``: ``Ruleset.board_json(view, seat)`` (it sees only the view; ``None``, the default:
    no board); a bare map (``conquest-map/1``) gets ``auto_regions``."""
    board = ruleset.board_json(view, seat)
    if not isinstance(board, dict) or not board:
        return None
    if "map" not in board and isinstance(board.get("regions"), list):
        board = {"map": board}
    if not isinstance(board.get("map"), dict):
        return None
    if "regions" not in board:
        board = {**board, "regions": auto_regions(board["map"], view, int(view.get("players", 0) or 0))}
    if "help" not in board:
        board = {**board, "help": ruleset.help_terms()}
    return complete_board(board)


def places(action: Action, region_ids: set[str], text: str = "",
           aliases: dict[str, str] | None = None) -> list[str]:
    """The regions an action names (for choosing it by clicking the board): region ids among its parts, or
    among the words of its notation ``text`` (a ruleset whose actions hold squares as numbers, like Narby's
    ``move 3,4``), each word or part also looked up in the board's ``aliases`` (a place of power's id ->
    the square it is clicked on)."""
    al = aliases or {}

    def one(p: Any) -> str | None:
        if isinstance(p, str):
            p = al.get(p, p)
            return p if p in region_ids else None
        return None

    out: list[str] = []

    def walk(a: Any) -> None:
        for p in a if isinstance(a, tuple) else (a,):
            if isinstance(p, tuple):
                walk(p)
            else:
                q = one(p)
                if q is not None and q not in out:
                    out.append(q)
    walk(action)
    if not out and text:
        for w in text.split():
            q = one(w)
            if q is not None and q not in out:
                out.append(q)
    return out


def region_ids(board: dict[str, Any] | None) -> set[str]:
    if not board or not isinstance(board.get("map"), dict):
        return set()
    return {r["id"] for r in board["map"].get("regions", []) if isinstance(r, dict) and "id" in r}
