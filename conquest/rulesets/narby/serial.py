"""The state JSON of Narby Conquest (docs/rules/narby.md §5; rules document 001): ``DOCUMENT`` declares every
key once (its type and bounds, how it is written, how it is read), and ``core.fields`` derives from it the
schema a document is validated with, ``body_json`` and the reader; ``from_body`` then checks squares, ids and
the coherence of the node with the rest. The view a seat gets (hidden hands) is in ``view``.

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
    UNDEAD,
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
        lambda s, v: setattr(s, "ev", ev_from_json(v, s.players)), None),
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


def ev_from_json(v: dict[str, Any] | None, players: int) -> dict[str, Any] | None:
    """The event of a validated document as play keeps it: claim keys parsed, seats checked against the
    number of players, the defaults of the keys it leaves out filled in."""
    if v is None:
        return None
    out = filled(_EVENT_MODELS[v["type"]], v)
    if "first" not in v:
        out.pop("first", None)   # an attack's first roll: none until it is rolled
    try:
        out.update({k: f(out[k]) for k, f in _EV_READ.items() if k in out})
    except ValueError as e:
        raise StateFormatError("event", str(e)) from None
    for k in ("actor", "defender", "seat", "by", "from"):
        if isinstance(out.get(k), int) and not 0 <= out[k] < players:
            raise StateFormatError(f"event/{k}", f"seat {out[k]} out of range")
    if any(not 0 <= y < players for y in out.get("queue", ())):
        raise StateFormatError("event/queue", "seats out of range")
    if v["type"] == "place" and v["piece"] == "dragon" and not 0 <= out["dragon"] < players:
        raise StateFormatError("event/dragon", f"placing a dragon names its seat, got {out['dragon']!r}")
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


def _check_node(s: NarbyData, players: int) -> None:
    """The coherence of the node with the rest of a read document: the seats, dragons, event and dice it needs."""
    node = s.node
    if s.phase not in ("setup", "over"):
        # "When every dragon is on the board the first round" begins: after the set-up every seat has its
        # dragon, on the board, and a home (its cave; the Undead's rolled square). A finished game plays no more:
        # it may have ended before the set-up was done (a seat past the win at once: win_check=at_once)
        for i in range(players):
            if s.dragon[i] < 0:
                raise StateFormatError(f"dragons/{i}", f"seat {i} has no dragon after the set-up")
            if s.dpos[i] < 0:
                raise StateFormatError(f"dragon_at/{i}", f"seat {i}'s dragon is off the board in the {s.phase} "
                                                         "phase (dragons stay on the board after the set-up)")
            if s.home[i] < 0:
                raise StateFormatError(f"home/{i}", f"seat {i} has no home cave after the set-up")
    needs_ev = {"react": ("attack", "steal", "destroy", "claim"), "place": ("place",), "upgrade": ("upgrade",),
                "pop_x": ("place_power",), "pop_y": ("place_power",), "token": ("token",),
                "tribute_card": ("tribute",), "lose": ("lose",),
                "roll": ("attack", "steal", "destroy", "tribute")}
    if node in needs_ev and (s.ev is None or s.ev["type"] not in needs_ev[node]):
        raise StateFormatError("event", f"node {node} needs an event of type {' or '.join(needs_ev[node])}")
    if node == "act":
        if s.turn >= players or s.order[s.turn] != s.who:
            s.turn = s.order.index(s.who)  # the acting seat decides which turn of the order this is
        if s.dpos[s.who] < 0:
            raise StateFormatError("dragon_at", f"seat {s.who} acts but its dragon is not on the board")
    if node in ("act", "react", "roll") and s.phase in ("action",):
        missing = [i for i in range(players) if s.dpos[i] < 0 or s.dragon[i] < 0]
        if missing:
            raise StateFormatError("dragon_at", f"seats {missing} have no dragon on the board")
    if node == "react" and s.ev is not None and s.who not in s.ev["queue"][:1]:
        raise StateFormatError("seat", "at node react the seat must be the first of event/queue")
    if node in ("tribute_card", "procreator") and s.hand[s.who] is None:
        raise StateFormatError("hands", f"node {node} asks a seat that holds a card")
    if node in ("settle_y", "pop_y", "chest_y", "cave_y", "procreator") and s.die == 0:
        raise StateFormatError("dice", f"node {node} needs the first die")
    if node == "procreator" and s.die2 == 0:
        raise StateFormatError("dice", "node procreator needs both dice")


def from_body(cls: type[D], d: dict[str, Any], players: int, options: dict[str, Any]) -> D:
    """The state of the validated JSON document ``d`` (docs/rules/narby.md §5): the keys read by ``DOCUMENT``,
    the pieces put on the board, then what depends on the options, the number of seats and the other fields; a
    field incoherent with the rest raises StateFormatError naming it."""
    s = object.__new__(cls)
    s.players, s.options = players, dict(options)
    s.adj, s.cblk = int(options["adjacency"]), bool(options["chest_blocks"])
    DOCUMENT.read(s, d)
    if options["max_rounds"] and s.round > options["max_rounds"]:
        raise StateFormatError("round", f"round {s.round} is past the round limit (option max_rounds "
                                        f"{options['max_rounds']}), which ends the game")
    if s.node in DECISION_NODES and not 0 <= s.who < players:
        raise StateFormatError("seat", f"a decision node needs the deciding seat, got {d.get('seat')!r}")
    if s.node not in DECISION_NODES:
        s.who = -1
    if len([x for x in s.dragon if x >= 0]) != len({x for x in s.dragon if x >= 0}):
        raise StateFormatError("dragons", "a dragon is chosen twice")
    for i in range(players):
        if s.home[i] < 0 and s.cave[i] >= 0:
            s.home[i] = s.cave[i]
        if s.cave[i] >= 0 and s.dragon[i] == UNDEAD:
            raise StateFormatError(f"caves/{i}", "the Undead \"Does not place home cave\"")
    _put_pieces(s, d)
    for k in s.claims:
        if isinstance(k, str) and k not in s.places:
            raise StateFormatError(f"claims/{key_text(k)}", "that place of power is not on the board")
        if not 0 <= s.claims[k] < players:
            raise StateFormatError(f"claims/{key_text(k)}", f"expected a seat number, got {s.claims[k]!r}")
    s.rings_left = []
    for i in range(players):
        used = sum(1 for o in s.claims.values() if o == i)
        total = T.dragons[s.dragon[i]].rings if s.dragon[i] >= 0 else 0
        if used > total:
            raise StateFormatError("claims", f"seat {i} has {used} claim rings on the board, more than {total}")
        s.rings_left.append(total - used)
    dealt = [c for c in s.hand if c is not None] + s.played
    if len(dealt) != len(set(dealt)):
        raise StateFormatError("hands", "a card is in two places (the deck has one card of each title)")
    if sorted(s.order) != list(range(players)):
        raise StateFormatError("order", f"a permutation of the seats 0-{players - 1}")
    if s.turn > players:
        raise StateFormatError("turn", f"{s.turn} out of range")
    s.phase = _phase_of(s.node, s.ev)  # derived: the node (and its event) says which phase it belongs to
    if s.ev is not None and s.phase == "tribute" and "seat" in s.ev:
        s.k = s.ev["seat"]  # the tribute goes on with the next seat after this one
    _check_node(s, players)
    return s
