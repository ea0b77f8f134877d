"""The Nerath computer players: the evaluation weighs battles at the calculator's exact odds, the greedy agent
weighs attack plans whole, budgets are counted in evaluations and iterations, and every agent plays legally."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquest.agents import decide, get_agent
from conquest.agents.greedy import MAX_PLAN_STEPS, plan_value
from conquest.agents.ismcts import ISMCTSAgent
from conquest.core.chance import sample_chance
from conquest.core.game import CHANCE, State
from conquest.core.jsondoc import merge_patch
from conquest.rulesets.nerath import RULESET, evaluation as ev
from conquest.rulesets.nerath.odds import NerathBattle


def make(patch: dict[str, Any], players: int = 4, **options: object) -> State:
    st = RULESET.new_game(players, {"board_setup": "empty", "events": "none", **options}, 0)
    doc = st.to_json()
    doc.pop("to_move")
    return RULESET.state_from_json(merge_patch(doc, patch))


# Karkoth holds n01 with 4 Footsoldiers and a Monster; next to it Nerath's n02 has 1 Footsoldier, n04 has 8 and a
# Monster. Karkoth (seat 0) is to move.
ARMY = {"footsoldier": 4, "monster": 1}
POSITION = {"pieces": {"n01": {"karkoth": ARMY}, "n02": {"nerath": {"footsoldier": 1}},
                       "n04": {"nerath": {"footsoldier": 8, "monster": 1}}},
            "control": {"n01": "karkoth"}, "movable": "all"}


def _attack(st: State, to: str) -> State:
    return st.apply(f"move n01 {to} footsoldier 4").apply(f"move n01 {to} monster 1")


def test_the_evaluation_prefers_a_clearly_winning_attack_to_a_losing_one() -> None:
    st = make(POSITION)
    assert st.to_move == 0
    before = RULESET.evaluate(st, 0)
    win, lose = _attack(st, "n02"), _attack(st, "n04")
    # the calculator's odds of the two battles: one clearly won, one clearly lost
    assert NerathBattle(["footsoldier"] * 4 + ["monster"], ["footsoldier"]).solve().attacker_wins > 0.95
    assert NerathBattle(["footsoldier"] * 4 + ["monster"], ["footsoldier"] * 8 + ["monster"]).solve(
    ).attacker_wins < 0.05
    assert RULESET.evaluate(win, 0) > before > RULESET.evaluate(lose, 0)
    # the other side sees it the other way round (a side's margin)
    assert RULESET.evaluate(win, 1) < RULESET.evaluate(st, 1) < RULESET.evaluate(lose, 1)
    assert RULESET.evaluate_all(win) == [RULESET.evaluate(win, p) for p in range(4)]


def test_a_declared_battle_is_worth_its_exact_odds_from_the_cache() -> None:
    counts = [3, 0, 0, 0, 1, 0, 0]     # 3 Footsoldiers and a Monster
    dfn = [2, 0, 0, 0, 0, 0, 0]
    exact = NerathBattle(["footsoldier"] * 3 + ["monster"], ["footsoldier"] * 2).solve()
    ev._ODDS.clear()
    got = ev.battle_odds(counts, dfn)
    assert got == (exact.attacker_wins, exact.expected_gold_lost["attacker"], exact.expected_gold_lost["defender"])
    solved = ev.stats["solved"]
    assert ev.battle_odds(counts, dfn) == got and ev.stats["solved"] == solved   # the second time from the cache


def test_a_capital_in_danger_costs_its_owner() -> None:
    """Nerath's Capital n07 held by 1 Footsoldier: an enemy army next to it lowers Nerath's side's value. What
    its conquest is worth: "If you conquer a land space that is an enemy Capital ..., you score 5 VP instead of
    1", the land, the owner's income halved (its Capital lost) and the Castle that stands on it."""
    base = {"pieces": {"n07": {"nerath": {"footsoldier": 1}}, "n05": {"nerath": {"footsoldier": 1}}},
            "movable": "all"}
    quiet = make(base)
    near_capital = make(merge_patch(base, {"pieces": {"n04": {"karkoth": {"footsoldier": 4}}},
                                           "control": {"n04": "karkoth"}}))
    assert RULESET.evaluate(near_capital, 1) < RULESET.evaluate(quiet, 1)
    swing = ev.conquest_swing(near_capital, _ix("n07"), 0)
    assert swing[0] == pytest.approx(ev.VP_POINTS * 5 + ev.LAND_POINTS + ev.CASTLE_POINTS)
    assert ev.conquest_swing(near_capital, _ix("n05"), 0)[0] == pytest.approx(ev.VP_POINTS * 1 + ev.LAND_POINTS)
    assert swing[3] == pytest.approx(-ev.LAND_POINTS + ev.CAPITAL_LOST - ev.CAPITAL_HELD - ev.CASTLE_POINTS)


def _ix(space: str) -> int:
    from conquest.rulesets.nerath.state import IX
    return IX[space]


# 2 Footsoldiers in n01 and 2 in k14 next to Nerath's n02 (2 Footsoldiers); n01's other neighbours n03 and n04 held
# by 3 Footsoldiers each
TWO_STACKS = {"pieces": {"n01": {"karkoth": {"footsoldier": 2}}, "k14": {"karkoth": {"footsoldier": 2}},
                         "n02": {"nerath": {"footsoldier": 2}}, "n03": {"nerath": {"footsoldier": 3}},
                         "n04": {"nerath": {"footsoldier": 3}}},
              "control": {"n01": "karkoth"}, "movable": "all"}


