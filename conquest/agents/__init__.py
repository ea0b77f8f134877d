"""Computer players. They use only the game contract, so they play every ruleset."""

from __future__ import annotations

import importlib
from typing import Callable

from conquest.agents.base import Agent, get_agent, AGENTS
from conquest.agents.random_agent import RandomAgent
from conquest.agents.greedy import GreedyAgent
from conquest.agents.mcts import MCTSAgent


def _later(module: str, name: str) -> Callable[..., Agent]:
    """An agent whose module is imported when one is made (it needs an optional extra)."""
    return lambda *args, **kwargs: getattr(importlib.import_module(module), name)(*args, **kwargs)


AGENTS["policy"] = _later("conquest.rl.policy_agent", "PolicyAgent")  # a trained policy (the rl extra)

__all__ = ["Agent", "get_agent", "AGENTS", "RandomAgent", "GreedyAgent", "MCTSAgent"]
