"""The map format shared by every game: regions (id, name, kind, game attributes, a drawing hint) and
borders. One file drives the rules, the text board and the SVG board.

```yaml
format: conquest-map/1
id: kingdom-a
name: Side A
regions:
  - {id: ford, name: The Ford, kind: land, center: [40, 30], attrs: {vp: [2, 3]}}
borders:
  - [ford, marsh]
```
Borders are undirected pairs; a region may instead list ``adjacent: [...]``, which must then be symmetric.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conquest.core.errors import ConquestError
from conquest.core.yamlfile import load_yaml

MAP_FORMAT = "conquest-map/1"


class MapError(ConquestError):
    pass


@dataclass
class Region:
    id: str
    name: str
    kind: str
    index: int
    attrs: dict[str, Any] = field(default_factory=dict)
    center: tuple[float, float] | None = None
    polygon: list[tuple[float, float]] | None = None


@dataclass
class GameMap:
    id: str
    name: str
    regions: list[Region]
    adjacency: list[tuple[int, ...]]
    attrs: dict[str, Any] = field(default_factory=dict)
    by_id: dict[str, Region] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_id = {r.id: r for r in self.regions}

    def region(self, rid: str) -> Region:
        try:
            return self.by_id[rid]
        except KeyError:
            raise MapError(f"map {self.id}: no region '{rid}'") from None

    def neighbors(self, rid: str) -> list[str]:
        return [self.regions[j].id for j in self.adjacency[self.by_id[rid].index]]

    def adjacent(self, a: str, b: str) -> bool:
        return self.by_id[b].index in self.adjacency[self.by_id[a].index]

    def ids(self) -> list[str]:
        return [r.id for r in self.regions]

    def to_json(self) -> dict[str, Any]:
        """The map as JSON for clients that draw it (the web app)."""
        borders = sorted({tuple(sorted((self.regions[i].id, self.regions[j].id)))
                          for i, adj in enumerate(self.adjacency) for j in adj})
        return {"format": MAP_FORMAT, "id": self.id, "name": self.name, "attrs": self.attrs,
                "regions": [{"id": r.id, "name": r.name, "kind": r.kind, "attrs": r.attrs,
                             **({"center": list(r.center)} if r.center else {}),
                             **({"polygon": [list(p) for p in r.polygon]} if r.polygon else {})}
                            for r in self.regions],
                "borders": [list(b) for b in borders]}


def _point(value: Any, where: str) -> tuple[float, float]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)):
        raise MapError(f"{where}: expected a point [x, y], got {value!r}")
    return (float(value[0]), float(value[1]))


def parse_map(data: Any, source: str = "map", kinds: Iterable[str] | None = None,
              connected: bool = True) -> GameMap:
    """Validate a map document: known ids, no duplicates, symmetric borders, no self-borders, known kinds
    and (unless ``connected=False``) one connected whole. Errors name the offending entry."""
    if not isinstance(data, dict):
        raise MapError(f"{source}: a map must be a mapping")
    if data.get("format", MAP_FORMAT) != MAP_FORMAT:
        raise MapError(f"{source}: format must be {MAP_FORMAT}")
    raw = data.get("regions")
    if not isinstance(raw, list) or not raw:
        raise MapError(f"{source}: regions must be a non-empty list")
    regions = _parse_regions(raw, source, set(kinds) if kinds is not None else None)
    adj = _adjacency(data, raw, regions, source)
    if connected and regions:
        _check_connected(regions, adj, source)
    attrs = data.get("attrs", {})
    if not isinstance(attrs, dict):
        raise MapError(f"{source}: attrs must be a mapping")
    return GameMap(id=str(data.get("id", source)), name=str(data.get("name", data.get("id", source))),
                   regions=regions, adjacency=[tuple(sorted(s)) for s in adj], attrs=attrs)


def _parse_regions(raw: list[Any], source: str, allowed: set[str] | None) -> list[Region]:
    """The map's regions, in order: each with a unique string id, a known kind (when ``allowed`` lists them),
    attributes, and a centre and polygon when given."""
    regions: list[Region] = []
    seen: set[str] = set()
    for i, r in enumerate(raw):
        where = f"{source}: regions[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("id"), str) or not r["id"]:
            raise MapError(f"{where}: each region needs a string id")
        rid = r["id"]
        if rid in seen:
            raise MapError(f"{where}: duplicate region id '{rid}'")
        seen.add(rid)
        kind = r.get("kind", "land")
        if allowed is not None and kind not in allowed:
            raise MapError(f"{where} ({rid}): unknown kind '{kind}' (allowed: {', '.join(sorted(allowed))})")
        attrs = r.get("attrs", {})
        if not isinstance(attrs, dict):
            raise MapError(f"{where} ({rid}): attrs must be a mapping")
        center = _point(r["center"], f"{where} ({rid}).center") if "center" in r else None
        polygon = None
        if "polygon" in r:
            if not isinstance(r["polygon"], list) or len(r["polygon"]) < 3:
                raise MapError(f"{where} ({rid}): polygon needs at least 3 points")
            polygon = [_point(p, f"{where} ({rid}).polygon") for p in r["polygon"]]
        regions.append(Region(id=rid, name=str(r.get("name", rid)), kind=str(kind), index=i,
                              attrs=attrs, center=center, polygon=polygon))
    return regions


def _adjacency(data: dict[str, Any], raw: list[Any], regions: list[Region], source: str) -> list[set[int]]:
    """Each region's neighbours: the regions' ``adjacent`` lists (which must agree both ways) and the map's
    ``borders`` pairs; no region borders itself."""
    index = {r.id: r.index for r in regions}
    adj: list[set[int]] = [set() for _ in regions]
    declared: list[set[int]] = [set() for _ in regions]
    any_declared = False
    for r, src in zip(regions, raw):
        if "adjacent" in src:
            any_declared = True
            for other in src["adjacent"]:
                if other not in index:
                    raise MapError(f"{source}: region '{r.id}' lists unknown neighbour '{other}'")
                declared[r.index].add(index[other])
    if any_declared:
        for i, ds in enumerate(declared):
            for j in ds:
                if i not in declared[j]:
                    raise MapError(f"{source}: border {regions[i].id}-{regions[j].id} is not symmetric "
                                   f"('{regions[j].id}' does not list '{regions[i].id}')")
                adj[i].add(j)
    for k, b in enumerate(data.get("borders", []) or []):
        if not isinstance(b, (list, tuple)) or len(b) != 2:
            raise MapError(f"{source}: borders[{k}] must be a pair of region ids")
        a, c = b
        for x in (a, c):
            if x not in index:
                raise MapError(f"{source}: borders[{k}] names unknown region '{x}'")
        if a == c:
            raise MapError(f"{source}: borders[{k}] joins '{a}' to itself")
        adj[index[a]].add(index[c])
        adj[index[c]].add(index[a])
    for i in range(len(regions)):
        if i in adj[i]:
            raise MapError(f"{source}: region '{regions[i].id}' borders itself")
    return adj


def _check_connected(regions: list[Region], adj: list[set[int]], source: str) -> None:
    """Every region is reached from the first one across borders, else MapError naming some cut off."""
    seen_i = {0}
    stack = [0]
    while stack:
        i = stack.pop()
        for j in adj[i]:
            if j not in seen_i:
                seen_i.add(j)
                stack.append(j)
    if len(seen_i) != len(regions):
        lost = [r.id for r in regions if r.index not in seen_i]
        raise MapError(f"{source}: map is not connected; cut off: {', '.join(lost[:8])}")


def load_map(path: str | Path, **kwargs: Any) -> GameMap:
    p = Path(path)
    try:
        data = load_yaml(p, "map")
    except ConquestError as e:
        raise MapError(str(e)) from None
    return parse_map(data, source=p.name, **kwargs)
