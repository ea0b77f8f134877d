"""The web API: every endpoint with good and bad input. Bad input is a 4xx with a one-line reason, never a
500, and changes nothing."""

from __future__ import annotations

import json
import random
import re
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings, strategies as st

from conquest.agents import AGENTS, Agent
from conquest.core.records import Record
from conquest.web.storage import SCHEMA_VERSION, Store
from tests.web.conftest import create, tok, wait_for
from tests.web.toy import TOY


def state_of(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=tok(token))
    assert r.status_code == 200, r.text
    return r.json()


def refused(r: Any, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert isinstance(body["error"], str) and body["error"] and "\n" not in body["error"]
    return body["error"]


def test_rulesets_lists_every_ruleset_with_options_and_help(client: TestClient) -> None:
    data = client.get("/api/rulesets").json()
    ids = [r["id"] for r in data["rulesets"]]
    assert "toy" in ids and "kingdom" in ids
    toy = next(r for r in data["rulesets"] if r["id"] == "toy")
    assert toy["options"][0] == {"name": "rounds", "default": 2, "help": "how many rounds are played",
                                 "type": "int", "minimum": 1, "maximum": 9}
    assert toy["seat_names"]["3"] == ["Player 1", "Player 2", "Player 3"]
    assert data["seat_kinds"][0] == "human" and "random" in data["seat_kinds"] and "greedy" in data["seat_kinds"]
    # the lobby's levels, each an agent spec
    assert {"easy", "normal", "hard"} <= set(data["seat_kinds"])
    assert data["levels"]["hard"]["spec"].startswith("ismcts:time=")


def test_a_level_or_an_agent_the_operator_enables_takes_a_seat(make_client: Any) -> None:
    client = make_client(agents=["random", "mcts:iterations=5"])
    assert "mcts:iterations=5" in client.get("/api/rulesets").json()["seat_kinds"]
    made = create(client, seats=[{"kind": "easy"}, {"kind": "mcts:iterations=5"}], options={"rounds": 1})
    gid, spec = made["game"]["id"], made["spectator"]["token"]
    assert [s["kind"] for s in made["seats"]] == ["easy", "mcts:iterations=5"]
    wait_for(lambda: state_of(client, gid, spec)["game"]["over"], timeout=20)


def test_create_gives_a_secret_link_per_human_seat_and_a_spectator_link(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "random"}], options={"rounds": 3})
    g = made["game"]
    assert g["options"] == {"rounds": 3, "colour": "red"}
    ann, bot = made["seats"]
    assert ann["name"] == "Ann" and len(ann["token"]) >= 32 and ann["link"] == f"/game/{g['id']}#t={ann['token']}"
    assert bot["token"] is None and bot["link"] is None and bot["kind"] == "random"
    assert made["spectator"]["token"] not in (ann["token"],)
    # the two deals are drawn by the server at once: it is Ann's turn
    d = state_of(client, g["id"], ann["token"])
    assert d["game"]["step"] == 2 and d["game"]["to_move"] == 0 and d["you"] == {"seat": 0, "name": "Ann",
                                                                                  "role": "seat"}
    assert [a["text"] for a in d["legal"]][-2:] == ["peek", "end"]
    assert d["legal"][0] == {"text": "place north", "description": "Place an army in north", "places": ["north"],
                             "odds": False, "confirm": None}
    # the ruleset's confirm_text is sent with the action it asks about; the default has_odds (an action that
    # leads straight into a chance node: the toy's end of turn rolls a die) gives a new game odds in the page
    by_text = {a["text"]: a for a in d["legal"]}
    assert by_text["peek"]["confirm"] == "Peek at every secret card? You may do it once a game."
    assert by_text["end"]["odds"] is True and by_text["end"]["confirm"] is None


def count_games(client: TestClient) -> int:
    from sqlalchemy import func, select

    from conquest.web.storage import games_table
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(games_table)).scalar_one())


