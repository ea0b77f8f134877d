"""Work before the token, junk on the WebSocket, deep JSON, games kept in memory and games made per client
(issue 33, section 3). Every request here goes through a TestClient that raises the app's unhandled exceptions,
and the log of ``conquest.web`` must hold no error."""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from conquest.web.games import Games
from conquest.web.limits import CreationLimit, Limits
from conquest.web.server import create_app
from tests.web.conftest import tok, with_toys
from tests.web.test_api import play_to_end, refused

JSON = {"content-type": "application/json"}


@pytest.fixture
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.WARNING)
    yield
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


def strict_client(db: str, **kwargs: Any) -> TestClient:
    """A client that raises any exception the app does not handle."""
    kwargs.setdefault("rulesets", with_toys)
    return TestClient(create_app(db, **kwargs), raise_server_exceptions=True)


def new_game(c: TestClient, **extra: Any) -> tuple[str, list[str], str]:
    r = c.post("/api/games", json={"ruleset": "toy", "seats": [{"kind": "human"}, {"kind": "human"}], **extra})
    assert r.status_code == 201, r.text
    d = r.json()
    return d["game"]["id"], [s["token"] for s in d["seats"]], d["spectator"]["token"]


# ---- the token first ----------------------------------------------------------------------------------

def token_endpoints(gid: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    return [("GET", f"/api/games/{gid}", None), ("GET", f"/api/games/{gid}/legal", None),
            ("GET", f"/api/games/{gid}/log", None), ("GET", f"/api/games/{gid}/replay?step=1", None),
            ("GET", f"/api/games/{gid}/record", None), ("GET", f"/api/games/{gid}/odds?action=x", None),
            ("POST", f"/api/games/{gid}/actions", {"action": "pass"}), ("POST", f"/api/games/{gid}/undo", {})]


def test_after_a_restart_a_wrong_token_replays_nothing(tmp_path: Path, no_errors_logged: None) -> None:
    db = str(tmp_path / "g.sqlite3")
    with strict_client(db) as c:
        games = []
        for seed in range(3):
            gid, tokens, _spec = new_game(c, seed=seed, options={"rounds": 1})
            play_to_end(c, gid, tokens, random.Random(seed))
            games.append((gid, tokens))
    replays = []
    original = Games._replay

    def counted(self: Games, *a: Any, **k: Any) -> Any:
        replays.append(a[0].id)
        return original(self, *a, **k)

    with strict_client(db) as c, pytest.MonkeyPatch.context() as mp:  # the server restarted: nothing in memory
        mp.setattr(Games, "_replay", counted)
        svc = c.app.state.services  # type: ignore[attr-defined]
        for gid, _tokens in games:
            for method, path, body in token_endpoints(gid):
                for bad in ({}, tok("wrong-token"), tok(games[0][1][0] if gid != games[0][0] else games[1][1][0])):
                    r = c.request(method, path, json=body, headers=bad)
                    assert r.status_code in (401, 403), (path, r.status_code, r.text)
        r = c.post("/api/my-games", json={"games": [{"id": g, "token": "wrong"} for g, _t in games]})
        assert [x["error"] for x in r.json()["games"]] == ["this token does not belong to this game"] * 3
        with c.websocket_connect(f"/api/games/{games[0][0]}/ws") as ws:
            ws.send_text(json.dumps({"token": "wrong"}))
            assert ws.receive_json()["error"] == "this token does not belong to this game"
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_json()
            assert e.value.code == 4403
        assert replays == [] and svc.games.cached() == 0

        # the right tokens: the games are loaded, in the loads lane (not the request pool), once each
        lane_runs: list[str] = []
        run_for = svc.loads.run_for

        async def spy(client: str, fn: Any, gid: str) -> Any:
            lane_runs.append(gid)
            return await run_for(client, fn, gid)
        mp.setattr(svc.loads, "run_for", spy)
        r = c.post("/api/my-games", json={"games": [{"id": g, "token": t[1]} for g, t in games]})
        assert [x["you"]["seat"] for x in r.json()["games"]] == [1, 1, 1]
        assert sorted(lane_runs) == sorted(g for g, _t in games) and sorted(replays) == sorted(lane_runs)
        r = c.get(f"/api/games/{games[0][0]}", headers=tok(games[0][1][0]))
        assert r.status_code == 200 and len(lane_runs) == 3  # in memory now: no second load


def test_an_action_with_a_wrong_token_after_a_restart_replays_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "g.sqlite3")
    with strict_client(db) as c:
        gid, tokens, _spec = new_game(c)
    with strict_client(db) as c:
        svc = c.app.state.services  # type: ignore[attr-defined]
        assert "does not belong" in refused(c.post(f"/api/games/{gid}/actions", json={"action": "x"},
                                                   headers=tok("nope")), 403)
        assert refused(c.post(f"/api/games/{gid}/undo", json={}), 401)
        assert svc.games.cached() == 0
        legal = c.get(f"/api/games/{gid}/legal", headers=tok(tokens[0])).json()["legal"]
        assert c.post(f"/api/games/{gid}/actions", json={"action": legal[0]["text"]},
                      headers=tok(tokens[0])).status_code == 200


