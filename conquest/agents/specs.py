"""Agent specs: the name of an agent with its parameters (``ismcts:time=1.0``) or a level (``hard``), the
``--seats`` lists that hold them, and ``decide``, the one call through which every runner asks an agent for a
move. Importing this module registers the built-in agents."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

# the built-in agents register themselves on import
from conquest.agents import greedy, ismcts, mcts, random_agent  # noqa: F401
from conquest.agents.base import AGENTS, LEVELS, Agent, AgentSpecError, Param
from conquest.core.errors import ConquestError
from conquest.core.game import Action, State

HUMAN = "human"
"""A seat played by a person at the terminal (``conquest play``); not an agent."""


def _known() -> str:
    return ", ".join([*sorted(AGENTS), *LEVELS])


def get_agent(spec: str, human_ok: bool = True) -> Agent:
    """The agent an agent spec (or a level) names; ``AgentSpecError`` with one line when it is bad.
    ``human_ok``: whether the caller seats people (``conquest play`` does, ``simulate`` does not), which only
    changes what the error says."""
    spec = spec.strip()
    if spec in LEVELS:
        spec = LEVELS[spec][0]
    name, _, rest = spec.partition(":")
    if name not in AGENTS:
        if name == HUMAN and not human_ok:
            raise AgentSpecError(f"'{HUMAN}' is a person at the terminal and plays only in `conquest play`; "
                                 f"here every seat is an agent: {_known()}")
        raise AgentSpecError(f"unknown agent '{name}' (known: {_known()}" + (f"; or {HUMAN}" if human_ok else "")
                             + ")")
    cls = AGENTS[name]
    declared: dict[str, Param] = getattr(cls, "params", {})
    values: dict[str, Any] = {}
    for part in (p for p in rest.split(":") if p) if rest else ():
        key, eq, text = part.partition("=")
        key = key.strip()
        if not eq:
            raise AgentSpecError(f"agent '{name}': expected parameter=value, got '{part}'")
        if key not in declared:
            raise AgentSpecError(f"agent '{name}' has no parameter '{key}'"
                                 + (f" (parameters: {', '.join(declared)})" if declared else " (it takes none)"))
        values[key] = declared[key].parse(name, key, text.strip())
    return cls(**values)


def split_seats(text: str) -> list[str]:
    """A ``--seats`` list: comma-separated agent specs. A piece that is only ``key=value`` continues the spec
    before it, so ``ismcts:time=1,rollout=4,greedy`` is two seats."""
    out: list[str] = []
    for piece in (s.strip() for s in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and out:
            out[-1] += ":" + piece
        else:
            out.append(piece)
    return out


def decide(agent: Agent, state: State, rng: random.Random, deadline: float | None = None) -> Action:
    """What every runner calls: the agent chooses from ``state.determinize(seat, rng)``, a state that agrees
    with what the seat to move may see, never from the referee's state. ``deadline`` (an instant of
    ``conquest.agents.base.deadline_clock()``) is handed to agents that honour one (``Agent.honours_deadline``): their
    search stops by then."""
    seat = state.to_move
    if seat is None or seat < 0:
        raise ConquestError("no seat to move: nothing for an agent to decide")
    if deadline is not None and agent.honours_deadline:
        return agent.choose(state.determinize(seat, rng), rng, deadline=deadline)
    return agent.choose(state.determinize(seat, rng), rng)


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
