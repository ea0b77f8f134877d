"""Many games between agents: locally in a process pool, with a progress callback; records optional."""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conquest.core.registry import get_ruleset


@dataclass
class GameOutcome:
    seed: int
    result: list[float] | None
    scores: list[float] | None
    actions: int
    error: str | None = None
    record_path: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class Summary:
    ruleset: str
    players: int
    seats: list[str]
    games: int = 0
    finished: int = 0
    errors: int = 0
    actions: int = 0
    wins: list[int] = field(default_factory=list)
    shared: int = 0
    draws: int = 0
    score_sum: list[float] = field(default_factory=list)
    error_samples: list[str] = field(default_factory=list)
    seconds: float = 0.0
    stat_sums: dict[str, float] = field(default_factory=dict)
    stat_games: dict[str, int] = field(default_factory=dict)
    stat_counts: dict[str, dict[str, int]] = field(default_factory=dict)
    interrupted: bool = False
    """Stopped early (Ctrl+C): the figures cover the games finished by then."""

    def add(self, o: GameOutcome) -> None:
        self.games += 1
        if o.error is not None:
            self.errors += 1
            if len(self.error_samples) < 5:
                self.error_samples.append(f"seed {o.seed}: {o.error}")
            return
        if o.result is None:
            return
        self.finished += 1
        self.actions += o.actions
        best = max(o.result)
        top = [i for i, r in enumerate(o.result) if r == best]
        if len(top) == len(o.result):
            self.draws += 1
        else:
            for i in top:  # allies who win together each count a win
                self.wins[i] += 1
        if len(top) > 1:
            self.shared += 1
        for i, sc in enumerate(o.scores or []):
            self.score_sum[i] += sc
        for key, value in o.stats.items():
            if isinstance(value, bool):
                value = int(value)
            if isinstance(value, (int, float)):
                self.stat_sums[key] = self.stat_sums.get(key, 0.0) + value
                self.stat_games[key] = self.stat_games.get(key, 0) + 1
            else:
                counts = self.stat_counts.setdefault(key, {})
                counts[str(value)] = counts.get(str(value), 0) + 1

    def to_json(self) -> dict[str, Any]:
        n = max(self.finished, 1)
        return {
            "ruleset": self.ruleset, "players": self.players, "seats": self.seats, "games": self.games,
            "finished": self.finished, "errors": self.errors,
            "mean_actions": round(self.actions / n, 2) if self.finished else 0.0,
            "wins": self.wins, "shared_wins": self.shared, "draws": self.draws,
            "win_rates": [round(w / n, 4) for w in self.wins] if self.finished else [0.0] * len(self.wins),
            "mean_scores": [round(s / n, 3) for s in self.score_sum],
            "error_samples": self.error_samples, "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
            "stats": {**{k: {"total": round(v, 3), "mean": round(v / self.stat_games[k], 3),
                             "games": self.stat_games[k]} for k, v in sorted(self.stat_sums.items())},
                      **{k: {"counts": dict(sorted(c.items()))} for k, c in sorted(self.stat_counts.items())}},
        }


def _play_one(args: tuple[str, list[str], int | None, dict[str, Any], int, str | None]) -> GameOutcome:
    ruleset_id, seats, players, options, seed, records_dir = args
    from conquest.analysis.runner import play_game
    try:
        rs = get_ruleset(ruleset_id)
        record, state = play_game(rs, seats, players=players, options=options, seed=seed)
        path = None
        if records_dir:
            path = str(Path(records_dir) / f"{ruleset_id}-{seed}.json")
            record.save(path)
        return GameOutcome(seed, record.result, record.scores, len(record.actions), None, path,
                           dict(rs.game_stats(state)))
    except Exception as e:  # a crash in one game is counted and reported, not fatal to the run
        tb = traceback.extract_tb(e.__traceback__)
        where = f" at {tb[-1].filename.split('/')[-1]}:{tb[-1].lineno}" if tb else ""
        return GameOutcome(seed, None, None, 0, f"{type(e).__name__}: {e}{where}")


