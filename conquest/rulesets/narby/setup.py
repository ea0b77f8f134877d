"""Setup (rules document 001, section "Setup"): each seat gets its dragon ("Randomly pick a dragon, roll a d20
and drop any leading digits or Select from the Dragon cards"), then in seat order rolls its starting location
("Roll Two d20 to determine starting location ... Place starting colored caverns on location") and places its
dragon ("Place dragon miniature adjacent to the cavern"). When every dragon is on the board the first round
begins (``draw.start_round``). Readings R4-R6 in docs/rules/narby.md.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import CAVE0, EMPTY, UNDEAD
from conquest.rulesets.narby.draw import start_round
from conquest.rulesets.narby.state import NarbyData
from conquest.rulesets.narby.tables import TABLES as T


def dragon_choices(s: NarbyData) -> list[Any]:
    """``dragon ID`` (option dragons=select): "Select from the Dragon cards", those not taken yet."""
    return [("dragon", d.id) for i, d in enumerate(T.dragons) if i not in s.dragon]


def roll_dragon(s: NarbyData, action: Any) -> None:
    # "roll a d20 and drop any leading digits": 10 and 20 are 0 (Undead); a dragon already taken is
    # rolled again.
    d = T.dragon_by_digit[action[1] % 10]
    if d not in s.dragon:
        choose_dragon(s, d)


def choose_dragon(s: NarbyData, d: int) -> None:
    seat = s.k
    s.dragon[seat] = d
    s.rings_left[seat] = T.dragons[d].rings
    s.k += 1
    if s.k < s.players:
        if s.node == "dragon_select":
            s.who = s.k
        return
    s.k = 0
    s.node, s.who = "cave_x", -1


def roll_cave_x(s: NarbyData, action: Any) -> None:
    s.die = action[1]
    s.node = "cave_y"


def roll_cave_y(s: NarbyData, action: Any) -> None:
    place_cave(s, B.sq(s.die, action[1]))


def place_cave(s: NarbyData, q: int) -> None:
    """"Roll Two d20 to determine starting location ... Place starting colored caverns on location"; the
    Undead "Does not place home cave": its rolled square is only its home. A square that is taken, or
    that leaves no room for the dragon beside it, is rolled again."""
    s.die = 0
    seat = s.k
    if s.occ[q] != EMPTY or not any(s.clear_for(seat, b) for b in B.anchors_beside((q,), s.adj)):
        s.node = "cave_x"
        return
    s.home[seat] = q
    if s.dragon[seat] != UNDEAD:
        s.cave[seat] = q
        s.occ[q] = CAVE0 + seat
    s.node, s.who = "place", seat
    s.ev = {"type": "place", "by": seat, "piece": "dragon", "dragon": seat, "mode": "home", "range": 0,
            "then": "setup"}


def dragon_placed(s: NarbyData) -> None:
    """"Place dragon miniature adjacent to the cavern" is done (``state.put_piece``): the next seat rolls its
    location, or the first round begins."""
    s.k += 1
    if s.k < s.players:
        s.node, s.who = "cave_x", -1
    else:
        start_round(s)
