"""3. FIGHT BATTLES, "Determine Battle Results": who won, then "Conquer Spaces", "Run Amok" and "Plunder
Dungeons" (sea landings after a sea battle).
"""

from __future__ import annotations

import conquest.rulesets.nerath.effects as fx
from conquest.rulesets.nerath.base import count, own_guardians
from conquest.rulesets.nerath.conquer import conquer
from conquest.rulesets.nerath.data import MONSTER, R, full_strength
from conquest.rulesets.nerath.dungeons import plunder
from conquest.rulesets.nerath.run_amok import amok_targets
from conquest.rulesets.nerath.sea import landing_actions
from conquest.rulesets.nerath.state import NerathData


def battle_over(st: NerathData, won: bool) -> None:
    """Determine battle results; Dragons heal and Castles turn upright at the end of the battle."""
    bt = st.battle
    assert bt is not None
    x = bt.space
    bt.wounded_dragons = [0] * R
    bt.castle_inactive = False
    fx.expire(st, "battle")
    if won and bt.kind == "land":
        conquer(st, x, bt.attacker)
        if count(st, x, bt.attacker, MONSTER) and amok_targets(st):
            bt.step = "amok"
            return
    if won and bt.kind == "sea" and landing_actions(st):
        bt.step = "landing"
        return
    if bt.kind == "dungeon":
        if not won:
            # "If you lose the battle or retreat, all surviving Guardians return to full strength."
            for g in own_guardians(st, x):
                del g[2:]
                g.extend(full_strength(g[0]))
            if not st.guardians[x] and bt.guardian_tiles:
                # Guardians and Heroes destroyed each other: "After you defeat all a dungeon's inhabitants,
                # place 2 facedown Dungeon Guardian tokens on the entrance" (in the Reposition step,
                # ``reposition.start_reposition``) - but no plunder, no Reward
                st.dealing_guardians = [*st.dealing_guardians, x, x]
        else:
            # (an entrance left empty - its Guardians and the Heroes who fought them destroyed together -
            # holds no one to defeat: the next Heroes to enter plunder it)
            plunder(st, x)
            return
    st.battle = None
