"""The board a page draws: the ruleset's optional ``board_json`` hook, completed for drawing.

The hook (documented in docs/web.md) is ``ruleset.board_json(view: dict, seat: int | None) -> dict``.
It receives only what ``state.view(seat)`` returned, so it cannot leak what the seat may not see. (The
one-argument form ``board_json(state)`` is accepted too.) It returns
``{"map": <GameMap.to_json()>, "regions": {id: {owner, pieces, markers, label}}, "notes": [...]}``.
Map regions are drawn from ``polygon``, or ``cell: [col, row]`` (a grid square), or only ``center`` (this
module computes Voronoi cells inside the map's bounding box).
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
            cells = voronoi([(float(r["center"][0]), float(r["center"][1])) for r in need], box)
            for r, cell in zip(need, cells):
                r["polygon"] = [list(p) for p in cell]
        margin = span * 0.03  # room for the labels of regions on the edge
        # a grid's column and row numbers (map "axes") go in a wider margin above and on the left
        lead = margin + 1.6 * float((m.get("axes") or {}).get("size", 0.5)) if m.get("axes") else margin
        m["viewbox"] = [round(box[0] - lead, 2), round(box[1] - lead, 2),
                        round(box[2] - box[0] + lead + margin, 2), round(box[3] - box[1] + lead + margin, 2)]
    else:
        m["viewbox"] = [0, 0, 100, 100]
    return json.dumps(m)


def complete_board(board: dict[str, Any]) -> dict[str, Any]:
    """Add drawing polygons and a view box to the map of a board returned by the hook."""
    if not isinstance(board, dict):
        return {}
    out = dict(board)
    m = board.get("map")
    if isinstance(m, dict):
        out["map"] = json.loads(_complete_map(json.dumps(m, sort_keys=True, default=str)))
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
