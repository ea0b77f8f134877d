"""The Small World state as JSON (documented field by field in docs/rules/smallworld.md): ``DOCUMENT`` declares
every key of the body once (its type and the components' bounds, how it is written, how it is read), and
``core.fields`` derives from it the schema a document is validated with, ``body_json`` and the reader. Counts are
bounded by the components: a race's tokens by its box (at most 30 with the power's), markers by their number in
the box, coins by a sane 100,000. What a type cannot say is checked here against the board (region ids, the map)
and, in ``coherence.py``, between the fields, with errors that name the offending field."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import Field, StrictFloat, StrictInt

import conquest.rulesets.smallworld.data as D
from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, Key, attr
from conquest.core.keys import IdTable, filled, nullable, one_id, one_of, one_per_seat, part, seat_mask
from conquest.core.maps import MapError
from conquest.core.notation import is_digits
from conquest.core.schema import Body, Count, Id, Part
from conquest.rulesets.smallworld.base import STAT_KEYS
from conquest.rulesets.smallworld.common import ACTIVE, DECLINED, NR, OUT, PHASE_NAMES, STATUS_NAMES

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState

S = TypeVar("S", bound="SmallWorldState")

Coins = Annotated[int, Field(ge=0, le=100_000)]
Tokens = Annotated[int, Field(ge=0, le=30)]
Seat = Annotated[int, Field(ge=0, le=4)]
One = Annotated[int, Field(ge=0, le=1)]
RaceId: Any = Literal[tuple(D.RACE_IDS)]
PowerId: Any = Literal[tuple(D.POWER_IDS)]


MapDoc: Any = part("MapDoc", id=Id, seed=(Annotated[int, Field(ge=-(2 ** 63), le=2 ** 63)], 0))
SeatDoc: Any = part("SeatDoc", coins=Coins, coins_at_least=(Coins, 0))
"""``coins_at_least``, public: the least coins the seat's public actions prove (hidden.py)."""
RaceDoc: Any = part("RaceDoc", seat=Seat, power=PowerId, status=(Literal["active", "declined"], "active"),
                    hand=(Annotated[int, Field(ge=0, le=40)], 0))
ComboDoc: Any = part("ComboDoc", race=RaceId, power=PowerId, coins=(Coins, 0))

MARKERS = (("lost_tribe", "lost", One), ("lair", "lair", One), ("fortress", "fort", One),
           ("encampments", "camp", Annotated[int, Field(ge=0, le=5)]), ("hole", "hole", One), ("hero", "hero", One),
           ("dragon", "dragon", One))
"""What a region holds besides its race's tokens: each marker's key, the state's list of it and its bound."""
_REGION: dict[str, Any] = {"race": (RaceId | None, None), "tokens": (Tokens, 0), **{k: (ty, 0) for k, _, ty in MARKERS}}
RegionDoc: Any = part("RegionDoc", **_REGION)
PeaceDoc: Any = part("PeaceDoc", diplomat=Seat, opponent=Seat)
StatsDoc: Any = part("StatsDoc", **{k: (Count, 0) for k in STAT_KEYS})
"""The report counters (``STAT_KEYS``; no rule reads them): a document without them starts at 0."""


class _Body(Body):
    result: list[StrictInt | StrictFloat] | None = None   # written at the end, for readers; never read


# ---------------------------------------------------------------------------------------------- ids
_RACE_ID: tuple[str | None, ...] = (*D.RACE_IDS, None)
"""A race's id by its index, None for -1 (no race)."""
_RACE_INDEX: dict[str | None, int] = {**D.RACE_INDEX, None: -1}


def _region(v: str | None, field: str, n: int) -> int:
    if v is None:
        return -1
    if not v.startswith("r") or not is_digits(v[1:]) or not 1 <= int(v[1:]) <= n:
        raise StateFormatError(field, f"expected a region r1..r{n}, got {v!r}")
    return int(v[1:]) - 1


# ---------------------------------------------------------------------------------------------- keys
def _read_map(s: SmallWorldState, m: dict[str, Any]) -> None:
    seed = m.get("seed", 0)
    try:
        board = D.get_board(s.players, s.options["map"], seed)
    except MapError as e:
        raise StateFormatError("map", str(e)) from None
    if m["id"] != board.key:
        raise StateFormatError("map/id", f"expected {board.key!r} for these options, got {m['id']!r}")
    s.board, s.map_seed, s.turns = board, seed, D.FIGURES[s.players]["turns"]


