"""3. FIGHT BATTLES, "Conquer Spaces" and "Alliances and Conquest" (liberating an ally's space), with the
"Victory Points" a conquest scores.
"""

from __future__ import annotations

import conquest.rulesets.nerath.effects as fx
from conquest.rulesets.nerath.state import HOME, IS_CAPITAL, NerathData


def conquer(st: NerathData, x: int, r: int) -> None:
    """Conquest, or liberation of an ally's starting land space (no VP, control reverts to the ally)."""
    h = HOME[x]
    if h >= 0 and h != r and st.team[h] == st.team[r]:
        st.ctrl[x] = h
        fx.on_conquer(st, x, r, liberated=True)
        return
    st.ctrl[x] = r
    if h >= 0 and h != r:
        st.vp[r] += 5 if IS_CAPITAL[x] else 1
    fx.on_conquer(st, x, r, liberated=False)
