"""Killing the server (SIGKILL) in the middle of play loses no accepted action: every action acknowledged
with 200 is in the log after a restart, in order."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from conquest.web.server import available_rulesets as rulesets
from tests.web.liveserver import free_port


def start(db: str, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "conquest.web.server", "--host", "127.0.0.1",
                             "--port", str(port), "--db", db],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


@pytest.mark.skipif("kingdom" not in rulesets(), reason="needs the kingdom ruleset")
def test_kill_minus_nine_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    port = free_port()
    proc = start(db, port)
    assert proc.stdout is not None
    assert proc.stdout.readline().decode().startswith(f"Conquest is served at http://127.0.0.1:{port}/")
    base = f"http://127.0.0.1:{port}"
    acked: list[tuple[str, int, str]] = []  # (game, step, action) answered with 200
    games = []
    try:
        for seed in range(3):
            made = httpx.post(f"{base}/api/games", json={"ruleset": "kingdom", "seed": seed,
                                                        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
            games.append((made["game"]["id"], [s["token"] for s in made["seats"]]))
        stop = threading.Event()

        def player(gid: str, tokens: list[str]) -> None:
            with httpx.Client(base_url=base, timeout=5) as c:
                while not stop.is_set():
                    try:
                        d = c.get(f"/api/games/{gid}", headers={"X-Conquest-Token": tokens[0]}).json()
                        seat = d["game"]["to_move"]
                        if d["game"]["over"] or not isinstance(seat, int):
                            return
                        legal = c.get(f"/api/games/{gid}/legal",
                                      headers={"X-Conquest-Token": tokens[seat]}).json()["legal"]
                        a = legal[len(acked) % len(legal)]["text"]
                        step = d["game"]["step"]
                        r = c.post(f"/api/games/{gid}/actions", json={"action": a, "step": step},
                                   headers={"X-Conquest-Token": tokens[seat]})
                        if r.status_code == 200:
                            acked.append((gid, step, a))
                    except (httpx.HTTPError, KeyError, ValueError):
                        return

        threads = [threading.Thread(target=player, args=g) for g in games]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while len(acked) < 12 and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)  # in the middle of requests
        proc.wait()
        stop.set()
        for t in threads:
            t.join()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert len(acked) >= 12
    proc = start(db, port)
    try:
        for gid, tokens in games:
            log = httpx.get(f"{base}/api/games/{gid}/log", headers={"X-Conquest-Token": tokens[0]}).json()["log"]
            by_step = {e["step"]: e["notation"] for e in log}
            for g, step, a in acked:
                if g == gid:
                    assert by_step.get(step) == a, f"acknowledged action {a!r} at step {step} was lost"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
