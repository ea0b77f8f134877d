"""Latency benchmark of the web app: many concurrent games played through the HTTP API on loopback
(people in every seat, so every action crosses the network), with a WebSocket open per game.

    python -m conquest.web.bench [--games 50] [--ruleset ID] [--actions 40] [--db FILE] [--hostile]
        [--hostile-ruleset ID] [--hostile-option KEY=VALUE ...]

It starts a server in a separate process (a fresh SQLite file unless --db is given), plays ``--games``
games at once (of ``--ruleset``, by default the first registered game), each sending ``--actions`` actions with
``--think`` seconds (on average) between them, and prints p50/p95/p99 of the action latency (POST until the answer,
which includes the commit and the seat's new view) and the actions per second. ``--think 0`` measures saturation: then
every game waits for all the others and the latency is the queue. Figures, not pass/fail.

``--hostile`` adds a hostile neighbour: one more client that, while the games are played, keeps importing
a long record (a random game of ``--hostile-ruleset``, by default the benchmarked one, with the
``--hostile-option`` given; the figures of docs/web.md use ``--hostile-ruleset nerath --hostile-option
length=long --hostile-option max_rounds=0``, about 15,000 actions; two imports at a time) and replaying it at
random steps (eight at a time), and a probe of ``/api/health`` every half second. The
players' latency is then what ordinary players get beside it; the neighbour's imports, refusals and
replays and the slowest health check are printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


async def _play(base: str, ruleset: str, actions: int, seed: int, lat: list[float], errors: list[str],
                think: float, spans: list[tuple[float, float]]) -> None:
    import httpx
    import websockets
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        info = (await c.get("/api/rulesets")).json()
        rs = next(r for r in info["rulesets"] if r["id"] == ruleset)
        n = rs["default_players"]
        made = (await c.post("/api/games", json={"ruleset": ruleset, "seed": seed,
                                                 "seats": [{"kind": "human"}] * n})).json()
        gid = made["game"]["id"]
        tokens = [s["token"] for s in made["seats"]]
        ws_url = base.replace("http", "ws") + f"/api/games/{gid}/ws"
        rng = random.Random(seed)
        async with websockets.connect(ws_url) as ws:
            await ws.send(json.dumps({"token": tokens[0]}))
            await ws.recv()
            d = (await c.get(f"/api/games/{gid}", headers={"X-Conquest-Token": tokens[0]})).json()
            start = time.perf_counter()
            for _ in range(actions):
                g = d["game"]
                if g["over"] or not isinstance(g["to_move"], int):
                    break
                seat = g["to_move"]
                if d["you"]["seat"] != seat:
                    d = (await c.get(f"/api/games/{gid}", headers={"X-Conquest-Token": tokens[seat]})).json()
                a = rng.choice(d["legal"])["text"]
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                t0 = time.perf_counter()
                r = await c.post(f"/api/games/{gid}/actions", json={"action": a, "step": g["step"]},
                                 headers={"X-Conquest-Token": tokens[seat]})
                lat.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    errors.append(r.text)
                    break
                d = r.json()
            spans.append((start, time.perf_counter()))


def long_record(ruleset: str, options: dict[str, object] | None = None, seed: int = 4) -> dict[str, object]:
    """A long record for the hostile neighbour: random agents playing ``ruleset`` with ``options`` to the
    end."""
    from conquest.analysis.runner import play_game
    from conquest.core.registry import get_ruleset
    rec, _state = play_game(get_ruleset(ruleset), ["random"], options=dict(options or {}), seed=seed)
    return rec.to_json()


async def _hostile(base: str, record: dict[str, object], stop: asyncio.Event, seen: dict[str, float]) -> None:
    """Import ``record`` (two at a time) and replay what was imported (eight at a time) until ``stop``."""
    import httpx
    steps = len(record["actions"])  # type: ignore[arg-type]
    imported: list[tuple[str, str]] = []
    rng = random.Random(0)
    async with httpx.AsyncClient(base_url=base, timeout=900) as c:
        async def importer() -> None:
            while not stop.is_set():
                t0 = time.perf_counter()
                r = await c.post("/api/records", json={"record": record})
                seen["import_seconds"] = max(seen.get("import_seconds", 0.0), time.perf_counter() - t0)
                if r.status_code == 201:
                    d = r.json()
                    imported.append((d["game"]["id"], d["spectator"]["token"]))
                    seen["imports"] = seen.get("imports", 0) + 1
                else:
                    seen[f"import_{r.status_code}"] = seen.get(f"import_{r.status_code}", 0) + 1
                    await asyncio.sleep(0.5)

        async def replayer() -> None:
            while not stop.is_set():
                if not imported:
                    await asyncio.sleep(0.2)
                    continue
                gid, token = rng.choice(imported)
                r = await c.get(f"/api/games/{gid}/replay", params={"step": rng.randrange(steps + 1)},
                                headers={"X-Conquest-Token": token})
                seen["replays"] = seen.get("replays", 0) + (r.status_code == 200)

        async def health() -> None:
            while not stop.is_set():
                t0 = time.perf_counter()
                await c.get("/api/health")
                seen["health_max_ms"] = max(seen.get("health_max_ms", 0.0), (time.perf_counter() - t0) * 1000)
                await asyncio.sleep(0.5)

        tasks = [asyncio.create_task(f()) for f in [importer, importer, health] + [replayer] * 8]
        await stop.wait()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _run(base: str, games: int, ruleset: str, actions: int, think: float,
               hostile: dict[str, object] | None = None, seen: dict[str, float] | None = None
               ) -> tuple[list[float], list[str], float]:
    lat: list[float] = []
    errors: list[str] = []
    spans: list[tuple[float, float]] = []
    stop = asyncio.Event()
    neighbour = asyncio.create_task(_hostile(base, hostile, stop, seen if seen is not None else {})) \
        if hostile is not None else None
    if neighbour is not None:
        await asyncio.sleep(2.0)  # the neighbour is at work before the players start
    await asyncio.gather(*(_play(base, ruleset, actions, seed, lat, errors, think, spans)
                           for seed in range(games)))
    stop.set()
    if neighbour is not None:
        await neighbour
    # the playing time: from the first game's first action to the last game's last one
    return lat, errors, (max(e for _s, e in spans) - min(s for s, _e in spans)) if spans else 0.0


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(games: int = 50, ruleset: str | None = None, actions: int = 40, db: str | None = None,
        think: float = 0.5, workers: int = 1, hostile: bool = False, hostile_ruleset: str | None = None,
        hostile_options: dict[str, object] | None = None) -> dict[str, float]:
    """The figures of the benchmark (the module's docstring); ``ruleset`` None: the first registered game."""
    import httpx

    from conquest.core.registry import default_ruleset_id
    ruleset = ruleset or default_ruleset_id()
    record = long_record(hostile_ruleset or ruleset, hostile_options) if hostile else None
    seen: dict[str, float] = {}
    port = _free_port()
    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory()
        db = str(Path(tmp.name) / "bench.sqlite3")
    proc = subprocess.Popen([sys.executable, "-m", "conquest.web.server", "--port", str(port), "--db", db,
                             "--workers", str(workers)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            # every simulated player comes from 127.0.0.1: no caps per client address
                            env={**os.environ, "CONQUEST_CONNECTIONS_PER_CLIENT": "0",
                                 "CONQUEST_GAMES_PER_CLIENT": "0"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        lat, errors, wall = asyncio.run(_run(base, games, ruleset, actions, think, record, seen))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # still finishing a long request: it has nothing left to say
            proc.kill()
            proc.wait(timeout=10)
        if tmp is not None:
            tmp.cleanup()
    lat.sort()

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    return {"games": games, "actions": len(lat), "errors": len(errors), "seconds": wall,
            "actions_per_second": len(lat) / wall if wall else 0.0, "p50_ms": pct(0.50), "p95_ms": pct(0.95),
            "p99_ms": pct(0.99), "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
            **({"hostile_record_actions": len(record["actions"]), **seen}  # type: ignore[arg-type]
               if record is not None else {})}


def cli(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m conquest.web.bench", description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--ruleset", default=None, help="the game played (default: the first registered)")
    p.add_argument("--actions", type=int, default=40)
    p.add_argument("--db", default=None, help="a database URL or SQLite file (default: a fresh temporary file)")
    p.add_argument("--think", type=float, default=0.5,
                   help="mean seconds a player takes before each action (0: as fast as possible)")
    p.add_argument("--workers", type=int, default=1, help="server processes sharing the database")
    p.add_argument("--hostile", action="store_true",
                   help="a neighbour importing and replaying long records meanwhile")
    p.add_argument("--hostile-ruleset", default=None, help="the game of the neighbour's record (default: --ruleset)")
    p.add_argument("--hostile-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the neighbour's game (repeat it)")
    a = p.parse_args(argv)
    from conquest.core.errors import ConquestError
    from conquest.core.options import parse_option_pairs
    from conquest.core.registry import default_ruleset_id
    try:
        ruleset = a.ruleset or default_ruleset_id()
        hostile_options: dict[str, object] = dict(parse_option_pairs(a.hostile_option))
    except ConquestError as e:
        p.error(str(e))
    hostile_ruleset = a.hostile_ruleset or ruleset
    r = run(a.games, ruleset, a.actions, a.db, a.think, a.workers, a.hostile, hostile_ruleset, hostile_options)
    print(f"{r['games']} concurrent {ruleset} games (think {a.think} s, {a.workers} server process(es)), "
          f"{r['actions']} actions in {r['seconds']:.1f} s "
          f"({r['errors']} refused): {r['actions_per_second']:.0f} actions/s; latency p50 {r['p50_ms']:.1f} ms, "
          f"p95 {r['p95_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms (mean {r['mean_ms']:.1f} ms)")
    if a.hostile:
        print(f"hostile neighbour ({r['hostile_record_actions']}-action {hostile_ruleset} record): "
              f"{r.get('imports', 0):.0f} imports (slowest {r.get('import_seconds', 0):.1f} s), "
              f"refused {r.get('import_429', 0):.0f} x 429 and {r.get('import_503', 0):.0f} x 503, "
              f"{r.get('replays', 0):.0f} replays; slowest /api/health {r.get('health_max_ms', 0):.0f} ms")


if __name__ == "__main__":
    cli()
