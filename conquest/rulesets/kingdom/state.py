"""The data of a Conquest position (rules document ``002``) and the small queries of CONQUEST BOARD ANATOMY
that every section shares: who controls a territory, which bonus locations a player holds or are free. The
procedures are in the sections' modules (``setup``, ``phases``, ``conquest_phase``, ``recruit``, ``move``,
``stop``, ``bonus``, ``end``), called by ``turn``.

``KingdomData`` holds the fields; ``rules.KingdomState`` is the game's state class, these fields with the
procedures bound. The state is flat: armies and bonus locations are lists of ints, so a clone is a few list
copies.
"""

from __future__ import annotations

from conquest.core.fields import LIST, RESET, SHARE, Slots
from conquest.core.game import CHANCE, State
from conquest.rulesets.kingdom.base import INCOME, OVER
from conquest.rulesets.kingdom.board import Board

FIELDS = Slots(board=SHARE, players=SHARE, options=SHARE, round=SHARE, phase=SHARE, current=SHARE, first=SHARE,
               soldiers=LIST, reserve=LIST, armies=LIST, loc=LIST, stopped=SHARE, move_to=SHARE,
               move_from=SHARE, move_sources=SHARE, tasks=SHARE, points=LIST, _legal=RESET)
"""Every field of a position and how a copy takes it (``core.fields``): tuples are shared, lists copied, the
cache of legal actions starts empty."""


class KingdomData(State):
    __slots__ = FIELDS.names
    clone = FIELDS.clone

    board: Board
    round: int
    phase: str
    current: int
    first: int
    soldiers: list[int]
    reserve: list[int]
    armies: list[int]          # armies[2 * territory + seat]
    loc: list[int]             # seat on each bonus location, -1 when free
    stopped: int | None
    move_to: int
    move_from: tuple[tuple[int, int], ...]
    move_sources: tuple[int, ...]
    tasks: tuple[tuple[str, int, int], ...]
    points: list[int]
    _legal: tuple[tuple, ...] | None

    # ------------------------------------------------------------------ who moves
    @property
    def to_move(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.phase == INCOME and self.options["mode"] == "standalone":
            return CHANCE
        return self.current

    def companion(self) -> bool:
        return self.options["mode"] == "companion"

    # ------------------------------------------------------------------ CONQUEST BOARD ANATOMY
    def controller(self, t: int) -> int:
        """"You always have control of your castle (even if you have no more Army pawns there)"; any other
        territory is controlled by the player whose armies are in it (only one player can have armies
        there: a move sends every enemy army home), and by nobody when it is empty."""
        b = self.board
        if t == b.castles[0]:
            return 0
        if t == b.castles[1]:
            return 1
        if self.armies[2 * t]:
            return 0
        if self.armies[2 * t + 1]:
            return 1
        return -1

    def occupied(self, seat: int, t: int) -> list[int]:
        """The bonus locations of territory ``t`` that hold an Army pawn of ``seat``: "each bonus location
        can only accommodate a single Army pawn"."""
        loc = self.loc
        return [l for l in self.board.territory_locs[t] if loc[l] == seat]

    def free_locations(self, t: int) -> list[int]:
        loc = self.loc
        return [l for l in self.board.territory_locs[t] if loc[l] == -1]

    def enemy_armies(self, t: int, seat: int) -> int:
        return self.armies[2 * t + 1 - seat]

    def moved_total(self) -> int:
        """The armies chosen so far for the Move Armies action under way (one Soldier token each)."""
        return sum(n for _, n in self.move_from)
