"""The state of a game of Conquest of Nerath: the board as flat tables, the layout of a Warship's record, and
``NerathData``, the data class every section of the rules reads and changes (``rules.NerathState`` adds the
interface of a game to it).

The state is flat: piece counts in one list ``pieces`` indexed ``(space * R + realm) * N_TYPES + piece``
(``PER_SPACE`` counts per space); Castles as a 0/1 list per space (a Castle belongs to whoever controls its space);
Warships as individual records (they carry cargo); control of land spaces as a list. Per-turn bookkeeping (pieces
still free to move, declared battles, control at the start of the turn) lives next to it, and the battle in
progress (``Battle``) and the card window outside battles (``Reaction``) are typed records under the state JSON's
names. ``clone`` copies a few lists.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, MutableSequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from conquest.core.fields import DICT, LIST, RECORD, SHARE, Slots
from conquest.core.game import CHANCE, State
from conquest.rulesets.nerath.data import COUNTED, N_TYPES, R, tables

# Warship record fields and flags
OWNER, SPACE, MOVES, FLAGS, C1, C2, O1, O2 = range(8)
# O1/O2: the coastal space the piece in C1/C2 embarked from this turn (-1: aboard since an earlier turn, bought
# aboard, or none). "The land pieces embark onto the ship from a coastal space and debark into another coastal
# space": a piece never debarks back into the space it embarked from.
F_STOPPED = 1    # entered an enemy sea space: must stop and fight
F_NEW = 2        # bought this turn (Reinforce)
F_FIXED = 4      # an existing Warship given new land pieces: cannot move
F_UNLOADED = 8   # has unloaded: its movement is over for the turn
F_RETREATED = 16  # retreated from a battle: its movement is over
FLAG_NAMES = {"stopped": F_STOPPED, "new": F_NEW, "fixed": F_FIXED, "unloaded": F_UNLOADED,
              "retreated": F_RETREATED}

PHASES = ("deal", "draw", "move", "fight", "reposition", "reinforce", "over")
STEP_TITLES = {"deal": "Set-up (starting Event hands)", "draw": "Draw", "move": "Move", "fight": "Fight Battles",
               "reposition": "Reposition", "reinforce": "Reinforce", "over": "the end of the game"}
CHANCE_STEPS = ("fs_a", "fs_d", "roll_a", "roll_d", "split", "plunder")
GUARDIANS = -1   # the "realm" of the Guardians in a battle's damage queue

TB = tables()
BOARD = TB.board
S = len(BOARD.ids)
IDS = BOARD.ids
IX = BOARD.index
KIND = BOARD.kind
HOME = BOARD.home
CAPITAL = BOARD.capital
IS_CAPITAL = BOARD.is_capital
ADJ = BOARD.adj
LAND_ADJ = BOARD.land_adj
SEA_ADJ = BOARD.sea_adj
DIST = BOARD.dist
LANDS = BOARD.lands
SEAS = BOARD.seas
COST = TB.cost
DIE = TB.die
MOVE = TB.move
HIT_ON = TB.hit_on
WARSHIP_MOVE = TB.warship.move
ALL_COSTS = {**{p: TB.pieces[p].cost for p in COUNTED}, "castle": TB.castle.cost, "warship": TB.warship.cost}
BUYABLE = COUNTED + ("castle", "warship")
PER_SPACE = R * N_TYPES

LENGTH_VP = {"short": (13, 20), "medium": (20, 30)}
TREASURES_TO_WIN = (8, 12)


@cache
def seating(players: int, mode: str, three: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(seat of each realm, team of each realm). Realms in turn order Karkoth, Vailin, Iron Circle, Nerath."""
    if players == 2:
        return (0, 1, 0, 1), (0, 1, 0, 1)
    if players == 3:
        # "the allied realms of Vailin and Nerath vs. the realm of Karkoth vs. the realm of the Iron Circle"
        seats = (0, 1, 2, 1)
        return seats, ((0, 1, 0, 1) if three == "two-sides" else (0, 2, 1, 2))
    if mode == "free-for-all":
        return (0, 1, 2, 3), (0, 1, 2, 3)
    return (0, 1, 2, 3), (0, 1, 0, 1)


