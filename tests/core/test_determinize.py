"""The contract's ``determinize``, for every registered ruleset by random play: at decisions along random games
a determinization for any seat keeps that seat's view, is a new state, leaves the referee's state unchanged,
round-trips through JSON, and plays on."""

from __future__ import annotations

import random

import pytest

from conquest.core.chance import random_playout
from conquest.core.game import CHANCE
from conquest.core.registry import rulesets

RULESETS = sorted(rulesets())


@pytest.mark.parametrize("rid", RULESETS)
def test_determinizations_keep_every_seats_view_along_a_random_game(rid: str) -> None:
    rs = rulesets()[rid]
    players = rs.max_players if rs.max_players <= 4 else rs.min_players
    rng = random.Random(7)
    state = rs.new_game(players, {}, 7)
    _, length = random_playout(state, random.Random(8))
    checked = 0
    due = True
    for step in range(length):
        if state.to_move is None:
            break
        due = due or step % max(1, length // 8) == 0
        if state.to_move != CHANCE and due:
            due = False
            before = state.to_json()
            for seat in range(players):
                d = state.determinize(seat, rng)
                assert d is not state and d.view(seat) == state.view(seat), f"{rid} step {step} seat {seat}"
                assert rs.state_from_json(d.to_json()).to_json() == d.to_json()
                random_playout(d, rng, 30)
            assert state.to_json() == before, "determinize changed the referee's state"
            checked += 1
        state, _ = random_playout(state, rng, 1)
    assert checked >= 3