def test_plans_group_the_stacks_that_can_reach_a_space_and_weigh_them_whole() -> None:
    """The two stacks of ``TWO_STACKS`` can each reach n02: alone each is an even fight, together a good one;
    the plan moves both stacks, and is worth more than either single move."""
    st = make(TWO_STACKS)
    legal = list(st.legal_actions())
    plans = {tuple(p) for p in RULESET.plans(st, legal)}
    both = (("move", "n01", "n02", "footsoldier", 2), ("move", "k14", "n02", "footsoldier", 2))
    assert both in plans or both[::-1] in plans
    plan = next(list(p) for p in plans if set(p) == set(both))
    whole = plan_value(st, plan, 0)
    for a in both:
        assert whole > RULESET.evaluate(st.apply(a), 0)


def test_greedy_counts_one_evaluation_per_action_and_one_per_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """The greedy agent's budget: one evaluation per legal action and one per plan (a plan is played over at most
    MAX_PLAN_STEPS actions), and the old greedy weighs no plans."""
    st = make(TWO_STACKS)
    legal = list(st.legal_actions())
    n_plans = len(RULESET.plans(st, legal))
    assert n_plans >= 1 and all(len(p) <= MAX_PLAN_STEPS for p in RULESET.plans(st, legal))
    calls = {"evaluate": 0, "reference": 0}
    real, real_ref = type(RULESET).evaluate, type(RULESET).evaluate_reference

    def counted(self: Any, state: State, seat: int) -> float:
        calls["evaluate"] += 1
        return real(self, state, seat)

    def counted_ref(self: Any, state: State, seat: int) -> float:
        calls["reference"] += 1
        return real_ref(self, state, seat)
    monkeypatch.setattr(type(RULESET), "evaluate", counted)
    monkeypatch.setattr(type(RULESET), "evaluate_reference", counted_ref)
    a = decide(get_agent("greedy"), st, random.Random(1))
    assert st.is_legal(a)
    assert calls["evaluate"] == len(legal) + n_plans and calls["reference"] == 0
    calls["evaluate"] = 0
    decide(get_agent("greedy:old=1"), st, random.Random(1))
    assert calls["reference"] == len(legal) and calls["evaluate"] == 0


def test_the_search_keeps_its_iteration_budget_with_plans() -> None:
    st = make(POSITION)
    for n in (1, 7):
        agent = ISMCTSAgent(iterations=n)
        a = agent.choose(st.determinize(0, random.Random(3)), random.Random(3))
        assert st.is_legal(a) and agent.last_iterations == n
        assert agent.last_root is not None and sum(ch.visits for ch in agent.last_root.children.values()) == n


def test_with_plans_2_a_plan_is_a_child_of_the_tree_and_once_chosen_its_moves_are_played_in_turn() -> None:
    """``ismcts:plans=2`` (search over which stacks go where): the plan that moves both stacks of ``TWO_STACKS``
    into n02 is a child of the root, played whole in the tree; once the search has chosen a plan, the agent plays
    its first move, and its next decision is the plan's next move, played without searching again."""
    st = make(TWO_STACKS)
    agent = ISMCTSAgent(iterations=40, plans=2)
    agent.choose(st.determinize(0, random.Random(3)), random.Random(3))
    root = agent.last_root
    assert root is not None and root.plans
    both = {("move", "n01", "n02", "footsoldier", 2), ("move", "k14", "n02", "footsoldier", 2)}
    plan = next(p for p in root.plans if set(p) == both)
    assert root.children[plan].visits > 0
    agent._keep(st, 0, plan, root)  # the search's choice: this plan
    after = st.apply(plan[0])
    second = agent.choose(after.determinize(0, random.Random(4)), random.Random(4))
    assert second == plan[1] and agent.last_iterations == 0


def test_once_the_turns_search_time_is_spent_a_searching_seat_plays_the_greedy_move() -> None:
    """The decisions after a turn's search time (``TurnBudget.allowance()`` is 0, time still left in the turn)
    are the greedy agent's one-ply choice with the plans, not a sample of a few actions."""
    from conquest.agents.budget import TurnBudget, decide_within
    st = make(TWO_STACKS)
    budget = TurnBudget(2.0, 10.0, spent=7.5)
    assert budget.allowance() == 0.0
    agent = ISMCTSAgent(time=2.0)
    got = decide_within(agent, st, random.Random(6), budget)
    assert got == decide(get_agent("greedy"), st, random.Random(6))
    assert agent.last_iterations == 0 and budget.decisions == 1


@pytest.mark.parametrize("players, seats", [
    (4, ["greedy", "greedy:old=1", "ismcts:iterations=2:plans=2", "greedy:plans=0"]),
    (2, ["ismcts:iterations=2", "greedy"]),
])
def test_the_agents_play_legal_games(players: int, seats: list[str]) -> None:
    st = RULESET.new_game(players, {"max_rounds": 2}, 5)
    agents = [get_agent(s) for s in seats]
    rng = random.Random(5)
    decisions = 0
    while not st.is_terminal():
        if st.to_move == CHANCE:
            st = st.apply(sample_chance(st, rng))
            continue
        seat = st.to_move
        assert seat is not None
        a = decide(agents[seat], st, rng)
        assert st.is_legal(a)
        st = st.apply(a)
        decisions += 1
    assert st.result() is not None and decisions > 20
