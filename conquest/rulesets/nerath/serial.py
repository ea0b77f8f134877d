"""The Conquest of Nerath state as JSON (docs/rules/nerath.md, the state JSON): ``DOCUMENT`` declares every key of
the body once (its type and bounds, how it is written, how it is read), and ``core.fields`` derives from it the
schema a document is validated with (``NerathBody``), the writer and the reader; the battle in progress and the
card window are declared the same way under the records' own names (``BATTLE``, ``REACTION``). A key also declares
its field's start value, from which ``NerathState.__init__`` is derived (``START``). The id tables and key kinds of
``core.keys`` write ids and read indices; the readers here keep what a type cannot say: ids against the board and
the card lists (``coherence`` checks the fields against each other).

Bounds: gold at most 100,000 and victory points at most 10,000; the pieces a realm may have on the board are in
``coherence`` (docs/rules/nerath.md, "Bounds of a state document")."""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from operator import attrgetter
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StrictBool, StrictInt, StrictStr, conlist, create_model

import conquest.rulesets.nerath.effects as fx
from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, Key, attr
from conquest.core.keys import (
    IdTable,
    Record,
    Starts,
    dict_of,
    id_dict,
    id_flags,
    id_list,
    key,
    known_ids,
    one_id,
    one_of,
    per_id,
    record,
    start,
)
from conquest.core.schema import Count, Id, Part, Text, read_counters
from conquest.rulesets.nerath.battle import battle_dice
from conquest.rulesets.nerath.cards import treasure_cards
from conquest.rulesets.nerath.data import COUNTED, N_TYPES, REALMS, R, full_strength, guardian_tiles
from conquest.rulesets.nerath.movement import start_move
from conquest.rulesets.nerath.reposition import start_reposition
from conquest.rulesets.nerath.state import (
    BOARD,
    CHANCE_STEPS,
    FLAG_NAMES,
    GUARDIANS,
    IDS,
    PHASES,
    Battle,
    NerathData,
    Reaction,
    S,
    counts_table,
)
from conquest.rulesets.nerath.variant import setup_of

GOLD_MAX = 100_000       # a realm's gold, and
VP_MAX = 10_000          # its victory points: play stops them here (keep_bounds), no game comes near
Small = Annotated[int, Field(ge=0, le=500)]   # a count of pieces in a space, or of hits
Cards = Annotated[list[Id], Field(max_length=200)]
Realms = Annotated[list[Id], Field(max_length=4)]
REALM = IdTable("realm", REALMS)
SPACE = IdTable("space", IDS)
LAND_SPACE = IdTable("land space", (IDS[s] for s in BOARD.lands), BOARD.lands)
OFF_SEA = [s for s in range(S) if s not in BOARD.seas]   # the spaces a Warship's cargo embarks from
SHORE = IdTable("land or dungeon space", (IDS[s] for s in OFF_SEA), OFF_SEA)
ENTRANCE = IdTable("dungeon entrance", (IDS[d] for d in BOARD.dungeons), BOARD.dungeons)
SEA_SPACE = IdTable("sea space", (IDS[s] for s in BOARD.seas), BOARD.seas)
PIECE = IdTable("piece", COUNTED)


def _not_castle_or_ship(name: Any) -> Any:
    if name in ("castle", "warship"):
        raise ValueError(f"a {name} is not counted here: Castles are in 'castles', Warships in 'ships'")
    return name


Pieces = dict_of(Annotated[one_of(COUNTED), BeforeValidator(_not_castle_or_ship)], Small)   # a count per piece


