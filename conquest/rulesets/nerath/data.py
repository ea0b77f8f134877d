"""The tables of Conquest of Nerath as data: the board (``board.yaml``), the piece table (``pieces.yaml``)
and the starting forces (``setup.yaml``) for PLAYING THE GAME and SETUP, and the Dungeon Guardian tiles
(``guardians.yaml``), loaded once and validated; plus the indices the rules use."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from conquest.core.maps import GameMap, MapError, parse_map

HERE = Path(__file__).parent

REALMS = ("karkoth", "vailin", "iron", "nerath")
REALM_TITLES = ("Dark Empire of Karkoth", "Vailin Alliance", "Iron Circle", "Nerathan League")
REALM_INDEX = {r: i for i, r in enumerate(REALMS)}
R = 4

# Pieces counted per space and realm (Castles are a property of a land space, Warships are individual).
COUNTED = ("footsoldier", "siege", "fighter", "wizard", "monster", "storm", "dragon")
N_TYPES = len(COUNTED)
FOOT, SIEGE, FIGHTER, WIZARD, MONSTER, STORM, DRAGON = range(N_TYPES)
TYPE_INDEX = {p: i for i, p in enumerate(COUNTED)}
LAND_TYPES = (FOOT, SIEGE, FIGHTER, WIZARD, MONSTER)
FLYING_TYPES = (STORM, DRAGON)
HEROES = (FIGHTER, WIZARD)
PIECE_NAMES = COUNTED + ("castle", "warship")

LAND, SEA, DUNGEON = 0, 1, 2
KIND_CODES = {"land": LAND, "sea": SEA, "dungeon": DUNGEON}


class DataError(ValueError):
    pass


@dataclass(frozen=True)
class Piece:
    id: str
    name: str
    type: str
    cost: int
    die: int
    move: int
    abilities: tuple[str, ...]


@dataclass
class Board:
    map: GameMap
    ids: list[str]
    index: dict[str, int]
    kind: list[int]
    home: list[int]                 # realm index of a starting land space, -1 otherwise
    capital: list[int]              # capital space of each realm
    is_capital: list[bool]
    island: list[bool]
    coastal: list[bool]
    adj: list[tuple[int, ...]]
    land_adj: list[tuple[int, ...]]  # land and dungeon neighbours
    sea_adj: list[tuple[int, ...]]
    dist: list[list[int]]
    lands: list[int]
    seas: list[int]
    dungeons: list[int]


@dataclass
class Tables:
    board: Board
    pieces: dict[str, Piece]
    hit_on: int
    cost: list[int]       # by COUNTED index
    die: list[int]
    move: list[int]
    castle: Piece
    warship: Piece
    treasury: list[int]
    setup: dict[str, Any]


def _load_yaml(name: str) -> Any:
    return yaml.safe_load((HERE / name).read_text())


def build_board(data: Any) -> Board:
    m = parse_map(data, source="nerath board", kinds=("land", "sea", "dungeon"))
    ids = m.ids()
    idx = {r: i for i, r in enumerate(ids)}
    kind = [KIND_CODES[r.kind] for r in m.regions]
    home = [REALM_INDEX[r.attrs["home"]] if r.kind == "land" else -1 for r in m.regions]
    for r in m.regions:
        if r.kind == "land" and r.attrs.get("home") not in REALM_INDEX:
            raise MapError(f"nerath board: land space {r.id} needs attrs.home, one of {', '.join(REALMS)}")
    capital = [-1] * R
    for r in m.regions:
        if r.attrs.get("capital"):
            capital[home[r.index]] = r.index
    if -1 in capital:
        raise MapError("nerath board: every realm needs exactly one capital")
    adj = list(m.adjacency)
    land_adj = [tuple(j for j in a if kind[j] != SEA) for a in adj]
    sea_adj = [tuple(j for j in a if kind[j] == SEA) for a in adj]
    island = [kind[i] == LAND and not any(kind[j] == LAND for j in adj[i]) for i in range(len(ids))]
    coastal = [kind[i] != SEA and bool(sea_adj[i]) for i in range(len(ids))]
    n = len(ids)
    dist = []
    for s in range(n):
        d = [99] * n
        d[s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for x in frontier:
                for y in adj[x]:
                    if d[y] == 99:
                        d[y] = d[x] + 1
                        nxt.append(y)
            frontier = nxt
        dist.append(d)
    counts = [sum(1 for h in home if h == r) for r in range(R)]
    expected = [15, 13, 13, 14]
    if counts != expected:
        raise MapError(f"nerath board: starting land spaces per realm are {counts}, the document says {expected}")
    for i in range(n):
        if island[i] and not coastal[i]:
            raise MapError(f"nerath board: island {ids[i]} touches no sea")
    return Board(map=m, ids=ids, index=idx, kind=kind, home=home, capital=capital,
                 is_capital=[i in capital for i in range(n)], island=island, coastal=coastal, adj=adj,
                 land_adj=land_adj, sea_adj=sea_adj, dist=dist,
                 lands=[i for i in range(n) if kind[i] == LAND], seas=[i for i in range(n) if kind[i] == SEA],
                 dungeons=[i for i in range(n) if kind[i] == DUNGEON])


def build_pieces(data: Any) -> tuple[dict[str, Piece], int]:
    if not isinstance(data, dict) or not isinstance(data.get("pieces"), list):
        raise DataError("pieces.yaml: needs a list 'pieces'")
    out: dict[str, Piece] = {}
    for i, p in enumerate(data["pieces"]):
        try:
            piece = Piece(id=str(p["id"]), name=str(p["name"]), type=str(p["type"]), cost=int(p["cost"]),
                          die=int(p["die"]), move=int(p["move"]), abilities=tuple(p.get("abilities", [])))
        except (KeyError, TypeError, ValueError) as e:
            raise DataError(f"pieces.yaml: pieces[{i}] is incomplete or malformed ({e})") from None
        if piece.type not in ("land", "sea", "flying"):
            raise DataError(f"pieces.yaml: {piece.id}: type must be land, sea or flying")
        if piece.die < 2 or piece.cost < 0 or piece.move < 0:
            raise DataError(f"pieces.yaml: {piece.id}: die, cost and move must be positive")
        out[piece.id] = piece
    missing = set(PIECE_NAMES) - set(out)
    if missing:
        raise DataError(f"pieces.yaml: missing pieces {', '.join(sorted(missing))}")
    return out, int(data.get("hit_on", 6))


def check_setup(setup: Any, board: Board) -> None:
    if not isinstance(setup, dict) or set(setup.get("realms", {})) != set(REALMS):
        raise DataError("setup.yaml: needs realms karkoth, vailin, iron, nerath")
    for realm, d in setup["realms"].items():
        r = REALM_INDEX[realm]
        for s in d.get("castles", []):
            if board.index.get(s) is None or board.home[board.index[s]] != r:
                raise DataError(f"setup.yaml: {realm}: castle on {s}, not one of its starting land spaces")
        if board.index[board.ids[board.capital[r]]] not in [board.index[s] for s in d.get("castles", [])]:
            raise DataError(f"setup.yaml: {realm}: its capital needs a castle")
        for s, pcs in d.get("pieces", {}).items():
            if board.index.get(s) is None or board.home[board.index[s]] != r:
                raise DataError(f"setup.yaml: {realm}: pieces on {s}, not one of its starting land spaces")
            for p in pcs:
                if p not in TYPE_INDEX:
                    raise DataError(f"setup.yaml: {realm}: unknown piece {p}")
        for w in d.get("warships", []):
            if board.index.get(w[0]) is None or board.kind[board.index[w[0]]] != SEA:
                raise DataError(f"setup.yaml: {realm}: warship on {w[0]}, not a sea space")
            if len(w) > 3 or any(p not in TYPE_INDEX or TYPE_INDEX[p] not in LAND_TYPES for p in w[1:]):
                raise DataError(f"setup.yaml: {realm}: a warship carries at most 2 land pieces")


@lru_cache(maxsize=1)
def tables() -> Tables:
    board = build_board(_load_yaml("board.yaml"))
    pieces, hit_on = build_pieces(_load_yaml("pieces.yaml"))
    setup = _load_yaml("setup.yaml")
    check_setup(setup, board)
    return Tables(board=board, pieces=pieces, hit_on=hit_on,
                  cost=[pieces[p].cost for p in COUNTED], die=[pieces[p].die for p in COUNTED],
                  move=[pieces[p].move for p in COUNTED], castle=pieces["castle"], warship=pieces["warship"],
                  treasury=[int(setup["treasury"][r]) for r in REALMS], setup=setup)


# ------------------------------------------------------------------ Dungeon Guardian tiles (guardians.yaml)
@dataclass(frozen=True)
class Guardian:
    id: str
    name: str
    dice: tuple[int, ...]
    first_strike: bool
    heroes_need: int
    reward: int


@lru_cache(maxsize=1)
def guardian_tiles() -> dict[str, Guardian]:
    data = yaml.safe_load((HERE / "guardians.yaml").read_text())
    out: dict[str, Guardian] = {}
    for i, t in enumerate(data.get("tiles", [])):
        try:
            g = Guardian(id=str(t["id"]), name=str(t["name"]), dice=tuple(int(d) for d in t["dice"]),
                         first_strike=bool(t.get("first_strike", False)),
                         heroes_need=int(t.get("heroes_need", 0) or 0), reward=int(t.get("reward", 0)))
        except (KeyError, TypeError, ValueError) as e:
            raise DataError(f"guardians.yaml: tiles[{i}] is malformed ({e})") from None
        if not g.dice or any(d < 2 for d in g.dice) or g.id in out:
            raise DataError(f"guardians.yaml: {g.id}: needs unique id and at least one die")
        if g.heroes_need not in (0, 7, 8):
            raise DataError(f"guardians.yaml: {g.id}: heroes_need is 7 or 8")
        if not 0 <= g.reward <= 5:
            raise DataError(f"guardians.yaml: {g.id}: a Reward is 1 to 5 gold")
        out[g.id] = g
    return out


def full_strength(tile: str) -> list[int]:
    return list(guardian_tiles()[tile].dice)
