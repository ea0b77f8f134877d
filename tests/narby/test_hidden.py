"""Narby's hidden part: the bonus card in each other seat's hand (``view`` shows "hidden"). A determinization
deals those cards afresh from the cards the seat cannot account for (docs/rules/narby.md, Hidden parts)."""

from __future__ import annotations

import random

from conquest.rulesets.narby import RULESET
from conquest.rulesets.narby.hidden import unseen_cards
from tests.fairness import assert_same_decisions, assert_views_kept, find_state, playable


def _holding_state():
    """Seat 0 to move while seat 1 holds a card."""
    return find_state(RULESET.new_game(2, {}, 0), random.Random(2),
                      lambda s: s.to_move == 0 and s.hand[1] is not None and len(s.legal_actions()) > 1)


def test_determinizations_keep_the_view_and_play_on() -> None:
    s = _holding_state()
    assert s.view(0)["hands"][1] == "hidden"
    assert_views_kept(s)
    playable(s, 0)


def test_a_card_seat_0_cannot_see_is_sometimes_in_seat_1s_hand_and_sometimes_in_the_deck() -> None:
    s = _holding_state()
    pool = unseen_cards(s, 0)
    assert s.hand[1] in pool and s.hand[0] not in pool and not set(s.played) & set(pool)
    seen = {s.determinize(0, random.Random(k)).hand[1] for k in range(400)}
    assert seen == set(pool)  # every card seat 0 cannot place turns up in seat 1's hand; the others are in the deck
    assert len(pool) > 1


def test_agents_decide_the_same_whatever_card_seat_1_holds() -> None:
    a = _holding_state()
    b = a.clone()
    b.hand[1] = next(c for c in unseen_cards(a, 0) if c != a.hand[1])
    assert_same_decisions(a, b)
