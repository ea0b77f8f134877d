"""Why an action is refused: one message per rule, naming the rule (and the step of the turn) it breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import conquest.rulesets.smallworld.data as D
from conquest.rulesets.smallworld.common import (
    ACTIVE,
    CONQUER,
    DECLINED,
    DEFEND,
    DIE,
    DIPLOMACY,
    DRAW_POWER,
    DRAW_RACE,
    OVER,
    PHASE_NAMES,
    PICK,
    REDEPLOY,
    REGION_ACTIONS,
    RIDX,
    STOUT_CHOICE,
    _n,
)
from conquest.rulesets.smallworld.conquest import can_sail, conquest_cost, conquest_targets, hand_now
from conquest.rulesets.smallworld.dispatch import PHASES_OF
from conquest.rulesets.smallworld.powers import NO_POWER, POWER_RULES, Power

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


def _active_power_rule(st: SmallWorldState, race: int) -> Power:
    """The entry of the power of ``race`` while it is active (``NO_POWER`` otherwise)."""
    if race >= 0 and st.rstatus[race] == ACTIVE:
        return POWER_RULES[st.rpower[race]]
    return NO_POWER


def _step_rule(st: SmallWorldState, k: str) -> str:
    """The rule of the current step, for an action that belongs to another step."""
    ph = st.phase
    x = st.cur
    name = D.RACES[x]["name"] if x >= 0 else ""
    if k == "pick" and st.active_race(st.seat) >= 0:
        y = st.active_race(st.seat)
        return (f"you have an active race ({D.RACES[y]['name']}): you pick a new combo only on the turn after "
                "it went into decline")
    if ph == PICK:
        return ("you have no active race: choose a combo first (pick I; slot I costs I coins), then conquer "
                "with it")
    if ph == CONQUER:
        who = f"your declined {name}" if st.rstatus[x] == DECLINED else f"your {name}"
        return (f"{who} are conquering: conquer rN (or final rN with the reinforcement die), abandon rN before "
                "the first conquest, or end; tokens are redeployed after end")
    if ph == REDEPLOY:
        if st.amazon_debt:
            return (f"you are redeploying: the Amazons first give back their 4 extra tokens "
                    f"({_n(st.amazon_debt, 'token')} left: abandon rN)")
        return ("you are redeploying: the turn's conquests are over; place the tokens in hand (redeploy rN K"
                + (", and markers" if _active_power_rule(st, x).places_markers else "")
                + "), then end")
    if ph == STOUT_CHOICE:
        return "the turn is scored: Stout may now go into decline (decline) or not (end)"
    if ph == DIPLOMACY:
        return "the turn is scored: the Diplomat names an opponent it did not attack this turn (peace S)"
    if ph == DEFEND:
        return (f"Player {st.defender + 1} is redeploying the tokens its {name} took back in hand, into regions "
                "they still hold (redeploy rN K), as the final action of the turn (003)")
    return f"'{k}' is not possible in the {PHASE_NAMES[ph]} step"


def illegal_reason(st: SmallWorldState, action: Any) -> str:  # noqa: C901 - one message per rule
    """Why an action is refused, naming the rule it breaks."""
    # Long because: one refusal per rule of the rulebook, in the order of a turn; each branch names the rule it
    # checks.
    ph = st.phase
    if ph == OVER:
        return "the game is over"
    if not isinstance(action, tuple) or not action:
        return "not a Small World action"
    k = action[0]
    if ph in (DRAW_RACE, DRAW_POWER, DIE):
        if k == {DRAW_RACE: "race", DRAW_POWER: "power", DIE: "die"}[ph]:
            return "not one of the outcomes here (a race or power already shown or in play, or not a die face)"
        return f"chance is to move ({PHASE_NAMES[ph]}): only its outcomes can be applied"
    if k in ("race", "power", "die"):
        return "that is a chance outcome, and the state is not at a chance node"
    phase_of = PHASES_OF
    if k not in phase_of:
        return "not a Small World action"
    if ph not in phase_of[k]:
        rule = _step_rule(st, k)
        if k == "decline" and ph != PICK:
            rule += "; a race goes into decline at the start of its turn, instead of conquering"
        return rule
    n = st.board.n
    if k in REGION_ACTIONS:
        ri = RIDX.get(action[1], n) if len(action) > 1 else n
        if ri >= n:
            return f"this board has regions r1 to r{n}"
        action = (k, ri) + tuple(action[2:])
    x = st.cur
    if k == "pick":
        i = action[1]
        if i >= len(st.col_race):
            m = len(st.col_race)
            return (f"only {_n(m, 'combo')} {'is' if m == 1 else 'are'} shown "
                    + ("(slot 0)" if m == 1 else f"(slots 0 to {m - 1})"))
        return (f"the combo in slot {i} costs {_n(i, 'coin')} (1 on each combo above it) and you have "
                f"{st.coins[st.seat]}")
    if k in ("conquer", "final", "dragon", "convert", "berserk") and st.die_used \
            and st.options.get("reinforcement_die", "once_a_turn") == "once_a_turn":
        return ("the reinforcement die \"is used once, for the last conquest of the turn ... After the die, the "
                "turn's conquests end\": the declined Ghouls rolled it this turn (option reinforcement_die)")
    if k in ("conquer", "final", "dragon"):
        r = action[1]
        if st.berserk_die >= 0 and k != "conquer":
            return "after the Berserk roll the next action is a conquest with the die (or end)"
        if k == "dragon" and (not _active_power_rule(st, x).dragon or st.dragon_used):
            return "the Dragon attacks once per turn, for a Dragon Master race"
        if st.region_race[r] == x:
            return "the region is already yours"
        if st.board.water[r] and not can_sail(st, x):
            return "Seas and Lakes cannot usually be conquered (003); only Seafaring races may"
        if st.immune(r):
            return "the region is immune (Hole-in-the-Ground, Hero or Dragon)"
        if r not in conquest_targets(st, x):
            y = st.region_race[r]
            if y >= 0 and st.peace_to == st.seat and st.rseat[y] == st.peace_by:
                return "the Diplomat's peace: you may not attack that player's active race this turn"
            if not any(st.region_race[i] == x for i in range(n)):
                return ("a race deploying on the map must enter it by conquering one of its border Regions "
                        "(003)")
            return ("each newly conquered Region must be adjacent to a Region already occupied by his "
                    "active Race tokens (003)")
        hand = hand_now(st)
        if hand < 1:
            return "a player must always have at least one Race token available to initiate a new Conquest (003)"
        c = conquest_cost(st, x, r)
        if k == "final":
            if _active_power_rule(st, x).rolls_before_conquest:
                return "Berserk rolls the die before each conquest instead of a final conquest"
            if c <= hand:
                return f"you have the {_n(c, 'token')} needed: conquer it without the die"
            return f"the die adds 3 at most: {_n(c, 'token')} needed, {hand} in hand"
        if st.berserk_die >= 0:
            c = max(1, c - st.berserk_die)
        return (f"to conquer it you need {_n(c, 'token')} (2 + 1 per Encampment, Fortress, Mountain, Troll's Lair, "
                f"Lost Tribe or enemy token, less discounts, 003) and you have {hand}")
    if k == "convert":
        if hand_now(st) < 1 and st.options.get("convert_needs_token", True):
            return ("a player must always have at least one Race token available to initiate a new Conquest "
                    "(003), a Sorcerers' conversion too (option convert_needs_token)")
        return ("Sorcerers replace a lone active token of an opponent, once per opponent per turn, in a region "
                "adjacent to theirs, while a Sorcerer is left in the supply")
    if k == "berserk":
        return "only an active Berserk race rolls before a conquest, once per conquest"
    if k == "abandon":
        if ph == REDEPLOY:
            return "regions are abandoned when troops are readied, before the turn's first conquest"
        if st.region_race[action[1]] != x:
            return "you can only abandon a region your race occupies"
        return "regions are abandoned when troops are readied, before the turn's first conquest"
    if k == "decline":
        if ph == CONQUER and st.picked:
            return ("the first turn of a race is 'choose a combo, conquer, score': it cannot go into decline "
                    "on the turn its combo was chosen (Stout may, after scoring)")
        if ph == CONQUER and st.rstatus[x] == DECLINED:
            return ("the declined Ghouls act first (conquests, then redeployment); the active race may go "
                    "into decline when its part of the turn begins")
        if ph == CONQUER and st.rstatus[x] == ACTIVE and st.readied:
            return ("a race goes into decline instead of expanding, before anything else in its turn; "
                    "its troops are already readied (Stout may decline after scoring)")
        return ("a race goes into decline at the start of its turn instead of conquering (Stout: also at the "
                "end of a normal turn, after scoring)")
    if k == "end":
        if ph == REDEPLOY and st.amazon_debt:
            return (f"the Amazons still give back {_n(st.amazon_debt, 'token')}: abandon regions to take them "
                    "(at least one token stays in each region if possible)")
        if ph == REDEPLOY:
            h = st.rhand[x]
            return (f"redeploy the {_n(h, 'token')} in hand first "
                    "(redeploy rN K), then end")
        return "not now"
    if k == "redeploy":
        r, m = action[1], action[2]
        if st.region_race[r] != x:
            return (f"the {D.RACES[x]['name']} redeploy only into regions they still occupy"
                    + (" (003: 'in any other Region(s) still occupied by his race')" if ph == DEFEND else ""))
        if m < 1:
            return "redeploy at least 1 token"
        return f"{_n(m, 'token')} asked, {st.rhand[x]} in hand"
    if k == "camp":
        return "Bivouacking: 5 Encampments, in your regions, placed during redeployment"
    if k == "fortress":
        return "Fortified: one Fortress per turn, one per region, 6 on the map at most"
    if k == "hero":
        return "Heroic: 2 Heroes, in 2 different regions of yours"
    if k == "peace":
        return "the Diplomat names one opponent (not yourself) that was not attacked this turn"
    return "it is not among the legal actions here"
