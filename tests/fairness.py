"""Shared checks of fair play: a determinization agrees with the seat's view, and agents decide the same from
two referee states that differ only in what the seat to move cannot see."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from conquest.agents import decide, get_agent
from conquest.core.chance import random_playout
from conquest.core.game import CHANCE, State

AGENT_SPECS = ["random", "greedy", "mcts:iterations=24:rollout=6", "ismcts:iterations=24:rollout=4"]


def find_state(start: State, rng: random.Random, want: Callable[[State], bool], tries: int = 4000) -> State:
    """A decision reached by random play from ``start`` where ``want`` holds."""
    s = start
    for _ in range(tries):
        if s.to_move is None:
            s = start
        if s.to_move is not None and s.to_move != CHANCE and want(s):
            return s
        s, _ = random_playout(s, rng, 1)
    raise AssertionError("no such state reached by random play")


def assert_views_kept(state: State, seeds: int = 5) -> None:
    for seat in range(state.players):
        for k in range(seeds):
            d = state.determinize(seat, random.Random(k))
            assert d is not state
            assert d.view(seat) == state.view(seat), f"seat {seat}: the determinization changes its view"


def assert_same_decisions(a: State, b: State, seeds: int = 2) -> None:
    seat = a.to_move
    assert seat is not None and seat >= 0 and b.to_move == seat
    assert a.view(seat) == b.view(seat), "the two states must look the same to the seat to move"
    assert a.to_json() != b.to_json(), "the two states must differ in a hidden part"
    for spec in AGENT_SPECS:
        for k in range(seeds):
            da = decide(get_agent(spec), a, random.Random(k))
            db = decide(get_agent(spec), b, random.Random(k))
            assert da == db, f"{spec} decides differently from what it cannot see"


def playable(state: State, seat: int, steps: int = 200) -> Any:
    """A determinization plays on without errors."""
    d = state.determinize(seat, random.Random(0))
    return random_playout(d, random.Random(1), steps)
