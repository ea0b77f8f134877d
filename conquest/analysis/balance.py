"""Balance runs: many games with seats rotated, stored one row per game, summarised per factor.

A run is a ``Plan`` (ruleset, players, options, agents, seed): game ``i`` is fixed by the plan alone (its seed,
the agent of each seat, the factions dealt), so the same plan gives the same games whatever the number of
processes or the backend, and a run that stopped can be continued (``--resume``) from what is stored.

Rotation. Agents are rotated over the seats (game ``k`` of block ``b`` shifts them by ``k + b`` seats), so that
each agent plays each seat equally often. A ruleset whose factions are dealt at set-up by chance (Narby's rolled dragons)
names them with ``faction_rotation``; the plan then deals them in blocks of ``len(pool)`` games: each period
(one block per agent rotation) shuffles the pool (seeded) and game ``k`` of a block gives seat ``s`` faction
``pool[(k + s) % len(pool)]``. Each game's deal is thus a uniformly random one (as the dice would give); over a
block each faction sits at each seat exactly once, and over a period with each agent there once. Factions tied to a seat (Nerath realms, Kingdom colours) or chosen in play (Small
World races and powers) are observed, from ``seat_factions(record, state)``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from conquest.analysis.plan import (ALPHA, FORMAT, GAMES_FILE, REPORT_FILE, SUMMARY_FILE, GameSpec,  # noqa: F401
                                    LocalBackend, Plan, Progress, _write_text, batches, play, play_batch,
                                    read_games, wilson, write_games, z_for)
from conquest.analysis.report import ruleset_factors, summarise, write_report
from conquest.core.errors import ConquestError

@dataclass
class RunResult:
    summary: dict[str, Any]
    played: int          # games played by this run (the rest were in --out already)
    seconds: float
    out: Path
    rows: list[dict[str, Any]] = field(default_factory=list)


def factor_names(plan: Plan) -> list[str]:
    """The factors a plan's report can show: seat, agent (when several), and the ruleset's own."""
    names = ["seat"] + (["agent"] if len(set(plan.agents)) > 1 else [])
    return names + list(ruleset_factors(plan.ruleset, plan.players, plan.options))


def prepare_out(plan: Plan, out: Path, resume: bool) -> list[dict[str, Any]]:
    """Check ``out`` may take this plan's games; the rows already there (with --resume). Changes nothing."""
    if out.exists() and not out.is_dir():
        raise ConquestError(f"--out {out} is a file, not a folder")
    stored, rows = read_games(out)
    if stored is None:
        return []
    if stored.get("ruleset") != plan.ruleset:
        raise ConquestError(f"--out {out} holds {stored.get('ruleset')} games, not {plan.ruleset}: "
                            f"choose another folder")
    if not resume:
        raise ConquestError(f"--out {out} already holds {len(rows)} games: add --resume to continue that run, "
                            f"or choose another folder")
    diff = plan.differences(stored)
    if diff:
        raise ConquestError(f"--out {out} holds a run with other {', '.join(diff)}: --resume continues the "
                            f"same run only (choose another folder)")
    return rows


def run(plan: Plan, games: int, out: Path, jobs: int = 1, backend: Any = None, resume: bool = False,
        factors: Sequence[str] | None = None, progress: Progress | None = None,
        checkpoint_seconds: float = 10.0) -> RunResult:
    """Play the plan's games ``0..games-1`` that ``out`` does not hold yet, store them, write the report."""
    if games < 1:
        raise ConquestError(f"--games must be at least 1, not {games}")
    known = factor_names(plan)
    for f in factors or ():
        if f not in known:
            raise ConquestError(f"unknown factor '{f}' for {plan.ruleset} (known: {', '.join(known)})")
    rows = prepare_out(plan, out, resume)
    have = {r["game"]: r for r in rows}
    todo = [plan.game(i) for i in range(games) if i not in have]
    out.mkdir(parents=True, exist_ok=True)
    done = games - len(todo)
    if progress:
        progress(done, games)
    start = time.perf_counter()
    last_save = start
    played = 0
    if todo:
        if backend is None:
            backend = LocalBackend(jobs)
        try:
            for batch_rows in backend.run(todo):
                for r in batch_rows:
                    if r["game"] not in have:  # a batch run twice (a worker lost) counts once
                        have[r["game"]] = r
                        played += 1
                        done += 1
                if progress:
                    progress(done, games)
                if time.perf_counter() - last_save >= checkpoint_seconds:
                    write_games(out, plan, have.values())
                    last_save = time.perf_counter()
        finally:
            if played:
                write_games(out, plan, have.values())
    seconds = time.perf_counter() - start
    chosen = [have[i] for i in range(games)]
    summary = summarise(plan, chosen, list(factors) if factors else known)
    _write_text(out / SUMMARY_FILE, json.dumps(summary, indent=1, sort_keys=True) + "\n")
    write_report(out / REPORT_FILE, summary)
    return RunResult(summary, played, seconds, out, chosen)


# ------------------------------------------------------------------------------------------ statistics
