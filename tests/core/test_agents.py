"""Agent specs, the fair runner call, ISMCTS, and tournaments."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conquest.agents import LEVELS, AgentSpecError, ISMCTSAgent, decide, get_agent, split_seats
from conquest.analysis.tournament import schedule, tournament, wilson
from conquest.core.chance import random_playout
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset, rulesets

ROOT = Path(__file__).resolve().parents[2]


# ---- specs -------------------------------------------------------------------------------------------
def test_specs_set_parameters_and_levels_name_specs() -> None:
    a = get_agent("ismcts:time=0.25:rollout=3")
    assert isinstance(a, ISMCTSAgent) and a.time == 0.25 and a.rollout == 3 and a.iterations == 0
    assert get_agent("mcts:iterations=800").iterations == 800  # type: ignore[attr-defined]
    assert a.spec == "ismcts:time=0.25:rollout=3"
    only_iterations = get_agent("ismcts:iterations=50")
    assert only_iterations.iterations == 50 and only_iterations.time == 0  # type: ignore[attr-defined]
    for level, (spec, _help) in LEVELS.items():
        assert type(get_agent(level)) is type(get_agent(spec))
    assert get_agent("hard").time == 2.0  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec, words", [
    ("wizard", "unknown agent 'wizard'"),
    ("ismcts:speed=2", "agent 'ismcts' has no parameter 'speed'"),
    ("random:depth=2", "it takes none"),
    ("greedy:depth=2", "agent 'greedy' has no parameter 'depth' (parameters: old, plans)"),
    ("greedy:old=2", "old must be at most 1"),
    ("ismcts:time=-1", "time must be greater than 0"),
    ("ismcts:time=0", "time must be greater than 0"),
    ("ismcts:time=fast", "not a number"),
    ("mcts:iterations=1.5", "not an integer"),
    ("mcts:iterations=0", "at least 1"),
    ("ismcts:time", "expected parameter=value"),
    ("ismcts:prior=3", "prior must be at most 2"),
    ("ismcts:prior=-2", "prior must be at least -1"),
    ("ismcts:pick=0", "pick must be at least 1"),
    ("ismcts:pick=two", "not an integer"),
])
def test_bad_specs_are_one_line_errors(spec: str, words: str) -> None:
    with pytest.raises(AgentSpecError) as e:
        get_agent(spec)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_seat_lists_split_on_commas_and_keep_parameters_together() -> None:
    assert split_seats("ismcts:time=1.0,greedy") == ["ismcts:time=1.0", "greedy"]
    assert split_seats("ismcts:time=1,rollout=4,greedy, random") == ["ismcts:time=1:rollout=4", "greedy", "random"]


# ---- the runner gives a determinization -----------------------------------------------------------------
def test_decide_hands_the_agent_a_determinization_not_the_referees_state() -> None:
    rs = get_ruleset("narby")
    s = rs.new_game(2, {}, 0)
    rng = random.Random(5)
    while not (s.to_move == 0 and s.hand[1] is not None):  # type: ignore[attr-defined]
        s, _ = random_playout(s, rng, 1)
        if s.to_move is None:
            s = rs.new_game(2, {}, 0)

    class Spy(ISMCTSAgent):
        seen: list = []

        def choose(self, state, rng):  # type: ignore[no-untyped-def]
            Spy.seen.append(state)
            return state.legal_actions()[0]

    hands = set()
    for k in range(40):
        decide(Spy(), s, random.Random(k))
        assert Spy.seen[-1] is not s and Spy.seen[-1].view(0) == s.view(0)
        hands.add(Spy.seen[-1].hand[1])
    assert len(hands) > 1  # the spy sees sampled cards, not seat 1's real one


# ---- ISMCTS ----------------------------------------------------------------------------------------------
def _decision(rid: str, players: int | None, seed: int, steps: int = 40):
    """A decision of two or more actions some ``steps`` into a random game (fewer steps in a short game)."""
    rs = get_ruleset(rid)
    while True:
        s, _ = random_playout(rs.new_game(players, {}, seed), random.Random(seed), steps)
        rng = random.Random(seed)
        while s.to_move is not None and (s.to_move == CHANCE or len(s.legal_actions()) < 2):
            s, _ = random_playout(s, rng, 1)
        if s.to_move is not None or steps == 0:
            return s
        steps //= 2


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_ismcts_plays_legal_reproducible_moves_with_an_iteration_budget(rid: str) -> None:
    s = _decision(rid, get_ruleset(rid).test_settings.players, 2)
    agent = get_agent("ismcts:iterations=30")
    a1 = decide(agent, s, random.Random(1))
    a2 = decide(get_agent("ismcts:iterations=30"), s, random.Random(1))
    assert a1 == a2 and s.is_legal(a1)
    assert agent.last_iterations == 30  # type: ignore[attr-defined]


@pytest.mark.parametrize("rid, players", [("kingdom", 2), ("nerath", 4)])
def test_ismcts_with_priors_everywhere_and_informed_rollouts_is_reproducible(rid: str, players: int) -> None:
    s = _decision(rid, players, 3)
    spec = "ismcts:iterations=20:prior=2:pick=3"
    a1 = decide(get_agent(spec), s, random.Random(2))
    assert a1 == decide(get_agent(spec), s, random.Random(2)) and s.is_legal(a1)
    assert get_agent(spec).spec == spec


def test_the_prior_ranks_by_the_movers_one_ply_evaluation_and_informed_rollout_steps_pick_the_best_sampled() -> None:
    """The prior of a node is the greedy agent's order for the seat to move there (whoever it is); a rollout
    step with ``pick`` at least the number of legal actions plays greedy's (tie-free) choice."""
    from conquest.agents.greedy import expected_value
    rs = get_ruleset("nerath")
    s = _decision("nerath", 4, 5)
    seat = s.to_move
    legal = list(s.legal_actions())
    order = ISMCTSAgent(plans=0)._ranked(s, legal, seat)  # plans=0: single actions only (plans: test_nerath_ai)
    values = {a: expected_value(s.apply_unchecked(a), seat, max_outcomes=6) for a in legal}
    ranked = sorted(legal, key=lambda a: -order[a])
    assert [values[a] for a in ranked] == sorted(values.values(), reverse=True)
    assert order[ranked[0]] == 1.0 and all(0 < v <= 1 for v in order.values())
    agent = ISMCTSAgent(iterations=1, pick=len(legal))
    step = agent._best_of(s, legal, random.Random(0))
    assert rs.evaluate(s.apply_unchecked(step), seat) == max(rs.evaluate(s.apply_unchecked(a), seat) for a in legal)