@pytest.mark.parametrize("body, status, words", [
    ({"ruleset": "nope"}, 422, "unknown ruleset"),
    ({"ruleset": "toy", "players": 7}, 422, "2 to 3 players"),
    ({"ruleset": "toy", "players": 3, "seats": [{"kind": "human"}]}, 422, "1 seats given for 3 players"),
    ({"ruleset": "toy", "seats": [{"kind": "human"}, {"kind": "wizard"}]}, 422, "does not offer that seat kind"),
    ({"ruleset": "toy", "seats": [{"kind": "human"}, {"kind": "ismcts:time=-1"}]}, 422, "does not offer"),
    ({"ruleset": "toy", "seats": [{"kind": "human"}, {"kind": "ismcts:foo=1"}]}, 422, "does not offer"),
    ({"ruleset": "toy", "seats": [{"kind": "human"}, {"kind": "ismcts:time=60"}]}, 422, "does not offer"),
    ({"ruleset": "toy", "options": {"rounds": 99}}, 422, "at most 9"),
    ({"ruleset": "toy", "options": {"speed": 1}}, 422, "unknown option 'speed'"),
    ({"ruleset": "toy", "options": {"rounds": [1]}}, 422, "options.rounds"),
    ({"ruleset": "toy", "hack": 1}, 422, "hack"),
    ({"ruleset": "toy", "seats": [{"kind": "human", "name": "x" * 41}, {}]}, 422, "name"),
    ({"ruleset": 5}, 422, "ruleset"),
    ([1, 2], 422, "body"),
])
def test_bad_creations_are_refused_and_make_nothing(client: TestClient, body: Any, status: int,
                                                    words: str) -> None:
    before = count_games(client)
    reason = refused(client.post("/api/games", json=body), status)
    assert words in reason
    assert count_games(client) == before


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    refused(client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"}), 422)
    big = json.dumps({"ruleset": "toy", "seats": [{"kind": "human", "name": "a" * 70000}]})
    assert "too large" in refused(client.post("/api/games", content=big.encode(),
                                              headers={"Content-Type": "application/json"}), 413)
    assert count_games(client) == 0


def test_names_are_cleaned_of_control_characters(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human", "name": "<b>Bo\x00b</b>\n"}, {"kind": "human", "name": "  "}])
    names = [s["name"] for s in made["seats"]]
    assert names == ["<b>Bob</b>", "Player 2"]  # kept as text: the page writes names with textContent


def test_tokens_unknown_games_and_wrong_seats(client: TestClient) -> None:
    a = create(client)
    b = create(client)
    gid, t0 = a["game"]["id"], a["seats"][0]["token"]
    refused(client.get(f"/api/games/{gid}"), 401)
    refused(client.get(f"/api/games/{gid}", headers=tok("x" * 32)), 403)
    refused(client.get(f"/api/games/{gid}", headers=tok(b["seats"][0]["token"])), 403)  # another game's seat
    refused(client.get("/api/games/nosuchgame", headers=tok(t0)), 404)
    refused(client.get("/api/games/" + "x" * 40, headers=tok(t0)), 404)
    assert client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {t0}"}).status_code == 200
    for path in ("legal", "log", "record", "replay?step=0"):
        refused(client.get(f"/api/games/{gid}/{path}", headers=tok("nope")), 403)
    refused(client.post(f"/api/games/{gid}/actions", json={"action": "end"}), 401)
    refused(client.post(f"/api/games/{gid}/undo", json={}, headers=tok("nope")), 403)
    refused(client.get("/api/games/x/nothing-here"), 404)


def test_actions_refused_with_a_reason_and_nothing_changes(client: TestClient) -> None:
    made = create(client)
    gid = made["game"]["id"]
    t0, t1 = made["seats"][0]["token"], made["seats"][1]["token"]
    spec = made["spectator"]["token"]
    before = state_of(client, gid, t0)

    def act(token: str, body: Any) -> Any:
        return client.post(f"/api/games/{gid}/actions", json=body, headers=tok(token))

    assert "not your turn" in refused(act(t1, {"action": "end"}), 409)
    assert "spectators cannot act" in refused(act(spec, {"action": "end"}), 403)
    assert "not toy notation" in refused(act(t0, {"action": "fly away"}), 422)
    assert "illegal action 'roll 6'" in refused(act(t0, {"action": "roll 6"}), 422)  # a die is the server's
    assert "moved on" in refused(act(t0, {"action": "end", "step": 0}), 409)
    refused(act(t0, {"action": ""}), 422)
    refused(act(t0, {"action": "end", "extra": 1}), 422)
    refused(act(t0, {"action": "x" * 501}), 422)
    refused(act(t0, {"act": "end"}), 422)
    after = state_of(client, gid, t0)
    assert after["game"]["revision"] == before["game"]["revision"] and after["view"] == before["view"]
    ok = act(t0, {"action": "place north", "step": before["game"]["step"]})
    assert ok.status_code == 200 and ok.json()["view"]["owner"][0] == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=40))
