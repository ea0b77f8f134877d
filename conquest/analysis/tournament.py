"""Tournaments between agents: every pairing, seats rotated evenly, scores with Wilson intervals, ratings.

Two seats: each unordered pair {A, B} plays ``games`` games, A in seat 0 in games 0, 2, 4... and in seat 1 in
the others. More seats: each ordered pair (A, B) plays ``games`` games with one A against copies of B, A's seat
going round the table (game k: seat k mod P). A game counts as A's win when A's seat alone holds the best
result, B's win when A's seat is not among the best, a draw when A shares the best result with a copy of B
(a tie, or allies winning together). A's score is (wins + draws/2) / games; par is 1/2 with two seats and 1/P
with P seats (one A among P seats).

The interval is Wilson's 95% score interval on A's score. The seat advantage is the score of whoever sits in
seat 0 (two seats: 0.5 means none) or the share of games seat 0 wins (more seats; par 1/P).

Ratings are openskill's Plackett-Luce: every game is a match of A against B (two one-agent teams, ranked by the
game's outcome), in the fixed order of pairs and games; an agent's rating is its ordinal (mu - 3 sigma).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from conquest.core.errors import ConquestError
from conquest.core.registry import get_ruleset


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``score`` observed over ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denom
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Pair:
    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    errors: int = 0
    seat0_score: float = 0.0
    outcomes: list[int] = field(default_factory=list)  # per game in order: 1 A won, 0 draw, -1 B won

    @property
    def a_score(self) -> float:
        return (self.a_wins + self.draws / 2) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.a_score, self.games)
        return {"a": self.a, "b": self.b, "games": self.games, "a_wins": self.a_wins, "b_wins": self.b_wins,
                "draws": self.draws, "a_score": round(self.a_score, 4), "ci_low": round(lo, 4),
                "ci_high": round(hi, 4), "seat0_score": round(self.seat0_score / self.games, 4)
                if self.games else 0.0, "errors": self.errors}


def schedule(agents: Sequence[str], players: int, games: int,
             first_only: bool = False) -> list[tuple[int, int, list[str], int]]:
    """Every game to play: (pair index, game index within the pair, seat list, A's seat). ``first_only``: only
    the pairs with the first agent as A (a benchmark of one agent against the others)."""
    pairs: list[tuple[str, str]] = []
    if players == 2:
        pairs = [(agents[i], agents[j]) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    else:
        pairs = [(a, b) for a in agents for b in agents if a != b]
    if first_only:
        pairs = [(a, b) for a, b in pairs if a == agents[0]]
    out = []
    for p, (a, b) in enumerate(pairs):
        for k in range(games):
            seat = k % players
            seats = [b] * players
            seats[seat] = a
            out.append((p, k, seats, seat))
    return out


def tournament(ruleset_id: str, agents: Sequence[str], games: int, players: int | None = None,
               options: dict[str, Any] | None = None, seed: int = 0, jobs: int = 1,
               progress: Callable[[], None] | None = None, first_only: bool = False) -> dict[str, Any]:
    from conquest.agents import get_agent
    from conquest.analysis.simulate import _play_one
    rs = get_ruleset(ruleset_id)
    n = rs.new_game(players, options or {}, seed).players  # refuses a bad player count or option up front
    agents = [a.strip() for a in agents]
    for a in agents:
        get_agent(a)
    if len(agents) < 2:
        raise ConquestError("a tournament needs at least two agents (--agents A,B)")
    if len(set(agents)) != len(agents):
        raise ConquestError("each agent may be named once in --agents")
    if games < 1:
        raise ConquestError(f"--games must be at least 1, got {games}")
    from conquest.analysis.limits import MAX_GAMES, check_seed
    n_pairs = (len(agents) - 1 if first_only else len(agents) * (len(agents) - 1) // 2 if n == 2
               else len(agents) * (len(agents) - 1))
    if games * n_pairs > MAX_GAMES:
        raise ConquestError(f"--games {games} per pairing over {n_pairs} pairings is {games * n_pairs:,} games: "
                            f"at most {MAX_GAMES:,} games in one run (split a larger one into runs)")
    check_seed(seed, games * n_pairs)
    plan = schedule(agents, n, games, first_only)
    tasks = [(rs.id, seats, n, dict(options or {}), seed + i, None) for i, (_, _, seats, _) in enumerate(plan)]
    results: list[Any] = [None] * len(plan)
    if jobs <= 1:
        for i, t in enumerate(tasks):
            results[i] = _play_one(t)
            if progress:
                progress()
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, os.cpu_count() or 1, len(tasks))) as pool:
            futures = {pool.submit(_play_one, t): i for i, t in enumerate(tasks)}
            from concurrent.futures import as_completed
            for f in as_completed(futures):
                results[futures[f]] = f.result()
                if progress:
                    progress()
    pair_names = sorted({(p, seats[s], next(x for x in seats if x != seats[s]) if n > 1 else seats[s])
                         for p, _, seats, s in plan})
    pairs = [Pair(a, b) for _, a, b in pair_names]
    errors: list[str] = []
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    rating = {a: model.rating(name=a) for a in agents}
    for (p, _k, _seats, s), o in zip(plan, results):
        pr = pairs[p]
        if o.error is not None or o.result is None:
            pr.errors += 1
            errors.append(f"seed {o.seed}: {o.error or 'game did not finish'}")
            continue
        pr.games += 1
        res = o.result
        best = max(res)
        top = [i for i, r in enumerate(res) if r == best]
        if top == [s]:
            pr.a_wins += 1
            outcome = 1
        elif s in top:
            pr.draws += 1
            outcome = 0
        else:
            pr.b_wins += 1
            outcome = -1
        pr.outcomes.append(outcome)
        pr.seat0_score += (1.0 / len(top)) if 0 in top else 0.0
        ranks = [0.0, 0.0] if outcome == 0 else ([0.0, 1.0] if outcome == 1 else [1.0, 0.0])
        [[ra], [rb]] = model.rate([[rating[pr.a]], [rating[pr.b]]], ranks=ranks)
        rating[pr.a], rating[pr.b] = ra, rb
    total = sum(p.games for p in pairs)
    return {"ruleset": rs.id, "players": n, "games": total, "agents": list(agents),
            "pairs": [p.to_json() for p in pairs],
            "ratings": {a: round(rating[a].ordinal(), 2) for a in agents},
            "errors": len(errors), "error_samples": errors[:5]}
