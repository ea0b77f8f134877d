"""Small World's hidden part: "victory coins are kept face down" — a seat sees its own total only. A
determinization draws the other totals around the public estimate (docs/rules/smallworld.md, Hidden parts)."""

from __future__ import annotations

import random

from conquest.rulesets.smallworld import RULESET
from conquest.rulesets.smallworld.hidden import coin_range
from tests.fairness import assert_same_decisions, assert_views_kept, find_state, playable


def _state():
    return find_state(RULESET.new_game(2, {}, 0), random.Random(3),
                      lambda s: s.to_move == 0 and s.turn >= 2 and len(s.legal_actions()) > 1)


def test_determinizations_keep_the_view_and_play_on() -> None:
    s = _state()
    assert s.view(0)["seats"][1]["coins"] is None
    assert_views_kept(s)
    playable(s, 0)


def test_the_other_seats_coins_range_over_the_whole_public_estimate() -> None:
    s = _state()
    lo, hi = coin_range(s, 1)
    assert hi > lo
    drawn = {s.determinize(0, random.Random(k)).coins[1] for k in range(600)}
    assert drawn == set(range(lo, hi + 1))
    assert {s.determinize(0, random.Random(k)).coins[0] for k in range(20)} == {s.coins[0]}  # own total kept


def test_agents_decide_the_same_whatever_the_opponents_coins() -> None:
    a = _state()
    b = a.clone()
    b.coins = [a.coins[0], a.coins[1] + 7]
    assert_same_decisions(a, b)
