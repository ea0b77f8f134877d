"""Small World boards: the validator that checks a board against the reference figures of its player count,
and the seeded generator (``--option map=generated``) that makes a board to the same figures.

A board is a ``conquest-map/1`` document. Region ids are ``r1`` .. ``rN`` in order (the notation writes
``conquer r12``). Region attributes (``attrs``): ``terrain`` (farmland, forest, hill, mountain, swamp, sea,
lake), ``edge`` (touches the edge of the board), and the symbols ``mine``, ``cavern``, ``magic``,
``lost_tribe`` (true when present). The generator draws the regions as the Voronoi cells of seeded points in a
300 x 200 frame: the points of the edge regions lie on a ring near the frame, the others well inside, so the
number of edge regions is exact; borders are the cells' shared sides (computed exactly by clipping).
"""

from __future__ import annotations

import math
import random
from typing import Any

from conquest.core.maps import GameMap, MapError, parse_map

TERRAINS = ("farmland", "forest", "hill", "mountain", "swamp", "sea", "lake")
LAND_TERRAINS = ("farmland", "forest", "hill", "mountain", "swamp")
SYMBOLS = ("mine", "cavern", "magic", "lost_tribe")
WIDTH, HEIGHT = 300.0, 200.0


def validate_board(gmap: GameMap, figures: dict[str, int], seas: int = 2, lakes: int = 1) -> None:
    """Raise MapError unless the board has the reference figures of its player count."""
    src = gmap.id
    n = len(gmap.regions)
    for i, r in enumerate(gmap.regions):
        if r.id != f"r{i + 1}":
            raise MapError(f"{src}: region {i} must have id r{i + 1}, not '{r.id}'")
        t = r.attrs.get("terrain")
        if t not in TERRAINS:
            raise MapError(f"{src}: region {r.id} has unknown terrain {t!r}")
        if (r.kind == "land") != (t in LAND_TERRAINS) or (r.kind not in ("land", "sea", "lake")) \
                or (r.kind in ("sea", "lake") and t != r.kind):
            raise MapError(f"{src}: region {r.id}: kind '{r.kind}' does not fit terrain '{t}'")
        for k in r.attrs:
            if k not in ("terrain", "edge") + SYMBOLS:
                raise MapError(f"{src}: region {r.id}: unknown attribute '{k}'")
        if r.kind != "land" and any(r.attrs.get(s) for s in SYMBOLS):
            raise MapError(f"{src}: region {r.id}: a {r.kind} carries no symbol")
    def count(pred: Any) -> int:
        return sum(1 for r in gmap.regions if pred(r))
    got = {
        "regions": n,
        "edge": count(lambda r: r.attrs.get("edge")),
        "mountains": count(lambda r: r.attrs.get("terrain") == "mountain"),
        "lost_tribes": count(lambda r: r.attrs.get("lost_tribe")),
        "mines": count(lambda r: r.attrs.get("mine")),
        "caverns": count(lambda r: r.attrs.get("cavern")),
        "magic": count(lambda r: r.attrs.get("magic")),
        "seas": count(lambda r: r.kind == "sea"),
        "lakes": count(lambda r: r.kind == "lake"),
    }
    want = {k: figures[k] for k in ("regions", "edge", "mountains", "lost_tribes", "mines", "caverns", "magic")}
    want.update(seas=seas, lakes=lakes)
    for k, v in want.items():
        if got[k] != v:
            raise MapError(f"{src}: {k} = {got[k]}, the reference figure is {v}")
    # every sea touches the edge (so its shores are entry regions); the lake does not
    for r in gmap.regions:
        if r.kind == "sea" and not r.attrs.get("edge"):
            raise MapError(f"{src}: sea {r.id} must touch the edge of the board")
    land = [r for r in gmap.regions if r.kind == "land"]
    # the land alone must be connected, or a race could be walled in by water
    seen = {land[0].index}
    stack = [land[0].index]
    while stack:
        i = stack.pop()
        for j in gmap.adjacency[i]:
            if j not in seen and gmap.regions[j].kind == "land":
                seen.add(j)
                stack.append(j)
    if len(seen) != len(land):
        raise MapError(f"{src}: the land regions are not connected")


