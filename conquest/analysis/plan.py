"""The plan of a balance run and its games: which agent and faction sits where in game ``i``, how one game is
played into a row, batches run on this machine, and the rows' store (``games.parquet``).

See ``conquest.analysis.balance`` for the rotation of seats and factions."""

from __future__ import annotations

import json
import math
import os
import random
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

from conquest.core.errors import ConquestError
from conquest.core.registry import get_ruleset

FORMAT = "conquest-balance/1"
GAMES_FILE = "games.parquet"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.html"
ALPHA = 0.05


# --------------------------------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class GameSpec:
    ruleset: str
    players: int
    options: dict[str, Any]
    index: int
    seed: int
    agents: list[str]
    factions: list[str] | None = None  # dealt by the plan (one per seat), or None when observed


@dataclass
class Plan:
    ruleset: str
    players: int
    options: dict[str, Any]
    agents: list[str]                  # one per seat, in the order given (rotated game by game)
    seed: int = 0
    rotation: tuple[str, list[str]] | None = None  # (factor, pool) dealt by the plan

    @classmethod
    def make(cls, ruleset: str, agents: Sequence[str], players: int | None = None,
             options: dict[str, Any] | None = None, seed: int = 0) -> Plan:
        """Validate the ruleset, players, options and agents (ConquestError, one line) and build the plan."""
        from conquest.agents import get_agent
        rs = get_ruleset(ruleset)
        probe = rs.new_game(players, options or {}, seed)
        n = probe.players
        ags = [a.strip() for a in agents if a.strip()]
        if not ags:
            raise ConquestError("no agents given")
        if len(ags) == 1:
            ags = ags * n
        if len(ags) != n:
            raise ConquestError(f"{len(ags)} agents given for {n} players (give one, or one per seat)")
        for a in dict.fromkeys(ags):
            get_agent(a)
        rotation = rs.faction_rotation(n, dict(probe.options))
        if rotation is not None and len(rotation[1]) < n:
            rotation = None
        return cls(rs.id, n, dict(probe.options), ags, seed,
                   (rotation[0], list(rotation[1])) if rotation else None)

    @property
    def block(self) -> int:
        """Games per block of the faction deal (1 when nothing is dealt)."""
        return len(self.rotation[1]) if self.rotation else 1

    @property
    def period(self) -> int:
        """Games after which every agent has played every seat (with every dealt faction) equally often."""
        return self.block * (self.players if len(set(self.agents)) > 1 else 1)

    def game(self, i: int) -> GameSpec:
        n = self.players
        b, k = divmod(i, self.block)
        shift = (k + b) % n if len(set(self.agents)) > 1 else 0
        agents = [self.agents[(s + shift) % n] for s in range(n)]
        factions = None
        if self.rotation:
            pool = list(self.rotation[1])
            random.Random(f"{self.seed}:{b * self.block // self.period}").shuffle(pool)  # one deal a period
            factions = [pool[(k + s) % len(pool)] for s in range(n)]
        return GameSpec(self.ruleset, n, self.options, i, self.seed + i, agents, factions)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "ruleset": self.ruleset, "rules_version": get_ruleset(self.ruleset).rules_version,
                "players": self.players, "options": self.options,
                "agents": self.agents, "seed": self.seed,
                "rotation": {"factor": self.rotation[0], "pool": self.rotation[1]} if self.rotation else None}

    def differences(self, stored: dict[str, Any]) -> list[str]:
        mine = self.to_json()
        names = {"rules_version": "rules version", "rotation": "dealt factions"}
        return [names.get(k, k) for k in ("ruleset", "rules_version", "players", "options", "agents", "seed",
                                          "rotation") if stored.get(k) != mine[k]]


# ------------------------------------------------------------------------------------------- one game
def play(spec: GameSpec) -> dict[str, Any]:
    """Play one game of a plan: one row of ``games.parquet``. A crash is a row with ``error`` set."""
    from conquest.analysis.runner import play_game
    row: dict[str, Any] = {"game": spec.index, "seed": spec.seed, "agents": list(spec.agents), "factions": "{}",
                           "result": None, "winners": None, "scores": None, "length": 0, "rounds": 0,
                           "score_track": "[]", "stats": "{}", "error": None}
    try:
        rs = get_ruleset(spec.ruleset)
        opening: list[Any] = []
        if spec.factions is not None:
            opening = rs.faction_opening(rs.new_game(spec.players, spec.options, spec.seed), spec.factions)
        # a game without rounds (round_of None) tracks no score by round
        track: list[list[Any]] = []
        last = [-1]

        def on_step(state: Any) -> None:
            r = rs.round_of(state)
            if r is not None and r != last[0]:
                if last[0] >= 0:
                    track.append([last[0], list(state.scores())])
                last[0] = r

        record, state = play_game(rs, spec.agents, players=spec.players, options=spec.options, seed=spec.seed,
                                  opening=opening, on_step=on_step)
        final_round = rs.round_of(state)
        if final_round is not None:
            track.append([final_round, list(state.scores())])
        factions = rs.seat_factions(record, state)
        by_factor: dict[str, list[list[str]]] = {}
        for seat, facs in enumerate(factions):
            for factor, names in facs.items():
                by_factor.setdefault(factor, [[] for _ in range(spec.players)])[seat] = list(names)
        res = record.result
        row.update(factions=json.dumps(by_factor, sort_keys=True), result=res, scores=record.scores,
                   winners=winners(res) if res is not None else None, length=len(record.actions),
                   rounds=int(final_round) if final_round is not None else 0, score_track=json.dumps(track),
                   stats=json.dumps(_plain(rs.game_stats(state)), sort_keys=True))
    except Exception as e:  # a crash in one game is counted and reported, not fatal to the run
        tb = traceback.extract_tb(e.__traceback__)
        where = f" at {tb[-1].filename.split('/')[-1]}:{tb[-1].lineno}" if tb else ""
        row["error"] = f"{type(e).__name__}: {e}{where}"
    return row


