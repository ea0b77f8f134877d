"""The narrated log of the web app: every entry carries the sentence told to the reading seat (from its views),
its kind, dice and changed regions, and the notation (withheld where hidden); the narration is the same
whether it was kept by the commits or rebuilt from the database, and a failing narration never breaks the
log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from conquest.core.registry import get_ruleset
from tests.web.conftest import create, tok
from tests.web.toy import TOY


def log_of(client: TestClient, gid: str, token: str) -> list[dict[str, Any]]:
    r = client.get(f"/api/games/{gid}/log", headers=tok(token))
    assert r.status_code == 200, r.text
    return list(r.json()["log"])


def play_kingdom(client: TestClient, moves: int = 12) -> tuple[str, list[str], str]:
    made = create(client, "kingdom", [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    gid = made["game"]["id"]
    tokens = [s["token"] for s in made["seats"]]
    for _ in range(moves):
        d = client.get(f"/api/games/{gid}", headers=tok(tokens[0])).json()
        seat = d["game"]["to_move"]
        if not isinstance(seat, int):
            break
        legal = client.get(f"/api/games/{gid}", headers=tok(tokens[seat])).json()["legal"]
        pick = next((a for a in legal if a["text"].startswith(("recruit", "move", "from", "go"))), legal[0])
        r = client.post(f"/api/games/{gid}/actions", json={"action": pick["text"]}, headers=tok(tokens[seat]))
        assert r.status_code == 200, r.text
    return gid, tokens, made["spectator"]["token"]


def test_entries_carry_the_sentence_and_the_notation(client: TestClient) -> None:
    gid, tokens, spec = play_kingdom(client)
    log = log_of(client, gid, tokens[0])
    assert len(log) >= 10
    for e in log:
        assert e["notation"] and e["text"] and e["text"] != e["notation"]
        assert e["kind"] in ("move", "battle", "dice", "turn", "end")
        assert isinstance(e["changed"], list)
    rolls = [e for e in log if e["chance"]]
    assert rolls and all(e["dice"][0]["die"] == "d6" for e in rolls)
    # told to the reader: "You recruit" for Ann, "Ann recruits" for Bo and the spectators
    mine = next(e for e in log if e["seat"] == 0 and e["notation"].startswith("recruit"))
    theirs = next(e for e in log_of(client, gid, tokens[1]) if e["step"] == mine["step"])
    watched = next(e for e in log_of(client, gid, spec) if e["step"] == mine["step"])
    assert mine["text"].startswith("You recruit") and theirs["text"].startswith("Ann recruits")
    assert watched["text"] == theirs["text"]


def test_the_narration_rebuilt_from_the_database_is_the_same(make_client: Callable[..., TestClient]) -> None:
    first = make_client()
    gid, tokens, spec = play_kingdom(first)
    kept = {t: log_of(first, gid, t) for t in (*tokens, spec)}
    second = make_client()  # a new server on the same database: nothing cached
    for t, log in kept.items():
        assert log_of(second, gid, t) == log


def test_a_failing_narration_falls_back_to_the_notation(client: TestClient, monkeypatch: Any) -> None:
    def broken(self: Any, *a: Any, **k: Any) -> dict[str, Any]:
        raise RuntimeError("a bug in a ruleset's narration")

    monkeypatch.setattr(type(TOY), "narrate", broken)
    made = create(client)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/actions", json={"action": "place west"}, headers=tok(t0))
    assert r.status_code == 200, r.text
    entry = log_of(client, gid, t0)[-1]
    assert entry["notation"] == "place west" and entry["text"].endswith(": place west")


def test_the_default_narration_hides_what_the_seat_may_not_read() -> None:
    """The generic line (a ruleset's package without a ``narrate`` module) and a package's own both hide it."""
    from conquest.core import narration
    rs = get_ruleset("kingdom")
    st = rs.new_game(None, None, 1)
    view = st.view(0)
    names = rs.seat_names(2, {})
    assert narration.generic(view, None, view, 0, names)["text"] == "Chance decides something you cannot see"
    assert rs.narrate(view, None, view, 0)["text"] == "Something you cannot see happens"  # kingdom/narrate.py


def test_an_undo_goes_back_in_the_story_without_narrating_from_the_start(client: TestClient,
                                                                        monkeypatch: Any) -> None:
    made = create(client, "kingdom", [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    tokens = [s["token"] for s in made["seats"]]
    d = client.get(f"/api/games/{gid}", headers=tok(tokens[0])).json()
    seat = d["game"]["to_move"]
    t = tokens[seat]
    legal = client.get(f"/api/games/{gid}", headers=tok(t)).json()["legal"]
    move = next(a["text"] for a in legal if a["text"].startswith("move"))  # a move: the seat is still to act
    assert client.post(f"/api/games/{gid}/actions", json={"action": move}, headers=tok(t)).status_code == 200
    first = log_of(client, gid, tokens[1 - seat])
    rs = get_ruleset("kingdom")
    calls = [0]
    original = type(rs).new_game

    def counted(self: Any, *a: Any, **k: Any) -> Any:
        calls[0] += 1
        return original(self, *a, **k)

    monkeypatch.setattr(type(rs), "new_game", counted)
    r = client.post(f"/api/games/{gid}/undo", json={"count": 1}, headers=tok(t))
    assert r.status_code == 200, r.text
    calls[0] = 0
    after = log_of(client, gid, tokens[1 - seat])
    assert after == first[:-1] and calls[0] == 0
