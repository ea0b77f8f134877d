"""What a seat cannot see in Small World, and its determinization.

Hidden from a seat (``SmallWorldState.view``): the other seats' victory coins ("kept face down"). Everything
else — the map, the races and powers in play, the combo column with its coins, the draw piles as sets — is
public, and draws from the piles are chance nodes, so no order is hidden.

A determinization for ``seat`` keeps its own total and gives every other seat a total drawn around what the
table can estimate from public facts: the starting coins plus, for each turn that seat has scored, one coin
per region its races hold now. The draw is uniform over the whole coins from three quarters to five quarters
of that estimate (never below zero), so a determinization neither knows the true totals nor assumes them
equal to the estimate.

The draw never goes below what the public history proves (``coins_floor``, the document's
``seats/N/coins_at_least``, kept by the rules as play goes): the starting coins; at a pick of slot i the seat
had the i coins it laid down ("slot i costs i coins") and then took the coins on the combo; each scoring gives
at least the 1 coin per region its races are seen to occupy (the races' and powers' bonuses are not counted:
which of them applied is left to memory, as the face-down coins are). So a determinization is consistent with
every public action: the range is lifted to start at that floor when the estimate falls below it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from conquest.rulesets.smallworld.variant import figures_of

if TYPE_CHECKING:
    from conquest.core.game import State


def coin_estimate(state: State, t: int) -> int:
    """The public estimate of seat ``t``'s coins (see the module's text)."""
    region_race, rseat = state.region_race, state.rseat  # type: ignore[attr-defined]
    regions = sum(1 for y in region_race if y >= 0 and rseat[y] == t)
    scored: int = state.turn + (1 if t < state.seat else 0)  # type: ignore[attr-defined]
    return figures_of(state).coins_at_start(t) + scored * regions


def coin_range(state: State, t: int) -> tuple[int, int]:
    """The range a determinization draws seat ``t``'s coins from: around the estimate, never below the floor
    that the public history proves."""
    e = coin_estimate(state, t)
    floor = state.coins_floor[t]  # type: ignore[attr-defined]
    return max(floor, (3 * e) // 4), max(floor, (5 * e + 3) // 4)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    s = state.clone()
    coins = list(s.coins)  # type: ignore[attr-defined]
    for t in range(s.players):
        if t != seat:
            lo, hi = coin_range(state, t)
            coins[t] = rng.randint(lo, hi)
    s.coins = coins  # type: ignore[attr-defined]
    return s
