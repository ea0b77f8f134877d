"""Balance runs: many games with seats rotated, stored one row per game, summarised per factor.

A run is a ``Plan`` (ruleset, players, options, agents, seed): game ``i`` is fixed by the plan alone (its seed,
the agent of each seat, the factions dealt), so the same plan gives the same games whatever the number of
processes or the backend, and a run that stopped can be continued (``--resume``) from what is stored.

Rotation. Agents are rotated over the seats (game ``k`` of block ``b`` shifts them by ``k + b`` seats), so that
each agent plays each seat equally often. A ruleset whose factions are dealt at set-up by chance (Narby's rolled
dragons) names them with ``faction_rotation``; the plan then deals them in blocks of ``len(pool)`` games: each period
(one block per agent rotation) shuffles the pool (seeded) and game ``k`` of a block gives seat ``s`` faction
``pool[(k + s) % len(pool)]``. Each game's deal is thus a uniformly random one (as the dice would give); over a
block each faction sits at each seat exactly once, and over a period with each agent there once. Factions tied to a seat
(Nerath realms, Kingdom colours) or chosen in play (Small World races and powers) are observed, from
``seat_factions(record, state)``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conquest.analysis.plan import (  # noqa: F401
    ALPHA,
    FORMAT,
    GAMES_FILE,
    REPORT_FILE,
    SUMMARY_FILE,
    GameSpec,
    LocalBackend,
    Plan,
    Progress,
    _write_text,
    batches,
    play,
    play_batch,
    read_games,
    wilson,
    write_games,
    z_for,
)
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


def _is_balance_output(out: Path) -> bool:
    """Whether the folder ``out`` holds a balance run's output: its games file, or its summary (whose
    ``format`` is ``conquest-balance/1``), so a run may be re-run or resumed into its own folder."""
    if (out / GAMES_FILE).is_file():
        return True
    try:
        doc = json.loads((out / SUMMARY_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, RecursionError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def check_factors(plan: Plan, factors: Sequence[str] | None) -> list[str]:
    """The factors the plan's report can show; ``ConquestError`` for an unknown one in ``factors``."""
    known = factor_names(plan)
    for f in factors or ():
        if f not in known:
            raise ConquestError(f"unknown factor '{f}' for {plan.ruleset} (known: {', '.join(known)})")
    return known


def make_out(out: Path) -> None:
    """Make the folder ``out`` (and its parents); ``ConquestError`` in one line when it cannot be made."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConquestError(f"--out {out}: cannot make the folder ({e.strerror or e})") from None


def prepare_out(plan: Plan, out: Path, resume: bool) -> list[dict[str, Any]]:
    """Check ``out`` may take this plan's games; the rows already there (with --resume). Changes nothing.

    ``out`` must be a missing folder (made under a writable folder), an empty one, or one holding a balance
    run's output: any other folder with files in it (``/``, a home folder) is refused, as are a path under a
    file and a folder that cannot be written."""
    import os
    try:
        if out.exists() and not out.is_dir():
            raise ConquestError(f"--out {out} is a file, not a folder")
        if out.is_dir():
            if any(out.iterdir()) and not _is_balance_output(out):
                raise ConquestError(f"--out {out} is a folder with other files in it (not a balance run's output):"
                                    f" give a new or empty folder")
            if not os.access(out, os.W_OK | os.X_OK):
                raise ConquestError(f"--out {out}: the folder cannot be written (permission denied)")
        else:
            parent = next((p for p in out.absolute().parents if p.exists()), None)
            if parent is None or not parent.is_dir():
                raise ConquestError(f"--out {out}: {parent} is a file, so no folder can be made under it")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise ConquestError(f"--out {out}: no folder can be made under {parent} (permission denied)")
    except OSError as e:  # a path too long, a loop of links, a folder that cannot be listed
        raise ConquestError(f"--out {out}: {e.strerror or e}") from None
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
    from conquest.analysis.limits import check_games, check_seed
    check_games(games)
    check_seed(plan.seed, games)
    known = check_factors(plan, factors)
    rows = prepare_out(plan, out, resume)
    have = {r["game"]: r for r in rows}
    todo = [plan.game(i) for i in range(games) if i not in have]
    make_out(out)
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
