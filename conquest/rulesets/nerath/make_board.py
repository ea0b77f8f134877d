"""Builds ``board.yaml`` (the project's map format) from the hex layout below. Our own design: the layout
is the source, the YAML is what the rules, the terminal and the browser read. Run it after editing:
``python -m conquest.rulesets.nerath.make_board``.

Legend (one token per hex cell, odd rows shifted half a cell to the right):
``K V I N`` a starting land space of Karkoth, Vailin, Iron Circle, Nerath; ``K*`` ... its capital;
``D`` a dungeon entrance; ``a``..``z`` a cell of that sea space (a sea space is all cells with its letter);
``#`` the impassable corners (not spaces at all).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

LAYOUT = """
a  a  K  K  K  K  V  V  V  #  #  #  #  #
  a  K  K  K* K  D  b  V  V* V  V  #  #  #
a  K  K  K  K  b  b  V  D  V  c  c  #  #
  d  K  D  K  e  e  i  V  V  V  c  c  #  #
d  d  N  N  e  K  i  i  i  c  I  c  c  #
  d  N  N  N  e  e  i  i  I  I  D  I  I  f
#  d  N  N* D  N  i  i  I  I  I* I  f  f
  #  #  N  N  N  g  g  g  I  D  I  f  f  f
#  #  #  N  N  g  N  I  I  h  h  h  V  f
  #  #  #  #  g  g  g  h  h  h  h  f  f  f
"""

REALMS = {"K": "karkoth", "V": "vailin", "I": "iron", "N": "nerath"}
PREFIX = {"K": "k", "V": "v", "I": "i", "N": "n"}
CAPITALS = {"K": "Karkothi Throneholds", "V": "Vailindor", "I": "Citadel of Iron's Grasp", "N": "Mithrafast"}

# Our own names for the land spaces, in reading order per realm (the capital takes its realm's capital name).
NAMES = {
    "K": ["Ashfen", "Cinder Vale", "Gallows Reach", "Blackmere", "Dreadspire", "Bonefield", "Hollow Marches",
          "Murkwater", "Skarn", "Vorgal Heights", "Grimhold", "Sable Downs", "Thornmoor", "Ravenrock",
          "Duskholm", "Ebon Isle"],
    "V": ["Silverleaf", "Moonbrook", "Elmshade", "Glimmerwood", "Starfall", "Dawnmere", "Willowdeep",
          "Amberglen", "Mistral Coast", "Fernhollow", "Brightwater", "Larkspur", "Pearl Isle", "Sunreach"],
    "I": ["Forgegate", "Anvil Hills", "Slagmoor", "Chainmarch", "Rustfen", "Hammerfall", "Brassgate",
          "Cogsworth", "Iron Coast", "Smeltwater", "Bolthaven", "Gearhold", "Copperpeak", "Steelreach"],
    "N": ["Kingsmeadow", "Goldfield", "Highwatch", "Lionsgate", "Greywater", "Stonebridge", "Oakheart",
          "Marrowdale", "Crownpoint", "Harrowgate", "Tallow Fen", "Whitecliff", "Southwatch", "Gull Isle",
          "Fairhaven"],
}
SEA_NAMES = {"a": "Sea of Ash", "b": "Gulf of Shadows", "c": "Eastern Reach", "d": "Western Deep",
             "e": "Inner Sea", "f": "Iron Sea", "g": "Southern Sound", "h": "Bay of Brass", "i": "Sea of Stars"}
DUNGEON_NAMES = ["Barrow of the Hollow King", "Sunken Vault", "Wyrmdeep", "Gloomspire Caverns", "Pit of Whispers",
                 "Catacombs of Ur"]


def cells() -> dict[tuple[int, int], str]:
    rows = [r for r in LAYOUT.strip("\n").split("\n")]
    out: dict[tuple[int, int], str] = {}
    for y, row in enumerate(rows):
        for x, tok in enumerate(row.split()):
            if tok != "#":
                out[(x, y)] = tok
    return out


def neighbours(x: int, y: int) -> list[tuple[int, int]]:
    if y % 2 == 0:
        d = [(-1, 0), (1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1)]
    else:
        d = [(-1, 0), (1, 0), (0, -1), (1, -1), (0, 1), (1, 1)]
    return [(x + a, y + b) for a, b in d]


def build() -> dict[str, Any]:
    grid = cells()
    region_of: dict[tuple[int, int], str] = {}
    regions: dict[str, dict[str, Any]] = {}
    count = {k: 0 for k in REALMS}
    dungeons = 0
    for (x, y) in sorted(grid, key=lambda c: (c[1], c[0])):
        tok = grid[(x, y)]
        letter = tok[0]
        if letter in REALMS:
            count[letter] += 1
            rid = f"{PREFIX[letter]}{count[letter]:02d}"
            capital = tok.endswith("*")
            name = CAPITALS[letter] if capital else NAMES[letter][count[letter] - 1]
            regions[rid] = {"id": rid, "name": name, "kind": "land",
                            "attrs": {"home": REALMS[letter], **({"capital": True} if capital else {})},
                            "cells": [(x, y)]}
        elif letter == "D":
            dungeons += 1
            rid = f"d{dungeons}"
            regions[rid] = {"id": rid, "name": DUNGEON_NAMES[dungeons - 1], "kind": "dungeon", "attrs": {},
                            "cells": [(x, y)]}
        else:
            rid = f"s{ord(letter) - ord('a') + 1}"
            regions.setdefault(rid, {"id": rid, "name": SEA_NAMES[letter], "kind": "sea", "attrs": {},
                                     "cells": []})["cells"].append((x, y))
        region_of[(x, y)] = rid
    borders: set[tuple[str, str]] = set()
    for (x, y), rid in region_of.items():
        for n in neighbours(x, y):
            other = region_of.get(n)
            if other is not None and other != rid:
                borders.add(tuple(sorted((rid, other))))  # type: ignore[arg-type]
    out_regions = []
    for r in regions.values():
        cs = r.pop("cells")
        cx = sum(x + (0.5 if y % 2 else 0.0) for x, y in cs) / len(cs)
        cy = sum(y for _, y in cs) / len(cs)
        r["center"] = [round(cx * 10 + 5, 1), round(cy * 8.66 + 5, 1)]
        r["attrs"]["cells"] = [list(c) for c in cs]
        out_regions.append(r)
    # islands: land spaces with no land neighbour
    adj: dict[str, set[str]] = {r["id"]: set() for r in out_regions}
    for a, b in borders:
        adj[a].add(b)
        adj[b].add(a)
    for r in out_regions:
        if r["kind"] == "land" and not (adj[r["id"]] - {s for s in adj if s.startswith("s")}):
            r["attrs"]["island"] = True
            r["name"] = {"karkoth": "Ebon Isle", "vailin": "Pearl Isle"}.get(r["attrs"]["home"], r["name"])
    return {"format": "conquest-map/1", "id": "nerath", "name": "Nerath (our own board)",
            "attrs": {"hex_layout": "odd-r", "impassable": "north-east and south-west corners"},
            "regions": out_regions, "borders": [list(b) for b in sorted(borders)]}


def main() -> None:
    data = build()
    path = Path(__file__).with_name("board.yaml")
    header = "# Generated by make_board.py from its LAYOUT; edit the layout, not this file.\n"
    path.write_text(header + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=110))
    kinds: dict[str, int] = {}
    for r in data["regions"]:
        key = r["attrs"].get("home", r["kind"])
        kinds[key] = kinds.get(key, 0) + 1
    print(kinds, "islands:", [r["id"] for r in data["regions"] if r["attrs"].get("island")])


if __name__ == "__main__":
    main()
