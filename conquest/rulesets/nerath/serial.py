"""The Conquest of Nerath state as JSON (docs/rules/nerath.md, the state JSON): ``DOCUMENT`` declares every key of
the body once (its type and bounds, how it is written, how it is read), and ``core.fields`` derives from it the
schema a document is validated with (``NerathBody``), the writer and the reader; the battle in progress and the
card window are declared the same way under the records' own names (``BATTLE``, ``REACTION``). The readers keep
ids to indices and what a type cannot say: ids against the board and the card lists, fields against each other.

Bounds: "Your forces aren't limited by the mix of pieces and chips available", so the document sets no piece
supply; a realm has at most ``MAX_REALM_PIECES`` (500) pieces on the board in all (random games peak near 60),
gold at most 100,000 and victory points at most 10,000 (docs/rules/nerath.md, "Bounds of a state document")."""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from operator import attrgetter
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr

import conquest.rulesets.nerath.effects as fx
from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, Key, attr
from conquest.core.game import json_copy
from conquest.core.notation import is_digits
from conquest.core.schema import Body, Count, Id, Part, Text, read_counters
from conquest.rulesets.nerath.battle import battle_dice, one_seat_allies
from conquest.rulesets.nerath.cards import treasure_cards
from conquest.rulesets.nerath.data import (
    COUNTED,
    DUNGEON,
    FLYING_TYPES as FLYING,
    LAND,
    LAND_TYPES as LAND_PIECES,
    N_TYPES,
    REALM_INDEX,
    REALMS,
    SEA,
    TYPE_INDEX,
    R,
    full_strength,
    guardian_tiles,
)
from conquest.rulesets.nerath.movement import start_move
from conquest.rulesets.nerath.reposition import start_reposition
from conquest.rulesets.nerath.state import (
    CHANCE_STEPS,
    FLAG_NAMES,
    GUARDIANS,
    IDS,
    IX,
    KIND,
    LANDS,
    PHASES,
    Battle,
    NerathData,
    Reaction,
    S,
)

GOLD_MAX = 100_000       # a realm's gold, and
VP_MAX = 10_000          # its victory points: play stops them here (keep_bounds), no game comes near
MAX_REALM_PIECES = 500   # a realm's pieces on the board, all spaces and kinds (checked when pieces are read)
Small = Annotated[int, Field(ge=0, le=500)]   # a count of pieces in a space, or of hits
Cards = Annotated[list[Id], Field(max_length=200)]
Realms = Annotated[list[Id], Field(max_length=4)]
REQUIRED = ...   # a key the document may not leave out (pydantic's marker of a required field)


class Record(Body):
    """A record nested in the document (the battle, the card window): every field declared, no other allowed."""
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _ix(space: str, field: str, kind: int = -1, why: str = "") -> int:
    """The index of a space id (``kind``: it must be a space of that kind, else refused with ``why``)."""
    if space not in IX:
        raise StateFormatError(field, f"unknown space '{space}'")
    if kind >= 0 and KIND[IX[space]] != kind:
        raise StateFormatError(field, why)
    return IX[space]


def _realm_ix(name: str, field: str) -> int:
    if name not in REALM_INDEX:
        raise StateFormatError(field, f"unknown realm {name!r} (one of {', '.join(REALMS)})")
    return REALM_INDEX[name]


def keep_bounds(st: NerathData) -> None:
    """Gold and victory points stop at the bounds a document is read with (``GOLD_MAX``, ``VP_MAX``; docs/rules/
    nerath.md, "Bounds of a state document"): no game comes near, and one that went past them would write a
    document its own loader refuses."""
    if max(st.gold) <= GOLD_MAX and max(st.vp) <= VP_MAX:
        return
    for r in range(R):
        if st.gold[r] > GOLD_MAX:
            st.gold[r] = GOLD_MAX
        if st.vp[r] > VP_MAX:
            st.vp[r] = VP_MAX


# ---------------------------------------------------------------- keys of one kind: ids written, indices kept
def _realm(name: str, prefix: str = "") -> Key:
    return Key(name, Id, lambda x: REALMS[getattr(x, name)], lambda x, v: setattr(x, name, _realm_ix(v, prefix + name)))