def simulate(ruleset_id: str, games: int, seats: Sequence[str], players: int | None = None,
             options: dict[str, Any] | None = None, seed: int = 0, jobs: int = 1,
             records_dir: str | None = None,
             progress: Callable[[GameOutcome], None] | None = None) -> Summary:
    from conquest.analysis.limits import check_games, check_seed
    check_games(games)
    check_seed(seed, games)
    rs = get_ruleset(ruleset_id)
    probe = rs.new_game(players, options or {}, seed)  # validates players and options up front
    n = probe.players
    from conquest.agents import get_agent, seat_list as fill_seats
    seat_list = fill_seats(seats, n, rs.min_players, rs.max_players)
    for s in seat_list:
        get_agent(s, human_ok=False)
    if records_dir:
        Path(records_dir).mkdir(parents=True, exist_ok=True)
    summary = Summary(ruleset=rs.id, players=n, seats=seat_list, wins=[0] * n, score_sum=[0.0] * n)
    tasks = [(rs.id, seat_list, n, dict(options or {}), seed + i, records_dir) for i in range(games)]
    start = time.perf_counter()
    try:
        if jobs <= 1:
            for t in tasks:
                o = _play_one(t)
                summary.add(o)
                if progress:
                    progress(o)
        else:
            pool = ProcessPoolExecutor(max_workers=min(jobs, os.cpu_count() or 1, games or 1))
            try:
                futures = [pool.submit(_play_one, t) for t in tasks]
                for f in as_completed(futures):
                    o = f.result()
                    summary.add(o)
                    if progress:
                        progress(o)
            except KeyboardInterrupt:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
            pool.shutdown()
    except KeyboardInterrupt:  # Ctrl+C: keep what was played
        summary.interrupted = True
    summary.seconds = time.perf_counter() - start
    return summary


def bench(ruleset_id: str, seconds: float = 5.0, players: int | None = None,
          options: dict[str, Any] | None = None, seed: int = 0) -> dict[str, Any]:
    """Random playouts on one core for ``seconds`` of CPU time: actions (including chance outcomes) per CPU
    second, games per CPU second, and the cost of the pieces (legal_actions, apply, clone). Every figure is
    CPU time of this process, so that a machine shared with other work gives the engine's own speed."""
    import random

    from conquest.analysis.runner import random_playout
    rs = get_ruleset(ruleset_id)
    start_state = rs.new_game(players, options or {}, seed)
    rng = random.Random(seed)
    actions = games = 0
    t0 = time.process_time()
    deadline = t0 + seconds
    while True:
        _, steps = random_playout(start_state, rng)
        actions += steps
        games += 1
        if time.process_time() >= deadline:
            break
    elapsed = time.process_time() - t0
    checked_actions = 0
    t1 = time.process_time()
    while time.process_time() - t1 < seconds / 4:
        _, steps = random_playout(start_state, rng, checked=True)
        checked_actions += steps
    checked_elapsed = time.process_time() - t1
    return {"ruleset": rs.id, "players": start_state.players, "seconds": round(elapsed, 3), "games": games,
            "actions": actions, "actions_per_second": round(actions / elapsed, 1),
            "games_per_second": round(games / elapsed, 3),
            "mean_actions_per_game": round(actions / max(games, 1), 1),
            "checked_actions_per_second": round(checked_actions / checked_elapsed, 1),
            **pieces_cost(mid_game(start_state, random.Random(seed))),
            **search_speed(mid_game(start_state, random.Random(seed)), seconds / 4, seed)}


def mid_game(start: Any, rng: Any) -> Any:
    """A decision half-way through a random game from ``start`` (a probe for ``pieces_cost``)."""
    from conquest.core.chance import random_playout
    from conquest.core.game import CHANCE
    _, length = random_playout(start, rng)
    state, _ = random_playout(start, rng, max_steps=length // 2)
    while state.to_move is not None and state.to_move == CHANCE:
        state, _ = random_playout(state, rng, max_steps=1)
    return state


def search_speed(state: Any, seconds: float, seed: int = 0) -> dict[str, Any]:
    """ISMCTS iterations per second of CPU time on one decision (the first one from ``state`` with a choice),
    with the agent's default parameters and a ``seconds`` budget."""
    import random

    from conquest.agents import decide
    from conquest.agents.ismcts import ISMCTSAgent
    from conquest.core.chance import random_playout
    from conquest.core.game import CHANCE
    rng = random.Random(seed)
    while state.to_move is not None and (state.to_move == CHANCE or len(state.legal_actions()) < 2):
        state, _ = random_playout(state, rng, max_steps=1)
    if state.to_move is None:
        return {}
    agent = ISMCTSAgent(time=seconds, cpu=1)
    t0 = time.process_time()
    decide(agent, state, rng)
    elapsed = time.process_time() - t0
    return {"ismcts_iterations_per_second": round(agent.last_iterations / max(elapsed, 1e-9), 1),
            "ismcts_legal_actions_at_probe": len(state.legal_actions())}


def pieces_cost(state: Any, reps: int = 300) -> dict[str, Any]:
    """The cost of the contract's pieces at ``state``: ``legal_actions()`` (uncached, on a fresh clone each
    time) and ``clone()``, in microseconds of CPU time."""
    copies = [state.clone() for _ in range(reps)]
    n = 0
    t0 = time.process_time()
    for c in copies:
        n = len(c.legal_actions())
    t1 = time.process_time()
    for _ in range(reps):
        state.clone()
    t2 = time.process_time()
    return {"legal_actions_us": round((t1 - t0) / reps * 1e6, 2), "legal_actions_at_probe": n,
            "clone_us": round((t2 - t1) / reps * 1e6, 2)}
