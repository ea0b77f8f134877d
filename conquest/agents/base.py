from __future__ import annotations

import random
from typing import Callable

from conquest.core.errors import ConquestError
from conquest.core.game import Action, State


class Agent:
    """Chooses an action for the seat to move. Holds no game state; gets the runner's seeded RNG."""

    id = "agent"

    def choose(self, state: State, rng: random.Random) -> Action:
        raise NotImplementedError


AGENTS: dict[str, Callable[[], Agent]] = {}


def register(cls: type[Agent]) -> type[Agent]:
    AGENTS[cls.id] = cls
    return cls


def get_agent(name: str) -> Agent:
    import conquest.agents  # noqa: F401  (registers the built-in agents)
    if name not in AGENTS:
        raise ConquestError(f"unknown agent '{name}' (known: {', '.join(sorted(AGENTS))}, human)")
    return AGENTS[name]()
