"""2. MOVE, "Sea Transport": Warships sail, land pieces embark and debark; and, from 3. FIGHT BATTLES, "Sea
Battles": the sea landing of carried pieces after a won sea battle.
"""

from __future__ import annotations

from conquest.core.kinds import Action
from conquest.rulesets.nerath.base import add, cargo, cargo_add, cargo_remove, enemy_sea, may_debark, own_ship, ships_at
from conquest.rulesets.nerath.data import COUNTED, DUNGEON, HEROES, LAND, N_TYPES
from conquest.rulesets.nerath.movement import declare_attack, open_move_reaction
from conquest.rulesets.nerath.state import ADJ, F_STOPPED, F_UNLOADED, FLAGS, IDS, KIND, MOVES, SPACE, NerathData


def sail(st: NerathData, sid: int, y: int) -> None:
    sh = own_ship(st, sid)
    sh[SPACE] = y
    sh[MOVES] += 1
    if st.phase == "move" and enemy_sea(st, y, st.realm):
        # "A Warship must stop moving and triggers a battle when it enters an enemy sea space."
        sh[FLAGS] |= F_STOPPED
        declare_attack(st, y)
        open_move_reaction(st, y)


def embark(st: NerathData, land: int, sid: int, t: int) -> None:
    sh = own_ship(st, sid)
    key = land * N_TYPES + t
    st.movable[key] -= 1
    if not st.movable[key]:
        del st.movable[key]
    add(st, land, st.realm, t, -1)
    cargo_add(sh, t, land)


def debark(st: NerathData, sid: int, y: int, t: int) -> None:
    """Carried pieces land and cannot move any farther; unloading ends the Warship's movement."""
    sh = own_ship(st, sid)
    cargo_remove(sh, t, y)
    sh[FLAGS] |= F_UNLOADED
    add(st, y, st.realm, t, 1)
    if st.phase in ("move", "fight"):
        declare_attack(st, y)   # (in Fight Battles: the landing after a won sea battle)
        open_move_reaction(st, y)


def landing_actions(st: NerathData) -> list[Action]:
    bt = st.battle
    assert bt is not None
    x = bt.space
    acts: list[Action] = []
    for sid in ships_at(st, x, bt.attacker):
        sh = st.ships[sid]
        for t in sorted(set(cargo(sh))):
            for y in ADJ[x]:
                if (KIND[y] == LAND or (KIND[y] == DUNGEON and t in HEROES)) and may_debark(sh, t, y):
                    acts.append(("debark", sid, IDS[y], COUNTED[t]))
    return acts
