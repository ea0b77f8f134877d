"""Kingdom has no hidden parts: every piece, reserve and score is on the table."""

from __future__ import annotations

import random

from conquest.core.registry import get_ruleset
from tests.fairness import assert_views_kept, find_state


def test_kingdom_determinization_is_a_clone() -> None:
    rs = get_ruleset("kingdom")
    s = find_state(rs.new_game(2, {}, 0), random.Random(1), lambda s: s.round >= 2)
    for seat in (0, 1):
        d = s.determinize(seat, random.Random(seat))
        assert d is not s and d.to_json() == s.to_json()
    assert_views_kept(s)
