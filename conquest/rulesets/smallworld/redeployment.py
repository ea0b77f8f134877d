"""Troop redeployment (standard rules, "Troop Redeployment"), and the defenders' redeployment at the end of
the attacker's turn (003, "Enemy Losses and Withdrawals")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.smallworld.common import ACTIVE, DECLINED, REDEPLOY, RID
from conquest.rulesets.smallworld.powers import MARKER_ACTIONS, POWER_RULES
from conquest.rulesets.smallworld.races import RACE_RULES
from conquest.rulesets.smallworld.turn import begin_active_part, end_of_turn

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


def start_redeployment(st: SmallWorldState) -> None:
    """Troop redeployment: the race's tokens may be moved freely between its regions, at least one in
    each: we take all but one into hand and the player places them."""
    x = st.cur
    rr, tok = st.region_race, st.tokens
    own = [i for i in range(len(rr)) if rr[i] == x]
    for i in own:
        if tok[i] > 1:
            st.rhand[x] += tok[i] - 1
            tok[i] = 1
    active = st.rstatus[x] == ACTIVE
    if active:  # the Skeletons' new tokens, the Amazons' lent ones given back; markers taken up
        RACE_RULES[x].on_redeployment(st)
        POWER_RULES[st.rpower[x]].on_redeployment(st)
    if not own:
        finish_redeployment(st)
        return
    st.phase = REDEPLOY


def finish_redeployment(st: SmallWorldState) -> None:
    if st.rstatus[st.cur] == DECLINED:  # the declined Ghouls' part is over
        begin_active_part(st)
        return
    end_of_turn(st)


def redeploy_actions(st: SmallWorldState) -> list[Action]:
    x = st.cur
    own = st.regions_of(x)
    if st.amazon_debt > 0:
        return [("abandon", RID[r]) for r in own]
    h = st.rhand[x]
    acts: list[Action] = [("redeploy", RID[r], k) for r in own for k in range(1, h + 1)]
    if st.rstatus[x] == ACTIVE:
        markers = MARKER_ACTIONS[st.rpower[x]]
        if markers is not None:
            acts.extend(markers(st, own))
    if h == 0:
        acts.append(("end",))
    return acts


# ---- the moves of the redeployment step (``dispatch.MOVES``) -------------------------------------------
def redeploy_move(st: SmallWorldState, a: ActionArgs) -> None:
    r, k = a[1], a[2]
    st.tokens[r] += k
    st.rhand[st.cur] -= k


def end_move(st: SmallWorldState, a: ActionArgs) -> None:
    finish_redeployment(st)
