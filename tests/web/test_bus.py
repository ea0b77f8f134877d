"""Several server processes on one database (conquest.web.bus). Issue 32: "With --workers N or several servers
on one PostgreSQL, a move made in one process reaches the WebSockets held by another within 1 s (PostgreSQL
LISTEN/NOTIFY when on PostgreSQL; a documented polling fallback on SQLite). Tested with two processes."

Two uvicorn processes on 127.0.0.1 and free ports, on SQLite (a file) and, with CONQUEST_TEST_PG, PostgreSQL.
A move is posted to one; the other's WebSocket must say so within 1 s, five times in a row (each socket also
looks at the revision every 2 s by itself: five moves all seen within 1 s by that look alone would be luck)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conquest.web.storage import Store
from tests.web.liveserver import free_port

ROOT = Path(__file__).resolve().parents[2]


class Process:
    """``uvicorn --factory tests.web.bus_app:app`` on 127.0.0.1 and a free port."""

    def __init__(self, db: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "CONQUEST_DB": db, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "tests.web.bus_app:app",
                                      "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
                                     env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def wait(self) -> None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"the server process ended: {err[-2000:]}")
            try:
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("the server process did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def two(db: str) -> Iterator[tuple[Process, Process]]:
    Store(db).close()  # the tables made once, before the processes start
    a, b = Process(db), Process(db)
    try:
        a.wait()
        b.wait()
        yield a, b
    finally:
        a.stop()
        b.stop()


def updates_until(ws: Any, revision: int, timeout: float) -> float:
    """Seconds until the socket says ``revision`` (or a later one); raises after ``timeout``."""
    t0 = time.monotonic()
    while True:
        left = timeout - (time.monotonic() - t0)
        if left <= 0:
            raise AssertionError(f"revision {revision} not told within {timeout} s")
        try:
            msg = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            continue
        if msg.get("type") == "update" and msg.get("revision") is not None and msg["revision"] >= revision:
            return time.monotonic() - t0


def test_a_move_in_one_process_reaches_the_sockets_of_another_within_a_second(two: tuple[Process, Process]) -> None:
    from websockets.sync.client import connect
    a, b = two
    made = httpx.post(a.url + "/api/games", json={"ruleset": "toy", "options": {"rounds": 9},
                                                  "seats": [{"kind": "human"}, {"kind": "human"}]}, timeout=30)
    assert made.status_code == 201, made.text
    gid = made.json()["game"]["id"]
    tokens = [s["token"] for s in made.json()["seats"]]
    with connect(f"ws://127.0.0.1:{b.port}/api/games/{gid}/ws") as ws:
        ws.send(json.dumps({"token": tokens[0]}))
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "update"
        seen = []
        for i in range(5):
            game = httpx.get(f"{a.url}/api/games/{gid}", headers={"X-Conquest-Token": tokens[0]}, timeout=10).json()
            seat = game["game"]["to_move"]
            r = httpx.post(f"{a.url}/api/games/{gid}/actions", json={"action": "end"},
                           headers={"X-Conquest-Token": tokens[seat]}, timeout=10)
            assert r.status_code == 200, r.text
            seen.append(updates_until(ws, r.json()["game"]["revision"], timeout=5.0))
            time.sleep(0.3 * i)  # moves at different instants of the other process's own 2 s look
    assert max(seen) < 1.0, seen
