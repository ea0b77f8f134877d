"""SETUP (rules document ``002``): "Take the 12 Army pawns of your color, and place 4 of them on your side of
the board, as indicated in the diagram (1 on each space of the territories beside the castle) ... Place the
rest of the Army pawns beside the board to form your reserve." "Do not take any Trap tokens by default (you
only have them if you control the appropriate bonus locations)." Then the first round begins
(``phases.start_round``)."""

from __future__ import annotations

from typing import Any, TypeVar

from conquest.rulesets.kingdom.base import ARMIES_PER_PLAYER, INCOME
from conquest.rulesets.kingdom.board import load_board
from conquest.rulesets.kingdom.phases import start_round
from conquest.rulesets.kingdom.state import KingdomData

S = TypeVar("S", bound=KingdomData)


def setup(cls: type[S], options: dict[str, Any]) -> S:
    """A new game of class ``cls``: each seat's 4 starting pawns on the bonus locations beside its castle
    (the board's ``start_locs``), 8 in reserve, no Soldier token, round 1."""
    s = cls.__new__(cls)
    b = load_board(options["board"])
    s.board = b
    s.players = 2
    s.options = options
    s.round = 1
    s.phase = INCOME
    s.current = 0
    s.first = options["first_player"]
    s.soldiers = [0, 0]
    s.reserve = [ARMIES_PER_PLAYER, ARMIES_PER_PLAYER]
    s.armies = [0] * (2 * b.territories)
    s.loc = [-1] * len(b.loc_ids)
    for seat in (0, 1):
        for l in b.start_locs[seat]:
            s.loc[l] = seat
            s.armies[2 * b.loc_territory[l] + seat] += 1
            s.reserve[seat] -= 1
    s.stopped = None
    s.move_to = -1
    s.move_from = ()
    s.move_sources = ()
    s.tasks = ()
    s.points = [0, 0]
    s._legal = None
    start_round(s)
    return s
