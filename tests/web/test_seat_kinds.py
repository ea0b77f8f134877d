"""Issue 33 sections 1 and 2 through the web API: a seat's kind is looked up in the server's own table (never an
agent spec, never a path), computer seats stop thinking at their budgets, and one client's games think a bounded
number at once (429 beyond)."""

from __future__ import annotations

import gc
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conquest.agents import AGENTS, Agent
from conquest.agents.base import LEVEL_SETTINGS
from tests.policy_attack import crafted_pair, crafted_zip
from tests.web.conftest import create, tok, wait_for
from tests.web.test_api import count_games, refused, state_of


def seats_body(kind: str) -> dict[str, Any]:
    return {"ruleset": "kingdom", "seats": [{"kind": "human"}, {"kind": kind}]}


# ---- section 1: no path, no pickle -------------------------------------------------------------------------

def test_the_crafted_policy_never_runs_through_the_web(make_client: Any, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    folder = tmp_path / "policies"
    folder.mkdir()
    evil = crafted_zip(folder / "evil.zip", marker)
    crafted_pair(folder, "trap", marker)  # a description with a pickle for weights: left out of the table
    client = make_client(policies=str(folder))
    offered = client.get("/api/rulesets").json()
    assert offered["policies"] == [] and not any(k.startswith("policy") for k in offered["seat_kinds"])
    kinds = [f"policy:path={evil}", f"policy:path={folder / 'evil'}", "policy:evil", "policy:trap",
             f"policy:path={folder / 'trap.json'}", "policy:path=evil.zip", "policy"]
    for kind in kinds:
        refused(client.post("/api/games", json=seats_body(kind[:32])), 422)
    assert not marker.exists() and count_games(client) == 0


def test_no_seat_kind_reveals_whether_a_server_path_exists(client: TestClient) -> None:
    import shutil
    import tempfile
    short = Path(tempfile.mkdtemp(prefix="q", dir="/tmp"))  # a path short enough for a 32-character kind
    try:
        marker = short / "m"
        evil = crafted_zip(short / "e.zip", marker)
        kinds = (f"policy:path={evil}", f"policy:path={short}/e", f"policy:path={short}", "policy:path=/etc/passwd",
                 "policy:path=/etc/shadow", "policy:path=/nonexistent")
        assert all(len(k) <= 32 for k in kinds)
        answers = {kind: client.post("/api/games", json=seats_body(kind)).json() for kind in kinds}
        assert len({str(a) for a in answers.values()}) == 1, answers  # one answer, whatever the path
        assert "does not offer that seat kind" in next(iter(answers.values()))["error"]
        assert not marker.exists()
    finally:
        shutil.rmtree(short)


@pytest.mark.parametrize("kind", ["mcts:iterations=999999999", "ismcts:iterations=1000000000", "ismcts:time=2.0",
                                  "ismcts:time=60", "greedy:x=1", "random:", "HARD", " hard", "hard ", "sleepy",
                                  "policy:path=x", "human:1", ""])
def test_an_unknown_or_parameterised_seat_kind_is_refused(client: TestClient, kind: str) -> None:
    reason = refused(client.post("/api/games", json=seats_body(kind)), 422)
    assert reason == "seats.1: this server does not offer that seat kind; it offers: human, easy, normal, hard, " \
                     "random, greedy"
    assert count_games(client) == 0


def test_the_lobby_learns_the_levels_agents_and_policies(make_client: Any, tmp_path: Path) -> None:
    """``GET /api/rulesets``: ``seat_kinds`` (what this server accepts), ``levels`` {id: {spec, label, help,
    budgets}}, ``policies`` (installed, by name, with a one-line help)."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("safetensors")
    from conquest.rl.match import Match
    from conquest.rl.policy_agent import write_policy
    m = Match("kingdom", 2, {})
    rng = np.random.default_rng(0)
    write_policy(str(tmp_path / "tiny"), {"ruleset": "kingdom", "players": 2, "options": dict(m.options),
                                          "observation_size": m.obs_size, "actions": m.codec.size,
                                          "net": {"hidden": [8], "activation": "tanh"}, "help": "a tiny test net"},
                 {"hidden.0.weight": rng.normal(size=(8, m.obs_size)), "hidden.0.bias": np.zeros(8),
                  "out.weight": rng.normal(size=(m.codec.size, 8)), "out.bias": np.zeros(m.codec.size)})
    client = make_client(policies=str(tmp_path), agent_delay=0.0)
    data = client.get("/api/rulesets").json()
    assert data["seat_kinds"] == ["human", "easy", "normal", "hard", "random", "greedy", "policy:tiny"]
    assert {k: (v["label"], v["decision_seconds"], v["turn_seconds"]) for k, v in data["levels"].items()} == {
        "easy": ("Easy", 0.5, 3.0), "normal": ("Normal", 0.5, 3.0), "hard": ("Hard", 2.0, 10.0)}
    assert all(v["help"] and "\n" not in v["help"] for v in data["levels"].values())
    assert data["levels"]["hard"]["spec"] == LEVEL_SETTINGS["hard"].spec
    assert data["policies"] == [{"kind": "policy:tiny", "name": "tiny", "help": "a tiny test net",
                                 "ruleset": "kingdom", "players": 2}]
    # the installed policy plays (its moves are legal: every one passes the server's checked apply)
    made = create(client, "kingdom", seats=[{"kind": "policy:tiny"}, {"kind": "random"}])
    gid, spec = made["game"]["id"], made["spectator"]["token"]
    wait_for(lambda: state_of(client, gid, spec)["game"]["over"], timeout=60)
    # a policy for another game is refused
    assert "plays kingdom with 2 players" in refused(client.post("/api/games", json={
        "ruleset": "toy", "seats": [{"kind": "human"}, {"kind": "policy:tiny"}]}), 422)


# ---- section 2: bounded thinking ---------------------------------------------------------------------------

def test_the_most_expensive_seats_stop_their_search_at_their_budgets(make_client: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack of the issue (``mcts:iterations=999999999``), here enabled by the operator, and the ``hard``
    level: each decision's search stops by its deadline and each turn by its budget. Measured in the thinking
    thread's CPU time (never more than the wall clock the deadline counts) less its time in the garbage collector,
    with generous margins."""
    import conquest.web.live as live
    records: list[dict[str, Any]] = []
    real = live.decide_within
    collecting = threading.local()  # the thinking thread's CPU in the garbage collector, not in the search:
    # a full collection scans the whole test process (over a million objects late in the suite, 1-5 s)

    def collector(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collecting.start = time.thread_time()
        elif hasattr(collecting, "start"):
            collecting.total = getattr(collecting, "total", 0.0) + time.thread_time() - collecting.start

    def measured(agent: Any, state: Any, rng: Any, budget: Any) -> Any:
        allowance, spent = budget.allowance(), budget.spent
        cpu, gc_cpu = time.thread_time(), getattr(collecting, "total", 0.0)
        action = real(agent, state, rng, budget)
        gc_cpu = getattr(collecting, "total", 0.0) - gc_cpu
        records.append({"agent": agent.id, "seat": state.to_move, "allowance": allowance, "turn_spent": spent,
                        "cpu": time.thread_time() - cpu - gc_cpu, "gc": gc_cpu, "budget": budget,
                        "iterations": getattr(agent, "last_iterations", None)})
        return action

    monkeypatch.setattr(live, "decide_within", measured)
    gc.callbacks.append(collector)
    try:
        _play_the_most_expensive_seats(make_client, records)
    finally:
        gc.callbacks.remove(collector)


def _play_the_most_expensive_seats(make_client: Any, records: list[dict[str, Any]]) -> None:
    client = make_client(agents=["mcts:iterations=999999999"], think_limit=0.3, turn_limit=0.8)
    made = create(client, "kingdom", seats=[{"kind": "hard"}, {"kind": "mcts:iterations=999999999"}])
    spec = made["spectator"]["token"]
    wait_for(lambda: len(records) >= 12, timeout=120)
    client.__exit__(None, None, None)  # stop the game's thinking
    margin = 0.25  # one iteration, the root's ordering and the determinization, on a busy machine
    for r in records:
        assert r["allowance"] <= 0.3
        assert r["cpu"] <= r["allowance"] + margin, r
        if r["agent"] == "mcts":
            assert r["iterations"] < 999_999_999
    # both searched (more than one iteration), so the bound held on real searches, not on answers given at once
    assert {r["agent"] for r in records if (r["iterations"] or 0) > 1} == {"ismcts", "mcts"}
    turns: dict[int, float] = {}
    for r in records:  # each budget object is one turn
        turns[id(r["budget"])] = turns.get(id(r["budget"]), 0.0) + r["cpu"]
    assert max(turns.values()) <= 0.8 + margin
    assert spec


def test_one_clients_games_think_a_bounded_number_at_once(make_client: Any) -> None:
    """With one thinking game allowed per client: while a game's computer thinks, creating another game with a
    computer seat is refused with 429 (a game of people only is not); a game whose computer must answer meanwhile
    waits its turn (shown as thinking), and plays once the first has answered."""
    release = threading.Event()
    calls: list[int] = []

    class Blocker(Agent):
        id = "blocker"
        honours_deadline = True

        def choose(self, state: Any, rng: Any, deadline: float | None = None) -> Any:
            calls.append(state.to_move)
            release.wait(30)
            return state.legal_actions()[0]

    AGENTS["blocker"] = Blocker
    try:
        client = make_client(agents=["blocker", "random"], thinking_per_client=1, think_limit=30.0)
        waiting = create(client, seats=[{"kind": "human"}, {"kind": "blocker"}])  # people move first
        thinking = create(client, seats=[{"kind": "blocker"}, {"kind": "human"}])  # its computer thinks at once
        wait_for(lambda: len(calls) == 1)
        reason = refused(client.post("/api/games", json={"ruleset": "toy", "seats": [{"kind": "human"},
                                                                                     {"kind": "random"}]}), 429)
        assert "thinking" in reason and "at most 1" in reason
        create(client, seats=[{"kind": "human"}, {"kind": "human"}])  # people only: no computer to bound
        gid, t0 = waiting["game"]["id"], waiting["seats"][0]["token"]
        r = client.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=tok(t0))
        assert r.status_code == 200, r.text
        wait_for(lambda: state_of(client, gid, t0)["thinking"] == 1)  # its computer waits, shown as thinking
        time.sleep(0.3)
        assert len(calls) == 1  # ... and does not think while the other game does
        release.set()
        wait_for(lambda: len(calls) >= 2)
        wait_for(lambda: state_of(client, gid, t0)["game"]["to_move"] == 0, timeout=20)
        t1 = thinking["seats"][1]["token"]
        assert state_of(client, thinking["game"]["id"], t1)["game"]["step"] >= 1
        create(client, seats=[{"kind": "human"}, {"kind": "random"}])  # nothing thinks now: accepted again
    finally:
        release.set()
        del AGENTS["blocker"]


def test_a_stored_seat_kind_the_server_does_not_offer_plays_at_random(make_client: Any) -> None:
    """A game stored with a kind this server does not offer (an older server's `policy:path=FILE`, an unbounded
    search) is played by `random` after a restart: the stored text is never read as a spec or a path."""
    import shutil
    import tempfile

    from sqlalchemy import update

    from conquest.web.storage import seats_table
    short = Path(tempfile.mkdtemp(prefix="q", dir="/tmp"))  # the kind column holds 32 characters
    try:
        marker = short / "m"
        evil = crafted_zip(short / "e.zip", marker)
        for kind in (f"policy:path={evil}", "mcts:iterations=999999999"):
            assert len(kind) <= 32
            first = make_client(agent_delay=30.0)  # the first server's agent would wait for ever
            made = create(first, seats=[{"kind": "human"}, {"kind": "random"}])
            gid, t0 = made["game"]["id"], made["seats"][0]["token"]
            first.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=tok(t0))
            store = first.app.state.store  # type: ignore[attr-defined]
            with store.engine.begin() as conn:
                conn.execute(update(seats_table).where(seats_table.c.game_id == gid, seats_table.c.seat == 1)
                             .values(kind=kind))
            first.__exit__(None, None, None)
            second = make_client()
            wait_for(lambda: state_of(second, gid, t0)["game"]["to_move"] == 0, timeout=20)  # noqa: B023 - at once
            second.__exit__(None, None, None)
        assert not marker.exists()
    finally:
        shutil.rmtree(short)


