"""The two sides of the Conquest board, loaded from the map files and checked against the rules."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from conquest.core.keys import IdTable
from conquest.core.maps import GameMap, MapError, load_map

BONUS_EFFECTS = ("trap", "spy", "destroy", "double_move", "krystallium")
"""The five bonus effects of the rules ("Additional Trap token", "Spy token", "Card destruction",
"Double move", "Krystallium production")."""
PRODUCTION_ICONS = ("material", "energy", "science", "gold", "exploration")
LOCATION_KINDS = BONUS_EFFECTS + PRODUCTION_ICONS
BOARD_DIR = Path(__file__).parent / "boards"
START_PAWNS_ON_BOARD = 4


@dataclass(frozen=True)
class Board:
    """Indices for the rules: territories 0..T-1, bonus locations 0..L-1."""

    map: GameMap
    side: str
    names: tuple[str, ...]              # territory ids
    index: dict[str, int]
    adjacent: tuple[frozenset[int], ...]
    castles: tuple[int, int]            # castle territory of seat 0 and seat 1
    vp: tuple[tuple[int, int], ...]     # per territory (castles: (0, 0))
    castle_icons: tuple[tuple[str, ...], tuple[str, ...]]
    loc_ids: tuple[str, ...]            # "<territory>.<k>"
    loc_index: dict[str, int]
    loc_kind: tuple[str, ...]
    loc_territory: tuple[int, ...]
    territory_locs: tuple[tuple[int, ...], ...]
    start_locs: tuple[tuple[int, ...], tuple[int, ...]]  # where each seat's 4 pawns start
    locs_of_kind: dict[str, tuple[int, ...]]  # the bonus locations of each kind
    territory_table: IdTable              # the territory ids and bonus location ids as a state document names
    location_table: IdTable               # them, with their indices (``core.keys``)

    @property
    def territories(self) -> int:
        return len(self.names)


def build_board(game_map: GameMap, side: str) -> Board:
    src = game_map.id
    names = tuple(game_map.ids())
    index = {n: i for i, n in enumerate(names)}
    castles = [-1, -1]
    vp: list[tuple[int, int]] = []
    icons: list[tuple[str, ...]] = [(), ()]
    loc_ids: list[str] = []
    loc_kind: list[str] = []
    loc_terr: list[int] = []
    terr_locs: list[tuple[int, ...]] = []
    for r in game_map.regions:
        a = r.attrs
        if r.kind == "castle":
            owner = a.get("owner")
            if owner not in (0, 1) or castles[owner] != -1:
                raise MapError(f"{src}: castle '{r.id}' needs a distinct owner 0 or 1")
            castles[owner] = r.index
            if a.get("locations"):
                raise MapError(f"{src}: castle '{r.id}' has bonus locations; the rules say there are none "
                               "at the castles")
            ic = tuple(a.get("production", []))
            for i in ic:
                if i not in PRODUCTION_ICONS:
                    raise MapError(f"{src}: castle '{r.id}' has unknown production icon '{i}'")
            icons[owner] = ic
            vp.append((0, 0))
            terr_locs.append(())
            continue
        if r.kind not in ("land", "sea"):
            raise MapError(f"{src}: territory '{r.id}' has kind '{r.kind}' (land, sea or castle)")
        v = a.get("vp")
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and x >= 0 for x in v)):
            raise MapError(f"{src}: territory '{r.id}' needs vp: [red, blue] (non-negative integers)")
        vp.append((v[0], v[1]))
        locs = a.get("locations")
        if not isinstance(locs, list) or not locs:
            raise MapError(f"{src}: territory '{r.id}' needs at least one bonus location")
        mine = []
        for k, kind in enumerate(locs, start=1):
            if kind not in LOCATION_KINDS:
                raise MapError(f"{src}: territory '{r.id}' has unknown bonus location kind '{kind}'")
            mine.append(len(loc_ids))
            loc_ids.append(f"{r.id}.{k}")
            loc_kind.append(kind)
            loc_terr.append(r.index)
        terr_locs.append(tuple(mine))
    if -1 in castles:
        raise MapError(f"{src}: the board needs two castles (owners 0 and 1)")
    adjacent = tuple(frozenset(a) for a in game_map.adjacency)
    starts = []
    for seat in (0, 1):
        beside = sorted(adjacent[castles[seat]])
        if castles[1 - seat] in beside:
            raise MapError(f"{src}: the castles must not border each other")
        locs_beside = tuple(l for t in beside for l in terr_locs[t])
        if len(locs_beside) != START_PAWNS_ON_BOARD:
            raise MapError(f"{src}: the territories beside castle '{names[castles[seat]]}' must have exactly "
                           f"{START_PAWNS_ON_BOARD} bonus locations (one starting pawn on each), "
                           f"found {len(locs_beside)}")
        starts.append(locs_beside)
    return Board(map=game_map, side=side, names=names, index=index, adjacent=adjacent,
                 castles=(castles[0], castles[1]), vp=tuple(vp), castle_icons=(icons[0], icons[1]),
                 loc_ids=tuple(loc_ids), loc_index={x: i for i, x in enumerate(loc_ids)},
                 loc_kind=tuple(loc_kind), loc_territory=tuple(loc_terr), territory_locs=tuple(terr_locs),
                 start_locs=(starts[0], starts[1]),
                 locs_of_kind={k: tuple(i for i, x in enumerate(loc_kind) if x == k) for k in set(loc_kind)},
                 territory_table=IdTable(f"territory (side {side.upper()})", names),
                 location_table=IdTable("bonus location", loc_ids))


def board_sides() -> list[str]:
    return sorted(p.stem for p in BOARD_DIR.glob("*.yaml"))


@cache
def load_board(side: str) -> Board:
    return build_board(load_map(BOARD_DIR / f"{side}.yaml", kinds=("land", "sea", "castle")), side)
