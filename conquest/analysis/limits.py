"""The bounds of the runners' arguments, checked before any game is played (``ConquestError``, one line).

- Seeds are 64-bit signed integers (``SEED_MIN``..``SEED_MAX``): they are stored as int64 (the balance run's
  parquet file) and a run's game ``i`` uses ``seed + i``, so every seed of the run must fit too.
- ``MAX_GAMES`` bounds the games of one run (``simulate``, ``balance``, a ``tournament``'s games over all its
  pairings): each run lists its games up front and keeps one row per game, so 10^5 games stay within a few
  hundred MB; more is a series of runs (``balance --resume`` continues one).
- ``MAX_JOBS`` bounds ``balance --jobs`` (a process or a Dask worker each; ``simulate`` and ``tournament`` use at
  most one per core whatever they are given).
"""

from __future__ import annotations

from conquest.core.errors import ConquestError

SEED_MIN = -(2 ** 63)
SEED_MAX = 2 ** 63 - 1
MAX_GAMES = 100_000
MAX_JOBS = 64
"""The most processes (or LocalCluster workers) one balance run starts (``--jobs``)."""


def check_seed(seed: object, games: int = 1, what: str = "--seed") -> None:
    """Refuse a seed that is not an integer or leaves 64 bits (with ``seed + games - 1``, the last game's)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConquestError(f"{what} must be an integer, not {str(seed)[:40]!r}")
    if not SEED_MIN <= seed <= SEED_MAX:
        shown = str(seed) if len(str(seed)) <= 24 else f"a number of {len(str(abs(seed)))} digits"
        raise ConquestError(f"{what} must be a 64-bit integer, from -2^63 to 2^63-1 (not {shown})")
    if seed + max(games, 1) - 1 > SEED_MAX:
        raise ConquestError(f"{what} {seed} with {games} games: game i uses seed+i, and the last one passes "
                            f"2^63-1 (give a smaller seed)")


def check_games(games: int, what: str = "--games", per: str = "") -> None:
    """Refuse fewer than 1 game or more than ``MAX_GAMES`` in one run."""
    if games < 1:
        raise ConquestError(f"{what} must be at least 1, not {games}")
    if games > MAX_GAMES:
        raise ConquestError(f"{what} {games}{per}: at most {MAX_GAMES:,} games in one run (split a larger one "
                            f"into runs)")