# ---------------------------------------------------------------- the board
def _write_pieces(st: NerathData) -> dict[str, dict[str, dict[str, int]]]:
    pieces: dict[str, dict[str, dict[str, int]]] = {}
    n = st.pieces
    for i in compress(range(len(n)), n):  # the few counts that are not 0, in (space, realm, type) order
        s, r = divmod(i // N_TYPES, R)
        pieces.setdefault(IDS[s], {}).setdefault(REALMS[r], {})[COUNTED[i % N_TYPES]] = n[i]
    return pieces


def _read_pieces(st: NerathData, d: dict[str, dict[str, dict[str, int]]]) -> None:
    n = st.pieces = [0] * (S * R * N_TYPES)
    for sp, by_realm in d.items():
        s = SPACE.ix(sp, f"pieces/{sp}")
        for name, row in by_realm.items():
            r = REALM.ix(name, f"pieces/{sp}/{name}")
            for p, c in row.items():
                n[(s * R + r) * N_TYPES + PIECE.index[p]] = c


Ship = create_model(
    "Ship", __base__=Part, owner=(Id, ...), space=(Id, ...), moves=(Annotated[int, Field(ge=0, le=10)], 0),
    flags=(conlist(one_of(FLAG_NAMES)), []), cargo=(conlist(one_of(COUNTED[:5]), max_length=2), []),
    cargo_from=(Annotated[list[Id | None], Field(max_length=2)], []))
"""A Warship's record: its owner, its sea space, moves made, flags, and up to 2 land pieces aboard (not Castles),
each with the land space it embarked from this turn (or null)."""


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


def _read_ship(number: str, rec: dict[str, Any]) -> tuple[int, list[int]]:
    f = f"ships/{number}"
    cargo, frm = rec.get("cargo", []), rec.get("cargo_from", [])
    if len(frm) > len(cargo) or any(o is not None and o not in SHORE.index for o in frm):
        raise StateFormatError(f + "/cargo_from", "one land space id (or null) per cargo piece, in order")
    cs = [PIECE.index[c] for c in cargo] + [-1, -1]
    os_ = [-1 if o is None else SHORE.index[o] for o in frm] + [-1, -1]
    flags = sum(FLAG_NAMES[fl] for fl in set(rec.get("flags", [])))
    return int(number), [REALM.ix(rec["owner"], f + "/owner"), SEA_SPACE.ix(rec["space"], f + "/space"),
                      rec.get("moves", 0), flags, cs[0], cs[1], os_[0], os_[1]]


def _write_movable(st: NerathData) -> dict[str, dict[str, int]]:
    movable: dict[str, dict[str, int]] = {}
    for i, c in sorted(st.movable.items()):
        movable.setdefault(IDS[i // N_TYPES], {})[COUNTED[i % N_TYPES]] = c
    return movable


def _read_movable(st: NerathData, d: Literal["all"] | dict[str, dict[str, int]]) -> None:
    st.movable = {}
    if d == "all":   # a convenience for scenarios: every piece of the realm to move may still move
        if st.phase in ("move", "reposition"):
            (start_move if st.phase == "move" else start_reposition)(st)
        return
    for sp, row in d.items():
        s = SPACE.ix(sp, f"movable/{sp}")
        st.movable.update({s * N_TYPES + PIECE.index[p]: c for p, c in row.items() if c})


# ---------------------------------------------------------------- the battle and the card window
def _read_queue(b: Battle, queue: list[list[Any]]) -> None:
    if any(type(n) is not int for _, n in queue):   # a name where the number of hits belongs
        raise StateFormatError("battle/queue", "each entry is [realm or 'guardians', hits left to assign]")
    b.queue = [[GUARDIANS if who == "guardians" else REALM.ix(who, "battle/queue"), n] for who, n in queue]


BATTLE = Document("Battle", [
    one_id("space", SPACE, type_=Id, prefix="battle/"),
    attr("kind", one_of(("land", "sea", "dungeon"))),
    one_id("attacker", REALM, type_=Id, prefix="battle/"),
    id_list("defenders", REALM, Realms, prefix="battle/"),
    attr("round", Annotated[int, Field(ge=0, le=1_000)]),
    attr("step", one_of(CHANCE_STEPS + ("assign", "press", "withdraw", "amok", "landing", "window", "choose"))),
    attr("hits_on_attacker", Small, default=0),
    attr("hits_on_defenders", Small, default=0),
    Key("queue", list[Annotated[list[StrictStr | StrictInt], Field(min_length=2, max_length=2)]],
        lambda b: [[REALMS[who] if who >= 0 else "guardians", n] for who, n in b.queue], _read_queue, []),
    attr("hit_this_assignment", Small, default=0),
    attr("after", Text, default=""),
    attr("castle_inactive", StrictBool, default=False),
    per_id("wounded_dragons", REALM, Small, default={}, nonzero=True, start=lambda b: [0] * R, prefix="battle/"),
    attr("split_hits", Small, default=0),
    attr("guardian_seat", Annotated[int, Field(ge=-1, le=3)], default=-1),
    attr("guardian_tiles", list[Id], default=[]),
    id_list("window", REALM, Realms, default=[], prefix="battle/"),
    attr("window_kind", Text, default=""),
    attr("window_step", Text, default=""),
    attr("rolled", Small, default=0),
    id_list("offered", REALM, Realms, default=[], prefix="battle/"),
    # derived from the whole state, for readers: the dice of the side about to roll (written by _write_battle)
    Key("rolling", list[list[StrictStr | StrictInt]], lambda b: [], default=[]),
], base=Record)
"""The battle in progress (``state.Battle``), under its own names."""

REACTION = Document("Reaction", [
    attr("kind", one_of(("move", "income"))),
    id_list("realms", REALM, Annotated[list[Id], Field(min_length=1, max_length=4)], prefix="reaction/"),
    one_id("space", SPACE, none=True, type_=Id, default=None, prefix="reaction/"),
    one_id("mover", REALM, type_=Id, prefix="reaction/"),
], base=Record)
"""A card window outside battles (``state.Reaction``), under its own names."""


def _write_battle(st: NerathData) -> dict[str, Any] | None:
    b = st.battle
    if b is None:
        return None
    doc = BATTLE.write(b)
    if b.step in ("fs_a", "fs_d", "roll_a", "roll_d"):
        doc["rolling"] = [list(d) for d in battle_dice(st, b.step[-1], b.step.startswith("fs"))]
    return doc


# ---------------------------------------------------------------- cards, effects and Guardians
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
        st.effects.append([REALM.ix(e[0], f"effects/{i}"), *e[1:]])


class Guardian(Part):
    tile: Id
    face_up: StrictBool = False
    dice: Annotated[list[Annotated[int, Field(ge=1, le=100)]], Field(min_length=1, max_length=20)] = [6]


def _read_guardians(st: NerathData, d: dict[str, list[dict[str, Any]]]) -> None:
    st.guardians = {e: [] for e in st.guardians}   # every entrance, as a new game has them
    for sp, tiles in d.items():
        s = ENTRANCE.ix(sp, f"guardians/{sp}")
        for i, t in enumerate(tiles):
            if t["tile"] not in guardian_tiles():
                raise StateFormatError(f"guardians/{sp}/{i}", "a Guardian is {tile, face_up, dice} with a tile of "
                                                              "guardians.yaml")
            st.guardians[s].append([t["tile"], int(t.get("face_up", False)), *t.get("dice", full_strength(t["tile"]))])


DOCUMENT = Document("NerathBody", [
    start(attr("round", Annotated[int, Field(ge=1, le=10_000)]), 1),
    one_id("realm", REALM, type_=Id, start=0),
    start(attr("phase", one_of(PHASES)), "draw"),
    per_id("gold", REALM, Annotated[int, Field(ge=0, le=GOLD_MAX)],
           start=lambda st: [int(setup_of(st)["treasury"][r]) for r in REALMS]),
    per_id("vp", REALM, Annotated[int, Field(ge=0, le=VP_MAX)], start=[0] * R),
    # who controls each land space, written for every land space; a space left out keeps a new game's control
    # (control) or the control just read (control_at_turn_start)
    per_id("control", LAND_SPACE, Id, "ctrl", start=lambda st: list(BOARD.home), entries=REALM),
    per_id("control_at_turn_start", LAND_SPACE, Id, "ctrl_start", start=lambda st: st.ctrl[:], entries=REALM),
    id_flags("castles", LAND_SPACE, S, "castle", start=[0] * S),
    key("pieces", dict_of(Id, dict_of(Id, Pieces)), _write_pieces, _read_pieces, fresh=True,
        start=lambda st: counts_table([0] * (S * R * N_TYPES))),
    key("ships", dict_of(Annotated[str, Field(pattern=r"^[0-9]{1,9}$")], Ship), _write_ships,
        lambda st, d: setattr(st, "ships", dict(_read_ship(k, rec) for k, rec in d.items())), fresh=True, start={}),
    key("next_ship", Annotated[int, Field(ge=0, le=1_000_000)], attrgetter("next_ship"),   # above every ship's
        lambda st, v: setattr(st, "next_ship", max([v] + [k + 1 for k in st.ships])), start=1),
    key("movable", Literal["all"] | dict_of(Id, Pieces), _write_movable, _read_movable, fresh=True, start={}),
    id_list("battles", SPACE, list[Id], "pending", start=[]),
    record("battle", BATTLE, Battle, _write_battle),
    record("reaction", REACTION, Reaction),
    id_dict("placed", SPACE, Small, default={}, start={}),
    id_list("built", SPACE, list[Id], default=[], start=[]),
    per_id("event_decks", REALM, Cards, "decks", {}, start=[[]] * R),
    per_id("event_hands", REALM, Cards, "hands", {}, start=[[]] * R),
    per_id("event_discards", REALM, Cards, "discards", {}, start=[[]] * R),
    known_ids("treasure_deck", Cards, treasure_cards, "cards of treasures.yaml", [], start=[]),   # kept sorted
    per_id("treasure_hands", REALM, Cards, "treasures", {}, start=[[]] * R),
    per_id("treasures_played", REALM, Cards, "treasures_played", {}, start=[[]] * R),
    key("effects", list[Annotated[list[StrictStr | StrictInt | StrictBool | None], Field(min_length=5, max_length=6)]],
        lambda st: [[REALMS[e[0]], *e[1:]] for e in st.effects], _read_effects, [], fresh=True, start=[]),
    key("guardians", dict[Id, Annotated[list[Guardian], Field(max_length=10)]],
        lambda st: {IDS[d]: [{"tile": g[0], "face_up": bool(g[1]), "dice": g[2:]} for g in gs]
                    for d, gs in sorted(st.guardians.items())}, _read_guardians, {}, fresh=True,
        start=lambda st: {d: [] for d in BOARD.dungeons}),   # each Guardian: [tile, face up (0/1), dice left...]
    known_ids("guardian_pile", Cards, guardian_tiles, "tiles of guardians.yaml", None,
              start=lambda st: sorted(guardian_tiles())),
    id_list("dealing_guardians", ENTRANCE, list[Id], default=[], start=[]),   # entrances awaiting tiles
    id_list("dealing", REALM, list[Id], default=[], start=[]),   # realms to draw a starting Event card (set-up)
    key("stats", dict[Id, Count], lambda st: dict(st.stats),
        lambda st, v: st.stats.update(read_counters({"stats": v}, tuple(st.stats))), {}, fresh=True,
        start={"battles": 0, "explored": 0, "plundered": 0, "events_played": 0, "events_out_of_turn": 0}),
    start(attr("winners", Annotated[list[Annotated[int, Field(ge=0, le=3)]], Field(max_length=4)] | None,
               default=None), None),
    start(attr("end_reason", Text, default=""), ""),
])
"""Every key of a Nerath state document: the declared schema, the writer, the reader and the field's start value
in a new game, in one place."""

NerathBody = DOCUMENT.model
START = Starts(DOCUMENT.keys)
"""A new game's fields, from the start values the keys declare (``rules.NerathState.__init__``)."""


def from_body(cls: Callable[[int, dict[str, Any]], NerathData], data: dict[str, Any], players: int,
              options: dict[str, Any]) -> NerathData:
    """A new game's state with the keys of the validated document read over it (``coherence.check_coherence``
    then refuses a field incoherent with the rest)."""
    st = cls(players, options)
    DOCUMENT.read(st, data)
    st.pieces = counts_table(st.pieces)
    if st.phase == "draw" and not fx.draw_outcomes(st):
        start_move(st)
    return st
