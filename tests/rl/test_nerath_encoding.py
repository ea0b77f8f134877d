"""The fast observation of Conquest of Nerath (``NerathEncoding.observe``) where random games seldom go: it keeps
the numbers of board parts between states, so a state changed in place, a loaded state with a large count and a
pickled encoding must still give the view's numbers."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from conquest.core.registry import get_ruleset  # noqa: E402
from conquest.rl.match import Match  # noqa: E402
from conquest.rulesets.nerath.base import add  # noqa: E402
from conquest.rulesets.nerath.data import COUNTED, N_TYPES, R  # noqa: E402
from conquest.rulesets.nerath.state import IX  # noqa: E402


def _same(match: Match, state: Any, seat: int) -> bool:
    enc = match.encoding
    fast = np.asarray(enc.observe(state, seat), dtype=np.float32)
    return np.array_equal(fast, np.asarray(enc.features(state.view(seat), seat), dtype=np.float32))


def _played(match: Match, decisions: int) -> None:
    rng = random.Random(5)
    match.reset(8)
    for _ in range(decisions):
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])


def test_a_state_changed_in_place_after_it_was_observed_is_read_again() -> None:
    match = Match("nerath")
    _played(match, 40)
    st: Any = match.state
    assert _same(match, st, 0)
    before = match.encoding.observe(st, 0).copy()   # the encoding's own array: the caller copies it
    # the same objects, edited: pieces, control and a Castle, Guardians turned face up, pieces free to move
    land = next(s for s in range(len(st.castle)) if st.ctrl[s] >= 0 and not st.castle[s])
    st.pieces[(land * R + 2) * N_TYPES + COUNTED.index("monster")] += 3
    st.ctrl[land] = (st.ctrl[land] + 1) % R
    st.castle[land] = 1
    for tiles in st.guardians.values():
        for tile in tiles:
            tile[1] = 1
    st.movable[land * N_TYPES] = 4
    assert not np.array_equal(match.encoding.observe(st, 0), before)
    for seat in range(match.players):
        assert _same(match, st, seat)


def test_a_loaded_state_with_more_than_255_pieces_in_a_space_is_read() -> None:
    rs = get_ruleset("nerath")
    match = Match("nerath")
    doc = match.state.to_json()
    space = next(iter(doc["control"]))
    doc["pieces"].setdefault(space, {})["karkoth"] = {"footsoldier": 300}
    st: Any = rs.state_from_json(doc)
    assert st.pieces[IX[space] * R * N_TYPES] == 300
    for seat in range(match.players):
        assert _same(match, st, seat)


def test_the_encoding_pickled_observes_the_same_numbers() -> None:
    match = Match("nerath")
    _played(match, 60)
    before = match.encoding.observe(match.state, 1).copy()
    copy = pickle.loads(pickle.dumps(match))
    assert np.array_equal(copy.encoding.observe(copy.state, 1), before)
    _played(copy, 80)
    assert _same(copy, copy.state, 1)


def test_a_game_without_a_round_limit_is_observed() -> None:
    # max_rounds 0: "no limit"; the round is then written as a share of 60 rounds
    match = Match("nerath", 4, {"max_rounds": 0})
    _played(match, 30)
    for seat in range(match.players):
        assert _same(match, match.state, seat)
    enc: Any = match.encoding
    st: Any = match.state
    assert enc.observe(st, 0)[enc._round] == np.float32(st.round / 60)


@pytest.mark.parametrize("players", [2, 4])
def test_the_seat_to_move_sees_its_view_through_games_in_a_row_and_resets(players: int) -> None:
    """As an environment asks: mostly the seat to move, now and then another one, games played one after the
    other on the same match and one of them cut short by a reset. Each array returned stays as it was until its
    seat is observed again (the caller may keep it until then)."""
    match = Match("nerath", players)
    enc: Any = match.encoding
    rng = random.Random(21)
    handed: dict[int, tuple[Any, Any]] = {}   # seat: (the array returned, a copy of it)
    checked = 0
    for game, cut in ((0, 250), (1, 90), (2, 250)):   # the second game is reset in the middle
        match.reset(40 + game)
        for _ in range(cut):
            if match.over():
                break
            st: Any = match.state
            seats = [match.to_move]
            if rng.random() < 0.2:
                seats.append(rng.randrange(players))
            for seat in seats:
                if seat is None or seat < 0:
                    continue
                for other, (array, copy) in handed.items():
                    assert np.array_equal(array, copy), f"seat {other}'s array changed while seat {seat} was seen"
                got = enc.observe(st, seat)
                assert np.array_equal(got, np.asarray(enc.features(st.view(seat), seat), dtype=np.float32))
                handed[seat] = (got, got.copy())
                checked += 1
            opts = sorted(match.decision.options())  # type: ignore[union-attr]
            match.choose(opts[rng.randrange(len(opts))])
    assert checked > 300


def test_a_count_changed_in_place_beyond_a_byte_and_back_is_read() -> None:
    match = Match("nerath")
    _played(match, 40)
    st: Any = match.state
    assert _same(match, st, 1)
    land = next(s for s in range(len(st.castle)) if st.ctrl[s] >= 0)
    cell = (land * R + st.realm) * N_TYPES
    was = st.pieces[cell]
    # a count no byte holds, in a column the pieces free to move point at (the rules' own ``add``: the byte
    # table of the counts becomes a list when a count leaves 0..255)
    add(st, land, st.realm, 0, 300 - was)
    assert st.pieces[cell] == 300
    st.movable[land * N_TYPES] = st.movable.get(land * N_TYPES, 0) + 1
    assert _same(match, st, 1)
    assert match.encoding.observe(st, 1)[cell] == np.float32(300 / 5.0)
    add(st, land, st.realm, 0, was - 300)
    assert _same(match, st, 1)
    _played(match, 20)
    for seat in range(match.players):
        assert _same(match, match.state, seat)
