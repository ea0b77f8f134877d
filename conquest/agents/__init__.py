"""Computer players. They use only the game contract, so they play every ruleset."""

from __future__ import annotations

from conquest.agents.base import Agent, get_agent, AGENTS
from conquest.agents.random_agent import RandomAgent
from conquest.agents.greedy import GreedyAgent
from conquest.agents.mcts import MCTSAgent

__all__ = ["Agent", "get_agent", "AGENTS", "RandomAgent", "GreedyAgent", "MCTSAgent"]