def test_no_action_text_makes_a_server_error(client: TestClient, text: str) -> None:
    made = create(client)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/actions", json={"action": text}, headers=tok(t0))
    assert r.status_code in (200, 422), r.text


def test_racing_actions_one_wins_the_other_gets_a_clear_refusal(client: TestClient) -> None:
    made = create(client)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    step = state_of(client, gid, t0)["game"]["step"]
    results: list[Any] = []
    barrier = threading.Barrier(2)

    def go(action: str) -> None:
        barrier.wait()
        results.append(client.post(f"/api/games/{gid}/actions", json={"action": action, "step": step},
                                   headers=tok(t0)))

    threads = [threading.Thread(target=go, args=(a,)) for a in ("place north", "place south")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409], [r.text for r in results]
    loser = next(r for r in results if r.status_code == 409)
    assert "moved on" in loser.json()["error"] or "first" in loser.json()["error"]
    log = client.get(f"/api/games/{gid}/log", headers=tok(t0)).json()["log"]
    assert len(log) == step + 1  # exactly one of them was recorded


def test_two_servers_on_one_database_race_through_the_database(make_client: Any) -> None:
    """Two app instances (as two processes would) share the database: each has its own cache, so only the
    revision check in the database can stop the second writer."""
    a = make_client()
    b = make_client()
    made = create(a)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    state_of(b, gid, t0)  # b caches the game too
    assert a.post(f"/api/games/{gid}/actions", json={"action": "place north"}, headers=tok(t0)).status_code == 200
    # b's cache is stale; it must notice the new revision and refuse or accept on the true state
    r = b.post(f"/api/games/{gid}/actions", json={"action": "place north", "step": 2}, headers=tok(t0))
    assert "moved on" in refused(r, 409)
    assert state_of(b, gid, t0)["view"]["armies"][0] == 1
    # and the storage itself refuses a write based on an old revision
    store: Store = b.app.state.store  # type: ignore[attr-defined]
    from conquest.web.storage import Conflict
    with pytest.raises(Conflict):
        store.append_action(gid, seen_revision=0, step=3, seat=0, text="end", hidden_from=[], barrier=False,
                            to_move=0, has_secrets=True, result=None, scores=None)
    with pytest.raises(Conflict):  # the unique (game, step)
        rev = store.get_revision(gid)
        assert rev is not None
        store.append_action(gid, seen_revision=rev, step=2, seat=0, text="end", hidden_from=[], barrier=False,
                            to_move=0, has_secrets=True, result=None, scores=None)
    assert len(store.actions(gid)) == 3


