"""A spectator's link is shared with watchers: per ruleset, what a spectator receives (the game payload with its
``log`` and ``last_chance``, ``GET /log``, ``GET /replay`` at every step) names nothing that ``view(None)``
hides, and no more than some seat sees. A secret is a text value of the referee's state (``to_json()``) that
the spectator's view does not show anywhere (a card in a hand, a facedown Guardian tile, a deck's order)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conquest.core.jsondoc import flatten as _flatten
from conquest.core.registry import rulesets
from tests.web.conftest import create, tok


def _texts(doc: Any) -> set[str]:
    return {v for v in _flatten(doc).values() if isinstance(v, str)}


def secrets(state: Any) -> set[str]:
    """Text values of the full state that appear nowhere in the spectator's view."""
    return _texts(state.to_json()) - _texts(state.view(None)) - {""}


def leaks(entries: list[dict[str, Any]], secrets_after: list[set[str]],
          public: set[int]) -> list[str]:
    """Chance entries (draws, deals, facedown tiles: nobody chose them) that name a secret of the state they
    lead to, unless every seat reads them (a card played face up at once)."""
    return [e["text"] for e in entries
            if e["chance"] and e["text"] is not None and e["step"] not in public
            and set(e["text"].split()) & secrets_after[e["step"]]]


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_a_spectator_receives_nothing_that_its_view_hides(client: TestClient, rid: str) -> None:
    rs = rulesets()[rid]
    n = rs.default_players()
    made = create(client, rid, [{"kind": "human"}] * n)
    gid, spec = made["game"]["id"], made["spectator"]["token"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    games = client.app.state.games  # type: ignore[attr-defined]
    rng = random.Random(7)
    for _ in range(rs.test_settings.spectator_steps):
        live = games.load(gid)
        seat = live.state.to_move
        if seat is None:
            break
        legal = client.get(f"/api/games/{gid}/legal", headers=tok(tokens[seat])).json()["legal"]
        r = client.post(f"/api/games/{gid}/actions", headers=tok(tokens[seat]),
                        json={"action": rng.choice(legal)["text"], "step": live.next_step})
        assert r.status_code == 200, r.text
        payload = r.json()
        spectator = client.get(f"/api/games/{gid}", headers=tok(spec)).json()
        # last_chance: the latest draws and dice, only those the spectator's own log shows
        shown = [e["text"] for e in spectator["log"] if e["chance"] and e["text"] is not None]
        assert spectator["last_chance"] == shown[len(shown) - len(spectator["last_chance"]):]
        assert payload["game"] == spectator["game"]
    live = games.load(gid)
    states = [rs.new_game(live.row.players, live.row.options, live.row.seed)]
    for entry in live.log[:live.next_step]:
        states.append(states[-1].apply(entry.text))
    after = [secrets(st) for st in states[1:]]
    spectator = client.get(f"/api/games/{gid}", headers=tok(spec)).json()
    assert spectator["view"] == states[-1].view(None)
    log = client.get(f"/api/games/{gid}/log", headers=tok(spec)).json()["log"]
    assert log == spectator["log"]
    seat_logs = [client.get(f"/api/games/{gid}/log", headers=tok(t)).json()["log"] for t in tokens.values()]
    public = {e["step"] for e in log if all(sl[e["step"]]["text"] is not None for sl in seat_logs)}
    assert not leaks(log, after, public), f"{rid}: the spectator's log names a hidden card or tile"
    assert not set(" ".join(spectator["last_chance"]).split()) & set().union(*after[-8:]) - {
        w for e in log if e["step"] in public for w in e["text"].split()}
    # the spectator reads no entry that some seat (other than the one who chose it) is refused
    for i, e in enumerate(log):
        if e["text"] is not None:
            assert all(sl[i]["text"] is not None for s, sl in enumerate(seat_logs) if s != e["seat"]), \
                f"{rid}: '{e['text']}' is shown to spectators but not to every seat"
    for k, state in enumerate(states):
        replay = client.get(f"/api/games/{gid}/replay?step={k}", headers=tok(spec)).json()
        assert replay["view"] == state.view(None)
        assert replay["log"] == log[:k]
    if rs.test_settings.hides_draws:  # games with hands: some draws must have been hidden from the spectator
        assert any(e["hidden"] for e in log)
