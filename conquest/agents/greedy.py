from __future__ import annotations

import random
from collections.abc import Sequence

from conquest.agents.base import Agent, Param, deadline_clock, register
from conquest.core.game import CHANCE, Action, State


def expected_value(state: State, seat: int, max_outcomes: int = 24) -> float:
    """The ruleset's evaluation of ``state`` for ``seat``; at a chance node, its expectation over the
    published outcomes (when there are few of them)."""
    rs = state.ruleset
    if state.to_move == CHANCE:
        outcomes = state.chance_outcomes()
        if len(outcomes) <= max_outcomes:
            return sum(p * rs.evaluate(state.apply_unchecked(o), seat) for o, p in outcomes)
    return rs.evaluate(state, seat)


def expected_reference(state: State, seat: int, max_outcomes: int = 24) -> float:
    """As ``expected_value`` on the ruleset's reference evaluation (``Ruleset.evaluate_reference``: the one it
    had before its current one), for ``greedy:old=1``."""
    rs = state.ruleset
    if state.to_move == CHANCE:
        outcomes = state.chance_outcomes()
        if len(outcomes) <= max_outcomes:
            return sum(p * rs.evaluate_reference(state.apply_unchecked(o), seat) for o, p in outcomes)
    return rs.evaluate_reference(state, seat)


MAX_PLAN_STEPS = 24
"""A plan is weighed over at most this many of its actions."""


def plan_value(state: State, plan: Sequence[Action], seat: int, max_outcomes: int = 24) -> float:
    """The value for ``seat`` of the position after the plan's actions, played while they are legal and the seat
    is still to move (one evaluation, whatever the plan's length)."""
    s = state
    for a in plan[:MAX_PLAN_STEPS]:
        if s.to_move != seat or not s.is_legal(a):
            break
        s = s.apply_unchecked(a)
    return expected_value(s, seat, max_outcomes)


def with_plans(state: State, values: dict[Action, float], seat: int, max_outcomes: int = 24) -> dict[Action, float]:
    """``values`` (one-ply values of the legal actions) with each plan's first action raised to the plan's value
    when that is higher (``Ruleset.plans``: which pieces go where, weighed together)."""
    for plan in state.ruleset.plans(state, list(values)):
        first = plan[0]
        if first in values:
            v = plan_value(state, plan, seat, max_outcomes)
            if v > values[first]:
                values[first] = v
    return values


QUICK = 16
"""With no time left (a deadline already passed when the decision starts), an agent plays the best of this many
legal actions sampled at random, by the one-ply evaluation (``quick_choice``)."""


def quick_choice(state: State, rng: random.Random, k: int = QUICK) -> Action:
    """The best of ``k`` legal actions sampled at random by the mover's one-ply evaluation: what a computer player
    with no time left in its turn plays (its cost is ``k`` evaluations, whatever the number of legal actions)."""
    seat = state.to_move
    assert seat is not None and seat >= 0
    actions = list(state.legal_actions())
    if len(actions) > k:
        actions = rng.sample(actions, k)
    return max(actions, key=lambda a: expected_value(state.apply_unchecked(a), seat, max_outcomes=6))


@register
class GreedyAgent(Agent):
    """One-ply lookahead on the ruleset's evaluation, with the ruleset's plans weighed whole (``plans``: a plan's
    first action is worth the position after the whole plan); ties are broken at random. Given a deadline, it
    weighs the actions in a random order and stops when the deadline passes, playing the best of those weighed
    (at least ``QUICK`` of them; with the deadline already passed at the start, exactly ``QUICK``:
    ``quick_choice``). ``old=1`` is the agent as it was before plans and the ruleset's current evaluation
    (``Ruleset.evaluate_reference``, no plans): the reference for strength figures."""

    id = "greedy"
    honours_deadline = True
    params = {
        "old": Param(int, 0, "1: the earlier greedy (the ruleset's reference evaluation, no plans), for reference",
                     minimum=0, maximum=1),
        "plans": Param(int, 1, "1: weigh the ruleset's plans (groups of moves) whole; 0: single actions only",
                       minimum=0, maximum=1),
    }
    old: int
    plans: int

    def choose(self, state: State, rng: random.Random, deadline: float | None = None) -> Action:
        seat = state.to_move
        assert seat is not None and seat >= 0
        actions = list(state.legal_actions())
        if len(actions) == 1:
            return actions[0]
        value = expected_reference if self.old else expected_value
        if deadline is not None:
            if deadline_clock() >= deadline:
                return quick_choice(state, rng)
            rng.shuffle(actions)  # an interrupted weighing is then a random sample
        values: dict[Action, float] = {}
        for i, a in enumerate(actions):
            values[a] = value(state.apply_unchecked(a), seat)
            if deadline is not None and i + 1 >= QUICK and deadline_clock() >= deadline:
                break
        if self.plans and not self.old and (deadline is None or deadline_clock() < deadline):
            with_plans(state, values, seat)
        best: list[Action] = []
        best_value = float("-inf")
        for a, v in values.items():
            if v > best_value + 1e-12:
                best_value, best = v, [a]
            elif abs(v - best_value) <= 1e-12:
                best.append(a)
        return best[rng.randrange(len(best))]
