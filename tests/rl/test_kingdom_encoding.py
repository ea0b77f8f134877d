"""The fast observation of Kingdom (``KingdomEncoding.observe``) where the envs' random games seldom go: it keeps each
seat's numbers with the values they were written from (and the numbers of the board every game starts from), so a
seat observed only at its own decisions, games reset midway, states seen out of order, a state changed in place, a
loaded ended game and a pickled encoding must all still give the view's numbers."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from conquest.core.registry import get_ruleset  # noqa: E402
from conquest.rl.match import Match  # noqa: E402
from conquest.rulesets.kingdom.rules import OVER, PHASES  # noqa: E402


def _same(match: Match, state: Any, seat: int) -> bool:
    enc = match.encoding
    fast = np.asarray(enc.observe(state, seat), dtype=np.float32)
    return np.array_equal(fast, np.asarray(enc.features(state.view(seat), seat), dtype=np.float32))


def _play(match: Match, rng: random.Random, decisions: int) -> list[Any]:
    """Random decisions (at most ``decisions``, fewer when the game ends); the states met, in order."""
    states = [match.state]
    for _ in range(decisions):
        if match.over():
            break
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])
        if match.state is not states[-1]:
            states.append(match.state)
    return states


def test_each_seat_observed_only_at_its_own_decisions_across_games_and_resets() -> None:
    # as in the environments: a seat's numbers are written again after several actions of both seats; games
    # follow one another on the same encoding, some cut midway by a reset
    match = Match("kingdom")
    rng = random.Random(3)
    observed = 0
    for game in range(8):
        match.reset(40 + game)
        cut = rng.randrange(20, 120) if game % 3 == 1 else 10_000
        for _ in range(cut):
            if match.over():
                break
            seat = match.to_move
            assert seat is not None and _same(match, match.state, seat)
            observed += 1
            opts = sorted(match.decision.options())  # type: ignore[union-attr]
            match.choose(opts[rng.randrange(len(opts))])
        for seat in range(match.players):
            assert _same(match, match.state, seat)
    assert observed > 200


def test_states_observed_in_any_order() -> None:
    match = Match("kingdom")
    rng = random.Random(4)
    states: list[Any] = []
    for game in range(3):
        match.reset(70 + game)
        states += _play(match, rng, 400)
    assert any(st.phase == OVER for st in states)
    rng.shuffle(states)
    for st in states:
        for seat in (rng.randrange(2), rng.randrange(2)):
            assert _same(match, st, seat)


def test_a_state_changed_in_place_after_it_was_observed_is_read_again() -> None:
    match = Match("kingdom")
    match.reset(9)
    _play(match, random.Random(9), 60)
    st: Any = match.state
    assert _same(match, st, 0)
    before = np.array(match.encoding.observe(st, 0))
    # the same objects, edited: armies where a seat already is (one seat a territory), a pawn taken off a location
    # and one put on a free one, Soldier tokens, points, a task
    b = st.board
    t = next(t for t in range(b.territories) if t not in b.castles and st.armies[2 * t + 1] and not st.armies[2 * t])
    st.armies[2 * t + 1] += 2
    taken = next(i for i, o in enumerate(st.loc) if o >= 0)
    st.loc[taken] = -1
    st.loc[next(i for i, o in enumerate(st.loc) if o < 0 and i != taken)] = 0
    st.soldiers[0] += 3
    st.points[1] += 7
    st.tasks = (("vacate", t, 1),)
    assert not np.array_equal(match.encoding.observe(st, 0), before)
    for seat in range(match.players):
        assert _same(match, st, seat)


def test_an_ended_game_loaded_with_its_last_player_set_is_seen_with_nobody_to_move() -> None:
    # a loaded state at the end of the game may name a current player; the view shows none
    rs = get_ruleset("kingdom")
    match = Match("kingdom")
    match.reset(12)
    _play(match, random.Random(12), 10_000)
    assert match.over()
    doc = match.state.to_json()
    doc["current"] = 0
    st: Any = rs.state_from_json(doc)
    assert st.phase == OVER and st.current == 0
    for seat in range(match.players):
        assert _same(match, st, seat)
        assert match.encoding.observe(st, seat)[1 + len(PHASES)] == 0.0


def test_the_encoding_pickled_observes_the_same_numbers() -> None:
    match = Match("kingdom")
    match.reset(8)
    _play(match, random.Random(8), 50)
    before = np.array(match.encoding.observe(match.state, 1))
    copy = pickle.loads(pickle.dumps(match))
    assert np.array_equal(copy.encoding.observe(copy.state, 1), before)
    _play(copy, random.Random(1), 80)
    for seat in range(copy.players):
        assert _same(copy, copy.state, seat)
    copy.reset(2)
    assert _same(copy, copy.state, 0)


@pytest.mark.parametrize("options", [{"board": "b"}, {"mode": "companion", "first_player": 1},
                                     {"soldier_die": 0, "keep_soldiers": False, "rounds": 2}])
def test_the_other_board_and_modes_are_observed(options: dict[str, Any]) -> None:
    # side B's territories and locations, Soldier tokens entered by the players, income without a die
    match = Match("kingdom", None, options)
    rng = random.Random(6)
    for game in range(2):
        match.reset(90 + game)
        for st in _play(match, rng, 10_000):
            assert _same(match, st, rng.randrange(2))
        assert match.over()