def test_ismcts_ranks_nodes_below_the_root_only_when_asked() -> None:
    """``prior=0`` ranks the root's children alone; ``prior=2`` ranks every decision node that grew children,
    whoever moves there."""
    s = _decision("kingdom", 2, 4)

    def ranked_below_root(prior: int, state: Any = s) -> tuple[int, int]:
        agent = ISMCTSAgent(iterations=60, prior=prior, reuse=0)
        decide(agent, state, random.Random(0))
        grown = ranked = 0
        todo = list(agent.last_root.children.values())
        while todo:
            n = todo.pop()
            todo.extend(n.children.values())
            if n.children and n.seen is None:  # a decision node (chance nodes record whether they are seen)
                grown += 1
                ranked += n.order is not None
        return grown, ranked

    grown, ranked = ranked_below_root(0)
    assert grown > 0 and ranked == 0
    grown, ranked = ranked_below_root(2)
    assert grown > 0 and ranked == grown
    # the default (-1) is the ruleset's choice: the root only in Kingdom, every node in Nerath
    grown, ranked = ranked_below_root(-1)
    assert grown > 0 and ranked == 0
    grown, ranked = ranked_below_root(-1, _decision("nerath", 4, 2))
    assert grown > 0 and ranked == grown


def test_ismcts_respects_its_time_budget() -> None:
    import time
    s = _decision("kingdom", 2, 3)
    agent = get_agent("ismcts:time=0.2")
    t0 = time.perf_counter()
    decide(agent, s, random.Random(0))
    assert time.perf_counter() - t0 < 0.2 + 0.5  # the budget plus the one-ply ordering of the root
    assert agent.last_iterations >= 1  # type: ignore[attr-defined]


