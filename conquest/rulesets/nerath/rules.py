"""The Conquest of Nerath state class: ``NerathState`` is the data of a position (``state.NerathData``) with the
game's procedures bound to it as class attributes (as kingdom/rules.py does; docs/architecture.md): the
dispatcher ``turn`` (legal actions, chance outcomes, applying an action, the start of a turn), the refusals
``reasons``, the JSON ``serial`` and the ``view``. The procedures themselves are in one module per section of the
rules.

It also re-exports the names code outside the package imported from here before the rules were split by section:
the board tables and the record layout. New code imports them from their own modules (``state`` for the tables
and ``NerathData``, each section for its procedures)."""

from __future__ import annotations

from typing import Any

from conquest.rulesets.nerath import coherence, reasons, serial, turn, view as _view
from conquest.rulesets.nerath.serial import NerathBody
from conquest.rulesets.nerath.state import (
    ADJ,
    ALL_COSTS,
    BOARD,
    BUYABLE,
    C1,
    C2,
    CAPITAL,
    CHANCE_STEPS,
    COST,
    DIE,
    DIST,
    F_FIXED,
    F_NEW,
    F_RETREATED,
    F_STOPPED,
    F_UNLOADED,
    FLAG_NAMES,
    FLAGS,
    GUARDIANS,
    HIT_ON,
    HOME,
    IDS,
    IS_CAPITAL,
    IX,
    KIND,
    LAND_ADJ,
    LANDS,
    LENGTH_VP,
    MOVE,
    MOVES,
    O1,
    O2,
    OWNER,
    PER_SPACE,
    PHASES,
    SEA_ADJ,
    SEAS,
    SPACE,
    STEP_TITLES,
    TB,
    TREASURES_TO_WIN,
    WARSHIP_MOVE,
    NerathData,
    S,
    seating,
)

__all__ = [
    "ADJ", "ALL_COSTS", "BOARD", "BUYABLE", "C1", "C2", "CAPITAL", "CHANCE_STEPS", "COST", "DIE", "DIST", "F_FIXED",
    "F_NEW", "F_RETREATED", "F_STOPPED", "F_UNLOADED", "FLAG_NAMES", "FLAGS", "GUARDIANS", "HIT_ON", "HOME", "IDS",
    "IS_CAPITAL", "IX", "KIND", "LAND_ADJ", "LANDS", "LENGTH_VP", "MOVE", "MOVES", "O1", "O2", "OWNER", "PHASES",
    "PER_SPACE", "S", "SEA_ADJ", "SEAS", "SPACE", "STEP_TITLES", "TB", "TREASURES_TO_WIN", "WARSHIP_MOVE", "NerathData",
    "NerathState", "seating",
]


class NerathState(NerathData):
    """A game of Conquest of Nerath: the data of ``state.py`` with the interface every ruleset's state has."""

    schema = NerathBody
    __slots__ = ()

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        """A new game's state: the seats, then every field of the document at the start value its key declares
        (``serial.START``)."""
        self.players = players
        self.options = options
        self.seat_of, self.team = seating(players, options["mode"], options["three_player"])
        serial.START.set(self)

    legal_actions = turn.legal_actions
    is_legal = turn.is_legal
    illegal_reason = reasons.illegal_reason
    chance_outcomes = turn.chance_outcomes
    _apply = turn.apply
    start_turn = turn.start_turn
    _body_json = serial.DOCUMENT.write
    body_is_fresh = True
    view = _view.view
    check_coherence = coherence.check_coherence

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> NerathData:
        return serial.from_body(cls, data, players, options)
