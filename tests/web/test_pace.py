"""Pace: live or turn-based games, the move deadline per turn and what happens at it (conquest.web.pace), on a
fake clock. Issue 32: "A game has a pace: live, or turn-based with a move deadline per turn (for example 24 h).
[...] What happens at a deadline is the table's choice [...] (a computer plays that turn at a level, or the
seat is dropped and the game goes on as its rules allow)."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from conquest.core.game import State
from conquest.core.kinds import Action
from conquest.web.pace import Pace, game_pace_table
from conquest.web.storage import games_table
from tests.web.conftest import create, tok, with_toys
from tests.web.toy import ToyRuleset, ToyState

T0 = dt.datetime(2026, 11, 27, 12, 0, 0)


class Clock:
    """A fake UTC clock (no zone, as the pace tables keep instants)."""

    def __init__(self, now: dt.datetime = T0) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


# ---- a toy whose rules let a player leave -------------------------------------------------------------

class LeaveState(ToyState):
    """Toy, where the seat to move may ``leave``: it is out, its turns are skipped, it scores nothing."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.out = [False] * players

    def legal_actions(self) -> list[Action]:
        acts = super().legal_actions()
        tm = self.to_move
        return acts + [("leave",)] if tm is not None and tm >= 0 else acts

    def _apply(self, a: Action) -> None:
        if a[0] == "leave":
            self.out[self.turn] = True
            self.rolling = True
            return
        super()._apply(a)
        if a[0] == "roll":
            for _ in range(self.players):
                if not self.out[self.turn]:
                    break
                self.turn = (self.turn + 1) % self.players
                if self.turn == 0:
                    self.rounds_done += 1

    def scores(self) -> tuple[float, ...]:
        return tuple(0.0 if self.out[p] else s for p, s in enumerate(super().scores()))

    def _body_json(self) -> dict[str, Any]:
        return {**super()._body_json(), "out": self.out}

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> LeaveState:
        s = super()._from_body(data, players, options)
        assert isinstance(s, LeaveState)
        s.out = list(data["out"])
        return s


class LeaveRuleset(ToyRuleset):
    id = "leavetoy"
    title = "Toy with leaving"
    state_class = LeaveState

    def parse_action(self, text: str) -> Action:
        if text.strip() == "leave":
            return ("leave",)
        return super().parse_action(text)

    def drop_action(self, state: State, seat: int) -> Action | None:
        return ("leave",) if state.to_move == seat else None


LEAVE = LeaveRuleset()
LeaveState.ruleset = LEAVE


def rulesets() -> dict[str, Any]:
    return {**with_toys(), "leavetoy": LEAVE}


# ---- helpers ------------------------------------------------------------------------------------------

@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def paced(make_client: Callable[..., TestClient], clock: Clock) -> TestClient:
    # the checker's own task looks rarely: the tests call check() at the instants they choose
    return make_client(rulesets=rulesets, clock=clock, deadline_check_seconds=3600, agent_delay=0.0)


def pace_of(client: TestClient) -> Pace:
    p: Pace = client.app.state.pace  # type: ignore[attr-defined]
    return p


def game(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=tok(token))
    assert r.status_code == 200, r.text
    g: dict[str, Any] = r.json()["game"]
    return g


def turn_game(client: TestClient, ruleset: str = "toy", **pace: Any) -> dict[str, Any]:
    return create(client, ruleset, pace={"mode": "turn", "deadline_seconds": 3600, "level": "easy", **pace})


def games_count(client: TestClient) -> int:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(games_table)).scalar_one())


def iso(t: dt.datetime) -> str:
    return t.isoformat() + "Z"


# ---- choosing the pace --------------------------------------------------------------------------------

def test_a_game_is_live_unless_chosen_otherwise(paced: TestClient) -> None:
    made = create(paced)
    assert made["game"]["pace"]["mode"] == "live"
    assert made["game"]["pace"]["deadline_seconds"] is None
    assert pace_of(paced).due(T0 + dt.timedelta(days=365)) == []


