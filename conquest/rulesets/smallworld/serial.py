"""The Small World state as JSON (documented field by field in docs/rules/smallworld.md): ``DOCUMENT`` declares
every key of the body once (its type and the components' bounds, how it is written, how it is read), and
``core.fields`` derives from it the schema a document is validated with, ``body_json`` and the reader. Counts are
bounded by the components: a race's tokens by its box (at most 30 with the power's), markers by their number in
the box, coins by a sane 100,000. What a type cannot say is checked here: ids against the board and the boxes,
and the fields against each other, with errors that name the offending field."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import Field, StrictFloat, StrictInt

import conquest.rulesets.smallworld.data as D
from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, Key, attr
from conquest.core.keys import IdTable, check_seat, filled, nullable, one_id, one_of, one_per_seat, part, seat_mask
from conquest.core.maps import MapError
from conquest.core.notation import is_digits
from conquest.core.schema import Body, Count, Id, Part
from conquest.rulesets.smallworld.base import STAT_KEYS
from conquest.rulesets.smallworld.common import (
    ACTIVE,
    DECLINED,
    MAX_CAMPS,
    MAX_FORTS,
    MAX_HEROES,
    MAX_HOLES,
    NR,
    OUT,
    PHASE_NAMES,
    STATUS_NAMES,
)
from conquest.rulesets.smallworld.powers import POWER_RULES
from conquest.rulesets.smallworld.variant import Figures, figures_for

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
    for i, (c, f) in enumerate(zip(s.coins, s.coins_floor, strict=True)):
        if f > c:
            raise StateFormatError(f"seats/{i}/coins_at_least", f"expected an integer 0..{c}, got {f!r}")


def _write_races(s: SmallWorldState) -> dict[str, Any]:
    return {D.RACE_IDS[x]: {"seat": s.rseat[x], "power": D.POWER_IDS[s.rpower[x]],
                            "status": STATUS_NAMES[s.rstatus[x]], "hand": s.rhand[x]}
            for x in range(NR) if s.rstatus[x] != OUT}


def _figures(s: SmallWorldState) -> Figures:
    """The token supplies and starting coins of the game's variant (``variant.py``; the box's without one)."""
    return figures_for(str(s.options.get("variant") or ""))


def _read_races(s: SmallWorldState, races: dict[str, dict[str, Any]]) -> None:
    s.rseat, s.rpower, s.rstatus, s.rhand = [-1] * NR, [-1] * NR, [OUT] * NR, [0] * NR
    for name, info in races.items():
        x = D.RACE_INDEX[name]
        s.rseat[x] = check_seat(s.players, info["seat"], f"races/{name}/seat")
        s.rpower[x] = D.POWER_INDEX[info["power"]]
        s.rstatus[x] = DECLINED if info.get("status") == "declined" else ACTIVE
        s.rhand[x] = info.get("hand", 0)   # within the race's supply with its tokens on the board: _read_regions
    for t in range(s.players):
        act = [x for x in range(NR) if s.rseat[x] == t and s.rstatus[x] == ACTIVE]
        if len(act) > 1:
            raise StateFormatError("races", f"seat {t} has {len(act)} active races")
        dec = [x for x in range(NR) if s.rseat[x] == t and s.rstatus[x] == DECLINED]
        spirit = [POWER_RULES[s.rpower[x]].spirit for x in dec]
        if spirit.count(False) > 1 or spirit.count(True) > 1:
            raise StateFormatError("races", f"seat {t} has too many declined races")
    powers_in_play = [s.rpower[x] for x in range(NR) if s.rstatus[x] != OUT]
    if len(set(powers_in_play)) != len(powers_in_play):
        raise StateFormatError("races", "a power is held by two races")


def _read_column(s: SmallWorldState, col: list[dict[str, Any]]) -> None:
    in_play = {s.rpower[x] for x in range(NR) if s.rstatus[x] != OUT}
    s.col_race, s.col_power, s.col_coins = [], [], []
    for k, c in enumerate(col):
        x = D.RACE_INDEX[c["race"]]
        p = D.POWER_INDEX[c["power"]]
        if s.rstatus[x] != OUT or x in s.col_race:
            raise StateFormatError(f"column/{k}/race", "race already in play or shown")
        if p in in_play or p in s.col_power:
            raise StateFormatError(f"column/{k}/power", "power already in play or shown")
        s.col_race.append(x)
        s.col_power.append(p)
        s.col_coins.append(c.get("coins", 0))


def _read_drawn(s: SmallWorldState, name: str | None) -> None:
    """The race drawn for the bottom of the column, waiting for its power: appended to the column's races."""
    drawn = _RACE_INDEX[name]
    if (drawn >= 0) != (PHASE_NAMES[s.phase] == "draw-power"):
        raise StateFormatError("drawn_race", "the race drawn waits for its power in phase draw-power, and only "
                                             "then")
    if drawn >= 0:
        if s.rstatus[drawn] != OUT or drawn in s.col_race:
            raise StateFormatError("drawn_race", "race already in play or shown")
        if len(s.col_race) >= 6:
            raise StateFormatError("drawn_race", "the column already shows 6 combos")
        s.col_race.append(drawn)


