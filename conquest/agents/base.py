from __future__ import annotations

import random
from typing import Callable, Sequence, TypeVar

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


HUMAN = "human"
"""A seat played by a person at the terminal (``conquest play``); not an agent."""


def get_agent(name: str, human_ok: bool = True) -> Agent:
    """The agent called ``name``. ``human_ok``: whether the caller seats people (``conquest play`` does,
    ``simulate`` does not), which only changes what the error says."""
    import conquest.agents  # noqa: F401  (registers the built-in agents)
    if name not in AGENTS:
        known = ", ".join(sorted(AGENTS))
        if name == HUMAN and not human_ok:
            raise ConquestError(f"'{HUMAN}' is a person at the terminal and plays only in `conquest play`; "
                                f"here every seat is an agent: {known}")
        raise ConquestError(f"unknown agent '{name}' (known: {known}" + (f"; or {HUMAN}" if human_ok else "")
                            + ")")
    return AGENTS[name]()


T = TypeVar("T")


def seat_list(seats: Sequence[T], players: int, min_players: int, max_players: int) -> list[T]:
    """One name per seat: one name fills every seat; otherwise the count must match. The error suggests the
    player count that would fit the names given, when the ruleset allows it."""
    names = list(seats)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        hint = (f", or --players {len(names)} for a {len(names)}-player game"
                if min_players <= len(names) <= max_players else "")
        raise ConquestError(f"{len(names)} seats given for {players} players: give {players} names (one name "
                            f"fills every seat){hint}")
    return names
