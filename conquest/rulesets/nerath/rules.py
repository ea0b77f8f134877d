"""The names code outside the package imported from here before the rules were split by section: the state
class, the board tables and the record layout. New code imports them from their own modules (``turn`` for
``NerathState``, ``state`` for the tables and ``NerathData``, each section for its procedures)."""

from __future__ import annotations

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
from conquest.rulesets.nerath.turn import NerathState

__all__ = [
    "ADJ", "ALL_COSTS", "BOARD", "BUYABLE", "C1", "C2", "CAPITAL", "CHANCE_STEPS", "COST", "DIE", "DIST", "F_FIXED",
    "F_NEW", "F_RETREATED", "F_STOPPED", "F_UNLOADED", "FLAG_NAMES", "FLAGS", "GUARDIANS", "HIT_ON", "HOME", "IDS",
    "IS_CAPITAL", "IX", "KIND", "LAND_ADJ", "LANDS", "LENGTH_VP", "MOVE", "MOVES", "O1", "O2", "OWNER", "PHASES",
    "PER_SPACE", "S", "SEA_ADJ", "SEAS", "SPACE", "STEP_TITLES", "TB", "TREASURES_TO_WIN", "WARSHIP_MOVE", "NerathData",
    "NerathState", "seating",
]
