"""CPU a wrong token costs after a restart: ``POST /api/my-games`` naming long imported games with a wrong token,
the way the server answered before (each game replayed, then its token checked) and now (the token checked
against the game's row; nothing replayed). Figures, not pass/fail.

    nice -n 15 .venv/bin/python benchmarks/web_token_first.py [--games 3]

A long record (random agents playing Nerath with ``length=long``) is imported ``--games`` times into a fresh
SQLite database; then, in a new app on that database (a restarted server: nothing in memory), the process's CPU
time of the old path (``Games.load`` then ``Games.actor`` for each game, what the endpoint did) and of the
endpoint now.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=3)
    a = p.parse_args()
    from fastapi.testclient import TestClient

    from conquest.web.bench import long_record
    from conquest.web.games import WebError
    from conquest.web.limits import Limits
    from conquest.web.server import create_app
    rec = long_record("nerath", {"length": "long", "max_rounds": 0})
    with tempfile.TemporaryDirectory() as d:
        db = str(Path(d) / "t.sqlite3")
        limits = Limits(games_per_client=0)
        with TestClient(create_app(db, limits=limits)) as c:
            ids = []
            for _ in range(a.games):
                r = c.post("/api/records", json=rec)
                assert r.status_code == 201, r.text
                ids.append(r.json()["game"]["id"])
        print(f"{a.games} imported games of {len(rec['actions'])} actions (nerath, length=long); "  # type: ignore[arg-type]
              f"a restarted server; CPU of the process")
        app = create_app(db, limits=limits)
        with TestClient(app) as c:
            games = app.state.services.games
            t0 = time.process_time()
            for gid in ids:  # before: the game replayed, then its token checked
                try:
                    games.actor(games.load(gid), "wrong-token")
                except WebError:
                    pass
            before = time.process_time() - t0
        app = create_app(db, limits=limits)
        with TestClient(app) as c:
            t0 = time.process_time()
            r = c.post("/api/my-games", json={"games": [{"id": g, "token": "wrong-token"} for g in ids]})
            now = time.process_time() - t0
            assert all("error" in g for g in r.json()["games"]), r.text
            assert app.state.services.games.cached() == 0
        print(f"| wrong token | before | now |\n| --- | --- | --- |\n"
              f"| {a.games} games | {before:.2f} s | {now:.3f} s |")


if __name__ == "__main__":
    main()