def test_turn_based_game_has_a_deadline_per_turn_from_when_the_turn_began(paced: TestClient, clock: Clock) -> None:
    made = turn_game(paced)
    p = made["game"]["pace"]
    assert (p["mode"], p["deadline_seconds"], p["at_deadline"], p["level"]) == ("turn", 3600, "computer", "easy")
    assert made["game"]["to_move"] == 0 and p["turn_seat"] == 0
    assert p["deadline_at"] == iso(T0 + dt.timedelta(hours=1))
    gid, t0, t1 = made["game"]["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    clock.advance(600)  # seat 0 moves after ten minutes: seat 1's hour starts then
    for a in ("place north", "end"):
        assert paced.post(f"/api/games/{gid}/actions", json={"action": a}, headers=tok(t0)).status_code == 200
    g = game(paced, gid, t1)
    assert g["to_move"] == 1 and g["pace"]["turn_seat"] == 1
    assert g["pace"]["deadline_at"] == iso(T0 + dt.timedelta(seconds=600 + 3600))
    # several actions of one turn keep its deadline
    clock.advance(60)
    assert paced.post(f"/api/games/{gid}/actions", json={"action": "place south"}, headers=tok(t1)).status_code == 200
    assert game(paced, gid, t1)["pace"]["deadline_at"] == iso(T0 + dt.timedelta(seconds=600 + 3600))


def test_the_default_deadline_is_a_day_and_the_default_level_normal(paced: TestClient) -> None:
    made = create(paced, pace={"mode": "turn"})
    p = made["game"]["pace"]
    assert (p["deadline_seconds"], p["at_deadline"], p["level"]) == (86400, "computer", "normal")


@pytest.mark.parametrize(("pace", "reason"), [
    ({"mode": "slow"}, "pace.mode"),
    ({"mode": "turn", "deadline_seconds": 10}, "deadline_seconds"),
    ({"mode": "turn", "deadline_seconds": 31 * 86400}, "deadline_seconds"),
    ({"mode": "turn", "deadline_seconds": 3600.0}, "deadline_seconds"),
    ({"mode": "turn", "at_deadline": "drop"}, "cannot drop a seat"),
    ({"mode": "turn", "at_deadline": "pass"}, "at_deadline"),
    ({"mode": "turn", "level": "godlike"}, "pace.level: one of easy, normal, hard"),
    ({"mode": "live", "deadline_seconds": 3600}, "a live game has no deadline"),
    ({"mode": "turn", "when": 3}, "pace.when"),
])
def test_a_bad_pace_is_refused_and_no_game_is_made(paced: TestClient, pace: dict[str, Any], reason: str) -> None:
    before = games_count(paced)
    r = paced.post("/api/games", json={"ruleset": "toy", "seats": [{"kind": "human"}, {"kind": "human"}],
                                       "pace": pace})
    assert r.status_code == 422, r.text
    assert reason in r.json()["error"]
    assert games_count(paced) == before


def test_the_rulesets_say_which_can_drop_a_seat(paced: TestClient) -> None:
    info = {r["id"]: r["can_drop_seat"] for r in paced.get("/api/rulesets").json()["rulesets"]}
    assert info["leavetoy"] is True and info["toy"] is False
    # none of the four games has a rule for a player who leaves: at a deadline only the computer is offered
    for rid in ("kingdom", "narby", "smallworld", "nerath"):
        if rid in info:
            assert info[rid] is False
    r = paced.post("/api/games", json={"ruleset": "smallworld", "players": 2, "pace": {"mode": "turn",
                                                                                        "at_deadline": "drop"}})
    assert r.status_code == 422 and "cannot drop a seat" in r.json()["error"]


# ---- at the deadline ----------------------------------------------------------------------------------

def test_nothing_happens_before_the_deadline(paced: TestClient, clock: Clock) -> None:
    made = turn_game(paced)
    clock.advance(3599)
    assert pace_of(paced).check() == []
    assert game(paced, made["game"]["id"], made["seats"][0]["token"])["step"] == made["game"]["step"]


def test_at_the_deadline_a_computer_plays_the_turn_at_the_chosen_level(paced: TestClient, clock: Clock) -> None:
    made = turn_game(paced)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    step0 = made["game"]["step"]
    clock.advance(3600)
    assert pace_of(paced).check() == [gid]
    g = game(paced, gid, t0)
    assert g["to_move"] == 1  # seat 0's whole turn was played (to its end and the die)
    log = paced.get(f"/api/games/{gid}/log", headers=tok(t0)).json()["log"]
    mine = [e["notation"] for e in log[step0:] if e["seat"] == 0]
    assert mine and mine[-1] == "end"
    # the next seat's turn has its own deadline, from the instant the turn began, and the table counts it
    assert g["pace"]["turn_seat"] == 1 and g["pace"]["deadline_at"] == iso(clock.now + dt.timedelta(hours=1))
    assert g["pace"]["missed"] == 1
    assert pace_of(paced).check() == []  # played once


def test_a_move_just_before_the_deadline_is_the_players(paced: TestClient, clock: Clock) -> None:
    made = turn_game(paced)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    clock.advance(3599)
    assert paced.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=tok(t0)).status_code == 200
    clock.advance(2)
    assert pace_of(paced).check() == []
    log = paced.get(f"/api/games/{gid}/log", headers=tok(t0)).json()["log"]
    assert [e["notation"] for e in log if e["seat"] == 0] == ["end"]


