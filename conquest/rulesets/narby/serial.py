"""The state JSON of Narby Conquest (docs/rules/narby.md §5; rules document 001): ``DOCUMENT`` declares every
key once (its type and bounds, how it is written, how it is read), and ``core.fields`` derives from it the
schema a document is validated with, ``body_json`` and the reader; ``from_body`` then puts the pieces on their
squares and derives the phase (``coherence.py`` checks the fields against each other). The view a seat gets
(hidden hands) is in ``view``.

Bounds: coins and the chest's coins at most 100,000; a seat's treasure tokens at most 1,000 (values 1-3 each,
so their sum at most 3,000); actions left and action bonuses at most 20 (docs/rules/narby.md, "Bounds of a state
document").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field, StrictInt, StrictStr

from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, Key, attr
from conquest.core.keys import IdTable, filled, id_flags, id_list, one_of, one_per_seat, part, tagged, union
from conquest.core.schema import Count, Id, Text, read_counters
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import (
    BONUS_KEYS,
    CAVE0,
    CHANCE_NODES,
    CHEST,
    COINS_MAX,
    DECISION_NODES,
    DRAGON0,
    EMPTY,
    KIND_CODE,
    KIND_NAME,
    PHASES,
    PIDX,
    PLACE0,
    RUIN,
    TOWN,
    key_order,
    key_parse,
    key_text,
)
from conquest.rulesets.narby.state import STAT_KEYS, NarbyData
from conquest.rulesets.narby.tables import TABLES as T

D = TypeVar("D", bound=NarbyData)

Coins = Annotated[int, Field(ge=0, le=COINS_MAX)]
Square = Annotated[StrictStr, Field(max_length=5)]
Seat = Annotated[int, Field(ge=0, le=9)]


def per_seat(item: Any) -> Any:
    return Annotated[list[item], Field(min_length=2, max_length=10)]


Key_ = StrictInt | Text   # a claim key in an event: a square "x,y" or a place of power id
CardId: Any = Literal[tuple(T.card_ids)]    # the ids of the tables: a document's unknown id is refused by its
PlaceId: Any = Literal[tuple(T.place_ids)]  # schema, naming the field and the ids it may be
NodeId: Any = Literal[tuple(sorted(CHANCE_NODES | DECISION_NODES | {"over"}))]


_Event: Any = part("_Event", queue=(list[Seat], []))
Attack = tagged("attack", base=_Event, actor=Seat, defender=Seat, mod=(StrictInt, 0), first=(StrictInt | None, None))
Steal = tagged("steal", base=_Event, actor=Seat, from_=(Seat | Literal["chest"], Field(alias="from")),
               mod=(StrictInt, 0))
Destroy = tagged("destroy", base=_Event, actor=Seat, target=Text, mod=(StrictInt, 0))
Claim = tagged("claim", base=_Event, actor=Seat, targets=list[Text])
Place = tagged("place", by=Seat, piece=Literal["dragon", "hut", "chest"],
               dragon=(Annotated[int, Field(ge=-1, le=9)], -1), mode=Text,
               range=(Annotated[int, Field(ge=0, le=20)], 0), then=(Text, "act"))
Upgrade = tagged("upgrade", towns=list[Text])
PlacePower = tagged("place_power", place=PlaceId)
Tribute = tagged("tribute", seat=Seat, mod=(StrictInt, 0), town=(StrictInt, 0), city=(StrictInt, 0))
Token = tagged("token", seat=Seat, left=StrictInt, then=(Text, "act"))
Lose = tagged("lose", seat=Seat)
Event, _EVENT_MODELS = union(Attack, Steal, Destroy, Claim, Place, Upgrade, PlacePower, Tribute, Token, Lose)
Bonus = part("Bonus", **{k: (Annotated[int, Field(ge=-20, le=20)], ...) for k in BONUS_KEYS})
"""The document's bonus object: one number per bonus key."""


def _square(name: str, v: Any, anchor: bool = False) -> int:
    if v is None:
        return -1
    try:
        q = B.parse_sq(str(v))
    except ValueError:
        raise StateFormatError(name, f"expected a square \"x,y\" (1-20), got {v!r}") from None
    if anchor and not B.is_anchor(q):
        raise StateFormatError(name, f"{v} cannot be the top-left square of a 2x2 piece")
    return q


def _squares(field: str, attribute: str, anchor: bool = False) -> Key:
    def read(s: NarbyData, v: list[str | None]) -> None:
        setattr(s, attribute, [_square(f"{field}/{i}", q, anchor) for i, q in enumerate(v)])
    return one_per_seat(Key(field, per_seat(Square | None),
                            lambda s: [B.sq_text(a) if a >= 0 else None for a in getattr(s, attribute)], read,
                            fresh=True))


def _read_dice(s: NarbyData, v: list[int]) -> None:
    s.die, s.die2 = v