def counts_table(values: Iterable[int]) -> MutableSequence[int]:
    """The piece counts as one byte each (a copy is one memcpy: the clone on every search step's path), or a
    plain list when a count is outside 0..255 (a loaded document may hold up to 500; ``base.add`` turns the
    table into a list when a count leaves that range in play)."""
    values = list(values)
    try:
        return array("B", values)
    except OverflowError:
        return values


@dataclass(slots=True)
class Battle:
    """The battle in progress, under the names of the state JSON's ``battle`` (docs/rules/nerath.md): spaces and
    realms as indices, ``-1`` for none; ``copy`` copies its lists (a state's clone copies the battle)."""

    space: int
    kind: str                     # land, sea or dungeon
    attacker: int
    defenders: list[int]
    round: int = 1
    step: str = "fs_a"            # a chance step (CHANCE_STEPS) or a decision: assign, press, window, ...
    hits_on_attacker: int = 0
    hits_on_defenders: int = 0
    queue: list[list[int]] = field(default_factory=list)   # [realm or GUARDIANS, hits left to assign]
    hit_this_assignment: int = 0
    after: str = ""               # the step after the hits are assigned (``end``: the round ends)
    castle_inactive: bool = False
    wounded_dragons: list[int] = field(default_factory=lambda: [0] * R)   # per realm
    split_hits: int = 0           # hits waiting for the allies' split (steps split and choose)
    guardian_seat: int = -1       # the seat rolling and deciding for the Guardians
    guardian_tiles: list[str] = field(default_factory=list)   # the tiles the dungeon battle began with
    window: list[int] = field(default_factory=list)   # realms still asked in the open card window
    window_kind: str = ""         # battle, roll or damage: what the open card window is for
    window_step: str = ""         # the step the window returns to
    rolled: int = 0               # the hits of the roll the window is about
    offered: list[int] = field(default_factory=list)   # realms offered a "when taking damage" window for these hits

    def copy(self) -> Battle:
        c = _new_battle(Battle)
        c.space = self.space
        c.kind = self.kind
        c.attacker = self.attacker
        c.defenders = self.defenders[:]
        c.round = self.round
        c.step = self.step
        c.hits_on_attacker = self.hits_on_attacker
        c.hits_on_defenders = self.hits_on_defenders
        c.queue = [q[:] for q in self.queue]
        c.hit_this_assignment = self.hit_this_assignment
        c.after = self.after
        c.castle_inactive = self.castle_inactive
        c.wounded_dragons = self.wounded_dragons[:]
        c.split_hits = self.split_hits
        c.guardian_seat = self.guardian_seat
        c.guardian_tiles = self.guardian_tiles[:]
        c.window = self.window[:]
        c.window_kind = self.window_kind
        c.window_step = self.window_step
        c.rolled = self.rolled
        c.offered = self.offered[:]
        return c


@dataclass(slots=True)
class Reaction:
    """A card window outside battles (the state JSON's ``reaction``): an enemy moved into a space (``move``) or
    a realm collects income (``income``); ``realms`` still to be asked, in order."""

    kind: str
    realms: list[int]
    space: int                    # the space entered, -1 for none
    mover: int                    # the realm moving or collecting

    def copy(self) -> Reaction:
        return Reaction(self.kind, self.realms[:], self.space, self.mover)


_new_battle = object.__new__


