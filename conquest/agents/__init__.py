"""Computer players. They use only the game contract, so they play every ruleset; every runner asks them for a
move through ``decide``, which hands them the seat's determinization, never the referee's state."""

from __future__ import annotations

from conquest.agents.base import AGENTS, LEVELS, Agent, AgentSpecError, Param, register
from conquest.agents.greedy import GreedyAgent
from conquest.agents.ismcts import ISMCTSAgent
from conquest.agents.mcts import MCTSAgent
from conquest.agents.random_agent import RandomAgent
from conquest.agents.specs import HUMAN, decide, get_agent, seat_list, split_seats

__all__ = ["Agent", "AgentSpecError", "Param", "register", "get_agent", "decide", "split_seats", "seat_list",
           "HUMAN", "AGENTS", "LEVELS", "RandomAgent", "GreedyAgent", "MCTSAgent", "ISMCTSAgent"]
