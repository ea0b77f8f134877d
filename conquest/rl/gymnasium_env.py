"""The Gymnasium environment of a ruleset (``conquest.rl.gym_env``): one seat learns, agents play the others."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from conquest.agents import Agent, decide, get_agent
from conquest.core.errors import ConquestError
from conquest.rl.codec import as_token
from conquest.rl.match import EncodingChoice, IllegalToken, Match, as_seed


def _agents(opponents: Any, seats: list[int]) -> dict[int, Agent]:
    """One agent per other seat: a spec (``"greedy"``), an ``Agent``, or a list of them (one per other seat,
    in seat order)."""
    if isinstance(opponents, (str, Agent)) or not isinstance(opponents, Sequence):
        opponents = [opponents] * len(seats)
    if len(opponents) != len(seats):
        raise ConquestError(f"{len(opponents)} opponents given for {len(seats)} other seats")
    return {s: (o if isinstance(o, Agent) else get_agent(str(o), human_ok=False)) for s, o in zip(seats, opponents)}


class ConquestGym(gym.Env):
    """``seat``: the seat that learns (``"random"``: a seat drawn from each episode's seed).
Observation: the seat's numbers (a ``Box``, from its ``view``); action: one token (``Discrete``, see
    docs/rl.md); ``action_masks()`` for maskable algorithms (the mask is also in ``info["action_mask"]``).
    Reward: the seat's result at the end (1 win, 0 loss, shared wins split), plus the shaped reward when asked.

    An action outside the mask never changes the game. ``illegal="lose"`` (the default, what PettingZoo's
    ``TerminateIllegalWrapper`` does and what Gymnasium's ``check_env`` expects of an environment given random
    actions): the episode ends with reward ``-1`` and ``info["illegal_action"]`` naming the action;
    ``illegal="raise"``: ``ValueError`` naming the action. A value that is not a token at all (not a whole
    number: ``None``, a float, a string, a list) raises ``ValueError`` under either; ``step`` before ``reset`` or
    after the episode ended (terminated, truncated or lost by an illegal action) raises
    ``gymnasium.error.ResetNeeded``. ``encoding``: the ruleset's (default) or the generic one built from the view
    (``"view"``; see ``conquest.rl.match.EncodingChoice``)."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, ruleset: str, seat: int | str = 0, opponents: Any = "greedy", players: int | None = None,
                 options: dict[str, Any] | None = None, render_mode: str | None = None,
                 max_decisions: int | None = None, shaped_reward: float = 0.0, illegal: str = "lose",
                 encoding: EncodingChoice = None) -> None:
        super().__init__()
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.illegal = illegal
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.match = Match(ruleset, players, options, max_decisions=max_decisions, shaped_reward=shaped_reward,
                           encoding=encoding)
        self._running = False
        """An episode is under way (reset, not yet ended): ``step`` is allowed."""
        seats = list(range(self.match.players))
        if seat != "random" and not (isinstance(seat, int) and seat in seats):
            raise ConquestError(f"seat must be 0 to {self.match.players - 1} or 'random', not {seat!r}")
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self._opponent_specs = opponents
        self._opponents: dict[int, dict[int, Agent]] = {}
        self._seat(self.seat)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.match.obs_size,), np.float32)
        self.action_space = spaces.Discrete(self.match.codec.size)

    def _seat(self, seat: int) -> None:
        """Learn at ``seat``: the agents take the other seats."""
        self.seat = seat
        self.match.token_seats = {seat}
        if seat not in self._opponents:
            self._opponents[seat] = _agents(self._opponent_specs,
                                            [s for s in range(self.match.players) if s != seat])
        self.opponents = self._opponents[seat]

    def _others(self) -> None:
        m = self.match
        while m.to_move is not None and m.to_move != self.seat:
            agent = self.opponents[m.to_move]
            m.play(decide(agent, m.state, m.rng))  # the seat's determinization, never the referee's state

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        seed = as_seed(seed)
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**31))
        if self.seat_choice == "random":
            self._seat(seed % self.match.players)
        self.match.reset(seed)
        self._others()
        self._running = not (self.match.over() or self.match.truncated())
        return self.match.observe(self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        m = self.match
        token = as_token(action)   # ValueError: not a token at all, under either ``illegal``
        if not self._running:
            raise gym.error.ResetNeeded("the episode is over (or was never started): call reset() before step()")
        try:
            m.choose(token)
        except IllegalToken as e:
            if self.illegal == "raise":
                raise ValueError(str(e)) from None
            self._running = False
            return m.observe(self.seat), -1.0, True, False, {**self._info(), "illegal_action": str(e)}
        reward = m.last_shaping[self.seat] if m.last_shaping is not None else 0.0
        self._others()
        terminated = m.over()
        if terminated:
            result = m.result()
            reward += float(result[self.seat]) if result else 0.0
        truncated = m.truncated()
        self._running = not (terminated or truncated)
        if self.render_mode == "human":
            self.render()
        return m.observe(self.seat), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        return self.match.mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        st = self.match.state
        text = st.ruleset.render_text(st, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return str(text)
