"""Computer players. They use only the game contract, so they play every ruleset."""

from __future__ import annotations

from conquest.agents.base import AGENTS, LEVELS, Agent, decide, get_agent, split_seats
from conquest.agents.random_agent import RandomAgent
from conquest.agents.greedy import GreedyAgent
from conquest.agents.mcts import MCTSAgent
from conquest.agents.ismcts import ISMCTSAgent

__all__ = ["Agent", "get_agent", "decide", "split_seats", "AGENTS", "LEVELS", "RandomAgent", "GreedyAgent",
           "MCTSAgent", "ISMCTSAgent"]