def play_batch(specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
    return [play(s) for s in specs]


def batches(specs: Sequence[GameSpec], workers: int, most: int = 25) -> list[list[GameSpec]]:
    """Batches of consecutive games: about four per worker so that the load evens out, at most ``most``
    games each (a lost batch costs little), at least one game."""
    size = max(1, min(most, math.ceil(len(specs) / max(1, workers * 4))))
    return [list(specs[i:i + size]) for i in range(0, len(specs), size)]


class LocalBackend:
    """``jobs`` processes on this machine (1: in this process)."""

    name = "local"

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise ConquestError(f"--jobs must be at least 1, not {jobs}")
        self.jobs = jobs

    def run(self, specs: Sequence[GameSpec]) -> Iterator[list[dict[str, Any]]]:
        parts = batches(specs, self.jobs)
        if self.jobs == 1:
            for b in parts:
                yield play_batch(b)
            return
        with ProcessPoolExecutor(max_workers=min(self.jobs, len(parts))) as pool:
            futures = [pool.submit(play_batch, b) for b in parts]
            try:
                for f in as_completed(futures):
                    yield f.result()
            finally:
                for f in futures:
                    f.cancel()


def winners(result: Sequence[float]) -> list[int]:
    """Seats with the best result; none when every seat is equal (a draw). Allies who win together all win."""
    best = max(result)
    top = [i for i, r in enumerate(result) if r == best]
    return [] if len(top) == len(result) else top


def _plain(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: (int(v) if isinstance(v, bool) else v if isinstance(v, (int, float)) else str(v))
            for k, v in stats.items()}


# ----------------------------------------------------------------------------------------- the store
_COLUMNS = ("game", "seed", "agents", "factions", "result", "winners", "scores", "length", "rounds",
            "score_track", "stats", "error")


def _schema() -> Any:
    import pyarrow as pa
    return pa.schema([("game", pa.int64()), ("seed", pa.int64()), ("agents", pa.list_(pa.string())),
                      ("factions", pa.string()), ("result", pa.list_(pa.float64())),
                      ("winners", pa.list_(pa.int64())), ("scores", pa.list_(pa.float64())),
                      ("length", pa.int64()), ("rounds", pa.int64()), ("score_track", pa.string()),
                      ("stats", pa.string()), ("error", pa.string())])


def read_games(out: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The plan (as stored) and rows of ``out/games.parquet``; (None, []) when there is none."""
    path = out / GAMES_FILE
    if not path.exists():
        return None, []
    import pyarrow.parquet as pq
    try:
        table = pq.read_table(path)
        meta = json.loads((table.schema.metadata or {}).get(b"conquest.balance", b"null"))
    except Exception as e:
        raise ConquestError(f"{path} is not a balance run's games file ({type(e).__name__}: {e})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ConquestError(f"{path} is not a balance run's games file (no {FORMAT} plan in it)")
    return meta, table.to_pylist()


def write_games(out: Path, plan: Plan, rows: Iterable[dict[str, Any]]) -> None:
    """Write every row (sorted by game) atomically: a crash while writing leaves the old file whole."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    ordered = sorted(rows, key=lambda r: r["game"])
    table = pa.Table.from_pylist([{c: r.get(c) for c in _COLUMNS} for r in ordered], schema=_schema())
    table = table.replace_schema_metadata({b"conquest.balance": json.dumps(plan.to_json()).encode()})
    tmp = out / (GAMES_FILE + ".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, out / GAMES_FILE)


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# ------------------------------------------------------------------------------------------- the run
Progress = Callable[[int, int], None]


def wilson(wins: float, n: int, z: float) -> tuple[float, float]:
    """Wilson score interval for a proportion (wins of n) at normal quantile z."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def z_for(alpha: float) -> float:
    """The two-sided normal quantile for level ``alpha``."""
    return NormalDist().inv_cdf(1 - alpha / 2)
