"""Issue 33 section 2: computer players stop their search at a deadline, and a turn's budget is shared out over its
decisions. Times are the thinking thread's CPU time (never more than the wall clock the deadline counts), with
generous margins; nothing here asserts a wall-clock duration."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from conquest.agents import Agent, decide, get_agent
from conquest.agents.base import LEVEL_SETTINGS
from conquest.agents.budget import RESERVE, TurnBudget, decide_within
from conquest.agents.greedy import QUICK, quick_choice
from conquest.core.chance import random_playout, sample_chance
from conquest.core.game import CHANCE, State
from conquest.core.registry import get_ruleset


def mid_game(rid: str, players: int | None, seed: int = 3) -> State:
    """A position half-way through a random game with several legal actions (Nerath: about a hundred)."""
    rng = random.Random(seed)
    start = get_ruleset(rid).new_game(players, {}, seed)
    _, length = random_playout(start, rng)
    s, _ = random_playout(start, rng, max_steps=length // 2)
    while s.to_move is not None and (s.to_move == CHANCE or len(s.legal_actions()) < 2):
        s = s.apply(sample_chance(s, rng)) if s.to_move == CHANCE else s.apply(s.legal_actions()[0])
    assert s.to_move is not None
    return s


@pytest.mark.parametrize("rid, players", [("kingdom", None), ("nerath", 4)])
@pytest.mark.parametrize("spec", ["mcts:iterations=999999999", "ismcts:iterations=1000000000", "ismcts:time=600",
                                  "greedy"])
def test_a_search_stops_at_its_deadline(rid: str, players: int | None, spec: str) -> None:
    state = mid_game(rid, players)
    agent = get_agent(spec)
    assert agent.honours_deadline
    cpu = time.thread_time()
    action = decide(agent, state, random.Random(1), deadline=time.perf_counter() + 0.2)
    used = time.thread_time() - cpu
    assert state.is_legal(action)
    assert used <= 0.2 + 1.0, used  # one iteration and the root's one-ply ordering beyond the deadline
    if spec.startswith(("mcts", "ismcts")):
        assert 1 <= agent.last_iterations < 999_999_999  # type: ignore[attr-defined]


@pytest.mark.parametrize("rid, players", [("kingdom", None), ("smallworld", 2), ("nerath", 4)])
def test_with_no_time_left_a_seat_plays_the_best_of_a_few_actions(rid: str, players: int | None) -> None:
    """A deadline already passed (the turn's budget is spent): no search, the best of QUICK sampled actions by the
    one-ply evaluation (``quick_choice``), for the searching agents and the greedy one alike."""
    state = mid_game(rid, players)
    for spec in ("ismcts:time=2.0", "greedy"):
        agent = get_agent(spec)
        det_rng = random.Random(5)
        det = state.determinize(state.to_move, det_rng)
        expected = quick_choice(det, det_rng)
        got = decide(agent, state, random.Random(5), deadline=time.perf_counter() - 1.0)
        assert got == expected
        if spec.startswith("ismcts"):
            assert agent.last_iterations == 0  # type: ignore[attr-defined]
    assert QUICK >= 8


def test_an_agent_that_takes_no_deadline_is_still_asked_the_old_way() -> None:
    class Plain(Agent):
        id = "plain"

        def choose(self, state: Any, rng: random.Random) -> Any:  # type: ignore[override]
            return state.legal_actions()[0]

    state = mid_game("kingdom", None)
    assert not Plain.honours_deadline
    assert decide(Plain(), state, random.Random(0), deadline=time.perf_counter() + 1) == state.legal_actions()[0]


@pytest.mark.parametrize("level, full", [("normal", 3), ("hard", 2)])
def test_a_turn_budget_is_shared_out_over_its_decisions(level: str, full: int) -> None:
    """Each decision may take min(per decision, what is left of the turn's search time / 2); the search time is the
    turn's budget less the reserve kept for the decisions after it (their one-ply ordering). The first decisions of
    a turn keep the level's whole per-decision budget (normal: 3 of 0.5 s; hard: 2 of 2 s)."""
    lv = LEVEL_SETTINGS[level]
    b = TurnBudget(lv.decision, lv.turn)
    given = []
    for _ in range(200):
        a = b.allowance()
        given.append(a)
        b.charge(a)
    assert given[:full] == [lv.decision] * full and given[full] < lv.decision
    assert all(x >= y for x, y in zip(given, given[1:]))  # never more than the decision before
    assert sum(given) <= lv.turn * (1 - RESERVE) + 1e-9
    assert given[-1] < 1e-6  # the search time is spent: the last ones only order their moves
    b.charge(5.0)
    assert b.allowance() == 0.0


def test_decide_within_charges_the_turn_and_hands_the_deadline_on() -> None:
    state = mid_game("kingdom", None)
    agent = get_agent("ismcts:time=600")
    b = TurnBudget(0.05, 0.2)
    cpu = time.thread_time()
    for _ in range(6):  # more decisions than the turn's budget pays for: the later ones play quick moves
        assert state.is_legal(decide_within(agent, state, random.Random(0), b))
    assert b.decisions == 6 and b.spent > 0
    assert b.allowance() < 0.05
    assert time.thread_time() - cpu <= 0.2 + 1.0
