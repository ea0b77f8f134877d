"""Nerath's evaluation memoises the cells of a piece table, the battles each realm can start next and their
additions to the values (``evaluation._CELLS``, ``_NEXT``, ``_OPTIONS``, ``_TARGETS``, ``_GKEYS``): a value from the
memos is the value worked out afresh, to the last bit, over seeded games, and a piece table held as a plain list
(not memoised) gives the same values as the byte table."""

from __future__ import annotations

import random

from conquest.core.chance import sample_chance
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath import evaluation as ev

RS = get_ruleset("nerath")
MEMOS = (ev._CELLS, ev._NEXT, ev._OPTIONS, ev._TARGETS, ev._GKEYS)


def _fresh(st: object) -> str:
    """The value worked out with empty memos (the memos as they were are put back after)."""
    saved = [dict(m) for m in MEMOS]
    for m in MEMOS:
        m.clear()
    got = repr(ev.realm_values(st))  # type: ignore[arg-type]
    for m, kept in zip(MEMOS, saved):
        m.clear()
        m.update(kept)  # type: ignore[attr-defined]
    return got


def test_memoised_values_are_the_values_worked_out_afresh() -> None:
    compared = hits = 0
    for seed, players in ((11, 2), (12, 4), (13, 3)):
        rng = random.Random(seed)
        st = RS.new_game(players, {}, seed)
        seen: list[tuple[object, str]] = []
        for step in range(900):
            if st.to_move is None:
                break
            before = len(ev._NEXT)
            got = repr(ev.realm_values(st))   # from the memos the states before filled
            hits += len(ev._NEXT) == before
            want = _fresh(st)
            assert got == want, (seed, step)
            compared += 1
            if step % 3 == 0:
                seen.append((st, want))
                if st.to_move != CHANCE:   # the children fill the memos too
                    for a in st.legal_actions()[:8]:
                        ev.realm_values(st.apply_unchecked(a))
            st = st.apply_unchecked(sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions()))
        for old, want in seen[-40:]:   # and long after, with the memos full of other positions
            assert repr(ev.realm_values(old)) == want  # type: ignore[arg-type]
    assert compared > 1000 and hits > 300


def test_a_piece_table_held_as_a_list_gives_the_same_values() -> None:
    rng = random.Random(21)
    st = RS.new_game(4, {}, 21)
    checked = 0
    for step in range(600):
        if st.to_move is None:
            break
        if step % 10 == 0:
            plain = st.clone()
            plain.pieces = list(plain.pieces)
            assert repr(ev.realm_values(plain)) == _fresh(st), step
            checked += 1
        st = st.apply_unchecked(sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions()))
    assert checked >= 50