def _read_claims(s: NarbyData, v: dict[str, int]) -> None:
    s.claims = {}
    for k, o in v.items():
        try:
            s.claims[key_parse(k)] = o
        except ValueError as e:
            raise StateFormatError(f"claims/{k}", str(e)) from None


def _write_board(s: NarbyData) -> dict[str, str]:
    return {B.sq_text(q): KIND_NAME[c] for q, c in enumerate(s.occ) if TOWN <= c <= RUIN}


DOCUMENT = Document("NarbyBody", [
    attr("round", Annotated[int, Field(ge=0, le=10_000)]),
    attr("phase", Literal[PHASES]),
    attr("node", NodeId),
    Key("seat", Seat | None, lambda s: None if s.node in CHANCE_NODES or s.node == "over" else s.who,
        lambda s, v: setattr(s, "who", -1 if v is None else v), None),
    attr("step", Annotated[int, Field(ge=-1, le=10_000)], "k"),
    Key("dice", Annotated[list[Annotated[int, Field(ge=0, le=20)]], Field(min_length=2, max_length=2)],
        lambda s: [s.die, s.die2], _read_dice, fresh=True),
    one_per_seat(id_list("dragons", IdTable("dragon", T.dragon_ids), per_seat(one_of(T.dragon_ids) | None), "dragon",
                         none=True)),
    _squares("dragon_at", "dpos", anchor=True),
    _squares("caves", "cave"),
    _squares("home", "home"),
    Key("settlements", Annotated[dict[Square, Literal[tuple(KIND_CODE)]], Field(max_length=400)],  # type: ignore[misc]
        _write_board, fresh=True),   # read with the other pieces by ``from_body``, which puts them on the board
    # in the order the places came on the board, which orders their ``power`` actions (a saved game lists its
    # legal actions as the original did); read with the other pieces by ``from_body``
    Key("places", dict[PlaceId, Square], lambda s: {p: B.sq_text(a) for p, a in s.places.items()}, fresh=True),
    Key("claims", dict[Id, Seat],
        lambda s: {key_text(k): o for k, o in sorted(s.claims.items(), key=lambda x: key_order(x[0]))},
        _read_claims, fresh=True),
    Key("chest", Square | None, lambda s: B.sq_text(s.chest) if s.chest >= 0 else None, None, None),
    attr("chest_coins", Coins),
    one_per_seat(attr("coins", per_seat(Coins))),
    one_per_seat(attr("tokens", per_seat(Annotated[int, Field(ge=0, le=3_000)]), "tok_sum")),
    one_per_seat(attr("token_count", per_seat(Annotated[int, Field(ge=0, le=1_000)]), "tok_n")),
    Key("rings_left", list[Annotated[int, Field(ge=0, le=100)]] | None,   # derived from claims when read
        lambda s: s.rings_left, default=None),
    one_per_seat(attr("hands", per_seat(CardId | None), "hand")),
    attr("played", Annotated[list[CardId], Field(max_length=100)]),
    id_flags("powers_used", IdTable("place of power", T.place_ids), None, "used",
             type_=Annotated[list[PlaceId], Field(max_length=100)]),
    attr("order", per_seat(Seat)),
    attr("turn", Annotated[int, Field(ge=0, le=10)]),
    attr("actions_left", Annotated[int, Field(ge=0, le=20)], "acts"),
    Key("bonus", Bonus, lambda s: dict(zip(BONUS_KEYS, s.bonus)),
        lambda s, v: setattr(s, "bonus", [v[k] for k in BONUS_KEYS]), fresh=True),
    Key("event", Event | None, lambda s: ev_to_json(s.ev) if s.ev is not None else None,
        lambda s, v: setattr(s, "ev", ev_from_json(v)), None),
    Key("stats", dict[Id, Count] | None, lambda s: s.stats,
        lambda s, v: setattr(s, "stats", read_counters({"stats": v}, STAT_KEYS)), None),
])
"""Every key of a Narby state document: the declared schema, the writer and the reader in one place."""

NarbyBody = DOCUMENT.model


def body_json(s: NarbyData) -> dict[str, Any]:
    """The position as the state JSON (without the header ``State.to_json`` adds)."""
    return DOCUMENT.write(s)


# The phase a node belongs to: derived from the node (and its event), not read from the JSON.
_NODE_PHASE = {"dragon_roll": "setup", "dragon_select": "setup", "cave_x": "setup", "cave_y": "setup",
               "draw": "draw", "settle_x": "populate", "settle_y": "populate", "procreator": "populate",
               "upgrade": "populate", "pop_roll": "populate", "pop_choose": "populate", "pop_x": "populate",
               "pop_y": "populate", "chest_x": "populate", "chest_y": "populate", "act": "action",
               "react": "action", "tribute_card": "tribute", "lose": "tribute", "over": "over"}


