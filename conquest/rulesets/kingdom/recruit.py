"""Recruit Armies (rules document ``002``, CONQUEST PHASE): "Spend 1 Soldier token per army you wish to
recruit, then take that number of Army pawns from your reserve, and place them in your castle's territory. You
cannot recruit if all of your armies are already on the board." """

from __future__ import annotations

from conquest.core.kinds import Action
from conquest.rulesets.kingdom.conquest_phase import end_action
from conquest.rulesets.kingdom.state import KingdomData


def recruit_choices(s: KingdomData, me: int) -> list[Action]:
    """``recruit N``: from 1 to as many as both the Soldier tokens and the reserve allow."""
    return [("recruit", n) for n in range(1, min(s.soldiers[me], s.reserve[me]) + 1)]


def recruit(s: KingdomData, n: int) -> None:
    """"Spend 1 Soldier token per army you wish to recruit, then take that number of Army pawns from your
    reserve, and place them in your castle's territory." """
    me = s.current
    s.soldiers[me] -= n
    s.reserve[me] -= n
    s.armies[2 * s.board.castles[me] + me] += n
    end_action(s)
