"""Environment throughput: PettingZoo steps per second with random masked actions, beside the raw engine's
random-playout actions per second (``conquest bench RULESET --rl``, ``benchmarks/rl_throughput.py``). The ratio
is taken on this process's CPU time, the same for both, so that a busy machine does not skew it."""

from __future__ import annotations

import random
import time
from typing import Any


def env_bench(ruleset: str, seconds: float = 5.0, players: int | None = None,
              options: dict[str, Any] | None = None, seed: int = 0) -> dict[str, Any]:
    """Play whole games in the AEC environment for ``seconds``: each step reads the agent's observation (its
    view written as numbers, and the mask) and takes a random legal token, as a learner's loop does."""
    import numpy as np

    from conquest.rl import env as make_env

    e = make_env(ruleset, players, options)
    rng = random.Random(seed)
    steps = games = actions = 0
    played: list[tuple[int, list[Any]]] = []
    t0 = time.perf_counter()
    c0 = time.process_time()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        e.reset(seed=seed + games)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        played.append((seed + games, e.match.actions))
        games += 1
        actions += len(e.match.actions)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    same = replay_cpu(e.match, played)
    return {"ruleset": ruleset, "players": e.match.players, "seconds": round(elapsed, 3), "games": games,
            "env_steps": steps, "env_steps_per_second": round(steps / elapsed, 1),
            "env_steps_per_cpu_second": round(steps / cpu, 1),
            "engine_actions_in_env_per_second": round(actions / elapsed, 1),
            "engine_actions_in_env_per_cpu_second": round(actions / cpu, 1),
            "env_steps_per_engine_action": round(steps / max(1, actions), 2),
            "engine_on_the_same_games_per_cpu_second": round(actions / same, 1),
            "observation_size": e.match.obs_size, "action_space": e.match.codec.size}


def replay_cpu(match: Any, played: list[tuple[int, list[Any]]]) -> float:
    """CPU seconds the raw engine takes to play the environment's games again, as its random playout plays:
    the legal actions at each decision (the chance distribution at a chance node, sampled), then the action.
    The environment's cost beyond the engine's is what it adds to this."""
    rs, rng = match.rs, random.Random(0)
    from conquest.core.chance import sample_chance
    from conquest.core.game import CHANCE
    c0 = time.process_time()
    for game_seed, actions in played:
        st = rs.new_game(match.players, match.options, seed=game_seed)
        for a in actions:
            if st.to_move == CHANCE:
                sample_chance(st, rng)
            else:
                st.legal_actions()
            st = st.apply_unchecked(a)
    return time.process_time() - c0


def engine_cpu_bench(ruleset: str, seconds: float, players: int | None = None,
                     options: dict[str, Any] | None = None, seed: int = 0) -> float:
    """The raw engine's random-playout actions per second of this process's CPU time (on a shared machine the
    wall clock also counts the other processes)."""
    from conquest.core.chance import random_playout
    from conquest.core.registry import get_ruleset
    start = get_ruleset(ruleset).new_game(players, options or {}, seed)
    rng = random.Random(seed)
    actions = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        _, n = random_playout(start, rng)
        actions += n
    return actions / (time.process_time() - c0)


def api_floor(obs_size: int, tokens: int, legal: int = 10, seconds: float = 1.0, seed: int = 0) -> float:
    """CPU µs per step of a PettingZoo AEC environment that does nothing but the API: two agents, a fresh
    observation array of ``obs_size`` numbers and a fresh ``tokens``-long mask with ``legal`` ones each step,
    games of 100 steps, stepped by the same loop as ``env_bench`` (``last``, the mask's legal tokens, a random
    one). No environment with this API and this loop costs less; beside the engine's cost per step it is the
    ceiling of the ratio."""
    import numpy as np
    from pettingzoo import AECEnv

    marks = tuple(range(0, tokens, max(1, tokens // max(1, legal))))[:legal]

    class Idle(AECEnv):
        metadata = {"name": "idle_v0"}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["a", "b"]
            self.buf = np.zeros(obs_size, dtype=np.float32)
            self.n = 0

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = list(self.possible_agents)
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection, self.n = "a", 0

        def observe(self, agent: str) -> dict[str, Any]:
            m = bytearray(tokens)
            for t in marks:
                m[t] = 1
            return {"observation": self.buf.copy(), "action_mask": np.frombuffer(m, dtype=np.int8)}

        def step(self, action: Any) -> None:
            a = self.agent_selection
            if self.terminations[a]:
                self._was_dead_step(action)
                return
            self.n += 1
            if self.n >= 100:
                for x in self.agents:
                    self.terminations[x] = True
            self.agent_selection = "b" if a == "a" else "a"

    e = Idle()
    rng = random.Random(seed)
    steps = games = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:
        e.reset(seed=games)
        games += 1
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal_tokens = np.flatnonzero(obs["action_mask"])
            e.step(int(legal_tokens[rng.randrange(len(legal_tokens))]))
            steps += 1
    return (time.process_time() - c0) / steps * 1e6


def bench_both(ruleset: str, seconds: float = 5.0, players: int | None = None,
               options: dict[str, Any] | None = None, seed: int = 0) -> dict[str, Any]:
    """The engine's figures (``conquest bench``) and the environment's, with their ratio."""
    from conquest.analysis.simulate import bench
    raw = bench(ruleset, seconds, players=players, options=options, seed=seed)
    envb = env_bench(ruleset, seconds, players=players, options=options, seed=seed)
    engine_cpu = engine_cpu_bench(ruleset, seconds, players=players, options=options, seed=seed)
    floor = api_floor(envb["observation_size"], envb["action_space"], seconds=min(1.0, seconds), seed=seed)
    # the best ratio an environment could reach with this API: the engine's own cost per step (its actions
    # per step at its random-playout speed) plus the API's floor, and nothing else
    engine_per_step = envb["env_steps_per_engine_action"] ** -1 / engine_cpu * 1e6
    ceiling = 1e6 / (engine_per_step + floor) / engine_cpu
    return {**raw, "engine_actions_per_cpu_second": round(engine_cpu, 1), "env": envb,
            "api_floor_us_per_step": round(floor, 2), "ratio_ceiling": round(ceiling, 3),
            "env_steps_vs_engine_actions": round(envb["env_steps_per_cpu_second"] / engine_cpu, 3),
            "engine_actions_in_env_vs_engine": round(envb["engine_actions_in_env_per_cpu_second"] / engine_cpu, 3),
            "env_vs_engine_on_the_same_games": round(envb["engine_actions_in_env_per_cpu_second"]
                                                     / envb["engine_on_the_same_games_per_cpu_second"], 3)}
