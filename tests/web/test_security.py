"""No client ever receives another seat's hidden information: not in the first state, the log, the legal
list, a replay, an undo, the game list or the live socket (the paths where game servers leak).

The toy game deals each seat a secret card, written ``zq<seat>x<value>`` in the referee's state, so a
leak of seat 1's card is the text ``zq1x`` in anything seat 0 or a spectator receives."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import create, tok


class Spy:
    """Fetches everything a token can fetch and checks that a forbidden text never appears in it."""

    def __init__(self, client: TestClient, gid: str, token: str, forbidden: list[str]) -> None:
        self.client, self.gid, self.token, self.forbidden = client, gid, token, forbidden
        self.seen = 0

    def check(self, response: Any) -> Any:
        text = response.text
        for f in self.forbidden:
            assert f not in text, f"{f!r} leaked in {response.request.url.path}: {text[:300]}"
        self.seen += 1
        return response.json()

    def everything(self) -> dict[str, Any]:
        c, g, h = self.client, self.gid, tok(self.token)
        d = self.check(c.get(f"/api/games/{g}", headers=h))
        self.check(c.get(f"/api/games/{g}/legal", headers=h))
        self.check(c.get(f"/api/games/{g}/log", headers=h))
        for k in range(d["game"]["step"] + 1):
            self.check(c.get(f"/api/games/{g}/replay?step={k}", headers=h))
        self.check(c.post("/api/my-games", json={"games": [{"id": g, "token": self.token}]}))
        rec = c.get(f"/api/games/{g}/record", headers=h)
        assert rec.status_code == 409  # the record holds every secret: not while the game is on
        self.check(rec)
        return d


def test_other_seats_and_spectators_never_see_a_secret_card(client: TestClient) -> None:
    made = create(client, seed=9)
    gid = made["game"]["id"]
    t0, t1, spec = made["seats"][0]["token"], made["seats"][1]["token"], made["spectator"]["token"]
    seat0 = Spy(client, gid, t0, ["zq1x", "deal 1"])
    seat1 = Spy(client, gid, t1, ["zq0x", "deal 0"])
    spectator = Spy(client, gid, spec, ["zq0x", "zq1x", "deal 0", "deal 1"])

    # the first state: each seat sees its own card only
    d0 = seat0.everything()
    d1 = seat1.everything()
    spectator.everything()
    assert d0["view"]["secret"][0].startswith("zq0x") and d0["view"]["secret"][1] is None
    assert d1["view"]["secret"][1].startswith("zq1x") and d1["view"]["secret"][0] is None
    deal_entries = [e for e in d0["log"] if e["chance"]]
    assert deal_entries[0]["notation"].startswith("deal 0") and deal_entries[1] == {
        "step": 1, "seat": None, "by": "chance", "chance": True, "hidden": True, "notation": None,
        "text": "Chance decides something you cannot see", "kind": "hidden", "changed": []}

    # moves, an undo, the end of a turn and a public die: checked after every step
    def act(token: str, a: str, path: str = "actions", body: Any = None) -> Any:
        r = client.post(f"/api/games/{gid}/{path}", json=body or {"action": a}, headers=tok(token))
        assert r.status_code == 200, r.text
        return r

    seat0.check(act(t0, "place north"))
    seat0.check(act(t0, "", "undo", {"count": 1}))
    for spy in (seat0, seat1, spectator):
        spy.everything()
    seat0.check(act(t0, "end"))
    d1 = seat1.everything()
    rolls = [e for e in d1["log"] if e["chance"] and not e["hidden"]]
    assert any(e["notation"].startswith("roll") for e in rolls)  # a die is public
    seat1.check(act(t1, "place south"))
    seat1.check(act(t1, "end"))
    for spy in (seat0, seat1, spectator):
        spy.everything()

    # the live socket carries no game content at all
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": t0}))
        msg = ws.receive_json()
        assert set(msg) == {"type", "revision", "thinking"}


def test_peeking_reveals_to_the_peeker_only_and_blocks_undo(client: TestClient) -> None:
    made = create(client, seed=11)
    gid = made["game"]["id"]
    t0, t1, spec = made["seats"][0]["token"], made["seats"][1]["token"], made["spectator"]["token"]
    r = client.post(f"/api/games/{gid}/actions", json={"action": "peek"}, headers=tok(t0))
    assert r.status_code == 200 and r.json()["view"]["secret"][1].startswith("zq1x")
    assert r.json()["undo"] == 0  # taking it back would un-see a secret
    Spy(client, gid, spec, ["zq0x", "zq1x"]).everything()
    Spy(client, gid, t1, ["zq0x"]).everything()


def test_secrets_of_past_steps_stay_hidden_in_the_replay_after_the_end(client: TestClient) -> None:
    """At the end the toy shows every card; replaying earlier steps must still hide them."""
    made = create(client, seed=13, options={"rounds": 1})
    gid = made["game"]["id"]
    tokens = [s["token"] for s in made["seats"]]
    rng = random.Random(3)
    while True:
        d = client.get(f"/api/games/{gid}", headers=tok(tokens[0])).json()
        if d["game"]["over"]:
            break
        seat = d["game"]["to_move"]
        legal = client.get(f"/api/games/{gid}/legal", headers=tok(tokens[seat])).json()["legal"]
        a = rng.choice([x["text"] for x in legal if x["text"] != "peek"])
        assert client.post(f"/api/games/{gid}/actions", json={"action": a},
                           headers=tok(tokens[seat])).status_code == 200
    assert d["view"]["secret"][1].startswith("zq1x")  # revealed at the end, by the rules of the toy
    total = d["game"]["step"]
    for k in range(total):
        r = client.get(f"/api/games/{gid}/replay?step={k}", headers=tok(tokens[0]))
        assert "zq1x" not in r.text and "deal 1" not in r.text
    # the full record is now available to everyone in the game
    assert client.get(f"/api/games/{gid}/record", headers=tok(tokens[0])).status_code == 200