def test_at_the_deadline_the_seat_is_dropped_where_the_rules_allow(paced: TestClient, clock: Clock) -> None:
    made = turn_game(paced, "leavetoy", at_deadline="drop", level=None)
    assert made["game"]["pace"]["at_deadline"] == "drop" and made["game"]["pace"]["level"] is None
    gid, t1 = made["game"]["id"], made["seats"][1]["token"]
    clock.advance(3600)
    assert pace_of(paced).check() == [gid]
    log = paced.get(f"/api/games/{gid}/log", headers=tok(t1)).json()["log"]
    assert [e["notation"] for e in log if e["seat"] == 0] == ["leave"]
    g = game(paced, gid, t1)
    assert g["to_move"] == 1
    # the game goes on without seat 0: after seat 1's turn it is seat 1's again
    for a in ("end",):
        assert paced.post(f"/api/games/{gid}/actions", json={"action": a}, headers=tok(t1)).status_code == 200
    assert game(paced, gid, t1)["to_move"] == 1


def test_a_turn_of_a_game_over_or_of_a_computer_has_no_deadline(paced: TestClient, clock: Clock) -> None:
    made = create(paced, seats=[{"kind": "easy"}, {"kind": "easy"}], pace={"mode": "turn", "level": "easy"})
    gid, spect = made["game"]["id"], made["spectator"]["token"]
    deadline = time.monotonic() + 30
    while not game(paced, gid, spect)["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert game(paced, gid, spect)["pace"]["deadline_at"] is None
    clock.advance(10 * 86400)
    assert pace_of(paced).check() == []


def test_deadlines_survive_a_restart(make_client: Callable[..., TestClient], clock: Clock) -> None:
    first = make_client(rulesets=rulesets, clock=clock, deadline_check_seconds=3600)
    made = turn_game(first)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    first.__exit__(None, None, None)
    clock.advance(7200)
    # a new server on the same database: its own checker task finds the expired turn
    second = make_client(rulesets=rulesets, clock=clock, deadline_check_seconds=0.05)
    deadline = time.monotonic() + 20
    while game(second, gid, t0)["to_move"] != 1:
        assert time.monotonic() < deadline, "the checker did not play the expired turn"
        time.sleep(0.05)
    assert game(second, gid, t0)["pace"]["missed"] == 1


def test_of_two_processes_one_plays_an_expired_turn(make_client: Callable[..., TestClient], clock: Clock) -> None:
    a = make_client(rulesets=rulesets, clock=clock, deadline_check_seconds=3600)
    b = make_client(rulesets=rulesets, clock=clock, deadline_check_seconds=3600)
    made = turn_game(a)
    gid = made["game"]["id"]
    clock.advance(3600)
    ((g, seat, seen),) = pace_of(b).due()
    assert (g, seat) == (gid, 0)
    won: list[bool] = []
    threads = [threading.Thread(target=lambda p=p: won.append(p.claim(gid, 0, seen))) for p in (pace_of(a), pace_of(b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(won) == [False, True]
    store = a.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        missed = conn.execute(select(game_pace_table.c.missed).where(game_pace_table.c.game_id == gid)).scalar()
    assert missed == 1



def test_a_failing_turn_tracker_does_not_fail_the_committed_move(paced: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    made = turn_game(paced)
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]

    def broken(_gid: str) -> None:
        raise RuntimeError("database went away")
    monkeypatch.setattr(pace_of(paced), "_track", broken)
    r = paced.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=tok(t0))
    assert r.status_code == 200, r.text
    assert r.json()["game"]["to_move"] == 1


def test_a_small_world_turn_at_its_deadline_is_played_whole_by_the_computer(paced: TestClient, clock: Clock) -> None:
    made = create(paced, "smallworld", seats=[{"kind": "human"}, {"kind": "human"}],
                  pace={"mode": "turn", "deadline_seconds": 86400, "level": "easy"})
    gid, t0, t1 = made["game"]["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    first = made["game"]["to_move"]
    assert made["game"]["pace"]["turn_seat"] == first
    clock.advance(86400)
    assert pace_of(paced).check() == [gid]
    g = game(paced, gid, t0)
    assert g["to_move"] != first and g["pace"]["turn_seat"] == g["to_move"]
    log = paced.get(f"/api/games/{gid}/log", headers=tok(t1)).json()["log"]
    played = [e for e in log if e["seat"] == first]
    assert len(played) >= 2  # a race picked, regions conquered, the turn ended: several decisions of one turn
    assert g["pace"]["deadline_at"] == iso(clock.now + dt.timedelta(days=1))