def test_undo_own_actions_within_the_turn_only(client: TestClient) -> None:
    made = create(client)
    gid = made["game"]["id"]
    t0, t1, spec = made["seats"][0]["token"], made["seats"][1]["token"], made["spectator"]["token"]

    def act(token: str, a: str) -> dict[str, Any]:
        r = client.post(f"/api/games/{gid}/actions", json={"action": a}, headers=tok(token))
        assert r.status_code == 200, r.text
        return r.json()

    def undo(token: str, body: Any) -> Any:
        return client.post(f"/api/games/{gid}/undo", json=body, headers=tok(token))

    assert "nothing to undo" in refused(undo(t0, {}), 409)  # only dice so far
    d = act(t0, "place north")
    d = act(t0, "place east")
    assert d["undo"] == 2
    assert "only your last 2" in refused(undo(t0, {"count": 3}), 409)
    refused(undo(t0, {"count": 0}), 422)
    assert "spectators" in refused(undo(spec, {}), 403)
    assert "nothing to undo" in refused(undo(t1, {}), 409)
    r = undo(t0, {"count": 1})
    assert r.status_code == 200 and r.json()["view"]["owner"][:2] == [0, -1] and r.json()["undo"] == 1
    # peeking reveals the other seat's secret card: no taking back after that
    d = act(t0, "peek")
    assert d["undo"] == 0
    assert "nothing to undo" in refused(undo(t0, {}), 409)
    assert d["view"]["secret"][1] is not None
    # after the turn ends (and a die is rolled), seat 0 cannot undo and seat 1 has nothing of its own
    act(t0, "end")
    refused(undo(t0, {}), 409)
    refused(undo(t1, {}), 409)


def test_agents_play_their_turns_and_a_slow_agent_is_cut_short(make_client: Any) -> None:
    class Sleepy(Agent):
        id = "sleepy"

        def choose(self, state: Any, rng: random.Random) -> Any:
            import time
            time.sleep(1.0)
            return state.legal_actions()[0]

    AGENTS["sleepy"] = Sleepy
    try:
        client = make_client(think_limit=0.1, agents=["sleepy"])
        made = create(client, seats=[{"kind": "human"}, {"kind": "sleepy"}])
        gid, t0 = made["game"]["id"], made["seats"][0]["token"]
        client.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=tok(t0))
        wait_for(lambda: state_of(client, gid, t0)["game"]["to_move"] == 0, timeout=10)
        log = state_of(client, gid, t0)["log"]
        assert [e["by"] for e in log[3:]][:1] == ["chance"]
        assert any(e["by"] == "Player 2" for e in log)  # the agent played (a random action in its stead)
    finally:
        del AGENTS["sleepy"]


def test_a_failing_agent_does_not_stall_the_game(make_client: Any) -> None:
    class Broken(Agent):
        id = "broken"

        def choose(self, state: Any, rng: random.Random) -> Any:
            raise RuntimeError("bug in an agent")

    AGENTS["broken"] = Broken
    try:
        client = make_client(agents=["broken"])
        made = create(client, seats=[{"kind": "human"}, {"kind": "broken"}])
        gid, t0 = made["game"]["id"], made["seats"][0]["token"]
        client.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=tok(t0))
        wait_for(lambda: state_of(client, gid, t0)["game"]["to_move"] == 0, timeout=10)
    finally:
        del AGENTS["broken"]


def test_computer_against_computer_plays_to_the_end_by_itself(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "random"}, {"kind": "greedy"}], options={"rounds": 2})
    gid, spec = made["game"]["id"], made["spectator"]["token"]
    wait_for(lambda: state_of(client, gid, spec)["game"]["over"], timeout=20)
    g = state_of(client, gid, spec)["game"]
    assert g["result"] is not None and g["scores"] is not None and sum(g["result"]) == pytest.approx(1.0)