# ---- junk on the WebSocket ------------------------------------------------------------------------------

DEEP = "[" * 10_000 + "]" * 10_000


@pytest.mark.parametrize("send, code, words", [
    (lambda ws: ws.send_bytes(b"\x00\x01binary"), 1003, "binary message"),
    (lambda ws: ws.send_bytes(b'{"token": "x"}'), 1003, "binary message"),
    (lambda ws: ws.send_text("hello"), 1008, "the first message is not JSON"),
    (lambda ws: ws.send_text("{\"token\": "), 1008, "the first message is not JSON"),
    (lambda ws: ws.send_text("[1, 2]"), 1008, 'send {"token": ...} first'),
    (lambda ws: ws.send_text('{"token": 5}'), 1008, 'send {"token": ...} first'),
    (lambda ws: ws.send_text('{"token": "a", "token": "b"}'), 1008, "appears twice"),
    (lambda ws: ws.send_text('{"token": NaN}'), 1008, "NaN is not a number JSON allows"),
    (lambda ws: ws.send_text(DEEP), 1008, "the first message is nested too deeply"),
    (lambda ws: ws.send_text('{"token": ' + "[" * 40 + "]" * 40 + "}"), 1008, "nested too deeply"),
])
def test_junk_as_the_first_websocket_message_is_closed_with_a_code(tmp_path: Path, no_errors_logged: None,
                                                                    send: Any, code: int, words: str) -> None:
    with strict_client(str(tmp_path / "g.sqlite3")) as c:
        gid, _tokens, _spec = new_game(c)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            send(ws)
            msg = ws.receive_json()
            assert msg["type"] == "error" and words in msg["error"] and "\n" not in msg["error"]
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_json()
            assert e.value.code == code
        assert c.get("/api/health").status_code == 200


def test_a_binary_message_after_the_token_closes_the_socket_with_1003(tmp_path: Path, no_errors_logged: None) -> None:
    with strict_client(str(tmp_path / "g.sqlite3")) as c:
        gid, tokens, _spec = new_game(c)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_text(json.dumps({"token": tokens[0]}))
            assert ws.receive_json()["type"] == "update"
            ws.send_text("any text is ignored")
            ws.send_bytes(b"\xff" * 10)
            assert "binary message" in ws.receive_json()["error"]
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_json()
            assert e.value.code == 1003
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:  # the app keeps serving sockets
            ws.send_text(json.dumps({"token": tokens[1]}))
            assert ws.receive_json()["type"] == "update"
        assert not c.app.state.services.hub.subs  # type: ignore[attr-defined]  # nobody left subscribed


# ---- deep JSON in every body -----------------------------------------------------------------------------

def deep_bodies(gid: str) -> list[tuple[str, str]]:
    arr, obj = "[" * 10_000 + "]" * 10_000, '{"a":' * 10_000 + "1" + "}" * 10_000
    ok33 = "[" * 33 + "]" * 33
    rec = '{"format": "conquest-record/1", "ruleset": "toy", "players": 2, "actions": [], "start": %s}'
    return [("/api/games", arr), ("/api/games", '{"ruleset": %s}' % obj),
            ("/api/games", '{"ruleset": "toy", "options": {"x": %s}}' % arr),
            ("/api/games", '{"ruleset": "toy", "seats": [%s]}' % ok33),
            (f"/api/games/{gid}/actions", '{"action": %s}' % arr), (f"/api/games/{gid}/actions", obj),
            (f"/api/games/{gid}/undo", '{"count": %s}' % obj), ("/api/my-games", '{"games": %s}' % arr),
            ("/api/my-games", '{"games": [%s]}' % ok33),
            ("/api/records", rec % obj), ("/api/records", '{"record": %s}' % (rec % ok33)),
            ("/api/records", '{"format": "conquest-record/1", "ruleset": "toy", "players": 2, "actions": [], '
                             '"unknown": %s}' % ok33),
            ("/api/odds/nerath", '{"attacker": %s, "defender": "footsoldier"}' % arr),
            ("/api/odds/nerath", '{"attacker": ["footsoldier"], "defender": %s}' % ok33)]


