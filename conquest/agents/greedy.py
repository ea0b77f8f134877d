from __future__ import annotations

import random

from conquest.agents.base import Agent, register
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


@register
class GreedyAgent(Agent):
    """One-ply lookahead on the ruleset's evaluation; ties are broken at random."""

    id = "greedy"

    def choose(self, state: State, rng: random.Random) -> Action:
        seat = state.to_move
        assert seat is not None and seat >= 0
        actions = list(state.legal_actions())
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_value = float("-inf")
        for a in actions:
            v = expected_value(state.apply_unchecked(a), seat)
            if v > best_value + 1e-12:
                best_value, best = v, [a]
            elif abs(v - best_value) <= 1e-12:
                best.append(a)
        return best[rng.randrange(len(best))]
