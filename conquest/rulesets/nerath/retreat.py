"""3. FIGHT BATTLES, "Press Attack or Retreat": where retreating pieces may withdraw, and the end of a
withdrawal.
"""

from __future__ import annotations

import conquest.rulesets.nerath.effects as fx
from conquest.core.kinds import Action
from conquest.rulesets.nerath.base import enemy_sea, friendly_land, ships_at
from conquest.rulesets.nerath.data import COUNTED, FLYING_TYPES, LAND, N_TYPES, SEA, R
from conquest.rulesets.nerath.results import battle_over
from conquest.rulesets.nerath.state import ADJ, C1, C2, IDS, KIND, OWNER, SEA_ADJ, SPACE, NerathData


def withdraw_actions(st: NerathData) -> list[Action]:
    """"Retreating pieces move from the attacked space to any adjacent friendly land space ... Flying pieces
    can retreat to an adjacent friendly sea space ... If there are no friendly adjacent land spaces to
    retreat to, but you have one or more Warships in an adjacent sea space, your pieces can retreat by
    embarking onto those Warships.\""""
    bt = st.battle
    assert bt is not None
    x = bt.space
    r = bt.attacker
    friendly_lands = [y for y in ADJ[x] if KIND[y] == LAND and friendly_land(st, y, r)]
    friendly_seas = [y for y in ADJ[x] if KIND[y] == SEA and not enemy_sea(st, y, r)]
    acts: list[Action] = []
    base = (x * R + r) * N_TYPES
    sea = bt.kind == "sea"
    for t in range(N_TYPES):
        c = st.pieces[base + t]
        if not c:
            continue
        if t in FLYING_TYPES:
            dests = friendly_lands + friendly_seas
        elif sea:
            continue
        else:
            dests = friendly_lands
        for y in dests:
            for k in range(1, c + 1):
                acts.append(("withdraw", IDS[y], COUNTED[t], k))
        if t not in FLYING_TYPES and not friendly_lands:
            for sid in sorted(st.ships):
                sh = st.ships[sid]
                if sh[OWNER] == r and sh[SPACE] in SEA_ADJ[x] and (sh[C1] < 0 or sh[C2] < 0):
                    acts.append(("withdraw-aboard", sid, COUNTED[t]))
    if sea:
        for sid in ships_at(st, x, r):
            for y in friendly_seas:
                acts.append(("withdraw-ship", sid, IDS[y]))
    return acts


def finish_withdrawal_if_done(st: NerathData) -> None:
    """Pieces that cannot retreat anywhere are destroyed; the attacker has lost the battle."""
    if withdraw_actions(st):
        return
    bt = st.battle
    assert bt is not None
    x = bt.space
    r = bt.attacker
    base = (x * R + r) * N_TYPES
    for t in range(N_TYPES):
        if bt.kind != "sea" or t in FLYING_TYPES:
            st.pieces[base + t] = 0
    if bt.kind == "sea":
        for sid in ships_at(st, x, r):
            del st.ships[sid]
    fx.on_retreat(st, x)
    battle_over(st, False)
