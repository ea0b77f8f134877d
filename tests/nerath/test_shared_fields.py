"""A state's clone shares what seldom changes (the Guardians on the entrances; ``state.FIELDS``) and the rules take
their own copy before changing it; the piece counts are a byte table that becomes a list when a count leaves 0..255.
Over seeded random games, applying an action and determinizing leave the state they start from exactly as it was,
field by field, and the Move and Reinforce steps' memoised moves are the moves worked out afresh."""

from __future__ import annotations

import random

from conquest.core.chance import sample_chance
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath import movement
from conquest.rulesets.nerath.base import add
from conquest.rulesets.nerath.data import N_TYPES, R
from conquest.rulesets.nerath.state import FIELDS, IX

RS = get_ruleset("nerath")


def _fields(st: object) -> str:
    return repr([getattr(st, name) for name in FIELDS.names])


def test_apply_and_determinize_leave_the_state_they_start_from_unchanged() -> None:
    dungeon_hits = explored = 0
    for seed, players in ((1, 4), (2, 2), (3, 3)):
        rng = random.Random(seed)
        st = RS.new_game(players, {}, seed)
        for step in range(2500):
            if st.to_move is None:
                break
            before = _fields(st)
            a = sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions())
            nxt = st.apply(a) if step % 2 else st.apply_unchecked(a)
            if step % 9 == 0:
                RS.determinize(st, step % players, random.Random(step))
            assert _fields(st) == before, f"seed {seed} step {step}: {a} changed the state it was applied to"
            dungeon_hits += a[:2] == ("hit", "guardian")
            explored += nxt.stats["explored"] > st.stats["explored"]
            st = nxt
    assert dungeon_hits and explored   # the Guardians were changed in these games: the copies were taken


def test_the_moves_worked_out_afresh_are_the_memoised_ones() -> None:
    rng = random.Random(5)
    st = RS.new_game(4, {}, 5)
    checked = 0
    while st.to_move is not None and checked < 150:
        if st.phase == "move" and st.reaction is None:
            got = st.legal_actions()
            movement._BLOCKS.clear()
            movement._REACH.clear()
            assert st.legal_actions() == got
            checked += 1
        st = st.apply(sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions()))
    assert checked == 150


def test_a_count_past_a_byte_turns_the_table_into_a_list() -> None:
    st = RS.new_game(4, {}, 0)
    cell = (IX["k01"] * R + 0) * N_TYPES
    was = st.pieces[cell]
    c = st.clone()
    add(c, IX["k01"], 0, 0, 300)
    assert isinstance(c.pieces, list) and c.pieces[cell] == was + 300 and st.pieces[cell] == was
    assert RS.state_from_json(c.to_json()).pieces[cell] == was + 300
