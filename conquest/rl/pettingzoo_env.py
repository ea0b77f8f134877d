"""The PettingZoo AEC environment of a ruleset (``conquest.rl.env``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from conquest.rl.match import EncodingChoice, IllegalToken, Match


class ConquestAEC(AECEnv):
    """Agents are the seats (named after them); each observation is ``{"observation", "action_mask"}`` built
    from the seat's ``view``; one ``Discrete`` action space of tokens (see docs/rl.md). Rewards: each seat's
    result at the end (1 win, 0 loss, winners share), plus, when ``shaped_reward`` is not 0, that factor times
    the change of the ruleset's evaluation for the seat at each action. ``encoding``: the ruleset's (default) or
    the generic one built from the view (``"view"``; see ``conquest.rl.match.EncodingChoice``)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "conquest_v0",
                                "is_parallelizable": False}
    RENDER_MODES = ("ansi", "human")

    def __init__(self, ruleset: str, players: int | None = None, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, max_decisions: int | None = None,
                 shaped_reward: float = 0.0, encoding: EncodingChoice = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(self.RENDER_MODES)}, not {render_mode!r}")
        self.match = Match(ruleset, players, options, max_decisions=max_decisions, shaped_reward=shaped_reward,
                           encoding=encoding)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"conquest_{self.match.rs.id}_v0"}
        self.possible_agents = list(self.match.agent_names)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.match.codec.size
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.match.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.agents: list[str] = []
        self._rewarded = False
        """Some reward is not zero (it is cleared at the next step)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---- the game --------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.match.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False
        self._after_move()

    def _after_move(self) -> None:
        m = self.match
        to_move = m.to_move
        if to_move is None:
            result = m.result() or tuple(0.0 for _ in self.agents)
            for a in self.agents:
                self.rewards[a] += float(result[self._seat[a]])
                self.terminations[a] = True
        elif m.max_decisions is not None and m.truncated():
            for a in self.agents:
                self.truncations[a] = True
        if to_move is not None and to_move >= 0:
            self.agent_selection = self.possible_agents[to_move]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self._rewarded = any(self.rewards.values())
        if self._rewarded:
            self._accumulate_rewards()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action (None is only for agents that are done)")
        m = self.match
        try:
            m.choose(action)
        except IllegalToken as e:
            raise ValueError(f"{agent}: {e}") from None
        self._cumulative_rewards[agent] = 0.0
        shaping = m.last_shaping
        to_move = m.to_move
        if shaping is None and not self._rewarded and to_move is not None and to_move >= 0 \
                and m.max_decisions is None and self.render_mode != "human":
            self.agent_selection = self.possible_agents[to_move]  # the common step: nothing else changes
            return
        if shaping is not None:
            self.rewards = {a: shaping[self._seat[a]] for a in self.agents}
        elif self._rewarded:
            self.rewards = {a: 0.0 for a in self.agents}
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        m = self.match
        mask = m.mask() if (m.to_move == seat and not self.truncations.get(agent)) else \
            np.zeros(m.codec.size, dtype=np.int8)
        return {"observation": m.observe(seat), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        st = self.match.state
        seat = st.to_move if st.to_move is not None and st.to_move >= 0 else None
        text = st.ruleset.render_text(st, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return str(text)

    def close(self) -> None:
        pass
