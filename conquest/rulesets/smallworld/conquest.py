"""Conquering Regions (003, page 4), in the page's order: readying troops, the first conquest, the conquest
cost, enemy losses and withdrawals, following conquests, and the final conquest with the reinforcement die.
The races' and powers' changes to these steps are their hooks (races.py, powers.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.smallworld.common import ACTIVE, CONQUER, DIE, DIE_PROBS, RID
from conquest.rulesets.smallworld.owned import defence
from conquest.rulesets.smallworld.powers import (
    COST_DISCOUNT as POWER_DISCOUNT,
    EXTEND_REACH,
    NO_POWER,
    POWER_RULES,
    REGION_LOST,
    sheltered_seat,
)
from conquest.rulesets.smallworld.races import (
    CONQUEST_ACTIONS,
    COST_DISCOUNT as RACE_DISCOUNT,
    ON_OCCUPY,
    RACE_RULES,
    TOKENS_KEPT,
)
from conquest.rulesets.smallworld.redeployment import start_redeployment

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


# ---- readying troops --------------------------------------------------------------------------
def spare_before_ready(st: SmallWorldState, race: int) -> int:
    """Tokens readying troops would put in hand (all but one per region, and the tokens a race is lent
    for conquest: the Amazons' 4)."""
    rr, tok = st.region_race, st.tokens
    spare = sum(tok[i] - 1 for i in range(len(rr)) if rr[i] == race)
    if st.rstatus[race] == ACTIVE:
        spare += RACE_RULES[race].extra_tokens(st)
    return spare


def hand_now(st: SmallWorldState) -> int:
    x = st.cur
    h = st.rhand[x]
    return h if st.readied else h + spare_before_ready(st, x)


def ready_troops(st: SmallWorldState) -> None:
    """"Ready your troops": all but one token of each region go back in hand (Amazons take their 4)."""
    if st.readied:
        return
    x = st.cur
    rr, tok = st.region_race, st.tokens
    h = 0
    for i in range(len(rr)):
        if rr[i] == x and tok[i] > 1:
            h += tok[i] - 1
            tok[i] = 1
    st.rhand[x] += h
    if st.rstatus[x] == ACTIVE:
        RACE_RULES[x].on_ready(st)
    st.readied = True


# ---- first and following conquests ------------------------------------------------------------
def can_sail(st: SmallWorldState, race: int) -> bool:
    # "Seafaring: may conquer seas and the lake; kept in decline"
    p = st.rpower[race]
    return p >= 0 and POWER_RULES[p].sails


def conquest_targets(st: SmallWorldState, race: int) -> list[int]:
    """Regions ``race`` may attack now: a first conquest enters by a border region; following conquests
    are adjacent to a region it occupies (Flying, Underworld and Halflings change that). Flying reaches any
    region for the first conquest too unless option ``flying_first_conquest`` is false (reading 20)."""
    b = st.board
    rr = st.region_race
    own = [i for i in range(b.n) if rr[i] == race]
    active = st.rstatus[race] == ACTIVE
    p = st.rpower[race] if active else -1
    flies = p >= 0 and POWER_RULES[p].reaches_anywhere \
        and (bool(own) or st.options.get("flying_first_conquest", True))
    if flies or (not own and active and RACE_RULES[race].first_conquest_anywhere):
        cand: list[int] | set[int] = range(b.n)  # type: ignore[assignment]
    elif not own:
        cand = [i for i in range(b.n) if b.entry[i]]
    else:
        cs: set[int] = set()
        for i in own:
            cs.update(b.adj[i])
        reach = EXTEND_REACH[p] if p >= 0 else None
        if reach is not None:
            reach(st, own, cs)
        cand = sorted(cs)
    sail = can_sail(st, race)
    shelter = sheltered_seat(st, st.rseat[race])
    out = []
    for r in cand:
        y = rr[r]
        if y == race or (b.water[r] and not sail) or st.immune(r):
            continue
        if y >= 0 and st.rseat[y] == shelter and st.rstatus[y] == ACTIVE:
            continue
        out.append(r)
    return out


# ---- the conquest cost ------------------------------------------------------------------------
def conquest_cost(st: SmallWorldState, race: int, r: int) -> int:
    """"2 Race tokens + 1 additional Race token for each Encampment, Fortress, Mountain, or Troll's Lair
    marker + 1 additional Race token for each Lost Tribe or other player's Race token already present in
    the Region" (003), less the race's and power's discounts, never below 1."""
    b = st.board
    c = 2 + b.mountain[r] + defence(st, r) + st.lost[r]  # defence: the Lair, the Fortress, Encampments
    y = st.region_race[r]
    if y >= 0 and (st.rseat[y] != st.rseat[race] or st.options.get("own_decline_defends")):
        c += st.tokens[r]
    if st.rstatus[race] == ACTIVE:
        d = POWER_DISCOUNT[st.rpower[race]]
        if d is not None:
            c -= d(st, r)
        d = RACE_DISCOUNT[race]
        if d is not None:
            c -= d(st, r)
    return c if c > 1 else 1


# ---- enemy losses and withdrawals -------------------------------------------------------------
def lose_region(st: SmallWorldState, r: int) -> bool:
    """Enemy losses and withdrawals (003): the Lost Tribe is discarded; a race's tokens go back in its
    owner's hand less one discarded (a lone token is discarded; Elves lose none). Markers that belong to
    the occupant (Lair, Fortress, Encampments) leave; a Mountain stays. True if the region was
    non-empty."""
    nonempty = bool(st.lost[r])
    st.lost[r] = 0
    y = st.region_race[r]
    if y >= 0:
        nonempty = True
        kept = TOKENS_KEPT[y]
        st.rhand[y] += st.tokens[r] - 1 if kept is None else kept(st, st.tokens[r])
        t = st.rseat[y]
        if t != st.seat and st.rstatus[y] == ACTIVE:
            # the Diplomat names "one opponent whose active race you did not attack this turn"
            st.attacked |= 1 << t
        for lost in REGION_LOST:  # Encampments placed again by their owner (Bivouacking)
            lost(st, r, t)
    st._clear_region(r)
    return nonempty


def occupy(st: SmallWorldState, race: int, r: int, n: int, nonempty: bool) -> None:
    """The conquering tokens are deployed inside the region's borders (003)."""
    st.region_race[r] = race
    st.tokens[r] = n
    active = st.rstatus[race] == ACTIVE
    hook = ON_OCCUPY[race]
    if hook is not None:
        hook(st, r, active)
    if nonempty and active:
        st.conquered_non_empty += 1
    st.acted = True


def conquer(st: SmallWorldState, r: int, cost: int) -> None:
    x = st.cur
    st.count("conquests")
    y = st.region_race[r]
    if y >= 0 and st.rseat[y] != st.rseat[x]:
        st.count("conquests_of_enemies")
    elif st.lost[r]:
        st.count("lost_tribes_conquered")
    nonempty = lose_region(st, r)
    st.rhand[x] -= cost
    occupy(st, x, r, cost, nonempty)


# ---- the final conquest -----------------------------------------------------------------------
def roll_resolved(st: SmallWorldState, d: int) -> None:
    """The reinforcement die. For a final conquest the region was chosen before the roll: with the die
    the tokens in hand suffice or not; either way the turn's conquests end. For Berserk the die is known
    before the region is chosen."""
    st.phase = CONQUER
    st.count("reinforcement_rolls")
    r = st.final_r
    if r < 0:
        st.berserk_die = d
        return
    st.final_r = -1
    st.die_used = True
    x = st.cur
    h = st.rhand[x]
    if h + d >= conquest_cost(st, x, r):
        conquer(st, r, h)
    start_redeployment(st)


# ---- what the conquering race may do ----------------------------------------------------------
def conquer_actions(st: SmallWorldState) -> list[Action]:
    x = st.cur
    hand = hand_now(st)
    acts: list[Action] = []
    active = st.rstatus[x] == ACTIVE
    pw = POWER_RULES[st.rpower[x]] if active else NO_POWER
    bd = st.berserk_die
    # option reinforcement_die=once_a_turn: "After the die, the turn's conquests end" — a race acting after
    # the declined Ghouls' die conquers (and converts) no more
    over = st.die_used and st.options.get("reinforcement_die", "once_a_turn") == "once_a_turn"
    if hand >= 1 and not over:
        final_ok = not pw.rolls_before_conquest
        dragon_ok = pw.dragon and not st.dragon_used and bd < 0
        for r in conquest_targets(st, x):
            c = conquest_cost(st, x, r)
            if bd >= 0:
                c = c - bd if c - bd > 1 else 1
            if c <= hand:
                acts.append(("conquer", RID[r]))
            elif final_ok and c - hand <= 3:
                acts.append(("final", RID[r]))
            if dragon_ok:
                acts.append(("dragon", RID[r]))
        if pw.rolls_before_conquest and bd < 0:
            acts.append(("berserk",))
    if active and not over:
        more = CONQUEST_ACTIONS[x]
        if more is not None:
            more(st, acts, bd)
    if not st.acted and bd < 0:
        for r in st.regions_of(x):
            acts.append(("abandon", RID[r]))
        if active and not st.readied and not st.picked:
            acts.append(("decline",))
    acts.append(("end",))
    return acts


# ---- the moves of the conquering step (``dispatch.MOVES``; region actions carry the region's index) ------
def conquer_move(st: SmallWorldState, a: ActionArgs) -> None:
    ready_troops(st)
    r = a[1]
    c = conquest_cost(st, st.cur, r)
    if st.berserk_die >= 0:
        c = max(1, c - st.berserk_die)
        st.berserk_die = -1
    conquer(st, r, c)


def final_move(st: SmallWorldState, a: ActionArgs) -> None:
    """The final conquest: the region is chosen, then the reinforcement die is rolled (``roll_resolved``)."""
    ready_troops(st)
    st.acted = True
    st.final_r = a[1]
    st.phase = DIE


def abandon_move(st: SmallWorldState, a: ActionArgs) -> None:
    """Before the first conquest a region may be abandoned: its tokens go back in hand."""
    ready_troops(st)
    r = a[1]
    st.rhand[st.cur] += st.tokens[r]
    st._clear_region(r)


def end_move(st: SmallWorldState, a: ActionArgs) -> None:
    """The conquests are over: troop redeployment."""
    ready_troops(st)
    st.berserk_die = -1
    start_redeployment(st)


def die_move(st: SmallWorldState, a: ActionArgs) -> None:
    roll_resolved(st, a[1])


def die_outcomes(st: SmallWorldState) -> list[tuple[Action, float]]:
    return [(("die", f), p) for f, p in DIE_PROBS]