def play_to_end(client: TestClient, gid: str, tokens: list[str], rng: random.Random) -> dict[str, Any]:
    for _ in range(400):
        d = state_of(client, gid, tokens[0])
        if d["game"]["over"]:
            return d
        seat = d["game"]["to_move"]
        assert isinstance(seat, int)
        legal = state_of(client, gid, tokens[seat])["legal"]
        choice = rng.choice([a["text"] for a in legal if a["text"] != "peek"] or [legal[0]["text"]])
        r = client.post(f"/api/games/{gid}/actions", json={"action": choice}, headers=tok(tokens[seat]))
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_record_download_replays_and_is_withheld_while_secrets_are_in_play(client: TestClient) -> None:
    made = create(client, seed=5)
    gid = made["game"]["id"]
    tokens = [s["token"] for s in made["seats"]]
    assert "when it is over" in refused(client.get(f"/api/games/{gid}/record", headers=tok(tokens[0])), 409)
    end = play_to_end(client, gid, tokens, random.Random(2))
    r = client.get(f"/api/games/{gid}/record", headers=tok(made["spectator"]["token"]))
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = Record.from_json(r.json())
    assert rec.seed == 5 and rec.players == 2 and rec.seats == ["Player 1", "Player 2"]
    state = TOY.new_game(rec.players, rec.options, rec.seed)
    for a in rec.actions:
        state = state.apply(a)
    assert list(state.result() or ()) == rec.result == end["game"]["result"]
    assert len(rec.actions) == end["game"]["step"]


def test_a_record_file_can_be_imported_and_replayed(client: TestClient) -> None:
    made = create(client, seed=21, options={"rounds": 1})
    gid = made["game"]["id"]
    tokens = [s["token"] for s in made["seats"]]
    play_to_end(client, gid, tokens, random.Random(5))
    record = client.get(f"/api/games/{gid}/record", headers=tok(tokens[0])).json()
    r = client.post("/api/records", json={"record": record})
    assert r.status_code == 201, r.text
    imported = r.json()
    new_id, spec = imported["game"]["id"], imported["spectator"]["token"]
    assert imported["game"]["over"] and imported["game"]["step"] == len(record["actions"])
    assert imported["spectator"]["replay"] == f"/game/{new_id}/replay#t={spec}"
    assert [x["kind"] for x in imported["game"]["seats"]] == ["record", "record"]
    mid = client.get(f"/api/games/{new_id}/replay?step=3", headers=tok(spec))
    assert mid.status_code == 200 and "zq0x" not in mid.text and "zq1x" not in mid.text  # spectators' view
    assert client.get(f"/api/games/{new_id}/record", headers=tok(spec)).json()["actions"] == record["actions"]
    # bad records are refused with the reason and make nothing
    before = count_games(client)
    broken = dict(record, actions=record["actions"][:2] + ["place nowhere"])
    assert "step 3" in refused(client.post("/api/records", json={"record": broken}), 422)
    assert "format" in refused(client.post("/api/records", json={"record": {"format": "x"}}), 422)
    assert "unknown ruleset" in refused(client.post("/api/records", json=dict(record, ruleset="chess")), 422)
    refused(client.post("/api/records", json=[1]), 422)
    assert count_games(client) == before


def test_record_of_a_game_without_secrets_is_available_during_play(client: TestClient) -> None:
    made = create(client, ruleset="kingdom", seats=[{"kind": "human"}, {"kind": "human"}], seed=3)
    gid = made["game"]["id"]
    d = state_of(client, gid, made["seats"][0]["token"])
    if d["game"]["has_secrets"]:
        pytest.skip("kingdom has hidden information now")
    r = client.get(f"/api/games/{gid}/record", headers=tok(made["seats"][0]["token"]))
    assert r.status_code == 200 and r.json()["format"] == "conquest-record/1"
    assert len(r.json()["actions"]) == d["game"]["step"]


def test_replay_step_by_step(client: TestClient) -> None:
    made = create(client)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    client.post(f"/api/games/{gid}/actions", json={"action": "place west"}, headers=tok(t0))
    r0 = client.get(f"/api/games/{gid}/replay?step=0", headers=tok(t0)).json()
    r3 = client.get(f"/api/games/{gid}/replay?step=3", headers=tok(t0)).json()
    assert r0["step"] == 0 and r0["total"] == 3 and r0["to_move"] == "chance" and r0["log"] == []
    assert r3["view"]["owner"][3] == 0 and [e["notation"] for e in r3["log"]][2] == "place west"
    assert r0["board"]["map"]["regions"][0]["polygon"]
    refused(client.get(f"/api/games/{gid}/replay?step=4", headers=tok(t0)), 422)
    refused(client.get(f"/api/games/{gid}/replay?step=-1", headers=tok(t0)), 422)
    refused(client.get(f"/api/games/{gid}/replay?step=abc", headers=tok(t0)), 422)


