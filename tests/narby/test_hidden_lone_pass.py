"""Windows whose only answer is ``pass`` (docs/web.md, "Windows with one answer"): the web server answers them
for a person's seat when every other seat is a computer, as a pass chosen by the seat would be (same step,
same record, same log line for every reader); with another person in the game the seat is asked as before,
because an answer at once would tell that person that the seat's secret card does not fit the window.

Rules document 001: "A random bonus card is handed out to each Dragon" (a secret hand); the Pro-creator after
the settlement dice, the tribute cards and the reaction cards open such windows."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import client, create, db, make_client, tok, wait_for  # noqa: F401 - the web fixtures


def _settled(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    """The game as the seat sees it once the server has nothing left to play (its agents, its answers)."""
    state: dict[str, Any] = {}

    def still() -> bool:
        nonlocal state
        a = client.get(f"/api/games/{gid}", headers=tok(token)).json()
        b = client.get(f"/api/games/{gid}", headers=tok(token)).json()
        state = b
        return a["game"]["revision"] == b["game"]["revision"] and (b["game"]["over"] or b["game"]["to_move"] == 0
                                                                    or b["game"]["to_move_kind"] == "human")
    wait_for(still, timeout=30)
    return state


def _play(client: TestClient, seats: list[dict[str, Any]], decisions: int,
          seed: int) -> tuple[dict[str, Any], list[Any], int]:
    """Seat 0 plays at random (never a pass it could avoid); returns the game, seat 0's menus and how many
    of them were a lone pass."""
    made = create(client, "narby", seats=seats, seed=seed)
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    rng = random.Random(seed)
    menus, lone = [], 0
    for _ in range(decisions):
        d = _settled(client, gid, token)
        if d["game"]["over"]:
            break
        if d["game"]["to_move"] != 0:
            # another person's seat: answer for it at random, like seat 0
            other = next(s for s in made["seats"] if s["seat"] == d["game"]["to_move"])
            od = client.get(f"/api/games/{gid}", headers=tok(other["token"])).json()
            pick = rng.choice(od["legal"])["text"]
            client.post(f"/api/games/{gid}/actions", json={"action": pick, "step": od["game"]["step"]},
                        headers=tok(other["token"]))
            continue
        texts = [a["text"] for a in d["legal"]]
        menus.append(texts)
        if texts == ["pass"]:
            lone += 1
        choice = rng.choice([t for t in texts if t != "pass"] or texts)
        r = client.post(f"/api/games/{gid}/actions", json={"action": choice, "step": d["game"]["step"]},
                        headers=tok(token))
        assert r.status_code in (200, 409), r.text
    return made, menus, lone


def test_among_computers_a_lone_pass_is_answered_for_the_seat(client: TestClient) -> None:
    made, menus, lone = _play(client, [{"kind": "human"}, {"kind": "random"}], 120, seed=5)
    gid = made["game"]["id"]
    assert menus, "seat 0 was asked something"
    assert lone == 0, "a person among computer seats is never shown a window whose only answer is pass"
    # the answers given for it are its own passes: in the log every reader gets, told as a chosen pass is
    passes = {"lets it happen", "keeps the settlement dice as rolled", "plays no card"}
    for token in (made["seats"][0]["token"], made["spectator"]["token"]):
        log = client.get(f"/api/games/{gid}/log", headers=tok(token)).json()["log"]
        mine = [e for e in log if e["seat"] == 0 and e.get("notation") == "pass"]
        assert mine, "seat 0 passed (for itself or answered for it)"
        for e in mine:
            assert not e["hidden"] and any(p in e["text"] for p in passes), e


def test_with_another_person_the_seat_is_still_asked(client: TestClient) -> None:
    _made, _menus, lone = _play(client, [{"kind": "human"}, {"kind": "human"}], 150, seed=5)
    assert lone > 0, "with a person at the other seat, a lone pass is asked as before (its speed would tell)"