def test_a_thinking_slot_goes_back_to_the_client_that_took_it() -> None:
    """A slot taken for a game is released to the same client even when the server has forgotten the game's owner
    meanwhile (the game ended, or the owners' table was full): no client is left waiting for ever (the review's
    slot leak), and a slot handed to a waiting game that then has nothing to play is given back."""
    from conquest.web.live import Advancer
    adv = Advancer(None, 5.0, 0.0, lambda gid, rev: None, per_client=1)  # type: ignore[arg-type]
    try:
        adv.schedule = lambda gid: None  # type: ignore[method-assign]  # no game loop: the bookkeeping only
        adv.own("g1", "10.0.0.1")
        adv.own("g2", "10.0.0.1")
        assert adv._acquire("g1") and not adv._acquire("g2")  # one slot: g2 waits in line
        adv.owners.pop("g1")  # the game ended (or its owner was forgotten) before its slot came back
        adv._release("g1")
        assert adv.slot_of == {"g2": "10.0.0.1"} and adv.holders == {"10.0.0.1": {"g2"}}  # handed to g2
        adv.owners.pop("g2")
        adv._idle("g2")  # g2 found nothing to play: its slot goes back too
        assert adv.holders == {} and adv.slot_of == {} and adv.busy("10.0.0.1") == 0
    finally:
        adv.stop()
