"""Picking a race and special power combo (standard rules, "Picking a combo"): the column of visible
combos, the coins laid on the combos above the chosen one, and the tokens of banner plus badge."""

from __future__ import annotations

from typing import TYPE_CHECKING

import conquest.rulesets.smallworld.data as D
from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.smallworld.common import ACTIVE, CONQUER, DRAW_POWER
from conquest.rulesets.smallworld.races import RACE_RULES
from conquest.rulesets.smallworld.turn import after_draw
from conquest.rulesets.smallworld.variant import figures_of

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


def choose_combo(st: SmallWorldState, i: int) -> None:
    """Slot i costs i coins, one laid on each combo above it; the coins on the chosen combo are taken.
    Tokens: banner + badge, limited by the race's supply (Amazons take their 4 for conquest too)."""
    s = st.seat
    st.count("combos_picked")
    st.count("pick_coins_paid", i)
    st.coins[s] -= i
    # public: the seat had the i coins it laid down, and takes the coins on the combo (``hidden``)
    st.coins_floor[s] = max(st.coins_floor[s], i) - i + st.col_coins[i]
    for k in range(i):
        st.col_coins[k] += 1
    st.coins[s] += st.col_coins[i]
    st.count("coins_column", st.col_coins[i])
    x = st.col_race.pop(i)
    p = st.col_power.pop(i)
    st.col_coins.pop(i)
    st.rseat[x] = s
    st.rpower[x] = p
    st.rstatus[x] = ACTIVE
    st.rhand[x] = figures_of(st).tokens(x, p)
    st.cur = x
    st.picked = True
    st.readied = True
    st.acted = False
    RACE_RULES[x].on_pick(st)
    # the column slides up; the new combo at the bottom is drawn before the next turn begins
    st.phase = CONQUER


# ---- the moves (``dispatch.MOVES``) and the column's chance draws --------------------------------------
def pick_actions(st: SmallWorldState) -> list[Action]:
    c = st.coins[st.seat]
    return [("pick", i) for i in range(len(st.col_race)) if i <= c]


def pick_move(st: SmallWorldState, a: ActionArgs) -> None:
    choose_combo(st, a[1])


def race_outcomes(st: SmallWorldState) -> list[tuple[Action, float]]:
    pile = st.pile_races()
    return [(("race", D.RACE_IDS[x]), 1.0 / len(pile)) for x in pile]


def power_outcomes(st: SmallWorldState) -> list[tuple[Action, float]]:
    pile = st.pile_powers()
    return [(("power", D.POWER_IDS[p]), 1.0 / len(pile)) for p in pile]


def race_drawn_move(st: SmallWorldState, a: ActionArgs) -> None:
    st.col_race.append(D.RACE_INDEX[a[1]])
    st.phase = DRAW_POWER


def power_drawn_move(st: SmallWorldState, a: ActionArgs) -> None:
    st.col_power.append(D.POWER_INDEX[a[1]])
    st.col_coins.append(0)
    after_draw(st)