def test_restart_resumes_every_game_from_the_log(make_client: Any, db: str) -> None:
    first = make_client()
    made = create(first, seats=[{"kind": "human"}, {"kind": "human"}])
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    for a in ("place north", "place centre"):
        assert first.post(f"/api/games/{gid}/actions", json={"action": a}, headers=tok(t0)).status_code == 200
    before = state_of(first, gid, t0)
    first.__exit__(None, None, None)
    second = make_client()
    after = state_of(second, gid, t0)
    assert after["view"] == before["view"] and after["log"] == before["log"] and after["game"]["step"] == 4


def test_restart_resumes_agents_left_to_move(make_client: Any) -> None:
    first = make_client(agent_delay=30.0)  # the agent would think for ever in the first server
    made = create(first, seats=[{"kind": "human"}, {"kind": "random"}])
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    first.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=tok(t0))
    assert state_of(first, gid, t0)["game"]["to_move"] == 1
    first.__exit__(None, None, None)
    second = make_client()
    wait_for(lambda: state_of(second, gid, t0)["game"]["to_move"] == 0, timeout=10)


def test_my_games_lists_what_each_token_may_see(client: TestClient) -> None:
    a = create(client)
    b = create(client)
    r = client.post("/api/my-games", json={"games": [
        {"id": a["game"]["id"], "token": a["seats"][1]["token"]},
        {"id": b["game"]["id"], "token": a["seats"][0]["token"]},
        {"id": "gone", "token": "x"}]})
    games = r.json()["games"]
    assert games[0]["you"] == {"seat": 1, "name": "Player 2"} and games[0]["step"] == 2
    assert games[1]["error"] == "this token does not belong to this game"
    assert games[2]["error"].startswith("no game")
    refused(client.post("/api/my-games", json={"games": "all"}), 422)


def test_websocket_announces_each_change(client: TestClient) -> None:
    made = create(client)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": made["spectator"]["token"]}))
        first = ws.receive_json()
        assert first["type"] == "update"
        client.post(f"/api/games/{gid}/actions", json={"action": "place north"}, headers=tok(t0))
        nxt = ws.receive_json()
        assert nxt["type"] == "update" and nxt["revision"] > first["revision"]
        assert set(nxt) == {"type", "revision", "thinking"}  # no game content travels on the socket
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": "wrong"}))
        assert ws.receive_json() == {"type": "error", "error": "this token does not belong to this game"}


