"""The turn and the turn track (standard rules, "Game Turn" and "End of the Game"): a seat's turn begins
with its declined races that still conquer, then its active race (or a new combo); after scoring, the
powers that act at the end of the turn (Stout, Diplomat) and the defenders' redeployment (003, "Enemy Losses
and Withdrawals"); then the combo column is refilled and the next seat plays."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.smallworld import owned
from conquest.rulesets.smallworld.common import (
    ACTIVE,
    CONQUER,
    DEFEND,
    DIPLOMACY,
    DRAW_RACE,
    NR,
    OVER,
    PICK,
    RID,
    STOUT_CHOICE,
    VISIBLE,
)
from conquest.rulesets.smallworld.powers import POWER_RULES, TURN_OVER
from conquest.rulesets.smallworld.races import RACE_RULES
from conquest.rulesets.smallworld.scoring import score

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


def reset_turn_flags(st: SmallWorldState) -> None:
    st.cur = -1
    st.readied = False
    st.acted = False
    st.picked = False
    st.declined_now = False
    st.conquered_non_empty = 0
    st.attacked = 0
    st.die_used = False
    st.final_r = -1
    owned.reset_turn(st)  # the races' and powers' own flags of the turn (their entries' ``fields``)


def after_draw(st: SmallWorldState) -> None:
    """The column is refilled (chance draws a race, then a power) up to the visible combos; then the turn of
    the seat to play begins (the game's first turn after set-up)."""
    if len(st.col_race) < VISIBLE and st.pile_races():
        st.phase = DRAW_RACE
        return
    if st.turn == 0:
        st.turn = 1
        st.seat = 0
    start_turn(st)


def start_turn(st: SmallWorldState) -> None:
    reset_turn_flags(st)
    s = st.seat
    for g in st.declined_races(s):
        if RACE_RULES[g].conquers_in_decline and (st.rhand[g] > 0 or g in st.region_race):
            # "declined Ghouls still conquer, before your active race"
            # their troops are readied at their first action, like an active race's (reading 9)
            st.cur = g
            st.readied = False
            st.phase = CONQUER
            return
    begin_active_part(st)


def begin_active_part(st: SmallWorldState) -> None:
    s = st.seat
    x = st.active_race(s)
    st.readied = False
    st.acted = False
    st.berserk_die = -1
    if x < 0:
        if st.col_race:
            st.cur = -1
            st.phase = PICK
        else:  # no combo left to take: the turn is only scoring
            st.cur = -1
            score(st, s)
            begin_defenders(st)
        return
    st.cur = x
    st.phase = CONQUER


def active_power(st: SmallWorldState, race: int) -> int:
    """The power of ``race`` if it is active, else -1."""
    return st.rpower[race] if race >= 0 and st.rstatus[race] == ACTIVE else -1


def end_of_turn(st: SmallWorldState) -> None:
    s = st.seat
    score(st, s)
    # Stout "may decline at the end of a normal turn": the first turn (choose, conquer, score) is one too,
    # unless option stout_first_turn=false (reading 13)
    p = active_power(st, st.cur)
    if p >= 0 and POWER_RULES[p].declines_after_scoring \
            and (not st.picked or st.options.get("stout_first_turn", True)):
        st.phase = STOUT_CHOICE
        return
    after_stout(st)


def after_stout(st: SmallWorldState) -> None:
    p = active_power(st, st.active_race(st.seat))
    if p >= 0 and POWER_RULES[p].makes_peace and peace_choices(st):
        st.phase = DIPLOMACY
        return
    begin_defenders(st)


def peace_choices(st: SmallWorldState) -> list[int]:
    return [t for t in range(st.players) if t != st.seat and not st.attacked >> t & 1]


# ---- the defenders' redeployment --------------------------------------------------------------------
def replaces_camps(st: SmallWorldState, race: int) -> bool:
    """The race's power has Encampments its owner places again when a region is lost (Bivouacking)."""
    return race >= 0 and st.rstatus[race] == ACTIVE and POWER_RULES[st.rpower[race]].replaces_lost_camps


def defend_actions(st: SmallWorldState) -> list[Action]:
    h = st.rhand[st.cur]
    own = st.regions_of(st.cur)
    acts: list[Action] = [("redeploy", RID[r], k) for r in own for k in range(1, h + 1)]
    if st.camps_loose and replaces_camps(st, st.cur):
        acts.extend(("camp", RID[r]) for r in own)
    return acts


def begin_defenders(st: SmallWorldState) -> None:
    st.defender = -1
    next_defender(st)


def defender_camps(st: SmallWorldState) -> bool:
    return bool(st.camps_loose) and replaces_camps(st, st.cur)


def next_defender(st: SmallWorldState) -> None:
    """Defenders redeploy the tokens they took back in hand "as the final action of the current player's
    turn", into regions their race still holds; seats in turn order after the current one."""
    s = st.seat
    own_active = st.active_race(s)
    for k in range(1, st.players + 1):
        t = (s + k) % st.players
        for y in range(NR):
            if st.rseat[y] != t or (t == s and y == own_active):
                continue
            if st.rhand[y] <= 0 and not (st.camps_loose and replaces_camps(st, y)):
                continue
            if y in st.region_race:
                st.defender = t
                st.cur = y
                st.phase = DEFEND
                return
    st.defender = -1
    st.camps_loose = 0
    next_turn(st)


# ---- the turn track ---------------------------------------------------------------------------------
def next_turn(st: SmallWorldState) -> None:
    s = st.seat
    for over in TURN_OVER:  # the Diplomat's peace lasts one turn of the chosen opponent
        over(st, s)
    s += 1
    if s == st.players:
        s = 0
        st.turn += 1
    st.seat = s
    if st.turn > st.turns:
        st.turn = st.turns
        st.seat = st.players - 1
        reset_turn_flags(st)
        st.phase = OVER
        return
    after_draw(st)


# ---- the moves of the end of the turn (``dispatch.MOVES``) -------------------------------------------
def defender_redeploy_move(st: SmallWorldState, a: ActionArgs) -> None:
    r, k = a[1], a[2]
    st.tokens[r] += k
    st.rhand[st.cur] -= k
    if st.rhand[st.cur] == 0 and not defender_camps(st):
        next_defender(st)


def stout_actions(st: SmallWorldState) -> list[Action]:
    return [("decline",), ("end",)]


def stout_end_move(st: SmallWorldState, a: ActionArgs) -> None:
    """Stout does not go into decline."""
    after_stout(st)


def peace_actions(st: SmallWorldState) -> list[Action]:
    return [("peace", t) for t in peace_choices(st)]
