"""3. FIGHT BATTLES, "Run Amok": the enemy land spaces a surviving Monster may run amok into, and its running
amok there (a conquest); the battle is over when no Monster or no such space is left.
"""

from __future__ import annotations

from conquest.rulesets.nerath.base import add, count, enemy_pieces_in, friendly_land
from conquest.rulesets.nerath.conquer import conquer
from conquest.rulesets.nerath.data import LAND, MONSTER
from conquest.rulesets.nerath.state import KIND, LAND_ADJ, NerathData


def amok_targets(st: NerathData) -> list[int]:
    """"The Monster immediately moves to an enemy land space, adjacent to the attacked space, that contains
    no enemy pieces, and conquers that space.\""""
    bt = st.battle
    assert bt is not None
    r = bt.attacker
    return [y for y in LAND_ADJ[bt.space]
            if KIND[y] == LAND and not friendly_land(st, y, r) and not enemy_pieces_in(st, y, r)]


def run_amok(st: NerathData, y: int) -> None:
    """"any of your Monsters that survived the battle can run amok. The Monster immediately moves to an enemy
    land space, adjacent to the attacked space, that contains no enemy pieces, and conquers that space.\""""
    bt = st.battle
    assert bt is not None
    x, r = bt.space, bt.attacker
    add(st, x, r, MONSTER, -1)
    add(st, y, r, MONSTER, 1)
    conquer(st, y, r)
    if not count(st, x, r, MONSTER) or not amok_targets(st):
        st.battle = None