def _realms(name: str, type_: Any, prefix: str = "", default: Any = REQUIRED) -> Key:
    return Key(name, type_, lambda x: [REALMS[r] for r in getattr(x, name)],
               lambda x, v: setattr(x, name, [_realm_ix(r, prefix + name) for r in v]), default, fresh=True)


def _spaces(name: str, attribute: str, default: Any = REQUIRED) -> Key:
    return Key(name, list[Id], lambda x: [IDS[s] for s in getattr(x, attribute)],
               lambda x, v: setattr(x, attribute, [_ix(sp, name) for sp in v]), default, fresh=True)


def _by_realm(name: str, type_: Any, attribute: str, default: Any = REQUIRED) -> Key:
    """A per-realm list (gold, victory points, cards) as ``{realm: entry}``; a realm left out keeps a new game's."""
    get = attrgetter(attribute)

    def read(st: NerathData, d: dict[str, Any]) -> None:
        for realm, v in d.items():
            get(st)[_realm_ix(realm, f"{name}/{realm}")] = json_copy(v)

    return Key(name, dict[Id, type_], lambda st: dict(zip(REALMS, get(st))), read, default)


def _control(name: str, attribute: str) -> Key:
    """Who controls each land space; a space left out keeps a new game's control (``control``) or the control
    just read (``control_at_turn_start``)."""
    get = attrgetter(attribute)

    def read(st: NerathData, d: dict[str, str]) -> None:
        arr = st.ctrl[:]
        for sp, realm in d.items():
            arr[_ix(sp, f"{name}/{sp}", LAND, "only land spaces are controlled")] = _realm_ix(realm, f"{name}/{sp}")
        setattr(st, attribute, arr)

    def write(st: NerathData) -> dict[str, str]:
        c = get(st)
        return {IDS[s]: REALMS[c[s]] for s in LANDS}

    return Key(name, dict[Id, Id], write, read, fresh=True)


# ---------------------------------------------------------------- the board
def _read_castles(st: NerathData, spaces: list[str]) -> None:
    st.castle = [0] * S
    for sp in spaces:
        st.castle[_ix(sp, "castles", LAND, f"{sp} is not a land space")] = 1


