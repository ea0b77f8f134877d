"""What a seat cannot see in Narby, and its determinization.

Hidden from a seat (``NarbyState.view``): the bonus card in every other seat's hand (a seat sees only that a
card is held). The deck is a set, not a pile: a draw is a chance node over the cards in no hand and not
played, so its order hides nothing. A determinization for ``seat`` deals the other held cards afresh from
the cards ``seat`` cannot account for: every card that is neither in its own hand nor played.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from conquest.rulesets.narby.variant import tables_of

if TYPE_CHECKING:
    from conquest.core.game import State


def unseen_cards(state: State, seat: int) -> list[str]:
    """The cards ``seat`` cannot place: in another seat's hand or still in the deck (sorted)."""
    own = state.hand[seat] if 0 <= seat < state.players else None  # type: ignore[attr-defined]
    played = set(state.played)  # type: ignore[attr-defined]
    return sorted(c for c in tables_of(state).card_ids if c != own and c not in played)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    s = state.clone()
    hand = s.hand  # type: ignore[attr-defined]
    others = [t for t in range(s.players) if t != seat and hand[t] is not None]
    if not others:
        return s
    dealt = rng.sample(unseen_cards(state, seat), len(others))
    for t, c in zip(others, dealt):
        hand[t] = c
    return s
