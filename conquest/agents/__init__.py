"""Computer players. They use only the game contract, so they play every ruleset; every runner asks them for a
move through ``decide``, which hands them the seat's determinization, never the referee's state."""

from __future__ import annotations

import importlib
from typing import Any

from conquest.agents.base import AGENTS, LEVELS, Agent, AgentSpecError, Param, register
from conquest.agents.greedy import GreedyAgent
from conquest.agents.ismcts import ISMCTSAgent
from conquest.agents.mcts import MCTSAgent
from conquest.agents.random_agent import RandomAgent
from conquest.agents.specs import HUMAN, decide, get_agent, seat_list, split_seats


class _Later:
    """An agent whose module is imported only when one is made or its parameters are asked for (it needs an
    optional extra); a missing extra is a one-line error."""

    def __init__(self, agent: str, module: str, name: str, extra: str) -> None:
        self.agent, self.module, self.name, self.extra = agent, module, name, extra

    def _class(self) -> Any:
        try:
            return getattr(importlib.import_module(self.module), self.name)
        except ImportError as e:
            raise AgentSpecError(f"agent '{self.agent}' needs the '{self.extra}' extra "
                                 f"(pip install 'conquest[{self.extra}]'): {e}") from None

    @property
    def params(self) -> dict[str, Param]:
        return dict(self._class().params)

    def __call__(self, **params: Any) -> Agent:
        agent: Agent = self._class()(**params)
        return agent


AGENTS["policy"] = _Later("policy", "conquest.rl.policy_agent", "PolicyAgent", "rl")  # a trained policy

__all__ = ["Agent", "AgentSpecError", "Param", "register", "get_agent", "decide", "split_seats", "seat_list",
           "HUMAN", "AGENTS", "LEVELS", "RandomAgent", "GreedyAgent", "MCTSAgent", "ISMCTSAgent"]
