"""Populate Phase (rules document 001, section "Populate Phase"), in its three parts: "Place Settlements"
(towns, and cities where a town would be beside or on a town), "Place Places of Power" (which one: the Places
of Power table's roll or choice; where: two d20) and "Place the Thief's treasure chest on board" (two d20, and
3 coins). Then the Action Phase (``action_phase.start_action_phase``). What the places of power do is in
``places``. Readings R7, R8, R10-R12 in docs/rules/narby.md.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.action_phase import start_action_phase
from conquest.rulesets.narby.base import CITY, EMPTY, PIDX, PLACE0, TOWN
from conquest.rulesets.narby.state import NarbyData, remove_claim, set_chest
from conquest.rulesets.narby.tables import TABLES as T
from conquest.rulesets.narby.variant import tables_of


def start_populate(s: NarbyData) -> None:
    s.phase = "populate"
    s.k = 0
    settle_start(s)


# ==================================================================== Place Settlements
def settle_start(s: NarbyData) -> None:
    s.node, s.who = "settle_x", -1


def roll_settle_x(s: NarbyData, action: Any) -> None:
    s.die = action[1]
    s.node = "settle_y"


def roll_settle_y(s: NarbyData, action: Any) -> None:
    s.die2 = action[1]
    procreator_window(s, -1)


def procreator_window(s: NarbyData, after: int) -> None:
    """"Pro-creator: +/- 2 on one of the dice" (cards.py). Hands are secret, so the window does not depend on
    who holds it: every seat after ``after`` that holds a card, in seat order, may play it or ``pass`` (a
    seat holding another card can only pass); then the settlement is placed (docs/rules/narby.md R35)."""
    for t in range(after + 1, s.players):
        if s.hand[t] is not None:
            s.node, s.who = "procreator", t
            return
    place_settlement(s)


def place_settlement(s: NarbyData) -> None:
    """"Roll two d20 to determine settlement location, place a town miniature. If a town miniature would
    be adjacent to another town or on the same space, then place a city miniature" (readings in
    docs/rules/narby.md: on a town, that town becomes a city; beside towns, option ``city``)."""
    q = B.sq(s.die, s.die2)
    s.die = s.die2 = 0
    occ = s.occ
    c = occ[q]
    if c == TOWN:
        occ[q] = CITY  # the claim on the town (same key) is now on the city
    elif c == EMPTY:
        towns = [t for t in B.NB[s.adj][q] if occ[t] == TOWN]
        if not towns:
            occ[q] = TOWN  # a claim ring on this blank square now claims the town
        elif s.options["city"] == "beside":
            occ[q] = CITY
        elif len(towns) == 1:
            occ[towns[0]] = CITY
        else:
            s.node, s.who = "upgrade", s.k % s.players
            s.ev = {"type": "upgrade", "towns": tuple(towns)}
            return
    else:
        if any(v == EMPTY or v == TOWN for v in occ):
            settle_start(s)  # roll again: the square holds a piece a town cannot join
            return
    after_settlement(s)


def upgrade_choices(s: NarbyData) -> list[Any]:
    """``upgrade x,y``: which of the towns beside the rolled square becomes the city (reading R8)."""
    assert s.ev is not None
    return [("upgrade", t) for t in s.ev["towns"]]


def upgrade_town(s: NarbyData, q: int) -> None:
    s.occ[q] = CITY
    s.ev = None
    after_settlement(s)


def after_settlement(s: NarbyData) -> None:
    """"Repeat this for the number of players" (option ``populate_repeat``, reading R7)."""
    if s.options["populate_repeat"] == "all":
        place_start(s)
        return
    s.k += 1
    if s.k < s.players:
        settle_start(s)
    else:
        place_start(s)


# ==================================================================== Place Places of Power
def place_start(s: NarbyData) -> None:
    if len(s.places) >= len(T.places):
        chest_start(s)
        return
    if s.options["places"] == "select":
        s.node, s.who = "pop_choose", s.lowest_coin_seat()
    else:
        s.node, s.who = "pop_roll", -1


def roll_place(s: NarbyData, action: Any) -> None:
    """"Roll a d20 to pick a random place of power from table below"; row 15: "Player with the lowest coin
    chooses a Place"; 16-20 (off the table): option ``high_place_roll``."""
    r = action[1]
    if r < T.places_chooser_from:
        pid = T.place_ids[r - 1]
        if pid not in s.places:
            s.ev = {"type": "place_power", "place": pid}
            s.node = "pop_x"
        return  # already on the board: roll again
    if r == T.places_chooser_from or s.options["high_place_roll"] == "chooser":
        s.node, s.who = "pop_choose", s.lowest_coin_seat()
    # else: 16-20 are rolled again


def place_choices(s: NarbyData) -> list[Any]:
    """``choose ID``: the places of power not on the board yet."""
    return [("choose", p) for p in T.place_ids if p not in s.places]


def choose_place(s: NarbyData, pid: str) -> None:
    s.ev = {"type": "place_power", "place": pid}
    s.node = "pop_x"


def roll_place_x(s: NarbyData, action: Any) -> None:
    s.die = action[1]
    s.node = "pop_y"


def roll_place_y(s: NarbyData, action: Any) -> None:
    place_place_of_power(s, B.anchor_for(s.die, action[1]))


def place_place_of_power(s: NarbyData, a: int) -> None:
    """"place one quarter of the place of power miniature in the space indicated. Places of power take up
    a 2x2 group of spaces." A footprint that is not free is rolled again."""
    s.die = 0
    occ = s.occ
    ev = s.ev
    assert ev is not None
    pid = ev["place"]
    if any(occ[q] != EMPTY for q in B.FOOT[a]):
        if any(all(occ[q] == EMPTY for q in B.FOOT[b]) for b in B.ANCHORS):
            s.node = "pop_x"
            return
        s.ev = None
        chest_start(s)
        return
    code = PLACE0 + PIDX[pid]
    for q in B.FOOT[a]:
        occ[q] = code
        if q in s.claims:
            remove_claim(s, q)
    s.places[pid] = a
    s.ev = None
    chest_start(s)


# ==================================================================== Place the Thief's treasure chest on board
def chest_start(s: NarbyData) -> None:
    s.node, s.who = "chest_x", -1


def roll_chest_x(s: NarbyData, action: Any) -> None:
    s.die = action[1]
    s.node = "chest_y"


def roll_chest_y(s: NarbyData, action: Any) -> None:
    move_treasure_chest(s, B.sq(s.die, action[1]))


def move_treasure_chest(s: NarbyData, q: int) -> None:
    """"Roll two d20 to determine treasure chest location, move the treasure chest miniature The thief's
    treasure chest is given 3 coins." An occupied square is rolled again."""
    s.die = 0
    if s.occ[q] != EMPTY and q != s.chest:
        if EMPTY in s.occ:
            s.node = "chest_x"
            return
        q = s.chest  # a full board: the chest stays where it is (or off the board)
    set_chest(s, q)
    s.chest_coins += tables_of(s).chest_refill
    if s.options["populate_repeat"] == "all" and s.k + 1 < s.players:
        s.k += 1
        settle_start(s)
    else:
        start_action_phase(s)
