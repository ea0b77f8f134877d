"""A state's clone shares what seldom changes (the Guardians on the entrances, the card piles, the card effects in
play, the Treasure deck, the Guardian pile, the report counters, each Warship's record; ``state.FIELDS``) and the
rules take their own copy before changing it; the piece counts are a byte table that becomes a list when a count
leaves 0..255. Over seeded random games, applying an action and determinizing leave the state they start from
exactly as it was, field by field, and the Move and Reinforce steps' memoised moves are the moves worked out afresh."""

from __future__ import annotations

import random

from conquest.core.chance import sample_chance
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath import movement
from conquest.rulesets.nerath.base import add
from conquest.rulesets.nerath.data import COUNTED, FLYING_TYPES, HEROES, N_TYPES, SEA, STORM, TYPE_INDEX, R
from conquest.rulesets.nerath.state import FIELDS, IDS, IX, KIND

RS = get_ruleset("nerath")


def _fields(st: object) -> str:
    return repr([getattr(st, name) for name in FIELDS.names])


def test_apply_and_determinize_leave_the_state_they_start_from_unchanged() -> None:
    dungeon_hits = explored = plays = draws = treasures = bonuses = 0
    ship_changes: dict[str, int] = {}
    pile_changes = 0
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
            plays += a[0] == "play"
            draws += a[0] == "draw"
            treasures += a[0] == "treasure"
            bonuses += len(nxt.effects) > len(st.effects)
            explored += nxt.stats["explored"] > st.stats["explored"]
            pile_changes += nxt.guardian_pile != st.guardian_pile
            for sid, sh in nxt.ships.items():
                if sid in st.ships and st.ships[sid] != sh:
                    ship_changes[str(a[0])] = ship_changes.get(str(a[0]), 0) + 1
            st = nxt
    assert dungeon_hits and explored   # the Guardians were changed in these games: the copies were taken
    assert plays and draws and treasures and bonuses   # and the card piles and the effects in play
    assert pile_changes   # and the Guardian pile
    # and the Warships' records: sailing, loading, unloading, buying aboard and the start of a turn
    assert all(ship_changes.get(v) for v in ("sail", "embark", "debark", "done")), ship_changes


def test_the_moves_worked_out_afresh_are_the_memoised_ones() -> None:
    rng = random.Random(5)
    st = RS.new_game(4, {}, 5)
    checked = 0
    while st.to_move is not None and checked < 150:
        if st.phase == "move" and st.reaction is None:
            got = st.legal_actions()
            movement._BLOCKS.clear()
            movement._REACH.clear()
            movement._MASK.clear()
            assert st.legal_actions() == got
            checked += 1
        st = st.apply(sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions()))
    assert checked == 150


def _reference_moves(st) -> list[tuple]:
    """The moves of the pieces free to move, from the plain reach functions (``land_reach``, ``flying_reach``) as
    the rules read: Move step (stop on entering an enemy space; Heroes may enter a dungeon entrance), Reinforce
    (friendly spaces only), Reposition (flying pieces to friendly land, Storm Elementals also friendly sea)."""
    r, out = st.realm, []
    for key, c in sorted(st.movable.items()):
        s, t = divmod(key, N_TYPES)
        m = movement.piece_move(st, r, t)
        if t in FLYING_TYPES:
            dests = movement.flying_reach(st, s, r, m, friendly_only=st.phase != "move",
                                          sea_ok=st.phase != "reposition" or t == STORM)
        elif st.phase == "reposition" or (st.phase == "move" and KIND[s] == SEA):
            continue
        else:
            dests = movement.land_reach(st, s, r, m, st.phase == "move" and t in HEROES,
                                        friendly_only=st.phase == "reinforce")
        out += [("move", IDS[s], IDS[y], COUNTED[t], k) for y in dests for k in range(1, c + 1)]
    return out


def test_the_memoised_moves_are_those_the_reach_functions_give() -> None:
    seen = {"move": 0, "reinforce": 0, "reposition": 0}
    for seed in (6, 7):
        rng = random.Random(seed)
        st = RS.new_game(4, {}, seed)
        for _ in range(3000):
            if st.to_move is None:
                break
            if st.phase in seen and st.reaction is None and st.battle is None and st.to_move != CHANCE:
                moves = [a for a in st.legal_actions() if a[0] == "move"]
                if st.phase == "reposition":   # the Heroes' exits from a dungeon are not reach
                    moves = [a for a in moves if TYPE_INDEX[a[3]] in FLYING_TYPES]
                assert moves == _reference_moves(st), (seed, st.phase)
                seen[st.phase] += bool(moves)
            st = st.apply(sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions()))
    assert min(seen.values()) > 5, seen


def test_a_count_past_a_byte_turns_the_table_into_a_list() -> None:
    st = RS.new_game(4, {}, 0)
    cell = (IX["k01"] * R + 0) * N_TYPES
    was = st.pieces[cell]
    c = st.clone()
    add(c, IX["k01"], 0, 0, 300)
    assert isinstance(c.pieces, list) and c.pieces[cell] == was + 300 and st.pieces[cell] == was
    assert RS.state_from_json(c.to_json()).pieces[cell] == was + 300


def test_each_types_move_in_one_pass_is_piece_move() -> None:
    """``piece_moves`` (every type's Move with the card bonuses, one pass over the effects) is ``piece_move`` of
    each type, with bonuses for one piece, for every piece ("*") and for another realm in play."""
    st = RS.new_game(4, {}, 1)
    st.effects = [[0, "move_bonus", 1, "*", "turn"], [0, "move_bonus", 2, "dragon", "turn"],
                  [1, "move_bonus", 3, "*", "turn"], [0, "attack_bonus", 1, "*", "turn"],
                  [0, "move_bonus", 1, "warship", "turn", "treasure"]]
    for r in range(R):
        assert movement.piece_moves(st, r) == [movement.piece_move(st, r, t) for t in range(N_TYPES)]
    assert movement.piece_moves(st, 0)[TYPE_INDEX["dragon"]] == movement.piece_move(st, 2, TYPE_INDEX["dragon"]) + 3