def test_deeply_nested_json_in_every_body_is_a_one_line_422(tmp_path: Path, no_errors_logged: None) -> None:
    with strict_client(str(tmp_path / "g.sqlite3")) as c:
        gid, tokens, _spec = new_game(c)
        before = c.get(f"/api/games/{gid}", headers=tok(tokens[0])).json()["game"]["revision"]
        for path, body in deep_bodies(gid):
            r = c.post(path, content=body.encode(), headers={**JSON, **tok(tokens[0])})
            assert "nested too deeply (32 levels at most)" in refused(r, 422), (path, r.text)
        assert c.get(f"/api/games/{gid}", headers=tok(tokens[0])).json()["game"]["revision"] == before
        r = c.post("/api/my-games", json={"games": []})
        assert r.status_code == 200


# ---- games in memory ------------------------------------------------------------------------------------

def test_the_cache_keeps_at_most_its_games_and_reloads_the_dropped_ones(tmp_path: Path,
                                                                        no_errors_logged: None) -> None:
    with strict_client(str(tmp_path / "g.sqlite3"), limits=Limits(cache_games=3)) as c:
        games = c.app.state.services.games  # type: ignore[attr-defined]
        made = [new_game(c, seed=i) for i in range(10)]
        assert games.cached() == 3 and games.evicted >= 7
        for gid, tokens, _spec in made:  # a dropped game is replayed from the database when asked for
            legal = c.get(f"/api/games/{gid}/legal", headers=tok(tokens[0])).json()["legal"]
            r = c.post(f"/api/games/{gid}/actions", json={"action": legal[0]["text"]}, headers=tok(tokens[0]))
            assert r.status_code == 200, r.text
            assert games.cached() <= 3
        for gid, tokens, _spec in made:
            assert c.get(f"/api/games/{gid}", headers=tok(tokens[1])).json()["game"]["step"] >= 1


def test_a_game_in_use_under_its_lock_is_not_dropped(tmp_path: Path) -> None:
    with strict_client(str(tmp_path / "g.sqlite3"), limits=Limits(cache_games=2)) as c:
        games = c.app.state.services.games  # type: ignore[attr-defined]
        first, _t, _s = new_game(c)
        held, release = threading.Event(), threading.Event()

        def hold() -> None:
            with games._cached(first).lock:
                held.set()
                release.wait(10)
        t = threading.Thread(target=hold)
        t.start()
        held.wait(5)
        try:
            for i in range(5):
                new_game(c, seed=i)
            assert first in games._cache  # the least recently used, but in use
        finally:
            release.set()
            t.join()
        # the server's own loop looks at each new game once (whether a computer is to move); on a busy machine
        # it may still be reading the first game, which keeps it in use: wait until it has looked at every game
        advancer = c.app.state.services.advancer  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while advancer.running and time.monotonic() < deadline:
            time.sleep(0.01)
        new_game(c, seed=99)
        assert first not in games._cache and games.cached() == 2


def test_the_cache_counts_the_states_it_holds(tmp_path: Path) -> None:
    with strict_client(str(tmp_path / "g.sqlite3"), limits=Limits(cache_games=100, cache_states=6)) as c:
        games = c.app.state.services.games  # type: ignore[attr-defined]
        for i in range(10):
            new_game(c, seed=i)
        assert sum(live.weight() for live in games._cache.values()) <= 6


# ---- games made per client --------------------------------------------------------------------------------

def test_games_per_client_and_time_are_bounded_with_429(tmp_path: Path, no_errors_logged: None) -> None:
    db = str(tmp_path / "g.sqlite3")
    app = create_app(db, rulesets=with_toys, limits=Limits(games_per_client=3, games_window=600))
    with TestClient(app, client=("10.0.0.1", 1000)) as c, TestClient(app, client=("10.0.0.2", 1000)) as other:
        gid, tokens, _spec = new_game(c, options={"rounds": 1})
        play_to_end(c, gid, tokens, random.Random(1))
        rec = c.get(f"/api/games/{gid}/record", headers=tok(tokens[0])).json()
        assert c.post("/api/records", json=rec).status_code == 201  # an import counts too
        new_game(c)
        r = c.post("/api/games", json={"ruleset": "toy"})
        assert "too many new games from your address: 3 in 600 s at most; try again in" in refused(r, 429)
        assert "too many new games" in refused(c.post("/api/records", json=rec), 429)
        new_game(other)  # another address is not held back


def test_the_creation_window_slides() -> None:
    import time
    lim = CreationLimit(2, 0.2)
    lim.take("a")
    lim.take("a")
    with pytest.raises(Exception, match="too many new games"):
        lim.take("a")
    time.sleep(0.25)
    lim.take("a")
    CreationLimit(0, 1).take("a")  # 0: no cap