def _phase_of(node: str, ev: dict[str, Any] | None) -> str:
    if node in _NODE_PHASE:
        return _NODE_PHASE[node]
    typ = ev["type"] if ev is not None else ""
    if node == "place":
        return "setup" if ev is not None and ev.get("then") == "setup" else "action"
    if node == "token":
        return "tribute" if ev is not None and ev.get("then") == "tribute" else "action"
    return "tribute" if typ == "tribute" else "action"  # node roll


def _texts(keys: tuple[Any, ...]) -> list[str]:
    return [key_text(x) for x in keys]


def _keys(texts: list[str]) -> tuple[Any, ...]:
    return tuple(key_parse(x) for x in texts)


_EV_WRITE: dict[str, Callable[[Any], Any]] = {"target": key_text, "targets": _texts, "towns": _texts, "queue": list}
"""The event's fields that play keeps otherwise than the document: claim keys parsed, seat queues as tuples."""
_EV_READ: dict[str, Callable[[Any], Any]] = {"target": key_parse, "targets": _keys, "towns": _keys, "queue": tuple}


def ev_to_json(ev: dict[str, Any]) -> dict[str, Any]:
    return {k: _EV_WRITE[k](v) if k in _EV_WRITE else v for k, v in ev.items()}


def ev_from_json(v: dict[str, Any] | None) -> dict[str, Any] | None:
    """The event of a validated document as play keeps it: claim keys parsed, seat queues as tuples, the
    defaults of the keys it leaves out filled in (its seats are checked against the players by ``coherence``)."""
    if v is None:
        return None
    out = filled(_EVENT_MODELS[v["type"]], v)
    if "first" not in v:
        out.pop("first", None)   # an attack's first roll: none until it is rolled
    try:
        out.update({k: f(out[k]) for k, f in _EV_READ.items() if k in out})
    except ValueError as e:
        raise StateFormatError("event", str(e)) from None
    return out


def _put_pieces(s: NarbyData, d: dict[str, Any]) -> None:
    """The 400-square board of a document: settlements, caves, the chest, places of power and dragons, no two
    on one square (a dragon may stand over the thief's chest, reading R33)."""
    occ = bytearray([EMPTY] * B.SQUARES)

    def put(name: str, q: int, code: int) -> None:
        if occ[q] != EMPTY:
            raise StateFormatError(name, f"square {B.sq_text(q)} is already taken")
        occ[q] = code

    for k, v in d["settlements"].items():
        put(f"settlements/{k}", _square(f"settlements/{k}", k), KIND_CODE[v])
    for i, q in enumerate(s.cave):
        if q >= 0:
            put(f"caves/{i}", q, CAVE0 + i)
    s.chest = _square("chest", d.get("chest"))
    if s.chest >= 0:
        put("chest", s.chest, CHEST)
    s.places = {}
    for p, v in d["places"].items():
        s.places[p] = a = _square(f"places/{p}", v, True)
        for q in B.FOOT[a]:
            put(f"places/{p}", q, PLACE0 + PIDX[p])
    for i, a in enumerate(s.dpos):
        if a >= 0:
            for q in B.FOOT[a]:
                if q == s.chest and occ[q] == CHEST and not s.cblk:
                    occ[q] = EMPTY  # a dragon may stand over the thief's chest (reading R33)
                put(f"dragon_at/{i}", q, DRAGON0 + i)
    s.occ = occ


def from_body(cls: type[D], d: dict[str, Any], players: int, options: dict[str, Any]) -> D:
    """The state of the validated JSON document ``d`` (docs/rules/narby.md §5): the keys read by ``DOCUMENT``,
    the pieces put on the board, then what follows from the other fields (the phase of the node, the rings left,
    the home caves, the turn of the seat acting); ``coherence.check_coherence`` then refuses a field incoherent
    with the rest, naming it."""
    s = object.__new__(cls)
    s.players, s.options = players, dict(options)
    s.adj, s.cblk = int(options["adjacency"]), bool(options["chest_blocks"])
    DOCUMENT.read(s, d)
    if s.node not in DECISION_NODES:
        s.who = -1
    for i in range(players):
        if s.home[i] < 0 and s.cave[i] >= 0:
            s.home[i] = s.cave[i]
    _put_pieces(s, d)
    s.rings_left = [(T.dragons[s.dragon[i]].rings if s.dragon[i] >= 0 else 0)
                    - sum(1 for o in s.claims.values() if o == i) for i in range(players)]
    s.phase = _phase_of(s.node, s.ev)  # derived: the node (and its event) says which phase it belongs to
    if s.ev is not None and s.phase == "tribute" and "seat" in s.ev:
        s.k = s.ev["seat"]  # the tribute goes on with the next seat after this one
    if s.node == "act" and s.who in s.order and s.turn <= players and (s.turn == players or s.order[s.turn] != s.who):
        s.turn = s.order.index(s.who)  # the acting seat decides which turn of the order this is
    return s
