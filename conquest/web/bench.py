"""Latency benchmark of the web app: many concurrent games played through the HTTP API on loopback
(people in every seat, so every action crosses the network), with a WebSocket open per game.

    python -m conquest.web.bench [--games 50] [--ruleset kingdom] [--actions 40] [--db FILE]

It starts a server in a separate process (a fresh SQLite file unless --db is given), plays ``--games``
games at once, each sending ``--actions`` actions with ``--think`` seconds (on average) between them, and
prints p50/p95/p99 of the action latency (POST until the answer, which includes the commit and the seat's
new view) and the actions per second. ``--think 0`` measures saturation: then every game waits for all the
others and the latency is the queue. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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


async def _run(base: str, games: int, ruleset: str, actions: int, think: float
               ) -> tuple[list[float], list[str], float]:
    lat: list[float] = []
    errors: list[str] = []
    spans: list[tuple[float, float]] = []
    await asyncio.gather(*(_play(base, ruleset, actions, seed, lat, errors, think, spans)
                           for seed in range(games)))
    # the playing time: from the first game's first action to the last game's last one
    return lat, errors, (max(e for _s, e in spans) - min(s for s, _e in spans)) if spans else 0.0


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(games: int = 50, ruleset: str = "kingdom", actions: int = 40, db: str | None = None,
        think: float = 0.5, workers: int = 1) -> dict[str, float]:
    import httpx
    port = _free_port()
    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory()
        db = str(Path(tmp.name) / "bench.sqlite3")
    proc = subprocess.Popen([sys.executable, "-m", "conquest.web.server", "--port", str(port), "--db", db,
                             "--workers", str(workers)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        lat, errors, wall = asyncio.run(_run(base, games, ruleset, actions, think))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if tmp is not None:
            tmp.cleanup()
    lat.sort()

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    return {"games": games, "actions": len(lat), "errors": len(errors), "seconds": wall,
            "actions_per_second": len(lat) / wall if wall else 0.0, "p50_ms": pct(0.50), "p95_ms": pct(0.95),
            "p99_ms": pct(0.99), "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan")}


def cli(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m conquest.web.bench", description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--ruleset", default="kingdom")
    p.add_argument("--actions", type=int, default=40)
    p.add_argument("--db", default=None, help="a database URL or SQLite file (default: a fresh temporary file)")
    p.add_argument("--think", type=float, default=0.5,
                   help="mean seconds a player takes before each action (0: as fast as possible)")
    p.add_argument("--workers", type=int, default=1, help="server processes sharing the database")
    a = p.parse_args(argv)
    r = run(a.games, a.ruleset, a.actions, a.db, a.think, a.workers)
    print(f"{r['games']} concurrent {a.ruleset} games (think {a.think} s, {a.workers} server process(es)), "
          f"{r['actions']} actions in {r['seconds']:.1f} s "
          f"({r['errors']} refused): {r['actions_per_second']:.0f} actions/s; latency p50 {r['p50_ms']:.1f} ms, "
          f"p95 {r['p95_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms (mean {r['mean_ms']:.1f} ms)")


if __name__ == "__main__":
    cli()