def _write_regions(s: SmallWorldState) -> dict[str, Any]:
    # the markers of ``MARKERS`` spelled out: a dict display is twice as fast as one built from the table
    return {f"r{i + 1}": {"race": _RACE_ID[s.region_race[i]], "tokens": s.tokens[i], "lost_tribe": s.lost[i],
                          "lair": s.lair[i], "fortress": s.fort[i], "encampments": s.camp[i],
                          "hole": s.hole[i], "hero": s.hero[i], "dragon": s.dragon[i]}
            for i in range(s.board.n)}


def _read_regions(s: SmallWorldState, regs: dict[str, dict[str, Any]]) -> None:
    board, n = s.board, s.board.n
    for key in regs:
        _region(key, f"regions/{key}", n)
    s.region_race, s.tokens = [0] * n, [0] * n
    markers = [(k, [0] * n) for k, _, _ in MARKERS]
    for (_, a, _), (_, m) in zip(MARKERS, markers, strict=True):
        setattr(s, a, m)
    for i in range(n):
        rid = f"r{i + 1}"
        info = filled(RegionDoc, regs.get(rid, {}))
        x = _RACE_INDEX[info["race"]]
        if x >= 0 and s.rstatus[x] == OUT:
            raise StateFormatError(f"regions/{rid}/race", f"{D.RACE_IDS[x]} is not in play (add it to races)")
        s.region_race[i], s.tokens[i] = x, info["tokens"]
        if (x >= 0) != (s.tokens[i] > 0):
            raise StateFormatError(f"regions/{rid}/tokens", "a region with a race holds at least 1 token, "
                                                            "and an empty one none")
        if board.water[i] and x >= 0 and not POWER_RULES[s.rpower[x]].sails:
            raise StateFormatError(f"regions/{rid}/race", "only a Seafaring race holds a sea or the lake")
        for k, m in markers:
            m[i] = info[k]
        if x >= 0:   # a forgiving set-up: a race placed on a Lost Tribe region has conquered it
            s.lost[i] = 0
        elif any(info[k] for k, _, _ in MARKERS[1:]):
            raise StateFormatError(f"regions/{rid}", "markers lie only in occupied regions")
    # counts within the boxes: a race's tokens (board and hand) within its supply, markers within their number
    for x in range(NR):
        if s.rstatus[x] != OUT:
            on_board = sum(s.tokens[i] for i in range(n) if s.region_race[i] == x)
            if on_board + s.rhand[x] > _figures(s).supply[x]:
                raise StateFormatError(f"races/{D.RACE_IDS[x]}/hand",
                                       f"{D.RACE_IDS[x]} have {on_board} tokens on the board and {s.rhand[x]} in "
                                       f"hand: more than the {_figures(s).supply[x]} of their supply")
        elif s.rhand[x]:
            raise StateFormatError(f"races/{D.RACE_IDS[x]}/hand", "a race in the box holds no tokens")
    for key, have, most in (("fortress", s.fort, MAX_FORTS), ("encampments", s.camp, MAX_CAMPS),
                            ("hero", s.hero, MAX_HEROES), ("hole", s.hole, MAX_HOLES), ("dragon", s.dragon, 1)):
        if sum(have) > most:
            raise StateFormatError(f"regions/{key}", f"{sum(have)} {key} markers on the board; the box holds {most}")


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
    s.peace_by = s.peace_to = -1
    if pc is not None:
        s.peace_by = check_seat(s.players, pc["diplomat"], "peace/diplomat")
        s.peace_to = check_seat(s.players, pc["opponent"], "peace/opponent")


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
    """A state from a validated document: the keys read by ``DOCUMENT`` (ids to indices, each key against the
    keys before it), then what depends on several keys."""
    s = cls.__new__(cls)
    s.players, s.options = players, options
    DOCUMENT.read(s, d)
    ph, n = PHASE_NAMES[s.phase], s.board.n
    if s.turn > s.turns:
        raise StateFormatError("turn", f"expected an integer 0..{s.turns}, got {s.turn!r}")
    check_seat(s.players, s.seat, "seat")
    if s.defender >= 0:
        check_seat(s.players, s.defender, "turn_state/defender")
    if s.turn == 0 and ph not in ("draw-race", "draw-power"):
        raise StateFormatError("turn", "turn 0 is the set-up (the column's draws); play starts at turn 1")
    # a forgiving set-up: the acting race defaults to the seat's active race (the defender's race in hand)
    if s.cur < 0 and ph in ("conquer", "redeploy", "die"):
        act = [x for x in range(NR) if s.rseat[x] == s.seat and s.rstatus[x] == ACTIVE]
        s.cur = act[0] if act else -1
    if s.cur < 0 and ph == "defend" and s.defender >= 0:
        waiting = [x for x in range(NR) if s.rseat[x] == s.defender and s.rhand[x] > 0]
        s.cur = waiting[0] if waiting else -1
    # the seat to move must be able to act in its phase
    if ph in ("conquer", "redeploy", "defend", "die"):
        if s.cur < 0 or s.rstatus[s.cur] == OUT:
            raise StateFormatError("turn_state/race", f"phase {ph} needs the acting race in play")
        owner = s.defender if ph == "defend" else s.seat
        if s.rseat[s.cur] != owner:
            raise StateFormatError("turn_state/race", f"{D.RACE_IDS[s.cur]} does not belong to seat {owner}")
    if ph == "defend" and s.defender < 0:
        raise StateFormatError("turn_state/defender", "phase defend needs the defending seat")
    if ph == "die" and s.final_r < 0 and not (s.rstatus[s.cur] == ACTIVE
                                                  and POWER_RULES[s.rpower[s.cur]].rolls_before_conquest):
        raise StateFormatError("turn_state/final_region", "phase die needs the region of the final conquest")
    if sum(s.camp) + s.camps_loose > MAX_CAMPS:
        raise StateFormatError("turn_state/loose_encampments", f"more encampments than the {MAX_CAMPS} of the box")
    if sum(s.hole) > s.holes_used:
        raise StateFormatError("holes_used", f"{sum(s.hole)} Holes-in-the-Ground on the board, {s.holes_used} used")
    # coins within what the turns so far can have paid: every coin comes from the start or from scoring
    # (at most a few per region and a power's flat bonus a turn); the column's coins are seats' coins set down
    most = sum(_figures(s).coins_at_start(t) for t in range(players)) + max(s.turn, 1) * players * (10 * n + 20)
    if sum(s.coins) + sum(s.col_coins) > most:
        raise StateFormatError("seats", f"{sum(s.coins) + sum(s.col_coins)} coins by turn {s.turn} (with those on "
                                        f"the column): more than play can have paid ({most})")
    if ph == "pick" and not s.col_race:
        raise StateFormatError("column", "phase pick needs combos in the column")
    return s
