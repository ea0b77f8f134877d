"""The state JSON of Narby Conquest (docs/rules/narby.md §5; rules document 001): ``body_json`` writes a
position, ``from_body`` reads one back and checks every field and its coherence with the node. The view a
seat gets (hidden hands) is in ``view``.
"""

from __future__ import annotations

from typing import Any, TypeVar

from conquest.core.errors import StateFormatError
from conquest.core.schema import read_counters
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import (
    BONUS_KEYS,
    CAVE0,
    CHANCE_NODES,
    CHEST,
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


def body_json(s: NarbyData) -> dict[str, Any]:
    """The position as the state JSON (without the header ``State.to_json`` adds)."""
    occ = s.occ
    ev = s.ev
    return {
        "round": s.round,
        "phase": s.phase,
        "node": s.node,
        "seat": None if s.node in CHANCE_NODES or s.node == "over" else s.who,
        "step": s.k,
        "dice": [s.die, s.die2],
        "dragons": [T.dragon_ids[d] if d >= 0 else None for d in s.dragon],
        "dragon_at": [B.sq_text(a) if a >= 0 else None for a in s.dpos],
        "caves": [B.sq_text(a) if a >= 0 else None for a in s.cave],
        "home": [B.sq_text(a) if a >= 0 else None for a in s.home],
        "settlements": {B.sq_text(q): KIND_NAME[c] for q, c in enumerate(occ) if TOWN <= c <= RUIN},
        # in the order the places came on the board, which orders their ``power`` actions (a saved game
        # lists its legal actions as the original did)
        "places": {p: B.sq_text(a) for p, a in s.places.items()},
        "claims": {key_text(k): o for k, o in sorted(s.claims.items(), key=lambda x: key_order(x[0]))},
        "chest": B.sq_text(s.chest) if s.chest >= 0 else None,
        "chest_coins": s.chest_coins,
        "coins": list(s.coins),
        "tokens": list(s.tok_sum),
        "token_count": list(s.tok_n),
        "rings_left": list(s.rings_left),
        "hands": list(s.hand),
        "played": list(s.played),
        "powers_used": [p for i, p in enumerate(T.place_ids) if (s.used >> i) & 1],
        "order": list(s.order),
        "turn": s.turn,
        "actions_left": s.acts,
        "bonus": dict(zip(BONUS_KEYS, s.bonus)),
        "event": ev_to_json(ev) if ev is not None else None,
        "stats": dict(s.stats),
    }


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


def ev_to_json(ev: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in ev.items():
        if k == "target":
            out[k] = key_text(v)
        elif k in ("targets", "towns"):
            out[k] = [key_text(x) for x in v]
        elif k == "queue":
            out[k] = list(v)
        else:
            out[k] = v
    return out


EVENT_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "attack": {"actor": int, "defender": int, "mod": int, "queue": list},
    "steal": {"actor": int, "from": (int, str), "mod": int, "queue": list},
    "destroy": {"actor": int, "target": str, "mod": int, "queue": list},
    "claim": {"actor": int, "targets": list, "queue": list},
    "place": {"by": int, "piece": str, "dragon": int, "mode": str, "range": int, "then": str},
    "upgrade": {"towns": list},
    "place_power": {"place": str},
    "tribute": {"seat": int, "mod": int, "town": int, "city": int},
    "token": {"seat": int, "left": int, "then": str},
    "lose": {"seat": int},
}


EVENT_DEFAULTS: dict[str, Any] = {"mod": 0, "town": 0, "city": 0, "queue": [], "range": 0, "dragon": -1,
                                  "then": "act"}


def ev_from_json(v: Any, players: int) -> dict[str, Any] | None:
    if v is None:
        return None
    if not isinstance(v, dict) or not isinstance(v.get("type"), str) or v["type"] not in EVENT_FIELDS:
        raise StateFormatError("event", f"must be null or an object with a type among {sorted(EVENT_FIELDS)}")
    spec = EVENT_FIELDS[v["type"]]
    out: dict[str, Any] = {"type": v["type"]}
    for k, typ in spec.items():
        if k not in v and k not in EVENT_DEFAULTS:
            raise StateFormatError(f"event/{k}", "missing")
        raw = v.get(k, EVENT_DEFAULTS.get(k))
        if not isinstance(raw, typ) or isinstance(raw, bool):
            raise StateFormatError(f"event/{k}", f"wrong type {type(raw).__name__}")
        x: Any = raw
        try:
            if k == "target":
                x = key_parse(x)
            elif k in ("targets", "towns"):
                x = tuple(key_parse(str(y)) for y in x)
            elif k == "queue":
                x = tuple(int(y) for y in x)
                if any(not 0 <= y < players for y in x):
                    raise ValueError("seats out of range")
        except ValueError as e:
            raise StateFormatError(f"event/{k}", str(e)) from None
        out[k] = x
    for k in ("actor", "defender", "seat", "by"):
        if k in out and not 0 <= out[k] < players:
            raise StateFormatError(f"event/{k}", f"seat {out[k]} out of range")
    if v["type"] == "steal" and isinstance(out["from"], str) and out["from"] != "chest":
        raise StateFormatError("event/from", "a seat number or \"chest\"")
    if v["type"] == "place" and v["piece"] not in ("dragon", "hut", "chest"):
        raise StateFormatError("event/piece", "dragon, hut or chest")
    if v["type"] == "place" and v["piece"] == "dragon" and not 0 <= out["dragon"] < players:
        raise StateFormatError("event/dragon", f"placing a dragon names its seat, got {out['dragon']!r}")
    if v["type"] == "place" and not 0 <= out["range"] <= 20:
        raise StateFormatError("event/range", f"0 to 20 squares, got {out['range']!r}")
    if v["type"] == "attack" and "first" in v:
        out["first"] = int(v["first"])
    if v["type"] == "place_power" and out["place"] not in PIDX:
        raise StateFormatError("event/place", f"unknown place of power {out['place']!r}")
    return out


def from_body(cls: type[D], d: dict[str, Any], players: int, options: dict[str, Any]) -> D:
    """The state of the JSON document ``d`` (docs/rules/narby.md §5), every field checked: a field that is
    missing, of the wrong type or incoherent with the rest raises StateFormatError naming it."""
    # Long because: it reads and checks every field of the state's JSON document, one after the other; the state's
    # declaration (issue 29) derives this reader instead.
    def need(name: str) -> Any:
        if name not in d:
            raise StateFormatError(name, "missing")
        return d[name]

    def as_int(name: str, lo: int | None = None, hi: int | None = None) -> int:
        v = need(name)
        if not isinstance(v, int) or isinstance(v, bool):
            raise StateFormatError(name, f"expected an integer, got {v!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise StateFormatError(name, f"{v} out of range")
        return v

    def seat_list(name: str) -> list[Any]:
        v = need(name)
        if not isinstance(v, list) or len(v) != players:
            raise StateFormatError(name, f"expected a list of {players} entries")
        return v

    def square(name: str, v: Any, anchor: bool = False) -> int:
        if v is None:
            return -1
        try:
            q = B.parse_sq(str(v))
        except ValueError:
            raise StateFormatError(name, f"expected a square \"x,y\" (1-20), got {v!r}") from None
        if anchor and not B.is_anchor(q):
            raise StateFormatError(name, f"{v} cannot be the top-left square of a 2x2 piece")
        return q

    s = object.__new__(cls)
    s.players = players
    s.options = dict(options)
    s.adj = int(options["adjacency"])
    s.cblk = bool(options["chest_blocks"])
    s.round = as_int("round", 0)
    if options["max_rounds"] and s.round > options["max_rounds"]:
        raise StateFormatError("round", f"round {s.round} is past the round limit (option max_rounds "
                                        f"{options['max_rounds']}), which ends the game")
    if d.get("phase") not in PHASES:
        raise StateFormatError("phase", f"one of {', '.join(PHASES)}")
    s.node = need("node")
    if s.node not in CHANCE_NODES and s.node not in DECISION_NODES and s.node != "over":
        raise StateFormatError("node", f"unknown node {s.node!r}")
    seat = d.get("seat")
    if s.node in DECISION_NODES:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise StateFormatError("seat", f"a decision node needs the deciding seat, got {seat!r}")
        s.who = seat
    else:
        s.who = -1
    s.k = as_int("step", -1)
    dice = need("dice")
    if not isinstance(dice, list) or len(dice) != 2 or not all(isinstance(x, int) and 0 <= x <= 20 for x in dice):
        raise StateFormatError("dice", "two numbers 0-20 (0: not rolled)")
    s.die, s.die2 = dice
    s.dragon = []
    for i, v in enumerate(seat_list("dragons")):
        if v is None:
            s.dragon.append(-1)
        elif v in T.dragon_index:
            s.dragon.append(T.dragon_index[v])
        else:
            raise StateFormatError(f"dragons/{i}", f"unknown dragon {v!r} (known: {', '.join(T.dragon_ids)})")
    if len([x for x in s.dragon if x >= 0]) != len({x for x in s.dragon if x >= 0}):
        raise StateFormatError("dragons", "a dragon is chosen twice")
    s.dpos = [square(f"dragon_at/{i}", v, True) for i, v in enumerate(seat_list("dragon_at"))]
    s.cave = [square(f"caves/{i}", v) for i, v in enumerate(seat_list("caves"))]
    s.home = [square(f"home/{i}", v) for i, v in enumerate(seat_list("home"))]
    for i in range(players):
        if s.home[i] < 0 and s.cave[i] >= 0:
            s.home[i] = s.cave[i]
        if s.cave[i] >= 0 and s.dragon[i] == UNDEAD:
            raise StateFormatError(f"caves/{i}", "the Undead \"Does not place home cave\"")
    occ = bytearray([EMPTY] * B.SQUARES)

    def put(name: str, q: int, code: int) -> None:
        if occ[q] != EMPTY:
            raise StateFormatError(name, f"square {B.sq_text(q)} is already taken")
        occ[q] = code

    sett = need("settlements")
    if not isinstance(sett, dict):
        raise StateFormatError("settlements", "an object {\"x,y\": \"town\"|\"city\"|\"ruin\"}")
    for k, v in sett.items():
        if v not in KIND_CODE:
            raise StateFormatError(f"settlements/{k}", "town, city or ruin")
        put(f"settlements/{k}", square(f"settlements/{k}", k), KIND_CODE[v])
    for i, q in enumerate(s.cave):
        if q >= 0:
            put(f"caves/{i}", q, CAVE0 + i)
    s.chest = square("chest", need("chest"))
    if s.chest >= 0:
        put("chest", s.chest, CHEST)
    pl = need("places")
    if not isinstance(pl, dict):
        raise StateFormatError("places", "an object {place_id: \"x,y\"}")
    s.places = {}
    for p, v in pl.items():
        if p not in PIDX:
            raise StateFormatError(f"places/{p}", "unknown place of power")
        a = square(f"places/{p}", v, True)
        s.places[p] = a
        for q in B.FOOT[a]:
            put(f"places/{p}", q, PLACE0 + PIDX[p])
    for i, a in enumerate(s.dpos):
        if a >= 0:
            for q in B.FOOT[a]:
                if q == s.chest and occ[q] == CHEST and not s.cblk:
                    occ[q] = EMPTY  # a dragon may stand over the thief's chest (reading R33)
                put(f"dragon_at/{i}", q, DRAGON0 + i)
    s.occ = occ
    cl = need("claims")
    if not isinstance(cl, dict):
        raise StateFormatError("claims", "an object {\"x,y\" or place_id: seat}")
    s.claims = {}
    for k, o in cl.items():
        try:
            key = key_parse(k)
        except ValueError as e:
            raise StateFormatError(f"claims/{k}", str(e)) from None
        if isinstance(key, str) and key not in s.places:
            raise StateFormatError(f"claims/{k}", "that place of power is not on the board")
        if not isinstance(o, int) or isinstance(o, bool) or not 0 <= o < players:
            raise StateFormatError(f"claims/{k}", f"expected a seat number, got {o!r}")
        s.claims[key] = o
    s.rings_left = []
    for i in range(players):
        used = sum(1 for o in s.claims.values() if o == i)
        total = T.dragons[s.dragon[i]].rings if s.dragon[i] >= 0 else 0
        if used > total:
            raise StateFormatError("claims", f"seat {i} has {used} claim rings on the board, more than {total}")
        s.rings_left.append(total - used)
    s.chest_coins = as_int("chest_coins", 0)
    s.coins = []
    for i, v in enumerate(seat_list("coins")):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise StateFormatError(f"coins/{i}", "a whole number of coins, 0 or more")
        s.coins.append(v)
    s.tok_sum = [int(v) for v in seat_list("tokens")]
    s.tok_n = [int(v) for v in seat_list("token_count")]
    s.hand = []
    for i, v in enumerate(seat_list("hands")):
        if v is not None and v not in T.card_ids:
            raise StateFormatError(f"hands/{i}", f"unknown card {v!r} (known: {', '.join(T.card_ids)})")
        s.hand.append(v)
    played = need("played")
    if not isinstance(played, list) or any(c not in T.card_ids for c in played):
        raise StateFormatError("played", "a list of card ids")
    s.played = list(played)
    dealt = [c for c in s.hand if c is not None] + s.played
    if len(dealt) != len(set(dealt)):
        raise StateFormatError("hands", "a card is in two places (the deck has one card of each title)")
    pu = need("powers_used")
    if not isinstance(pu, list) or any(p not in PIDX for p in pu):
        raise StateFormatError("powers_used", "a list of place of power ids")
    s.used = 0
    for p in pu:
        s.used |= 1 << PIDX[p]
    order = need("order")
    if not isinstance(order, list) or sorted(order) != list(range(players)):
        raise StateFormatError("order", f"a permutation of the seats 0-{players - 1}")
    s.order = list(order)
    s.turn = as_int("turn", 0, players)
    s.acts = as_int("actions_left", 0)
    bonus = need("bonus")
    if not isinstance(bonus, dict) or set(bonus) != set(BONUS_KEYS):
        raise StateFormatError("bonus", f"an object with {', '.join(BONUS_KEYS)}")
    s.bonus = [int(bonus[k]) for k in BONUS_KEYS]
    s.ev = ev_from_json(need("event"), players)
    s.stats = read_counters(d, STAT_KEYS)
    s.phase = _phase_of(s.node, s.ev)  # derived: the node (and its event) says which phase it belongs to
    if s.ev is not None and s.phase == "tribute" and "seat" in s.ev:
        s.k = s.ev["seat"]  # the tribute goes on with the next seat after this one
    # ---- coherence of the node with the rest
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
    return s