def test_the_page_and_its_files_are_served_by_the_app(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<script type="module" src="/static/app.js">' in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing from the internet
    assert "default-src 'self'" in page.headers["content-security-policy"]
    js = client.get("/static/app.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    modules = set(re.findall(r'from "\./([a-z0-9_-]+\.js)"', js.text))
    assert {"lobby.js", "game.js"} <= modules  # ES modules, no build step
    for name in ("app.js", *sorted(modules), "ui.js", "board.js", "actions.js", "panels.js", "log.js", "odds.js",
                 "calc.js"):
        part = client.get(f"/static/{name}")
        assert part.status_code == 200, name
        assert "innerHTML" not in part.text, name  # every server text goes in with textContent
    assert client.get("/game/abc").status_code == 200
    refused(client.get("/static/../server.py"), 404)
    refused(client.get("/static/nothing.js"), 404)


def test_schema_version_is_recorded(db: str) -> None:
    store = Store(db)
    assert store.schema_version() == SCHEMA_VERSION
    Store(db).close()  # a second start finds the tables and the version
    store.close()


def _ruleset_ids() -> list[str]:
    from conquest.web.server import available_rulesets
    return sorted(set(available_rulesets()) | {"kingdom", "narby", "nerath", "smallworld"})


@pytest.mark.parametrize("rid", _ruleset_ids())
def test_every_ruleset_is_playable_through_the_api(client: TestClient, rid: str) -> None:
    """Only the contract is used: a game of each ruleset, a person against the computer, for some moves."""
    data = client.get("/api/rulesets").json()
    if rid not in [r["id"] for r in data["rulesets"]]:
        pytest.skip(f"{rid} is not registered yet")
    info = next(r for r in data["rulesets"] if r["id"] == rid)
    n = info["min_players"]
    made = create(client, ruleset=rid, seats=[{"kind": "human"}] + [{"kind": "random"}] * (n - 1), seed=1)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    rng = random.Random(4)
    played = 0
    for _ in range(25):
        try:
            wait_for(lambda: (lambda g: g["over"] or g["to_move"] == 0)(state_of(client, gid, t0)["game"]),
                     timeout=20)
        except AssertionError:
            break
        d = state_of(client, gid, t0)
        if d["game"]["over"]:
            break
        if d["game"]["to_move"] != 0:
            continue  # a lone pass the server answered for the seat meanwhile (docs/web.md)
        assert d["legal"], "the seat to move has legal actions"
        a = rng.choice(d["legal"])["text"]
        r = client.post(f"/api/games/{gid}/actions", json={"action": a, "step": d["game"]["step"]}, headers=tok(t0))
        if r.status_code == 409 and d["answered_for_you"]:
            continue  # the same race: the pass was answered for it first
        assert r.status_code == 200, r.text
        played += 1
    assert played > 0
    d = state_of(client, gid, t0)
    assert d["board"] is None or d["board"]["map"]["regions"]
    assert client.get(f"/api/games/{gid}/replay?step=3", headers=tok(t0)).status_code == 200


def test_database_location_from_argument_environment_or_user_data_dir(monkeypatch: Any, tmp_path: Any) -> None:
    from conquest.web.storage import normalise_url
    monkeypatch.setenv("CONQUEST_DB", "sqlite:///from-env.sqlite3")
    assert normalise_url(None) == "sqlite:///from-env.sqlite3"
    assert normalise_url(str(tmp_path / "g.db")) == f"sqlite:///{tmp_path / 'g.db'}"
    monkeypatch.delenv("CONQUEST_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert normalise_url(None) == f"sqlite:///{tmp_path / 'data' / 'conquest' / 'games.sqlite3'}"
    url = normalise_url("postgresql://u@h/db")
    assert url in ("postgresql+psycopg://u@h/db", "postgresql://u@h/db")


def test_each_game_has_a_rules_page(client: TestClient) -> None:
    page = client.get("/rules/narby")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<h1>" in page.text and "<script" not in page.text
    refused(client.get("/rules/nothing"), 404)
    refused(client.get("/rules/..%2Fweb"), 404)


def test_the_rules_pages_travel_with_the_package() -> None:
    """An installed package has no docs/ folder beside it: the pages are read from conquest/web/rules, a link to
    docs/rules that pyproject.toml ships as package data, so a wheel carries the documents themselves."""
    import tomllib
    from importlib.resources import files
    from pathlib import Path

    from conquest.core.registry import package_dir, rulesets
    root = Path(__file__).resolve().parents[2]
    for rid, rs in rulesets().items():
        if (root / "docs" / "rules" / f"{rid}.md").is_file():
            packaged = files("conquest.web") / "rules" / f"{rid}.md"
            assert packaged.read_text(encoding="utf-8") == (root / "docs" / "rules" / f"{rid}.md").read_text("utf-8")
        else:  # a game made as one package (conquest new) keeps its pages in it
            assert (package_dir(rs) / "rules.md").is_file() and (package_dir(rs) / "howto.md").is_file(), rid
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert "rules/*.md" in project["tool"]["setuptools"]["package-data"]["conquest.web"]
    assert {"rules.md", "howto.md"} <= set(project["tool"]["setuptools"]["package-data"]["*"])