def _write_pieces(st: NerathData) -> dict[str, dict[str, dict[str, int]]]:
    pieces: dict[str, dict[str, dict[str, int]]] = {}
    n = st.pieces
    for i in compress(range(len(n)), n):  # the few counts that are not 0, in (space, realm, type) order
        s, r = divmod(i // N_TYPES, R)
        pieces.setdefault(IDS[s], {}).setdefault(REALMS[r], {})[COUNTED[i % N_TYPES]] = n[i]
    return pieces


def _read_pieces(st: NerathData, d: dict[str, dict[str, dict[str, int]]]) -> None:
    n = st.pieces = [0] * (S * R * N_TYPES)
    total = [0] * R
    for sp, by_realm in d.items():
        s = _ix(sp, f"pieces/{sp}")
        for name, row in by_realm.items():
            r = _realm_ix(name, f"pieces/{sp}/{name}")
            for p, c in row.items():
                if p not in TYPE_INDEX:
                    raise StateFormatError(f"pieces/{sp}/{name}/{p}", "unknown piece (Castles are listed in "
                                                                      "'castles', Warships in 'ships')")
                if KIND[s] == SEA and TYPE_INDEX[p] not in FLYING and c:
                    raise StateFormatError(f"pieces/{sp}/{name}/{p}", "land pieces at sea ride Warships")
                n[(s * R + r) * N_TYPES + TYPE_INDEX[p]] = c
                total[r] += c
    for r in range(R):
        if total[r] > MAX_REALM_PIECES:
            raise StateFormatError("pieces", f"{REALMS[r]} has {total[r]} pieces on the board; a realm has at most "
                                             f"{MAX_REALM_PIECES} (docs/rules/nerath.md)")


class Ship(Part):
    owner: Id
    space: Id
    moves: Annotated[int, Field(ge=0, le=10)] = 0
    flags: list[Id] = []
    cargo: Annotated[list[Id], Field(max_length=2)] = []
    cargo_from: Annotated[list[Id | None], Field(max_length=2)] = []


def _write_ships(st: NerathData) -> dict[str, dict[str, Any]]:
    """Each Warship's record (``state.OWNER``, ``SPACE``, ``MOVES``, ``FLAGS``, cargo ``C1 C2``, embarked from
    ``O1 O2``) as its document."""
    ships = {}
    for sid in sorted(st.ships):
        owner, space, moves, flags, c1, c2, o1, o2 = st.ships[sid]
        ships[str(sid)] = doc = {"owner": REALMS[owner], "space": IDS[space], "moves": moves,
                                 "flags": [k for k, v in FLAG_NAMES.items() if flags & v],
                                 "cargo": [COUNTED[c] for c in (c1, c2) if c >= 0]}
        if o1 >= 0 or o2 >= 0:
            doc["cargo_from"] = [IDS[o] if o >= 0 else None for c, o in ((c1, o1), (c2, o2)) if c >= 0]
    return ships


def _read_ship(key: str, rec: dict[str, Any]) -> tuple[int, list[int]]:
    f = f"ships/{key}"
    if not is_digits(key):
        raise StateFormatError(f, "ships are keyed by number and hold owner, space, moves, flags, cargo")
    s = _ix(rec["space"], f + "/space", SEA, "a Warship must be in a sea space")
    cargo, frm = rec.get("cargo", []), rec.get("cargo_from", [])
    if any(c not in TYPE_INDEX or TYPE_INDEX[c] not in LAND_PIECES for c in cargo):
        raise StateFormatError(f + "/cargo", "up to 2 land pieces (not Castles)")
    for fl in rec.get("flags", []):
        if fl not in FLAG_NAMES:
            raise StateFormatError(f + "/flags", f"unknown flag {fl!r} ({', '.join(FLAG_NAMES)})")
    if len(frm) > len(cargo) or any(o is not None and (o not in IX or KIND[IX[o]] == SEA) for o in frm):
        raise StateFormatError(f + "/cargo_from", "one land space id (or null) per cargo piece, in order")
    cs = [TYPE_INDEX[c] for c in cargo] + [-1, -1]
    os_ = [-1 if o is None else IX[o] for o in frm] + [-1, -1]
    flags = sum(FLAG_NAMES[fl] for fl in set(rec.get("flags", [])))
    return int(key), [_realm_ix(rec["owner"], f + "/owner"), s, rec.get("moves", 0), flags, cs[0], cs[1], os_[0],
                      os_[1]]


def _write_movable(st: NerathData) -> dict[str, dict[str, int]]:
    movable: dict[str, dict[str, int]] = {}
    for key, c in sorted(st.movable.items()):
        movable.setdefault(IDS[key // N_TYPES], {})[COUNTED[key % N_TYPES]] = c
    return movable


def _read_movable(st: NerathData, d: Literal["all"] | dict[str, dict[str, int]]) -> None:
    st.movable = {}
    if d == "all":   # a convenience for scenarios: every piece of the realm to move may still move
        if st.phase in ("move", "reposition"):
            (start_move if st.phase == "move" else start_reposition)(st)
        return
    for sp, row in d.items():
        s = _ix(sp, f"movable/{sp}")
        for p, c in row.items():
            if p not in TYPE_INDEX:
                raise StateFormatError(f"movable/{sp}/{p}", "must map a piece to a count")
            have = st.pieces[(s * R + st.realm) * N_TYPES + TYPE_INDEX[p]]
            if c > have:
                raise StateFormatError(f"movable/{sp}/{p}", f"{c} {p} of {REALMS[st.realm]} may still move from "
                                                            f"{sp}, which holds {have} (pieces)")
            if c:
                st.movable[s * N_TYPES + TYPE_INDEX[p]] = c


# ---------------------------------------------------------------- the battle and the card window
def _read_queue(b: Battle, queue: list[list[Any]]) -> None:
    try:
        b.queue = [[GUARDIANS if who == "guardians" else _realm_ix(who, "battle/queue"), int(n)] for who, n in queue]
    except StateFormatError:
        raise
    except ValueError as e:  # a name where the number of hits belongs
        raise StateFormatError("battle", f"a field of the battle has the wrong type ({e})") from None


def _read_wounded(b: Battle, d: dict[str, int]) -> None:
    b.wounded_dragons = [0] * R
    for name, c in d.items():
        b.wounded_dragons[_realm_ix(name, "battle/wounded_dragons")] = c


BATTLE = Document("Battle", [
    Key("space", Id, lambda b: IDS[b.space], lambda b, v: setattr(b, "space", _ix(v, "battle/space"))),
    attr("kind", Literal["land", "sea", "dungeon"]),
    _realm("attacker", "battle/"),
    _realms("defenders", Realms, "battle/"),
    attr("round", Annotated[int, Field(ge=0, le=1_000)]),
    attr("step", Id),
    attr("hits_on_attacker", Small, default=0),
    attr("hits_on_defenders", Small, default=0),
    Key("queue", list[Annotated[list[StrictStr | StrictInt], Field(min_length=2, max_length=2)]],
        lambda b: [[REALMS[who] if who >= 0 else "guardians", n] for who, n in b.queue], _read_queue, []),
    attr("hit_this_assignment", Small, default=0),
    attr("after", Text, default=""),
    attr("castle_inactive", StrictBool, default=False),
    Key("wounded_dragons", dict[Id, Small],
        lambda b: {REALMS[r]: n for r, n in enumerate(b.wounded_dragons) if n}, _read_wounded, {}),
    attr("split_hits", Small, default=0),
    attr("guardian_seat", Annotated[int, Field(ge=-1, le=3)], default=-1),
    attr("guardian_tiles", list[Id], default=[]),
    attr("restock", Small, default=0),
    _realms("window", Realms, "battle/", default=[]),
    attr("window_kind", Text, default=""),
    attr("window_step", Text, default=""),
    attr("rolled", Small, default=0),
    _realms("offered", Realms, "battle/", default=[]),
    # derived from the whole state, for readers: the dice of the side about to roll (written by _write_battle)
    Key("rolling", list[list[StrictStr | StrictInt]], lambda b: [], default=[]),
], base=Record)
"""The battle in progress (``state.Battle``), under its own names."""

REACTION = Document("Reaction", [
    attr("kind", Literal["move", "income"]),
    _realms("realms", Annotated[list[Id], Field(min_length=1, max_length=4)], "reaction/"),
    Key("space", Id | None, lambda x: IDS[x.space] if x.space >= 0 else None,
        lambda x, v: setattr(x, "space", -1 if v is None else _ix(v, "reaction/space")), None),
    _realm("mover", "reaction/"),
], base=Record)
"""A card window outside battles (``state.Reaction``), under its own names."""


def _record(attribute: str, doc: Document, cls: type, check: Callable[[Any, Any], None],
            write: Callable[[Any], Any] | None = None) -> Key:
    """A typed record or null (the battle, the card window), written (unless by ``write``) and read by its own
    declaration; ``check(state, record)`` after reading."""
    get = attrgetter(attribute)

    def read(st: NerathData, d: dict[str, Any] | None) -> None:
        setattr(st, attribute, None)
        if d is not None:
            rec: Any = object.__new__(cls)
            doc.read(rec, d)
            setattr(st, attribute, rec)
            check(st, rec)

    return Key(attribute, doc.model | None, write or (lambda st: None if get(st) is None else doc.write(get(st))),
               read, None, fresh=True)  # a declaration's writer copies what it shares


def _write_battle(st: NerathData) -> dict[str, Any] | None:
    b = st.battle
    if b is None:
        return None
    doc = BATTLE.write(b)
    if b.step in ("fs_a", "fs_d", "roll_a", "roll_d"):
        doc["rolling"] = [list(d) for d in battle_dice(st, b.step[-1], b.step.startswith("fs"))]
    return doc


def _check_battle(st: NerathData, bt: Battle) -> None:
    """The seat of the Guardians, the step, and the allies' split (docs/rules/nerath.md, reading 12): hits wait
    in ``split_hits`` only in the steps ``split`` (the odd hit drawn, allies of two seats) and ``choose`` (the
    seat playing both allies splits them), for two defenders."""
    step, h, defs = bt.step, bt.split_hits, bt.defenders
    if bt.kind == "dungeon" and not 0 <= bt.guardian_seat < st.players:
        raise StateFormatError("battle/guardian_seat", "the seat rolling for the Guardians is needed")
    if step not in CHANCE_STEPS + ("assign", "press", "withdraw", "amok", "landing", "window", "choose"):
        raise StateFormatError("battle/step", f"unknown step {step!r}")
    if step not in ("split", "choose") and h:
        raise StateFormatError("battle/split_hits", f"hits wait for the allies' split only in the steps split "
                                                    f"and choose, not in step {step!r}")
    if step in ("split", "choose") and (h <= 0 or len(defs) < 2 or defs[0] == defs[1]):
        raise StateFormatError("battle/split_hits", f"step {step!r} splits hits (split_hits > 0) between two "
                                                    f"allied defenders")
    one = step in ("split", "choose") and one_seat_allies(st, defs[0], defs[1])
    if step == "choose" and not one:
        raise StateFormatError("battle/step", "step 'choose' is for a seat that plays both defending allies "
                                              "(option ally_split=choose); allies of two seats take half each "
                                              "(step 'split')")
    if step == "split" and one:
        raise StateFormatError("battle/step", "one seat plays both defending allies: it splits the hits itself "
                                              "(step 'choose'), no odd hit is drawn")


def _check_reaction(st: NerathData, rc: Reaction) -> None:
    if rc.kind == "move" and rc.space < 0:
        raise StateFormatError("reaction/space", "a movement window names the space entered")


# ---------------------------------------------------------------- cards, effects and Guardians
def _read_cards(name: str, known: Callable[[], dict[str, Any]], what: str) -> Callable[[Any, list[str]], None]:
    """A pile kept sorted (the Treasure deck, the Guardians not dealt), of cards of ``what``; left out (None):
    a new game's."""
    def read(st: NerathData, cards: list[str] | None) -> None:
        if cards is not None and any(c not in known() for c in cards):
            raise StateFormatError(name, f"a list of {what}")
        if cards is not None:
            setattr(st, name, sorted(cards))
    return read


def _read_effects(st: NerathData, effects: list[list[Any]]) -> None:
    """The lasting effects of played cards: each record one the cards can make (its verb, a value within what
    the cards of that verb give together, a piece a card names, how long it lasts), no more of them than all
    the cards make."""
    verbs, pieces, most = fx.effect_forms()
    if len(effects) > most:
        raise StateFormatError("effects", f"{len(effects)} effects: all the cards together make at most {most}")
    st.effects = []
    for i, e in enumerate(effects):
        if len(e) == 6 and e[5] != fx.TREASURE:
            raise StateFormatError(f"effects/{i}", "an effect is [realm, verb, value, piece, until] (an Event "
                                   "card's) or [realm, verb, value, piece, until, treasure] (a Treasure's)")
        verb, value, piece, until = e[1:5]
        if verb not in verbs:
            raise StateFormatError(f"effects/{i}/1", f"a lasting effect is one of {', '.join(sorted(verbs))}, "
                                                     f"got {verb!r}")
        lo, hi = verbs[verb]
        if type(value) is not int or not lo <= value <= hi:
            raise StateFormatError(f"effects/{i}/2", f"the cards' {verb} is from {lo} to {hi}, got {value!r}")
        if piece not in pieces or until not in fx.UNTIL:
            raise StateFormatError(f"effects/{i}", f"the piece is one of {', '.join(sorted(pieces))} and the "
                                                   f"effect lasts a {' or a '.join(fx.UNTIL)}")
        st.effects.append([_realm_ix(e[0], f"effects/{i}"), *e[1:]])


class Guardian(Part):
    tile: Id
    face_up: StrictBool = False
    dice: Annotated[list[Annotated[int, Field(ge=1, le=100)]], Field(min_length=1, max_length=20)] = [6]


def _read_guardians(st: NerathData, d: dict[str, list[dict[str, Any]]]) -> None:
    st.guardians = {e: [] for e in st.guardians}   # every entrance, as a new game has them
    for sp, tiles in d.items():
        s = _ix(sp, f"guardians/{sp}", DUNGEON, "Guardians stand on dungeon entrances")
        for i, t in enumerate(tiles):
            if t["tile"] not in guardian_tiles():
                raise StateFormatError(f"guardians/{sp}/{i}", "a Guardian is {tile, face_up, dice} with a tile of "
                                                              "guardians.yaml")
            st.guardians[s].append([t["tile"], int(t.get("face_up", False)), *t.get("dice", full_strength(t["tile"]))])


def _read_phase(st: NerathData, phase: str) -> None:
    if phase not in PHASES:
        raise StateFormatError("phase", f"must be one of {', '.join(PHASES)}")
    st.phase = phase


DOCUMENT = Document("NerathBody", [
    attr("round", Annotated[int, Field(ge=1, le=10_000)]),
    _realm("realm"),
    Key("phase", Id, attrgetter("phase"), _read_phase),
    _by_realm("gold", Annotated[int, Field(ge=0, le=GOLD_MAX)], "gold"),
    _by_realm("vp", Annotated[int, Field(ge=0, le=VP_MAX)], "vp"),
    _control("control", "ctrl"),
    _control("control_at_turn_start", "ctrl_start"),
    Key("castles", list[Id], lambda st: [IDS[s] for s in LANDS if st.castle[s]], _read_castles, fresh=True),
    Key("pieces", dict[Id, dict[Id, dict[Id, Small]]], _write_pieces, _read_pieces, fresh=True),
    Key("ships", dict[Id, Ship], _write_ships,
        lambda st, d: setattr(st, "ships", dict(_read_ship(k, rec) for k, rec in d.items())), fresh=True),
    Key("next_ship", Annotated[int, Field(ge=0, le=1_000_000)], attrgetter("next_ship"),   # above every ship's
        lambda st, v: setattr(st, "next_ship", max([v] + [k + 1 for k in st.ships]))),
    Key("movable", Literal["all"] | dict[Id, dict[Id, Small]], _write_movable, _read_movable, fresh=True),
    _spaces("battles", "pending"),
    _record("battle", BATTLE, Battle, _check_battle, _write_battle),
    _record("reaction", REACTION, Reaction, _check_reaction),
    Key("placed", dict[Id, Small], lambda st: {IDS[s]: c for s, c in sorted(st.placed.items())},
        lambda st, v: setattr(st, "placed", {_ix(sp, "placed"): c for sp, c in v.items()}), {}, fresh=True),
    _spaces("built", "built", []),
    _by_realm("event_decks", Cards, "decks", {}),
    _by_realm("event_hands", Cards, "hands", {}),
    _by_realm("event_discards", Cards, "discards", {}),
    Key("treasure_deck", Cards, attrgetter("treasure_deck"),
        _read_cards("treasure_deck", treasure_cards, "cards of treasures.yaml"), []),
    _by_realm("treasure_hands", Cards, "treasures", {}),
    _by_realm("treasures_played", Cards, "treasures_played", {}),
    Key("effects", list[Annotated[list[StrictStr | StrictInt | StrictBool | None], Field(min_length=5, max_length=6)]],
        lambda st: [[REALMS[e[0]], *e[1:]] for e in st.effects], _read_effects, [], fresh=True),
    Key("guardians", dict[Id, Annotated[list[Guardian], Field(max_length=10)]],
        lambda st: {IDS[d]: [{"tile": g[0], "face_up": bool(g[1]), "dice": g[2:]} for g in gs]
                    for d, gs in sorted(st.guardians.items())}, _read_guardians, {}, fresh=True),
    Key("guardian_pile", Cards, attrgetter("guardian_pile"),
        _read_cards("guardian_pile", guardian_tiles, "tiles of guardians.yaml"), None),
    _spaces("dealing_guardians", "dealing_guardians", []),
    _realms("dealing", list[Id], default=[]),
    Key("stats", dict[Id, Count], lambda st: dict(st.stats),
        lambda st, v: st.stats.update(read_counters({"stats": v}, tuple(st.stats))), {}, fresh=True),
    attr("winners", Annotated[list[Annotated[int, Field(ge=0, le=3)]], Field(max_length=4)] | None, default=None),
    attr("end_reason", Text, default=""),
])
"""Every key of a Nerath state document: the declared schema, the writer and the reader in one place."""

NerathBody = DOCUMENT.model


def body_json(st: NerathData) -> dict[str, Any]:
    return DOCUMENT.write(st)


def from_body(cls: type[NerathData], data: dict[str, Any], players: int, options: dict[str, Any]) -> NerathData:
    """A new game's state with the keys of the validated document read over it, then the checks between fields."""
    st = cls(players, options)
    DOCUMENT.read(st, data)
    if st.phase == "over" and st.winners is None:
        raise StateFormatError("winners", "a finished game names its winners")
    if st.phase == "draw" and not fx.draw_outcomes(st):
        start_move(st)
    if st.phase == "deal" and not (st.dealing or st.dealing_guardians):
        raise StateFormatError("dealing", "the set-up phase 'deal' needs realms or entrances still to deal")
    return st
