"""The tables of Small World as data (races, powers, set-up figures, boards), loaded once and validated, and
the board compiled into flat integer tables for the rules."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from conquest.core.maps import GameMap, MapError, load_map, parse_map
from conquest.rulesets.smallworld.mapgen import generate_board, validate_board

HERE = Path(__file__).parent


def _load(name: str) -> Any:
    return yaml.safe_load((HERE / name).read_text())


def _check_races(rows: Any) -> list[dict[str, Any]]:
    if not isinstance(rows, list) or len(rows) != 14:
        raise MapError("races.yaml: expected the 14 races of the base game")
    for r in rows:
        for k, t in (("id", str), ("name", str), ("banner", int), ("supply", int), ("ability", str)):
            if not isinstance(r.get(k), t):
                raise MapError(f"races.yaml: race {r.get('id')!r} needs {k} ({t.__name__})")
        if not 0 < r["banner"] <= r["supply"]:
            raise MapError(f"races.yaml: {r['id']}: banner must be 1..supply")
    return rows


def _check_powers(rows: Any) -> list[dict[str, Any]]:
    if not isinstance(rows, list) or len(rows) != 20:
        raise MapError("powers.yaml: expected the 20 special powers of the base game")
    for p in rows:
        for k, t in (("id", str), ("name", str), ("badge", int)):
            if not isinstance(p.get(k), t):
                raise MapError(f"powers.yaml: power {p.get('id')!r} needs {k} ({t.__name__})")
    return rows


RACES: list[dict[str, Any]] = _check_races(_load("races.yaml"))
POWERS: list[dict[str, Any]] = _check_powers(_load("powers.yaml"))
SETUP: dict[str, Any] = _load("setup.yaml")
FIGURES: dict[int, dict[str, int]] = {int(k): v for k, v in SETUP["counts"].items()}
DIE_FACES: list[int] = list(SETUP["reinforcement_die"])
MARKERS: dict[str, int] = dict(SETUP["markers"])

RACE_IDS = [r["id"] for r in RACES]
POWER_IDS = [p["id"] for p in POWERS]
RACE_INDEX = {rid: i for i, rid in enumerate(RACE_IDS)}
POWER_INDEX = {pid: i for i, pid in enumerate(POWER_IDS)}
BANNER = [r["banner"] for r in RACES]
SUPPLY = [r["supply"] for r in RACES]
BADGE = [p["badge"] for p in POWERS]

# race and power indices the procedures name
AMAZONS, DWARVES, ELVES, GHOULS, GIANTS, HALFLINGS, HUMANS, ORCS, RATMEN, SKELETONS, SORCERERS, TRITONS, \
    TROLLS, WIZARDS = (RACE_INDEX[x] for x in ("amazons", "dwarves", "elves", "ghouls", "giants", "halflings",
                                                "humans", "orcs", "ratmen", "skeletons", "sorcerers", "tritons",
                                                "trolls", "wizards"))
ALCHEMIST, BERSERK, BIVOUACKING, COMMANDO, DIPLOMAT, DRAGON_MASTER, FLYING, FOREST, FORTIFIED, HEROIC, HILL, \
    MERCHANT, MOUNTED, PILLAGING, SEAFARING, SPIRIT, STOUT, SWAMP, UNDERWORLD, WEALTHY = (
        POWER_INDEX[x] for x in ("alchemist", "berserk", "bivouacking", "commando", "diplomat", "dragon-master",
                                 "flying", "forest", "fortified", "heroic", "hill", "merchant", "mounted",
                                 "pillaging", "seafaring", "spirit", "stout", "swamp", "underworld", "wealthy"))

TERRAIN_CODES = {"farmland": 0, "forest": 1, "hill": 2, "mountain": 3, "swamp": 4, "sea": 5, "lake": 6}
FARMLAND, FOREST_T, HILL_T, MOUNTAIN_T, SWAMP_T, SEA_T, LAKE_T = range(7)


@dataclass(frozen=True)
class Board:
    """A board compiled into tuples indexed by region number (``r1`` is 0)."""
    map: GameMap
    key: str
    n: int
    adj: tuple[tuple[int, ...], ...]
    terrain: tuple[int, ...]
    water: tuple[bool, ...]        # sea or lake: not conquerable without Seafaring
    edge: tuple[bool, ...]
    entry: tuple[bool, ...]        # a border region for a first conquest (003)
    coastal: tuple[bool, ...]      # borders a sea or the lake (Tritons)
    mountain: tuple[int, ...]
    mine: tuple[bool, ...]
    cavern: tuple[bool, ...]
    magic: tuple[bool, ...]
    lost_tribe: tuple[int, ...]
    caverns: tuple[int, ...]
    names: tuple[str, ...]


def compile_board(gmap: GameMap, key: str) -> Board:
    regs = gmap.regions
    n = len(regs)
    terrain = tuple(TERRAIN_CODES[r.attrs["terrain"]] for r in regs)
    water = tuple(t in (SEA_T, LAKE_T) for t in terrain)
    edge = tuple(bool(r.attrs.get("edge")) for r in regs)
    # "a Region adjacent to the edge of the board or one whose shore is on a Sea adjacent to the edge of the
    # board, even if the Sea is occupied by a Seafaring Race" (003)
    edge_seas = {i for i in range(n) if terrain[i] == SEA_T and edge[i]}
    entry = tuple(edge[i] or any(j in edge_seas for j in gmap.adjacency[i]) for i in range(n))
    coastal = tuple(any(water[j] for j in gmap.adjacency[i]) for i in range(n))
    return Board(
        map=gmap, key=key, n=n, adj=tuple(tuple(a) for a in gmap.adjacency), terrain=terrain, water=water,
        edge=edge, entry=entry, coastal=coastal,
        mountain=tuple(1 if t == MOUNTAIN_T else 0 for t in terrain),
        mine=tuple(bool(r.attrs.get("mine")) for r in regs),
        cavern=tuple(bool(r.attrs.get("cavern")) for r in regs),
        magic=tuple(bool(r.attrs.get("magic")) for r in regs),
        lost_tribe=tuple(1 if r.attrs.get("lost_tribe") else 0 for r in regs),
        caverns=tuple(i for i, r in enumerate(regs) if r.attrs.get("cavern")),
        names=tuple(r.name for r in regs),
    )


def get_board(players: int, which: str, seed: int = 0) -> Board:
    """``which`` is ``standard`` (the board of the player count) or ``generated`` (seeded)."""
    return _board(players, which, seed if which == "generated" else 0)


@lru_cache(maxsize=64)
def _board(players: int, which: str, seed: int) -> Board:
    figures = FIGURES[players]
    if which == "standard":
        gmap = load_map(HERE / "maps" / f"smallworld-{players}.yaml", kinds=("land", "sea", "lake"))
        validate_board(gmap, figures)
        return compile_board(gmap, f"smallworld-{players}")
    if which == "generated":
        doc = generate_board(figures, seed)
        gmap = parse_map(doc, source=doc["id"], kinds=("land", "sea", "lake"))
        validate_board(gmap, figures)
        return compile_board(gmap, doc["id"])
    raise MapError(f"unknown board '{which}'")