FIELDS = Slots(
    players=SHARE, options=SHARE, seat_of=SHARE, team=SHARE, pieces=LIST, castle=LIST, ctrl=LIST,
    ships=DICT, next_ship=SHARE, gold=LIST, vp=LIST, realm=SHARE, round=SHARE, phase=SHARE, movable=DICT,
    pending=LIST, ctrl_start=SHARE, placed=DICT, built=LIST, battle=RECORD, reaction=RECORD, decks=SHARE,
    hands=SHARE, discards=SHARE, treasure_deck=SHARE, treasures=SHARE, treasures_played=SHARE, effects=SHARE,
    guardians=SHARE, guardian_pile=SHARE, dealing_guardians=LIST, dealing=LIST, stats=SHARE, winners=SHARE,
    end_reason=SHARE)
"""Every field of a game and how a copy takes it (``core.fields``): tuples, numbers, strings and the lists that are
replaced whole (``ctrl_start``, ``winners``) are shared, and so are the Guardians (copied on write:
``base.own_guardians``) and the per-realm card piles (Event decks, hands and discards, Treasure hands and the
Treasures played: copied on write, ``base.own_pile``) and the card effects in play (a new list on every change,
its records never changed), the Treasure deck, the Guardian pile and the report counters (copied on write); the
Warships' dict is copied and their records shared (copied on write: ``base.own_ship``); the battle and the reaction
copy themselves."""


class NerathData(State):
    """The data of a game: pieces, control, treasuries, decks and the bookkeeping of the turn and battle. A new
    game's fields are the start values the state document's keys declare (``rules.NerathState.__init__``,
    ``serial.START``)."""

    __slots__ = FIELDS.names
    clone = FIELDS.clone

    players: int
    options: dict[str, Any]
    seat_of: tuple[int, ...]
    team: tuple[int, ...]
    pieces: MutableSequence[int]   # (space * R + realm) * N_TYPES + piece
    castle: list[int]
    ctrl: list[int]
    ships: dict[int, list[int]]
    next_ship: int
    gold: list[int]
    vp: list[int]
    realm: int
    round: int
    phase: str
    movable: dict[int, int]
    pending: list[int]
    ctrl_start: list[int]
    placed: dict[int, int]
    built: list[int]
    battle: Battle | None
    reaction: Reaction | None   # a card window outside battles
    decks: list[list[str]]
    hands: list[list[str]]
    discards: list[list[str]]
    treasure_deck: list[str]
    treasures: list[list[str]]
    treasures_played: list[list[str]]
    effects: list[list[Any]]
    guardians: dict[int, list[list[Any]]]   # each Guardian on an entrance: [tile, face up (0/1), attack dice left...]
    guardian_pile: list[str]
    dealing_guardians: list[int]   # entrances still to get a facedown tile: set-up, and Reposition after a won dungeon
    dealing: list[int]   # realms still to draw a starting Event card (set-up)
    stats: dict[str, int]   # for reports only
    winners: list[int] | None
    end_reason: str

    def seat_for(self, realm: int) -> int:
        return self.seat_of[realm]

    # ------------------------------------------------------------------------------------ who moves
    @property
    def to_move(self) -> int | None:
        ph = self.phase
        if ph == "over":
            return None
        if ph in ("draw", "deal") or ph == "reposition" and self.dealing_guardians:
            return CHANCE
        if self.reaction is not None:
            return self.seat_of[self.reaction.realms[0]]
        bt = self.battle
        if ph == "fight" and bt is not None:
            step = bt.step
            if step in CHANCE_STEPS:
                return CHANCE
            if step == "assign":
                who = bt.queue[0][0]
                return bt.guardian_seat if who == GUARDIANS else self.seat_of[who]
            if step == "window":
                return self.seat_of[bt.window[0]]
            if step == "choose":   # the seat playing both defending allies splits their hits
                return self.seat_of[bt.defenders[0]]
            return self.seat_of[bt.attacker]
        return self.seat_of[self.realm]

    def result(self) -> tuple[float, ...] | None:
        if self.winners is None:
            return None
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return tuple(share if s in self.winners else 0.0 for s in range(self.players))

    def scores(self) -> tuple[float, ...]:
        out = [0.0] * self.players
        for r in range(R):
            out[self.seat_of[r]] += self.vp[r]
        return tuple(out)