# ---- the generator ---------------------------------------------------------------------------------------

def _clip(poly: list[tuple[float, float]], labels: list[int], a: float, b: float, c: float,
          lab: int) -> tuple[list[tuple[float, float]], list[int]]:
    """Keep the part of a convex polygon where a*x + b*y <= c; labels[k] names the side from vertex k."""
    out: list[tuple[float, float]] = []
    outl: list[int] = []
    m = len(poly)
    for k in range(m):
        p, q = poly[k], poly[(k + 1) % m]
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
            if fq <= 0:
                outl.append(labels[k])
            else:
                outl.append(labels[k])
                t = fp / (fp - fq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
                outl.append(lab)
        elif fq <= 0:
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
            outl.append(labels[k])
    return out, outl


def voronoi(points: list[tuple[float, float]]) -> tuple[list[list[tuple[float, float]]], list[set[int]],
                                                         list[bool]]:
    """Cells clipped to the frame, neighbours (sides longer than 1e-6) and whether a cell touches the frame."""
    cells, nbrs, edge = [], [], []
    for i, (x, y) in enumerate(points):
        poly = [(0.0, 0.0), (WIDTH, 0.0), (WIDTH, HEIGHT), (0.0, HEIGHT)]
        labels = [-1, -1, -1, -1]
        for j, (u, v) in enumerate(points):
            if j == i:
                continue
            a, b = u - x, v - y
            c = (u * u + v * v - x * x - y * y) / 2.0
            poly, labels = _clip(poly, labels, a, b, c, j)
        ns: set[int] = set()
        touches = False
        for k, lab in enumerate(labels):
            p, q = poly[k], poly[(k + 1) % len(poly)]
            if math.hypot(q[0] - p[0], q[1] - p[1]) <= 1e-6:
                continue
            if lab < 0:
                touches = True
            else:
                ns.add(lab)
        cells.append(poly)
        nbrs.append(ns)
        edge.append(touches)
    for i, ns in enumerate(nbrs):
        for j in list(ns):
            nbrs[j].add(i)
    return cells, nbrs, edge


_SYL_A = ["Ash", "Bram", "Cold", "Dun", "Elm", "Fen", "Glen", "Hart", "Iron", "Kell", "Lark", "Mire", "North",
          "Oak", "Pike", "Raven", "Stone", "Thorn", "Umber", "Vale", "Wolf", "Yew", "Amber", "Briar", "Crag",
          "Dusk", "Ember", "Frost", "Gold", "Holly", "Ivy", "Moss"]
_SYL_B = ["ford", "moor", "reach", "hollow", "dale", "wick", "march", "fell", "mere", "holt", "combe", "barrow",
          "field", "heath", "ridge", "wold"]
_SEA_NAMES = ["Sea of Mists", "Sunken Sea", "Grey Sea", "Amber Sea", "Sea of Teeth", "Glass Sea"]
_LAKE_NAMES = ["Still Lake", "Moon Lake", "Black Lake", "Deep Lake"]


def _place_points(rng: random.Random, n_edge: int, n_inner: int) -> list[tuple[float, float]]:
    """Edge points on a ring 6 units inside the frame, evenly spaced with jitter; inner points by
    best-candidate sampling in a box far enough inside that no inner cell reaches the frame."""
    per = 2 * (WIDTH + HEIGHT)
    step = per / n_edge
    inset = 6.0
    start = rng.uniform(0, step)
    pts: list[tuple[float, float]] = []
    for k in range(n_edge):
        s = (start + k * step + rng.uniform(-0.15, 0.15) * step) % per
        w, h = WIDTH - 2 * inset, HEIGHT - 2 * inset
        s = s * (2 * (w + h)) / per
        if s < w:
            pts.append((inset + s, inset))
        elif s < w + h:
            pts.append((WIDTH - inset, inset + s - w))
        elif s < 2 * w + h:
            pts.append((WIDTH - inset - (s - w - h), HEIGHT - inset))
        else:
            pts.append((inset, HEIGHT - inset - (s - 2 * w - h)))
    margin = step * 0.62 + inset
    inner: list[tuple[float, float]] = []
    for _ in range(n_inner):
        best, best_d = None, -1.0
        for _c in range(24):
            p = (rng.uniform(margin, WIDTH - margin), rng.uniform(margin, HEIGHT - margin))
            d = min((math.hypot(p[0] - q[0], p[1] - q[1]) for q in inner + pts), default=1e9)
            if d > best_d:
                best, best_d = p, d
        assert best is not None
        inner.append(best)
    return pts + inner


def generate_board(figures: dict[str, int], seed: int, map_id: str | None = None, name: str | None = None,
                   seas: int = 2, lakes: int = 1) -> dict[str, Any]:
    """A ``conquest-map/1`` document with exactly the given figures, reproducible from ``seed``."""
    rng = random.Random(f"smallworld-board/{figures['regions']}/{seed}")
    n, n_edge = figures["regions"], figures["edge"]
    for _attempt in range(200):
        pts = _place_points(rng, n_edge, n - n_edge)
        cells, nbrs, edge = voronoi(pts)
        if [i for i in range(n) if edge[i]] != list(range(n_edge)):
            continue
        doc = _dress(rng, pts, cells, nbrs, edge, figures, seas, lakes, map_id or f"generated-{n}-{seed}",
                     name or f"Generated board ({n} regions, seed {seed})")
        if doc is None:
            continue
        try:
            gm = parse_map(doc, source=doc["id"], kinds=("land", "sea", "lake"))
            validate_board(gm, figures, seas, lakes)
        except MapError:
            continue
        return doc
    raise MapError(f"could not generate a board for {figures} with seed {seed}")


def _dress(rng: random.Random, pts: list[tuple[float, float]], cells: list[list[tuple[float, float]]],
           nbrs: list[set[int]], edge: list[bool], figures: dict[str, int], seas: int, lakes: int,
           map_id: str, name: str) -> dict[str, Any] | None:
    """The board document on the cells ``pts``/``cells``: seas, lakes, terrains, symbols, Lost Tribes and
    names drawn with ``rng`` (in this order: a seed gives one board), or None when the cells cannot take them."""
    n = len(pts)
    waters = _waters(rng, pts, nbrs, edge, seas, lakes)
    if waters is None:
        return None
    sea_ids, lake_ids = waters
    water = set(sea_ids) | set(lake_ids)
    land = [i for i in range(n) if i not in water]
    terrain: dict[int, str] = {i: "sea" for i in sea_ids}
    terrain.update({i: "lake" for i in lake_ids})
    _land_terrains(rng, land, nbrs, figures, terrain)
    # symbols: mines, caverns and magic sources on distinct land regions; lost tribes on non-mountain land
    pool = land[:]
    rng.shuffle(pool)
    k = 0
    symbol: dict[int, str] = {}
    for s, key in (("mine", "mines"), ("cavern", "caverns"), ("magic", "magic")):
        for _ in range(figures[key]):
            if k >= len(pool):
                return None
            symbol[pool[k]] = s
            k += 1
    lt_pool = [i for i in land if terrain[i] != "mountain"]
    if len(lt_pool) < figures["lost_tribes"]:
        return None
    tribes = set(rng.sample(lt_pool, figures["lost_tribes"]))
    names = _names(rng, n, sea_ids, lake_ids)
    regions = []
    for i in range(n):
        kind = "sea" if i in sea_ids else "lake" if i in lake_ids else "land"
        attrs: dict[str, Any] = {"terrain": terrain[i]}
        if edge[i]:
            attrs["edge"] = True
        if i in symbol:
            attrs[symbol[i]] = True
        if i in tribes:
            attrs["lost_tribe"] = True
        regions.append({"id": f"r{i + 1}", "name": names[i], "kind": kind, "attrs": attrs,
                        "center": [round(pts[i][0], 1), round(pts[i][1], 1)],
                        "polygon": [[round(x, 1), round(y, 1)] for x, y in cells[i]]})
    borders = sorted({(min(i, j), max(i, j)) for i in range(n) for j in nbrs[i]})
    return {"format": "conquest-map/1", "id": map_id, "name": name,
            "attrs": {"width": WIDTH, "height": HEIGHT, "players": None},
            "regions": regions, "borders": [[f"r{i + 1}", f"r{j + 1}"] for i, j in borders]}


def _waters(rng: random.Random, pts: list[tuple[float, float]], nbrs: list[set[int]], edge: list[bool], seas: int,
            lakes: int) -> tuple[list[int], list[int]] | None:
    """The seas (edge cells far apart from each other) and the lakes (inner cells not touching a sea), or
    None when the cells leave no room for them."""
    n = len(pts)
    edge_ids = [i for i in range(n) if edge[i]]
    inner_ids = [i for i in range(n) if not edge[i]]
    sea_ids: list[int] = []
    for _ in range(seas):
        cands = [i for i in edge_ids if i not in sea_ids and not (nbrs[i] & set(sea_ids))]
        if not cands:
            return None
        if sea_ids:
            cands.sort(key=lambda i: -min(math.dist(pts[i], pts[s]) for s in sea_ids))
            cands = cands[:3]
        sea_ids.append(rng.choice(cands))
    lake_cands = [i for i in inner_ids if not (nbrs[i] & set(sea_ids))]
    if len(lake_cands) < lakes:
        return None
    return sea_ids, rng.sample(lake_cands, lakes)


def _land_terrains(rng: random.Random, land: list[int], nbrs: list[set[int]], figures: dict[str, int],
                   terrain: dict[int, str]) -> None:
    """Mountains spread out (no two adjacent when possible), then the four other terrains in turn, each land
    region taking the terrain least used among its neighbours; written into ``terrain``."""
    order = land[:]
    rng.shuffle(order)
    mountains: list[int] = []
    for i in order:
        if len(mountains) < figures["mountains"] and not (nbrs[i] & set(mountains)):
            mountains.append(i)
    for i in order:
        if len(mountains) < figures["mountains"] and i not in mountains:
            mountains.append(i)
    for i in mountains:
        terrain[i] = "mountain"
    others = ["farmland", "forest", "hill", "swamp"]
    used = {t: 0 for t in others}
    for i in order:
        if i in terrain:
            continue
        around = [terrain.get(j) for j in nbrs[i]]
        rng.shuffle(others)
        t = min(others, key=lambda t: (around.count(t), used[t]))
        terrain[i] = t
        used[t] += 1


def _names(rng: random.Random, n: int, sea_ids: list[int], lake_ids: list[int]) -> list[str]:
    """Each region's name: the seas' and lakes' from their lists, the land's made of two syllables, unique."""
    names: list[str] = []
    seen: set[str] = set()
    sea_names = rng.sample(_SEA_NAMES, len(sea_ids))
    lake_names = rng.sample(_LAKE_NAMES, len(lake_ids))
    for i in range(n):
        if i in sea_ids:
            names.append(sea_names[sea_ids.index(i)])
            continue
        if i in lake_ids:
            names.append(lake_names[lake_ids.index(i)])
            continue
        while True:
            nm = rng.choice(_SYL_A) + rng.choice(_SYL_B)
            if nm not in seen:
                seen.add(nm)
                names.append(nm)
                break
    return names
