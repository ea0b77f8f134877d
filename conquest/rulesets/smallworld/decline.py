"""Going into decline (standard rules, "Going into Decline"): one token per region is flipped, the others
leave; the seat's earlier declined race leaves the map (Spirit changes that, Ghouls keep their tokens)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquest.core.kinds import ActionArgs
from conquest.rulesets.smallworld import owned
from conquest.rulesets.smallworld.common import DECLINED, OUT
from conquest.rulesets.smallworld.powers import POWER_RULES
from conquest.rulesets.smallworld.races import RACE_RULES
from conquest.rulesets.smallworld.scoring import score
from conquest.rulesets.smallworld.turn import after_stout, begin_defenders

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


def _spirit(st: SmallWorldState, race: int) -> bool:
    p = st.rpower[race]
    return p >= 0 and POWER_RULES[p].spirit


def go_into_decline(st: SmallWorldState, s: int) -> None:
    """One token per region is flipped, the others removed (Ghouls keep all); the race's earlier
    declined race leaves the map, unless that one has Spirit (then it does not count) or this one does."""
    x = st.active_race(s)
    st.count("declines")
    spirit = _spirit(st, x)
    for y in st.declined_races(s):
        if _spirit(st, y) == spirit:
            remove_race(st, y)
    keep = RACE_RULES[x].keeps_tokens_in_decline
    rr, tok = st.region_race, st.tokens
    for i in range(len(rr)):
        if rr[i] == x:
            if not keep:
                tok[i] = 1
            owned.clear_in_decline(st, i)  # Heroes, the Dragon, Holes, Encampments (their entries say so)
    if not keep:
        st.rhand[x] = 0
    st.rstatus[x] = DECLINED
    RACE_RULES[x].on_decline(st)


def remove_race(st: SmallWorldState, y: int) -> None:
    """The race's tokens leave the map; its banner and badge go back to the piles."""
    for i in range(len(st.region_race)):
        if st.region_race[i] == y:
            st._clear_region(i)
    st.rhand[y] = 0
    st.rstatus[y] = OUT
    st.rseat[y] = -1
    st.rpower[y] = -1


# ---- the moves (``dispatch.MOVES``) ------------------------------------------------------------------
def decline_move(st: SmallWorldState, a: ActionArgs) -> None:
    """Going into decline instead of conquering: the turn is scored at once."""
    go_into_decline(st, st.seat)
    st.declined_now = True
    score(st, st.seat)
    begin_defenders(st)


def stout_decline_move(st: SmallWorldState, a: ActionArgs) -> None:
    """Stout goes into decline at the end of its turn, after scoring."""
    go_into_decline(st, st.seat)
    after_stout(st)