def _read_seats(s: SmallWorldState, seats: list[dict[str, Any]]) -> None:
    s.coins = [st["coins"] for st in seats]
    # the public lower bound (``hidden``): a document without it proves nothing (0); never above the coins
    s.coins_floor = [st.get("coins_at_least", 0) for st in seats]


def _write_races(s: SmallWorldState) -> dict[str, Any]:
    return {D.RACE_IDS[x]: {"seat": s.rseat[x], "power": D.POWER_IDS[s.rpower[x]],
                            "status": STATUS_NAMES[s.rstatus[x]], "hand": s.rhand[x]}
            for x in range(NR) if s.rstatus[x] != OUT}


def _read_races(s: SmallWorldState, races: dict[str, dict[str, Any]]) -> None:
    s.rseat, s.rpower, s.rstatus, s.rhand = [-1] * NR, [-1] * NR, [OUT] * NR, [0] * NR
    for name, info in races.items():
        x = D.RACE_INDEX[name]
        s.rseat[x] = info["seat"]
        s.rpower[x] = D.POWER_INDEX[info["power"]]
        s.rstatus[x] = DECLINED if info.get("status") == "declined" else ACTIVE
        s.rhand[x] = info.get("hand", 0)


def _read_column(s: SmallWorldState, col: list[dict[str, Any]]) -> None:
    s.col_race = [D.RACE_INDEX[c["race"]] for c in col]
    s.col_power = [D.POWER_INDEX[c["power"]] for c in col]
    s.col_coins = [c.get("coins", 0) for c in col]


def _read_drawn(s: SmallWorldState, name: str | None) -> None:
    """The race drawn for the bottom of the column, waiting for its power: appended to the column's races."""
    if name is not None:
        s.col_race.append(D.RACE_INDEX[name])


def _write_regions(s: SmallWorldState) -> dict[str, Any]:
    # the markers of ``MARKERS`` spelled out: a dict display is twice as fast as one built from the table
    return {f"r{i + 1}": {"race": _RACE_ID[s.region_race[i]], "tokens": s.tokens[i], "lost_tribe": s.lost[i],
                          "lair": s.lair[i], "fortress": s.fort[i], "encampments": s.camp[i],
                          "hole": s.hole[i], "hero": s.hero[i], "dragon": s.dragon[i]}
            for i in range(s.board.n)}


def _read_regions(s: SmallWorldState, regs: dict[str, dict[str, Any]]) -> None:
    n = s.board.n
    for key in regs:
        _region(key, f"regions/{key}", n)
    s.region_race, s.tokens = [0] * n, [0] * n
    markers = [(k, [0] * n) for k, _, _ in MARKERS]
    for (_, a, _), (_, m) in zip(MARKERS, markers, strict=True):
        setattr(s, a, m)
    for i in range(n):
        rid = f"r{i + 1}"
        info = filled(RegionDoc, regs.get(rid, {}))
        s.region_race[i], s.tokens[i] = _RACE_INDEX[info["race"]], info["tokens"]
        for k, m in markers:
            m[i] = info[k]
        if s.region_race[i] >= 0:   # a forgiving set-up: a race placed on a Lost Tribe region has conquered it
            s.lost[i] = 0


TURN_STATE = Document("TurnStateDoc", [
    one_id("race", IdTable("race", D.RACE_IDS), "cur", none=True, type_=RaceId, default=None),
    attr("readied", bool, default=False),
    attr("conquered", bool, "acted", False),
    attr("picked", bool, default=False),
    attr("declined", bool, "declined_now", False),
    attr("nonempty_conquered", Annotated[int, Field(ge=0, le=100)], "conquered_non_empty", 0),
    seat_mask("attacked", Seat, "turn_state/attacked", 5),
    seat_mask("converted", Seat, "turn_state/converted", 5),
    attr("dragon_used", bool, default=False),
    attr("die_used", bool, default=False),   # written only when true
    attr("fortress_placed", bool, "fort_placed", False),
    nullable("berserk_die", Annotated[int, Field(ge=0, le=3)]),
    Key("final_region", Id | None, lambda s: f"r{s.final_r + 1}" if s.final_r >= 0 else None,
        lambda s, v: setattr(s, "final_r", _region(v, "turn_state/final_region", s.board.n)), None),
    attr("amazon_debt", Annotated[int, Field(ge=0, le=4)], default=0),
    nullable("defender", Seat),
    attr("loose_encampments", Annotated[int, Field(ge=0, le=5)], "camps_loose", 0),
], base=Part)  # type: ignore[arg-type]  # a nested object: no header, no other key allowed
"""The turn's progress (docs/rules/smallworld.md, ``turn_state``), a nested document declared the same way."""


