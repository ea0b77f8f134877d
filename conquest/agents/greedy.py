from __future__ import annotations

import random

from conquest.agents.base import Agent, deadline_clock, register
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
    """One-ply lookahead on the ruleset's evaluation; ties are broken at random. Given a deadline, it weighs the
    actions in a random order and stops when the deadline passes, playing the best of those weighed (at least
    ``QUICK`` of them; with the deadline already passed at the start, exactly ``QUICK``: ``quick_choice``)."""

    id = "greedy"
    honours_deadline = True

    def choose(self, state: State, rng: random.Random, deadline: float | None = None) -> Action:
        seat = state.to_move
        assert seat is not None and seat >= 0
        actions = list(state.legal_actions())
        if len(actions) == 1:
            return actions[0]
        if deadline is not None:
            if deadline_clock() >= deadline:
                return quick_choice(state, rng)
            rng.shuffle(actions)  # an interrupted weighing is then a random sample
        best: list[Action] = []
        best_value = float("-inf")
        for i, a in enumerate(actions):
            v = expected_value(state.apply_unchecked(a), seat)
            if v > best_value + 1e-12:
                best_value, best = v, [a]
            elif abs(v - best_value) <= 1e-12:
                best.append(a)
            if deadline is not None and i + 1 >= QUICK and deadline_clock() >= deadline:
                break
        return best[rng.randrange(len(best))]
