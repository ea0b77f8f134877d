"""Narby's observation is written in place, per seat, only where the state changed since that seat's last
observation (conquest/rulesets/narby/encoding.py ``observe``). tests/rl/test_envs.py holds the numbers
equal to the view's when every seat looks at every decision; here, the cases that path has to survive: seats
that look seldom (as in the environments, where a seat looks when it is to move), games cut short
and started again on the same encoding, and positions loaded from their JSON."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from conquest.core.registry import get_ruleset  # noqa: E402
from conquest.rl.match import Match  # noqa: E402

SETUPS: list[tuple[int | None, dict[str, Any]]] = [
    (None, {}),
    (3, {"places": "select", "city": "beside"}),
    (5, {"dragons": "select", "win": 75, "populate_repeat": "all"}),
    (2, {"cards": False, "adjacency": "4", "chest_blocks": True, "baba_yaga": "dragon"}),
]


def _check(match: Match, seats: range | list[int], where: str) -> int:
    st = match.state
    for s in seats:
        fast = np.asarray(match.encoding.observe(st, s), dtype=np.float32)
        slow = np.asarray(match.encoding.features(st.view(s), s), dtype=np.float32)
        if not np.array_equal(fast, slow):
            bad = np.flatnonzero(fast != slow)[:8].tolist()
            raise AssertionError(f"{where}, seat {s}: the observation differs from the view's at {bad}")
    return len(seats)


@pytest.mark.parametrize("players, options", SETUPS)
def test_seats_that_look_seldom_across_cut_games_and_loaded_positions(players: int | None,
                                                                       options: dict[str, Any]) -> None:
    """One encoding through many games in a row: a seat looks only when it is to move (now and then every seat
    looks, now and then a seat is skipped), games are cut at a random point and a new one begins, and now and
    then the position is replaced by one loaded from the JSON of a position of another game. Every observation
    is the numbers of the seat's view."""
    rs = get_ruleset("narby")
    match = Match("narby", players, options)
    other = Match("narby", players, options)
    rng = random.Random(5)
    compared = 0
    for game in range(6):
        match.reset(900 + game)
        other.reset(950 + game)
        cut = rng.randrange(150, 1200)
        for step in range(cut):
            if match.over():
                break
            where = f"game {game}, step {step}"
            if step % 97 == 50:  # a position of another game, loaded from its JSON
                for _ in range(rng.randrange(20, 200)):
                    if other.over():
                        break
                    opts = sorted(other.decision.options())  # type: ignore[union-attr]
                    other.choose(opts[rng.randrange(len(opts))])
                if not other.over():
                    match.state = rs.state_from_json(other.state.to_json())
                    compared += _check(match, range(match.players), where + " (loaded)")
                    match.reset(900 + game + 100 * step)
                    continue
            seat = match.to_move
            if step % 41 == 0:
                compared += _check(match, range(match.players), where)
            elif seat is not None and rng.random() < 0.8:
                compared += _check(match, [seat], where)
            opts = sorted(match.decision.options())  # type: ignore[union-attr]
            match.choose(opts[rng.randrange(len(opts))])
        compared += _check(match, range(match.players), f"game {game}, its last position")
    assert compared > 300


def test_a_pickled_or_copied_match_observes_the_same_numbers() -> None:
    """A match pickled mid-game (as vectorized environments do) or deep-copied goes on giving the view's
    numbers; so does the original."""
    match = Match("narby")
    match.reset(21)
    rng = random.Random(21)
    for _ in range(400):
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])
        match.observe(0)
    assert not match.over()
    for twin in (pickle.loads(pickle.dumps(match)), copy.deepcopy(match), match):
        _check(twin, range(twin.players), "after the copy")
        for step in range(300):
            if twin.over():
                break
            opts = sorted(twin.decision.options())  # type: ignore[union-attr]
            twin.choose(opts[rng.randrange(len(opts))])
            if twin.to_move is not None:
                _check(twin, [twin.to_move], f"step {step} after the copy")
