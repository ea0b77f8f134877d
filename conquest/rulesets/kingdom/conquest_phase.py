"""CONQUEST PHASE (rules document ``002``): "you and your opponent will take turns doing things on the Conquest
board, until you both Stop your Conquest." Who goes first, one action each in turn, and the end of the phase
(which ends the round; after the last round, the game). Its three actions are the modules ``recruit``,
``move`` and ``stop``."""

from __future__ import annotations

from conquest.rulesets.kingdom.base import CONQUEST, OVER
from conquest.rulesets.kingdom.state import KingdomData


def begin_conquest(s: KingdomData) -> None:
    """"The player with more Soldier tokens goes first. If it is a tie, the 1st player for the Round goes
    first." """
    s0, s1 = s.soldiers
    s.phase = CONQUEST
    s.current = 0 if s0 > s1 else 1 if s1 > s0 else s.first
    s.stopped = None


def end_action(s: KingdomData) -> None:
    """"You take one action, then your opponent takes one action." """
    s.phase = CONQUEST
    s.current = 1 - s.current
    s.stopped = None
    s.move_to = -1
    s.move_from = ()
    s.move_sources = ()


def end_conquest_phase(s: KingdomData) -> bool:
    """"There is a new phase at the end of the round: the Conquest phase." Its end ends the round: the game is
    over after the last round (option ``rounds``); otherwise the next round begins, its 1st player the other
    seat. True when a new round is to begin (``phases.start_round``: ``stop`` starts it)."""
    s.stopped = None
    if s.round >= s.options["rounds"]:
        s.phase = OVER
        s.current = -1
        return False
    s.round += 1
    s.first = 1 - s.first
    return True
