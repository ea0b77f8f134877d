"""Memory of the web server as clients create and import games: the games kept in memory before (every game
ever made or imported stayed) and now (a bounded cache: ``Limits.cache_games`` / ``cache_states``). Figures,
not pass/fail.

    nice -n 15 .venv/bin/python benchmarks/web_memory.py [--games 1500] [--imports 15] [--ruleset nerath]

Each case runs in a fresh process (so its RSS is its own): the app with a TestClient (the whole request path,
no sockets), ``--games`` four-player games created through ``POST /api/games`` with no cap of games per client,
then ``--imports`` imports of one long record (random agents playing Nerath with ``length=long``, made once
and kept in a temporary file). It prints the resident memory (RSS) at the start, after the games and after the
imports, and the number of games left in memory. "before" is the same code with caps too large to be reached
(what the server did before: keep everything).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _rss() -> float:
    import psutil
    gc.collect()
    return float(psutil.Process().memory_info().rss) / 2 ** 20


def case(bounded: bool, games: int, imports: int, ruleset: str, record_file: str | None) -> dict[str, float]:
    from fastapi.testclient import TestClient

    from conquest.web.limits import Limits
    from conquest.web.server import available_rulesets, create_app
    available_rulesets()
    huge = 10 ** 9 - 1
    limits = Limits(games_per_client=0) if bounded else Limits(games_per_client=0, cache_games=huge, cache_states=huge)
    with tempfile.TemporaryDirectory() as d:
        app = create_app(str(Path(d) / "mem.sqlite3"), limits=limits)
        with TestClient(app) as c:
            c.get("/api/rulesets")
            out = {"start": _rss()}
            t0 = time.process_time()
            for i in range(games):
                r = c.post("/api/games", json={"ruleset": ruleset, "players": 4, "seed": i})
                assert r.status_code == 201, r.text
            out["cpu_games"] = time.process_time() - t0
            out["after_games"] = _rss()
            if imports and record_file:
                rec = json.loads(Path(record_file).read_text())
                for _ in range(imports):
                    r = c.post("/api/records", json=rec)
                    assert r.status_code == 201, r.text
            out["after_imports"] = _rss()
            out["cached"] = app.state.services.games.cached()
        return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=1500)
    p.add_argument("--imports", type=int, default=15)
    p.add_argument("--ruleset", default="nerath")
    p.add_argument("--case", choices=["before", "now"], help=argparse.SUPPRESS)
    p.add_argument("--record", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.case:
        print(json.dumps(case(a.case == "now", a.games, a.imports, a.ruleset, a.record)))
        return
    with tempfile.TemporaryDirectory() as d:
        record = None
        if a.imports:
            from conquest.web.bench import long_record
            record = str(Path(d) / "long.json")
            rec = long_record()
            Path(record).write_text(json.dumps(rec))
            print(f"record: {len(rec['actions'])} actions of nerath (length=long)")  # type: ignore[arg-type]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parent.parent),
                                                             os.environ.get("PYTHONPATH", "")])}
        print(f"{a.games} {a.ruleset} games of 4 players, then {a.imports} imports; RSS in MiB")
        print("| server | start | after the games | after the imports | games in memory |")
        print("| --- | --- | --- | --- | --- |")
        for name in ("before", "now"):
            cmd = [sys.executable, __file__, "--case", name, "--games", str(a.games), "--imports", str(a.imports),
                   "--ruleset", a.ruleset] + (["--record", record] if record else [])
            got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
                             .stdout.strip().splitlines()[-1])
            print(f"| {name} | {got['start']:.0f} "
                  f"| {got['after_games']:.0f} (+{got['after_games'] - got['start']:.0f}) "
                  f"| {got['after_imports']:.0f} (+{got['after_imports'] - got['after_games']:.0f}) "
                  f"| {got['cached']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
