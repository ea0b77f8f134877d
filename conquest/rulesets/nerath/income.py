"""6. COLLECT INCOME: the gold a realm collects (base income, conquered spaces, the Capital rules) and the card
window income opens.
"""

from __future__ import annotations

import conquest.rulesets.nerath.effects as fx
from conquest.rulesets.nerath.data import R
from conquest.rulesets.nerath.state import CAPITAL, LANDS, NerathData, Reaction


def income(st: NerathData, r: int) -> int:
    """Base income + lands held outside the starting territory - own starting lands lost = the land spaces
    you control; half (rounded up) without your Capital; then the cards: an ``income_bonus N`` makes the
    income N higher and a ``tax N`` (a record of -N) N lower, whole, after the halving; never below 0."""
    held = sum(1 for s in LANDS if st.ctrl[s] == r)
    if st.ctrl[CAPITAL[r]] != r:
        held = (held + 1) // 2
    return max(0, held + fx.income_bonus(st, r))


def collect_income(st: NerathData) -> None:
    st.gold[st.realm] += income(st, st.realm)


def open_income_window(st: NerathData) -> bool:
    """At income: the realm collecting it may play an ``income`` card, then each enemy realm holding an
    ``enemy_income`` card may play it, or pass. False when nobody holds such a card."""
    r = st.realm
    realms = [r] if fx.window_cards(st, r, "income") else []
    for k in range(1, R):
        e = (r + k) % R
        if st.team[e] != st.team[r] and fx.window_cards(st, e, "enemy_income"):
            realms.append(e)
    if realms:
        st.reaction = Reaction("income", realms, -1, r)
    return bool(realms)
