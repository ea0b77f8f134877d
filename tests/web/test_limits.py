"""The server's trust boundaries: strict bodies, corrupt records, numbers that overflow, slow clients, heavy
work bounded per client, and a port that a crashed server's connections do not hold."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from typing import Any

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient

from conquest.core.errors import OptionError
from conquest.core.options import Option
from conquest.web.deps import Heavy, Lane
from conquest.web.games import MAX_RECORD_ACTIONS, WebError
from tests.web.conftest import create, tok, with_toys
from tests.web.liveserver import LiveServer
from tests.web.test_api import count_games, play_to_end, refused

JSON = {"content-type": "application/json"}


def post_raw(client: TestClient, path: str, text: str) -> Any:
    return client.post(path, content=text.encode(), headers=JSON)


# ---- numbers that overflow ------------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ('{"ruleset": "toy", "options": {"rounds": 1e999}}', "options.rounds: not a finite number"),
    ('{"ruleset": "toy", "options": {"rounds": -1e999}}', "options.rounds: not a finite number"),
    ('{"ruleset": "toy", "options": {"rounds": Infinity}}', "Infinity is not a number JSON allows"),
    ('{"ruleset": "toy", "options": {"rounds": NaN}}', "NaN is not a number JSON allows"),
    ('{"ruleset": "toy", "options": {"rounds": 123456789012345678901234567890}}',
     "options.rounds: a whole number beyond 64 bits"),
    ('{"ruleset": "toy", "options": {"rounds": 1e300}}', "option rounds: must be at most 9"),
    ('{"ruleset": "toy", "options": {"rounds": 2.5}}', "option rounds: expected an integer"),
    ('{"ruleset": "toy", "seed": 123456789012345678901234567890}', "seed: Input should be less than or equal"),
    ('{"ruleset": "toy", "seed": 1e999}', "seed: Input should be a valid integer"),
])
def test_numbers_too_large_for_the_engine_are_a_422_naming_the_field(client: TestClient, text: str,
                                                                      words: str) -> None:
    before = count_games(client)
    assert words in refused(post_raw(client, "/api/games", text), 422)
    assert count_games(client) == before


def test_option_coercion_never_overflows() -> None:
    rounds = Option("rounds", 4, "rounds", type=int, minimum=1, maximum=12)
    for bad in (float("inf"), float("-inf"), float("nan"), 2.5, "9" * 5000):
        with pytest.raises(OptionError, match="option rounds: expected an integer"):
            rounds.coerce(bad)
    with pytest.raises(OptionError, match=r"must be at most 12, got 10000000000000000000\.\.\. \(51 digits\)"):
        rounds.coerce(10 ** 50)
    assert rounds.coerce(3.0) == 3 and rounds.coerce("7") == 7


# ---- strict bodies --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ('{"ruleset": "toy", "players": "2"}', "players: Input should be a valid integer"),
    ('{"ruleset": "toy", "players": 2.0}', "players: Input should be a valid integer"),
    ('{"ruleset": "toy", "players": true}', "players: Input should be a valid integer"),
    ('{"ruleset": "toy", "seed": "1"}', "seed: Input should be a valid integer"),
    ('{"ruleset": "toy", "seed": 1.0}', "seed: Input should be a valid integer"),
    ('{"ruleset": 7}', "ruleset: Input should be a valid string"),
    ('{"ruleset": "toy", "seats": [{"kind": "human", "name": 5}, {"kind": "human"}]}',
     "seats.0.name: Input should be a valid string"),
    ('{"ruleset": "toy", "options": {"rounds": [1]}}', "options.rounds: an option's value must be"),
    ('{"ruleset": "toy", "ruleset": "plaintoy"}', "the key 'ruleset' appears twice"),
    ('{"ruleset": "toy", "options": {"rounds": 2, "rounds": 3}}', "the key 'rounds' appears twice"),
    ('{"ruleset": "toy", "colour": "red"}', "colour: Extra inputs are not permitted"),
    ('{"ruleset": "toy"', "the body is not JSON"),
    ('', "the request needs a JSON body"),
    ('[1, 2]', "Input should be a valid dictionary"),
])
def test_a_create_body_of_the_wrong_shape_is_a_422_and_makes_nothing(client: TestClient, text: str,
                                                                     words: str) -> None:
    before = count_games(client)
    assert words in refused(post_raw(client, "/api/games", text), 422)
    assert count_games(client) == before


def test_action_undo_and_lobby_bodies_are_strict(client: TestClient) -> None:
    made = create(client)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    step = made["game"]["step"]

    def post(path: str, text: str) -> Any:
        return client.post(path, content=text.encode(), headers={**JSON, **tok(t0)})

    for text, words in [
        ('{"action": "place west", "step": true}', "step: Input should be a valid integer"),
        (f'{{"action": "place west", "step": "{step}"}}', "step: Input should be a valid integer"),
        (f'{{"action": "place west", "step": {step}.0}}', "step: Input should be a valid integer"),
        ('{"action": ["place", "west"]}', "action: Input should be a valid string"),
        ('{"action": "place west", "action": "end"}', "the key 'action' appears twice"),
    ]:
        assert words in refused(post(f"/api/games/{gid}/actions", text), 422)
    assert client.get(f"/api/games/{gid}", headers=tok(t0)).json()["game"]["step"] == step  # nothing played
    assert "count: Input should be a valid integer" in refused(post(f"/api/games/{gid}/undo", '{"count": "1"}'), 422)
    assert "count: Input should be a valid integer" in refused(post(f"/api/games/{gid}/undo", '{"count": true}'), 422)
    assert "games.0.token" in refused(post("/api/my-games", f'{{"games": [{{"id": "{gid}", "token": 5}}]}}'), 422)
    # the body is checked before the game is looked up, as before
    assert "step" in refused(post("/api/games/nosuchgame/actions", '{"action": "end", "step": false}'), 422)


# ---- corrupt records ------------------------------------------------------------------------------

@pytest.fixture
def good_record(client: TestClient) -> dict[str, Any]:
    made = create(client, seed=21, options={"rounds": 1})
    gid, tokens = made["game"]["id"], [s["token"] for s in made["seats"]]
    play_to_end(client, gid, tokens, random.Random(5))
    rec: dict[str, Any] = client.get(f"/api/games/{gid}/record", headers=tok(tokens[0])).json()
    return rec


def test_every_kind_of_corrupt_record_is_a_422_naming_the_problem(client: TestClient,
                                                                   good_record: dict[str, Any]) -> None:
    rec = good_record
    acts = rec["actions"]
    cases: list[tuple[Any, str]] = [
        ({**rec, "format": "conquest-record/0"}, "record.format: Input should be 'conquest-record/1'"),
        ({k: v for k, v in rec.items() if k != "format"}, "record.format: Field required"),
        ({k: v for k, v in rec.items() if k != "actions"}, "record.actions: Field required"),
        ({**rec, "seats": ["only one"]}, "1 seats for 2 players"),
        ({**rec, "seats": "ab"}, "record.seats: Input should be a valid list"),
        ({**rec, "actions": acts[:2] + ["fly to the moon"]}, "the record's step 3 ('fly to the moon')"),
        ({**rec, "actions": acts[:2] + ["place west", "place west", "place west"] + acts[2:]}, "the record's step"),
        ({**rec, "ruleset": "chess"}, "unknown ruleset 'chess'"),
        ({**rec, "rules_version": "0.0-old"}, "the record is for toy rules 0.0-old"),
        ({**rec, "options": {"rounds": 1e300}}, "option rounds: must be at most 9"),
        ({**rec, "options": {"rounds": 10 ** 30}}, "record.options.rounds: a whole number beyond 64 bits"),
        ({**rec, "seed": 2 ** 70}, "record.seed: Input should be less than"),
        ({**rec, "seed": "21"}, "record.seed: Input should be a valid integer"),
        ({**rec, "players": "2"}, "record.players: Input should be a valid integer"),
        ({**rec, "players": 40}, "record.players: Input should be less than or equal to 16"),
        ({**rec, "actions": [1, 2]}, "record.actions.0: Input should be a valid string"),
        ({**rec, "actions": "place west"}, "record.actions: Input should be a valid list"),
        ({**rec, "result": ["won"]}, "record.result.0"),
        ({**rec, "start": {"owner": []}}, "begun from a given position"),
        ({**rec, "actions": ["end"] * (MAX_RECORD_ACTIONS + 1)},
         f"record.actions: List should have at most {MAX_RECORD_ACTIONS} items"),
    ]
    before = count_games(client)
    for doc, words in cases:
        r = client.post("/api/records", json={"record": doc})
        assert words in refused(r, 422), (words, r.text)
    for text, words in [
        ('{"record": {"format": "conquest-record/1", "format": "x"}}', "the key 'format' appears twice"),
        ('{"record": ' + json.dumps(rec).replace('"seed": 21', '"seed": 1e999') + '}', "record.seed"),
        ('{"record": 5}', "record: Input should be a valid dictionary"),
        ('{"record": {}, "extra": 1}', "record.format: Field required"),
    ]:
        assert words in refused(post_raw(client, "/api/records", text), 422), words
    assert count_games(client) == before
    # and the good one is taken, wrapped or bare
    assert client.post("/api/records", json={"record": rec}).status_code == 201
    assert client.post("/api/records", json=rec).status_code == 201


def test_an_import_over_its_time_limit_is_refused(make_client: Any, good_record: dict[str, Any]) -> None:
    slow = make_client(import_seconds=0.0)
    before = count_games(slow)
    assert "the record takes too long to check" in refused(slow.post("/api/records", json=good_record), 422)
    assert count_games(slow) == before


def test_heavy_work_is_one_at_a_time_per_client_and_bounded_in_all() -> None:
    heavy = Heavy(concurrency=1, per_client=1, queue=1)
    release = threading.Event()
    results: dict[str, Any] = {}

    def work(name: str) -> str:
        release.wait(5)
        return name

    async def main() -> None:
        async def job(client: str, name: str) -> None:
            try:
                results[name] = await heavy.run_for(client, work, name)
            except WebError as e:
                results[name] = e.status

        async with anyio.create_task_group() as tg:
            tg.start_soon(job, "10.0.0.1", "first")
            await anyio.sleep(0.05)
            tg.start_soon(job, "10.0.0.1", "same client again")
            tg.start_soon(job, "10.0.0.2", "another client")
            await anyio.sleep(0.05)
            tg.start_soon(job, "10.0.0.3", "one too many")
            await anyio.sleep(0.05)
            release.set()

    anyio.run(main)
    assert results == {"first": "first", "same client again": 429, "another client": "another client",
                       "one too many": 503}
    assert heavy.clients == {}


def test_a_lane_rests_after_work_in_proportion_to_its_cpu_time() -> None:
    lane = Lane(concurrency=1, share=0.25)  # rest 3 x the CPU time used
    spans: list[tuple[float, float, float]] = []

    def work() -> None:
        t0, c0 = time.monotonic(), time.thread_time()
        while time.thread_time() - c0 < 0.02:  # 20 ms of CPU
            pass
        spans.append((t0, time.monotonic(), time.thread_time() - c0))

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(3):
                tg.start_soon(lane.run, work)

    anyio.run(main)
    assert len(spans) == 3
    for (_s0, end, cpu), (start, _e1, _c1) in zip(spans, spans[1:]):
        assert start - end >= 3 * cpu * 0.95  # the next piece waited for the slot's rest


# ---- slow clients, keep-alive, the port -------------------------------------------------------------

def test_a_body_sent_slowly_gets_408_and_the_connection_closed(tmp_path: Any) -> None:
    with LiveServer(str(tmp_path / "g.sqlite3"), rulesets=with_toys, body_timeout=0.5) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"ruleset\":")  # and then nothing
            t0 = time.monotonic()
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            waited = time.monotonic() - t0
        assert data.startswith(b"HTTP/1.1 408"), data[:80]
        assert b"did not arrive within 0.5 s" in data
        assert 0.4 < waited < 4.0  # cut at the limit, and the connection closed by the server
        # an ordinary client keeps its connection between requests
        with httpx.Client(base_url=server.url) as c:
            r1 = c.get("/api/health")
            r2 = c.post("/api/games", json={"ruleset": "toy"})
            assert r1.status_code == 200 and r2.status_code == 201
            assert r1.headers.get("connection") != "close" and r2.headers.get("connection") != "close"


def test_serve_can_bind_a_port_whose_last_connections_are_in_time_wait() -> None:
    from conquest.cli import _bind_problem
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        conn, _ = listener.accept()
        conn.close()  # the server side closes first: its end of the connection stays in TIME_WAIT
        client.recv(1)
        client.close()
    plain = socket.socket()
    try:  # the situation the fix is for: a bind without SO_REUSEADDR is refused
        plain.bind(("127.0.0.1", port))
        pytest.skip("this system lets the port be bound during TIME_WAIT anyway")
    except OSError:
        pass
    finally:
        plain.close()
    assert _bind_problem("127.0.0.1", port) is None
