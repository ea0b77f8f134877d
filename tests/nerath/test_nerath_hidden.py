"""Nerath's hidden parts (``view``): other realms' Event hands and discards, their Treasure hands, every deck,
and facedown Guardian tiles. A determinization deals each pool of unseen cards or tiles back into piles of the
same sizes (docs/rules/nerath.md, Hidden parts)."""

from __future__ import annotations

import random

from conquest.rulesets.nerath import RULESET
from tests.fairness import assert_same_decisions, assert_views_kept, find_state, playable


def _state():
    """Seat 0 to move, with realms of other seats holding Event cards and facedown Guardians on the board."""
    def ok(s):
        return (s.to_move == 0 and s.phase != "deal" and len(s.legal_actions()) > 1
                and any(s.hands[r] and s.decks[r] for r in range(5) if s.seat_of[r] != 0))
    return find_state(RULESET.new_game(4, {}, 0), random.Random(4), ok)


def _other_realm(s):
    return next(r for r in range(5) if s.seat_of[r] != 0 and s.hands[r] and s.decks[r])


def test_determinizations_keep_the_view_and_play_on() -> None:
    s = _state()
    assert_views_kept(s)
    playable(s, 0)


def test_an_unseen_event_card_is_sometimes_in_the_hand_and_sometimes_in_the_deck() -> None:
    s = _state()
    r = _other_realm(s)
    card = s.hands[r][0]
    where = set()
    for k in range(300):
        d = s.determinize(0, random.Random(k))
        where.add("hand" if card in d.hands[r] else "deck" if card in d.decks[r] else "discards")
        assert sorted(d.hands[r] + d.decks[r] + d.discards[r]) == sorted(s.hands[r] + s.decks[r] + s.discards[r])
    assert {"hand", "deck"} <= where
    own = next(r for r in range(5) if s.seat_of[r] == 0)
    assert all(s.determinize(0, random.Random(k)).hands[own] == s.hands[own] for k in range(20))


def test_facedown_guardians_range_over_the_unused_tiles() -> None:
    s = _state()
    x, g = next((x, gs[0]) for x, gs in sorted(s.guardians.items()) if gs and not gs[0][1])
    tiles = {s.determinize(0, random.Random(k)).guardians[x][0][0] for k in range(400)}
    pool = set(s.guardian_pile) | {t[0] for gs in s.guardians.values() for t in gs if not t[1]}
    assert tiles == pool and len(pool) > 1


def test_agents_decide_the_same_whatever_the_other_realms_hold() -> None:
    a = _state()
    b = a.clone()
    b.hands, b.decks = [h[:] for h in b.hands], [d[:] for d in b.decks]   # a clone shares its card piles
    r = _other_realm(a)
    # swap a card of another seat's hand with a different one of its deck, and two facedown Guardian tiles
    i = next(i for i, c in enumerate(b.decks[r]) if c != b.hands[r][0])
    b.hands[r][0], b.decks[r][i] = b.decks[r][i], b.hands[r][0]
    b.decks[r].sort()
    assert a.view(0) == b.view(0)
    assert_same_decisions(a, b, seeds=1)
