"""Sampling chance outcomes. The rules publish distributions; whoever runs a game holds the generator."""

from __future__ import annotations

import random

from conquest.core.errors import ConquestError
from conquest.core.game import Action, State


def sample_chance(state: State, rng: random.Random) -> Action:
    """One outcome of the chance node ``state``, drawn from its published distribution."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ConquestError("chance node without outcomes")
    x = rng.random()
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if x < acc:
            return outcome
    return outcomes[-1][0]