def test_ismcts_takes_a_win_in_one() -> None:
    """Kingdom, at the last decisions of a one-round game: when some moves end the game won and others do not,
    the search picks a winning one."""
    rs = get_ruleset("kingdom")
    rng = random.Random(1)
    checked = 0
    for g in range(30):
        s = rs.new_game(2, {"rounds": 1}, g)
        while s.to_move is not None and checked < 3:
            if s.to_move != CHANCE:
                me = s.to_move
                won = [(s.apply_unchecked(a).result() or (0, 0))[me] == 1.0 for a in s.legal_actions()]
                if any(won) and not all(won):
                    choice = decide(get_agent("ismcts:iterations=200"), s, random.Random(g))
                    assert (s.apply_unchecked(choice).result() or (0, 0))[me] == 1.0
                    checked += 1
            s, _ = random_playout(s, rng, 1)
    assert checked == 3


def test_tree_reuse_starts_from_the_predicted_subtree_only_when_nothing_happened_between() -> None:
    rs = get_ruleset("narby")
    agent = ISMCTSAgent(iterations=60)
    rng = random.Random(4)
    s = rs.new_game(2, {}, 1)
    reused = 0
    for _ in range(600):
        if s.to_move is None:
            break
        if s.to_move == CHANCE:
            s, _ = random_playout(s, rng, 1)
            continue
        kept = agent._kept
        a = decide(agent, s, rng)
        if kept is not None and kept[0] == s.to_move and kept[1] == s.view(s.to_move):
            reused += 1
        s = s.apply(a)
    assert reused > 0  # a dragon's several actions in a turn: the search went on from its own subtree


# ---- tournaments ------------------------------------------------------------------------------------------
def test_wilson_interval() -> None:
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(1.0, 10)[1] == 1.0 and wilson(0.0, 10)[0] == 0.0


def test_schedule_rotates_seats_evenly() -> None:
    two = schedule(["a", "b", "c"], 2, 4)
    assert {(p, tuple(seats)) for p, _, seats, _ in two if p == 0} == {(0, ("a", "b")), (0, ("b", "a"))}
    assert sum(1 for p, _, seats, s in two if p == 0 and s == 0) == 2
    four = schedule(["x", "y"], 4, 8)
    assert len(four) == 16  # x against three y, and y against three x
    assert [s for p, _, _, s in four if p == 0] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(seats.count(seats[s]) == 1 for _, _, seats, s in four)


def test_tournament_counts_every_game_and_rates_the_agents() -> None:
    data = tournament("kingdom", ["random", "greedy"], 6, seed=1, options={"rounds": 2})
    assert data["games"] == 6 and data["agents"] == ["random", "greedy"]
    (p,) = data["pairs"]
    assert p["a"] == "random" and p["b"] == "greedy" and p["a_wins"] + p["b_wins"] + p["draws"] == 6
    assert p["a_score"] == pytest.approx((p["a_wins"] + p["draws"] / 2) / 6)
    assert p["ci_low"] <= p["a_score"] <= p["ci_high"]
    assert (data["ratings"]["greedy"] > data["ratings"]["random"]) == (p["b_wins"] > p["a_wins"])


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conquest.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_cli_tournament_json() -> None:
    r = _cli("tournament", "kingdom", "--agents", "random,mcts:iterations=5", "--games", "2", "--json",
             "--option", "rounds=1")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert set(data) >= {"ruleset", "games", "agents", "pairs", "ratings"}
    assert set(data["pairs"][0]) >= {"a", "b", "games", "a_wins", "b_wins", "draws", "a_score", "ci_low",
                                     "ci_high"}


