"""Connections that send nothing, or their headers slowly, and too many from one address: closed by the server
(``conquest.web.limits``) while ``/api/health`` keeps answering. Real sockets on loopback against a live server
with the settings of ``conquest serve`` (short deadlines so that the tests are quick)."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from conquest.web.limits import Limits
from tests.web.conftest import with_toys
from tests.web.liveserver import LiveServer

HEALTH = b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"


def connect(port: int, source: str, n: int) -> list[socket.socket]:
    """``n`` connections from the loopback address ``source`` (the whole 127/8 is loopback on Linux)."""
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        out.append(s)
    return out


def closed_by_server(s: socket.socket, within: float) -> bytes | None:
    """What the server sent before closing ``s`` (None if it was still open after ``within`` seconds)."""
    s.settimeout(max(0.01, within))
    got = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                return got
            got += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        return got


def health_time(url: str) -> float:
    t0 = time.monotonic()
    r = httpx.get(url + "/api/health", timeout=5)
    assert r.status_code == 200, r.text
    return time.monotonic() - t0


@pytest.fixture
def server(tmp_path: Path) -> Any:
    limits = Limits(header_timeout=1.5, connections_per_client=64)
    with LiveServer(str(tmp_path / "g.sqlite3"), rulesets=with_toys, limits=limits) as srv:
        health_time(srv.url)  # the first one loads the rulesets
        yield srv


def test_600_silent_connections_do_not_stop_health_and_are_all_closed(server: LiveServer) -> None:
    socks = connect(server.port, "127.0.0.2", 600)
    try:
        # the other clients are served at once (before, every request was a 503 while the sockets were held)
        assert health_time(server.url) < 3.0
        t0 = time.monotonic()
        answers = [closed_by_server(s, 6.0 - (time.monotonic() - t0)) for s in socks]
        assert all(a is not None for a in answers), "some silent connections were still open after 6 s"
        refused = [a for a in answers if a and b" 429 " in a.split(b"\r\n")[0]]
        assert len(refused) == 600 - 64  # beyond the cap of the address: a 429 at once
        assert all(b"too many connections from your address (64 at most)" in a for a in refused)
        assert sum(1 for a in answers if a == b"") == 64  # the ones admitted: closed at their deadline, silently
        assert health_time(server.url) < 3.0
        # the address itself is served again once its silent connections are gone
        with connect(server.port, "127.0.0.2", 1)[0] as s:
            s.sendall(HEALTH)
            assert s.recv(4096).startswith(b"HTTP/1.1 200 ")
    finally:
        for s in socks:
            s.close()


def test_headers_sent_a_byte_at_a_time_are_cut_at_the_deadline_with_408(server: LiveServer) -> None:
    socks = connect(server.port, "127.0.0.3", 40)
    request = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    t0 = time.monotonic()
    cut: dict[int, float] = {}
    try:
        i = 0
        while len(cut) < len(socks) and time.monotonic() - t0 < 6:
            for k, s in enumerate(socks):
                if k in cut:
                    continue
                try:
                    s.sendall(request[i:i + 1])
                except OSError:
                    cut[k] = time.monotonic() - t0
            i += 1
            if i % 5 == 0:
                assert health_time(server.url) < 3.0
            time.sleep(0.1)
        for s in socks:
            got = closed_by_server(s, 1.0)
            assert got is not None and b"HTTP/1.1 408 " in got, got
            assert b"did not arrive within 1.5 s" in got
        assert time.monotonic() - t0 < 6
    finally:
        for s in socks:
            s.close()


def test_a_kept_alive_client_and_a_websocket_outlive_the_header_deadline(server: LiveServer) -> None:
    import websockets.sync.client as wsc
    with httpx.Client(base_url=server.url, timeout=5) as c:
        made = c.post("/api/games", json={"ruleset": "toy", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        gid, token = made["game"]["id"], made["seats"][0]["token"]
        with wsc.connect(server.url.replace("http", "ws") + f"/api/games/{gid}/ws") as ws:
            ws.send(json.dumps({"token": token}))
            assert json.loads(ws.recv(timeout=5))["type"] == "update"
            for _ in range(3):  # requests 1 s apart on one connection (each within the deadline)
                time.sleep(1.0)
                assert c.get("/api/health").status_code == 200
            # the socket is still open 3 s on (the header deadline is 1.5 s): an action is announced on it
            r = c.post(f"/api/games/{gid}/actions", json={"action": c.get(
                f"/api/games/{gid}/legal", headers={"X-Conquest-Token": token}).json()["legal"][0]["text"]},
                headers={"X-Conquest-Token": token})
            assert r.status_code == 200, r.text
            assert json.loads(ws.recv(timeout=5))["type"] == "update"


def test_an_oversize_websocket_message_is_closed_with_1009(server: LiveServer) -> None:
    import websockets.sync.client as wsc
    from websockets.exceptions import ConnectionClosed
    made = httpx.post(server.url + "/api/games", json={"ruleset": "toy"}).json()
    gid = made["game"]["id"]
    with wsc.connect(server.url.replace("http", "ws") + f"/api/games/{gid}/ws", max_size=None) as ws:
        ws.send("x" * (65 * 1024))
        with pytest.raises(ConnectionClosed) as e:
            for _ in range(3):
                ws.recv(timeout=5)
        assert e.value.rcvd is not None and e.value.rcvd.code == 1009
    assert health_time(server.url) < 3.0


def test_limits_from_the_environment() -> None:
    assert Limits.from_env({}) == Limits()
    got = Limits.from_env({"CONQUEST_HEADER_TIMEOUT": "2.5", "CONQUEST_CONNECTIONS_PER_CLIENT": "0",
                           "CONQUEST_GAMES_PER_CLIENT": "7", "CONQUEST_CACHE_GAMES": "10"})
    assert (got.header_timeout, got.connections_per_client, got.games_per_client, got.cache_games) == (2.5, 0, 7, 10)
    for env, words in [({"CONQUEST_HEADER_TIMEOUT": "soon"}, "CONQUEST_HEADER_TIMEOUT='soon' is not a number"),
                       ({"CONQUEST_GAMES_PER_CLIENT": "-1"}, "games_per_client must be a number from 0"),
                       ({"CONQUEST_CACHE_GAMES": "0"}, "cache_games and cache_states must be at least 1")]:
        with pytest.raises(ValueError, match=words):
            Limits.from_env(env)
