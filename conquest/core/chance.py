"""Sampling chance outcomes. The rules publish distributions; whoever runs a game holds the generator."""

from __future__ import annotations

import random

from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, Action, State


def pick_outcome(outcomes: list[tuple[Action, float]], rng: random.Random) -> Action:
    """One of ``[(outcome, probability)]``, drawn with one ``rng.random()``."""
    x = rng.random()
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if x < acc:
            return outcome
    return outcomes[-1][0]


def sample_chance(state: State, rng: random.Random) -> Action:
    """One outcome of the chance node ``state``, drawn from its published distribution."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ConquestError("chance node without outcomes")
    return pick_outcome(outcomes, rng)


def random_playout(state: State, rng: random.Random, max_steps: int = 200_000,
                   checked: bool = False) -> tuple[State, int]:
    """Uniform random play (chance from its distribution) until the end or ``max_steps``; returns the state
    reached and the number of steps. Benchmarks, property tests and search rollouts use it; ``checked`` plays
    through the checked ``apply`` (what a server pays) instead of ``apply_unchecked``."""
    steps = 0
    while state.to_move is not None and steps < max_steps:
        if state.to_move == CHANCE:
            a = sample_chance(state, rng)
        else:
            acts = state.legal_actions()
            a = acts[rng.randrange(len(acts))]
        state = state.apply(a) if checked else state.apply_unchecked(a)
        steps += 1
    return state, steps