@pytest.mark.parametrize("args, words", [
    (["tournament", "kingdom", "--agents", "random,wizard"], "unknown agent 'wizard'"),
    (["tournament", "kingdom", "--agents", "random,ismcts:depth=3"], "no parameter 'depth'"),
    (["tournament", "kingdom", "--agents", "random,ismcts:time=-1"], "time must be greater than 0"),
    (["tournament", "kingdom", "--agents", "random,greedy", "--players", "3"], "kingdom is played by 2"),
    (["tournament", "kingdom", "--agents", "random"], "at least two agents"),
    (["simulate", "kingdom", "--seats", "ismcts:time=-2,greedy"], "time must be greater than 0"),
])
def test_cli_bad_input_is_one_line_and_a_non_zero_exit(args: list[str], words: str) -> None:
    r = _cli(*args)
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0], r.stderr


def test_ismcts_branches_only_on_chance_outcomes_the_observer_sees() -> None:
    """Narby deals each dragon a hidden bonus card: the dealt card is seen by its holder only."""
    rs = get_ruleset("narby")
    rng = random.Random(3)
    s = rs.new_game(2, {}, 0)
    while not (s.to_move == CHANCE and s.node == "draw" and s.k == 1):  # type: ignore[attr-defined]
        s, _ = random_playout(s, rng, 1)
        assert s.to_move is not None
    outcomes = s.chance_outcomes()
    assert not ISMCTSAgent._observed(s, outcomes, 0)  # seat 1's card: seat 0 cannot tell the outcomes apart
    assert ISMCTSAgent._observed(s, outcomes, 1)
    kingdom = get_ruleset("kingdom").new_game(2, {}, 0)
    assert kingdom.to_move == CHANCE and ISMCTSAgent._observed(kingdom, kingdom.chance_outcomes(), 0)  # dice


def test_a_parallel_tournament_plays_the_same_games() -> None:
    one = tournament("kingdom", ["random", "greedy"], 4, seed=2, options={"rounds": 1})
    two = tournament("kingdom", ["random", "greedy"], 4, seed=2, options={"rounds": 1}, jobs=2)
    assert one["pairs"] == two["pairs"] and one["ratings"] == two["ratings"]


def test_more_seats_pit_one_agent_against_copies_of_the_other() -> None:
    data = tournament("narby", ["random", "greedy"], 3, players=3, seed=4)
    assert [(p["a"], p["b"], p["games"]) for p in data["pairs"]] == [("random", "greedy", 3), ("greedy", "random", 3)]
    for p in data["pairs"]:
        assert p["a_wins"] + p["b_wins"] + p["draws"] == 3


@pytest.mark.parametrize("ruleset_id", sorted(rulesets()))
def test_evaluate_all_is_every_seats_evaluation(ruleset_id: str) -> None:
    """Search scores a leaf for all seats with one ``evaluate_all`` call: it must give each seat exactly its
    ``evaluate``, along random games (with the player counts its ``test_settings.evaluate_players`` names:
    Nerath also with 2 and 3 players, whose seats hold several realms)."""
    from conquest.core.chance import sample_chance
    rs = get_ruleset(ruleset_id)
    checked = 0
    for players in rs.test_settings.evaluate_players:
        # a short game is played again (another seed) until some positions of every kind were compared
        for seed in range(3, 23):
            rng = random.Random(seed + 2)
            st = rs.new_game(players, None, seed=seed)
            for step in range(1200):
                if st.to_move is None:
                    break
                if step % 5 == 0:
                    assert rs.evaluate_all(st) == [rs.evaluate(st, p) for p in range(st.players)]
                    checked += 1
                if st.to_move == CHANCE:
                    a = sample_chance(st, rng)
                else:
                    legal = st.legal_actions()
                    a = legal[rng.randrange(len(legal))]
                st = st.apply_unchecked(a)
            assert rs.evaluate_all(st) == [rs.evaluate(st, p) for p in range(st.players)]
            if checked > 20:
                break
    assert checked > 20
