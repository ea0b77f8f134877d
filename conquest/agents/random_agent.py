from __future__ import annotations

import random

from conquest.agents.base import Agent, register
from conquest.core.game import Action, State


@register
class RandomAgent(Agent):
    """Uniform over the legal actions."""

    id = "random"
    honours_deadline = True  # it answers at once

    def choose(self, state: State, rng: random.Random, deadline: float | None = None) -> Action:
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]