def _write_turn_state(s: SmallWorldState) -> dict[str, Any]:
    ts = TURN_STATE.write(s)
    if not s.die_used:
        del ts["die_used"]
    return ts


def _read_peace(s: SmallWorldState, pc: dict[str, int] | None) -> None:
    s.peace_by, s.peace_to = (-1, -1) if pc is None else (pc["diplomat"], pc["opponent"])


DOCUMENT = Document("SmallWorldBody", [
    Key("map", MapDoc, lambda s: {"id": s.board.key, "seed": s.map_seed}, _read_map),
    attr("turn", Annotated[int, Field(ge=0, le=10)]),
    Key("turns", Annotated[int, Field(ge=1, le=10)] | None, attrgetter("turns"), None, None),  # from the players
    attr("seat", Seat),
    one_id("phase", IdTable("phase", PHASE_NAMES), type_=one_of(PHASE_NAMES)),
    one_per_seat(Key("seats", Annotated[list[SeatDoc], Field(min_length=2, max_length=5)],
        lambda s: [{"coins": s.coins[t], "coins_at_least": s.coins_floor[t]} for t in range(s.players)], _read_seats,
        fresh=True), "seats"),
    Key("races", dict[RaceId, RaceDoc], _write_races, _read_races, {}),
    Key("column", Annotated[list[ComboDoc], Field(max_length=6)],
        lambda s: [{"race": D.RACE_IDS[x], "power": D.POWER_IDS[p], "coins": c}
                   for x, p, c in zip(s.col_race, s.col_power, s.col_coins)], _read_column, [],
        fresh=True),
    # the race just drawn for the bottom of the column, waiting for its power (phase draw-power)
    Key("drawn_race", RaceId | None,
        lambda s: D.RACE_IDS[s.col_race[-1]] if len(s.col_race) > len(s.col_power) else None, _read_drawn, None),
    Key("regions", dict[Id, RegionDoc], _write_regions, _read_regions, {}, fresh=True),
    Key("turn_state", TURN_STATE.model, _write_turn_state, TURN_STATE.read, {}),
    Key("peace", PeaceDoc | None,
        lambda s: {"diplomat": s.peace_by, "opponent": s.peace_to} if s.peace_by >= 0 else None, _read_peace, None),
    attr("holes_used", Annotated[int, Field(ge=0, le=2)], default=0),
    Key("stats", StatsDoc, lambda s: dict(s.stats), lambda s, v: setattr(s, "stats", filled(StatsDoc, v)), {}),
], base=_Body)
"""Every key of a Small World state document (besides ``result``, written at the end of a game for readers):
the declared schema, the writer and the reader in one place."""

SmallWorldBody = DOCUMENT.model


def body_json(s: SmallWorldState) -> dict[str, Any]:
    body = DOCUMENT.write(s)
    res = s.result()
    if res is not None:
        body["result"] = list(res)
    return body


def from_body(cls: type[S], d: dict[str, Any], players: int, options: dict[str, Any]) -> S:
    """A state from a validated document: the keys read by ``DOCUMENT`` (ids to indices), then the acting race
    a set-up may leave out; ``coherence.check_coherence`` then refuses a field incoherent with the rest."""
    s = cls.__new__(cls)
    s.players, s.options = players, options
    DOCUMENT.read(s, d)
    ph = PHASE_NAMES[s.phase]
    # a forgiving set-up: the acting race defaults to the seat's active race (the defender's race in hand)
    if s.cur < 0 and ph in ("conquer", "redeploy", "die"):
        act = [x for x in range(NR) if s.rseat[x] == s.seat and s.rstatus[x] == ACTIVE]
        s.cur = act[0] if act else -1
    if s.cur < 0 and ph == "defend" and s.defender >= 0:
        waiting = [x for x in range(NR) if s.rseat[x] == s.defender and s.rhand[x] > 0]
        s.cur = waiting[0] if waiting else -1
    return s
