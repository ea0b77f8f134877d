"""A trained policy as an agent: ``policy:path=FILE`` (a MaskablePPO file saved by sb3-contrib, e.g. by
``examples/train_kingdom.py``). It sees what the environments show a seat (its ``view``, through the ruleset's
encoding) and picks an action token by token, each within the mask, so it only ever plays legal actions.

torch and sb3-contrib (the ``rl`` extra) are imported when a policy is first loaded."""

from __future__ import annotations

import os
import random
from typing import Any

from conquest.agents.base import Agent, Param
from conquest.core.errors import ConquestError
from conquest.core.game import Action, State

_MODELS: dict[tuple[str, float], Any] = {}


def load_policy(path: str) -> Any:
    """The model saved at ``path`` (loaded once per file version)."""
    if not os.path.isfile(path):
        raise ConquestError(f"policy file not found: {path}")
    key = (os.path.abspath(path), os.path.getmtime(path))
    if key not in _MODELS:
        try:
            from sb3_contrib import MaskablePPO
        except ImportError:
            raise ConquestError("a policy agent needs the rl extra: pip install 'conquest[rl]'") from None
        try:
            _MODELS[key] = MaskablePPO.load(path, device="cpu")
        except Exception as e:  # noqa: BLE001 - a damaged or foreign file
            raise ConquestError(f"{path} is not a MaskablePPO policy file: {e}") from None
    return _MODELS[key]


class PolicyAgent(Agent):
    """Plays a trained policy. ``path``: the policy file; ``deterministic``: the most likely token (default) or
    a sample from the policy (with the game's generator)."""

    id = "policy"
    params = {"path": Param(str, "", "the saved policy file (examples/train_kingdom.py writes one)"),
              "deterministic": Param(str, "true", "true: the most likely token; false: sample the policy")}

    def __init__(self, path: str | None = None, deterministic: bool | str = True) -> None:
        if not path:
            raise ConquestError("the policy agent needs its file: policy:path=FILE")
        self.path = str(path)
        self.deterministic = deterministic not in (False, "false", "0", "no")
        self.model = load_policy(self.path)
        self._matches: dict[Any, Any] = {}

    @property
    def spec(self) -> str:
        return f"policy:path={self.path}" + ("" if self.deterministic else ":deterministic=false")

    def _match(self, state: State) -> Any:
        from conquest.rl.match import Match
        key = (state.ruleset.id, state.players, tuple(sorted(state.options.items())))
        if key not in self._matches:
            m = Match(state.ruleset.id, state.players, state.options)
            want = (m.obs_size,), m.codec.size
            got = self.model.observation_space.shape, getattr(self.model.action_space, "n", None)
            if got != want:
                raise ConquestError(f"{self.path} was trained for observations of {got[0]} and {got[1]} actions; "
                                    f"this {state.ruleset.id} game has {want[0]} and {want[1]} (another ruleset, "
                                    f"player count or options)")
            self._matches[key] = m
        return self._matches[key]

    def choose(self, state: State, rng: random.Random) -> Action:
        import numpy as np
        m = self._match(state)
        seat = state.to_move
        d = m.at(state)
        done = d.advance_forced()
        while done is None:
            obs = m.observe(seat)
            mask = m.mask().astype(bool)
            if self.deterministic:
                token, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
            else:
                probs = self._probabilities(obs, mask)
                token = int(np.searchsorted(np.cumsum(probs), rng.random() * probs.sum()))
            done = d.choose(int(token))
            if done is None:
                done = d.advance_forced()
        return done

    def _probabilities(self, obs: Any, mask: Any) -> Any:
        import numpy as np
        import torch
        policy = self.model.policy
        with torch.no_grad():
            t, _ = policy.obs_to_tensor(obs)
            dist = policy.get_distribution(t, action_masks=mask)
            return np.asarray(dist.distribution.probs[0].cpu().numpy(), dtype=np.float64)
