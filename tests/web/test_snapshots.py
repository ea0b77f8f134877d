"""Bounded rebuilds: a game in memory keeps its state every SNAPSHOT_EVERY steps, and replay, undo and
reloads start from the nearest one; the hidden parts of a state are found by walking state and view together."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings, strategies as st

import conquest.web.games as web_games
from conquest.web.games import _MISSING, _flatten, hidden_part
from tests.web.conftest import create, tok
from tests.web.test_api import play_to_end
from tests.web.toy import TOY, ToyState

EVERY = 5


WINDOW = 7


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_games, "SNAPSHOT_EVERY", EVERY)
    monkeypatch.setattr(web_games, "NARRATE_WINDOW", WINDOW)


def scratch_view(record: dict[str, Any], k: int, seat: int | None) -> Any:
    state = TOY.new_game(record["players"], record["options"], record["seed"])
    for text in record["actions"][:k]:
        state = state.apply(text)
    return state.view(seat)


def count_applies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the steps applied to toy states (checked or not)."""
    calls = [0]
    original = ToyState._apply

    def counted(self: ToyState, action: Any) -> Any:
        calls[0] += 1
        return original(self, action)

    monkeypatch.setattr(ToyState, "_apply", counted)
    # the page's odds flags try each legal action once (Ruleset.has_odds' default): not the replay counted here
    monkeypatch.setattr(type(TOY), "has_odds", lambda self, state, action: False)
    return calls


def test_replay_starts_from_the_nearest_snapshot_and_shows_the_same_states(
        client: TestClient, make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client, seed=4, options={"rounds": 4})
    gid, tokens = made["game"]["id"], [s["token"] for s in made["seats"]]
    play_to_end(client, gid, tokens, random.Random(2))
    record = client.get(f"/api/games/{gid}/record", headers=tok(tokens[0])).json()
    total = len(record["actions"])
    assert total > 3 * EVERY
    live = client.app.state.games.load(gid)  # type: ignore[attr-defined]
    assert sorted(live.snapshots) == list(range(0, total + 1, EVERY))
    calls = count_applies(monkeypatch)
    for k in range(total + 1):
        calls[0] = 0
        r = client.get(f"/api/games/{gid}/replay?step={k}", headers=tok(tokens[1]))
        assert calls[0] == k % EVERY  # only the steps after the snapshot are replayed
        assert r.status_code == 200 and r.json()["view"] == scratch_view(record, k, 1)
    # a restarted server (nothing in memory) rebuilds the snapshots from the log once
    again = make_client()
    live2 = again.app.state.games.load(gid)  # type: ignore[attr-defined]
    assert sorted(live2.snapshots) == sorted(live.snapshots)
    calls[0] = 0
    mid = again.get(f"/api/games/{gid}/replay?step={total - 2}", headers=tok(tokens[0]))
    # the state from its snapshot, and the seat's narrated log from the snapshot nearest NARRATE_WINDOW steps
    # before the end (older steps are told by their notation): never the whole game again
    narrated_from = max(k for k in range(0, total + 1, EVERY) if k <= total - WINDOW)
    assert calls[0] == (total - 2) % EVERY + (total - narrated_from)
    assert mid.json()["view"] == scratch_view(record, total - 2, 0)
    log = mid.json()["log"]
    assert all(e["text"] == e["notation"] for e in log[:narrated_from] if not e["hidden"])
    again_log = again.get(f"/api/games/{gid}/log", headers=tok(tokens[0])).json()["log"]
    first_log = client.get(f"/api/games/{gid}/log", headers=tok(tokens[0])).json()["log"]
    assert [e["text"] for e in again_log][narrated_from:] == [e["text"] for e in first_log][narrated_from:]


def test_an_imported_record_keeps_its_snapshots(client: TestClient) -> None:
    made = create(client, seed=8, options={"rounds": 3})
    gid, tokens = made["game"]["id"], [s["token"] for s in made["seats"]]
    play_to_end(client, gid, tokens, random.Random(3))
    record = client.get(f"/api/games/{gid}/record", headers=tok(tokens[0])).json()
    imported = client.post("/api/records", json=record).json()
    live = client.app.state.games.load(imported["game"]["id"])  # type: ignore[attr-defined]
    assert sorted(live.snapshots) == list(range(0, len(record["actions"]) + 1, EVERY))
    for k, state in live.snapshots.items():
        assert state.to_json() == TOY.state_from_json(state.to_json()).to_json()
        assert state.view(None) == scratch_view(record, k, None)


def test_undo_rebuilds_from_a_snapshot_and_drops_the_ones_after(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client, seed=5, options={"rounds": 6})
    gid, tokens = made["game"]["id"], [s["token"] for s in made["seats"]]
    games = client.app.state.games  # type: ignore[attr-defined]
    # play until a seat has placed an army right after a snapshot step, then undo it
    rng = random.Random(1)
    for _ in range(200):
        live = games.load(gid)
        seat = live.state.to_move
        assert seat is not None and seat >= 0
        legal = [a["text"] for a in client.get(f"/api/games/{gid}/legal", headers=tok(tokens[seat])).json()["legal"]]
        if live.next_step % EVERY == EVERY - 1 and any(t.startswith("place") for t in legal):
            break
        choice = rng.choice([t for t in legal if t != "peek"])
        assert client.post(f"/api/games/{gid}/actions", json={"action": choice},
                           headers=tok(tokens[seat])).status_code == 200
    else:
        raise AssertionError("no place action right before a snapshot step")
    step = live.next_step
    place = next(t for t in legal if t.startswith("place"))
    r = client.post(f"/api/games/{gid}/actions", json={"action": place}, headers=tok(tokens[seat]))
    assert r.status_code == 200
    assert step + 1 in games.load(gid).snapshots
    calls = count_applies(monkeypatch)
    r = client.post(f"/api/games/{gid}/undo", json={"count": 1}, headers=tok(tokens[seat]))
    assert calls[0] <= EVERY  # the kept part was not replayed from the start
    assert r.status_code == 200 and r.json()["game"]["step"] == step
    live = games.load(gid)
    assert step + 1 not in live.snapshots and max(live.snapshots) <= step
    record_actions = [a.text for a in live.log]
    assert live.state.to_json() == scratch_state(made, record_actions).to_json()


def scratch_state(made: dict[str, Any], actions: list[str]) -> Any:
    g = made["game"]
    state = TOY.new_game(g["players"], g["options"], g["seed"])
    for text in actions:
        state = state.apply(text)
    return state


# ---- the hidden parts: the same answer as comparing every leaf --------------------------------------

def by_leaves(full: Any, view: Any) -> frozenset[Any]:
    f, v = _flatten(full), _flatten(view)
    return frozenset((path, repr(val)) for path, val in f.items() if v.get(path, _MISSING) != val)


leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "b", ""]))
doc = st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                 st.dictionaries(st.sampled_from("xyz"), inner, max_size=3)),
                   max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(full=st.dictionaries(st.sampled_from("abc"), doc, max_size=3),
       view=st.dictionaries(st.sampled_from("abc"), doc, max_size=3))
def test_hidden_part_is_every_leaf_of_the_state_the_view_does_not_show(full: Any, view: Any) -> None:
    assert hidden_part(full, view) == by_leaves(full, view)
    assert hidden_part(full, full) == frozenset()
