"""Small World's observation is read straight from the state's fields: no JSON view is built for it (that is
what makes the environment fast, benchmarks/rl_throughput.py). tests/rl/test_envs.py holds its numbers equal to
the view's at every decision of random games; here, that the fast reading is the one used."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from conquest.rl.match import Match  # noqa: E402
from conquest.rulesets.smallworld.state import SmallWorldState  # noqa: E402


@pytest.mark.parametrize("players, options", [(2, {}), (3, {"map": "generated"})])
def test_the_observation_builds_no_view(monkeypatch: pytest.MonkeyPatch, players: int, options: dict) -> None:
    match = Match("smallworld", players, options)
    match.reset(7)
    rng = random.Random(7)
    seen = []
    for _ in range(60):
        if match.over():
            break
        st = match.state
        seen += [(st, s, np.asarray(match.encoding.features(st.view(s), s), dtype=np.float32))
                 for s in range(players)]
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])
    assert len(seen) > 50

    def no_view(self: SmallWorldState, seat: int | None) -> dict:
        raise AssertionError("the observation built a view")

    monkeypatch.setattr(SmallWorldState, "view", no_view)
    for st, s, want in seen:
        assert np.array_equal(np.asarray(match.encoding.observe(st, s), dtype=np.float32), want)


def _equal_to_the_view(match: Match, state: SmallWorldState, seat: int) -> None:
    fast = np.asarray(match.encoding.observe(state, seat), dtype=np.float32).copy()
    slow = np.asarray(match.encoding.features(state.view(seat), seat), dtype=np.float32)
    bad = np.flatnonzero(fast != slow)[:8].tolist()
    assert not bad, f"seat {seat}: the observation differs from the view's at {bad}"


@pytest.mark.parametrize("players, options", [(2, {}), (4, {}), (3, {"map": "generated"})])
def test_each_seat_is_written_from_its_own_last_state_over_games_and_resets(players: int, options: dict) -> None:
    """The observation keeps each seat's last numbers and writes what changed since (SmallWorldEncoding.observe):
    one encoding over several games, a game cut short by a reset, a seat left unobserved for many decisions (a
    whole turn of the others, then a new game), and states observed again out of their order: each time, the
    numbers of the seat's view."""
    match = Match("smallworld", players, options)
    rng = random.Random(5)
    states: list[SmallWorldState] = []
    for game, length in enumerate((400, 35, 10_000, 120)):  # the second and last games are cut by a reset
        match.reset(900 + game)
        lagging = game % players  # this seat is observed only every 25 decisions
        for step in range(length):
            st = match.state
            states.append(st)
            for s in range(players):
                if s != lagging or step % 25 == 0:
                    _equal_to_the_view(match, st, s)
            if match.over():
                break
            opts = sorted(match.decision.options())  # type: ignore[union-attr]
            match.choose(opts[rng.randrange(len(opts))])
    assert len(states) > 300
    # states met again in any order: races back in the box, the column refilled, regions emptied
    for st in rng.sample(states, 200):
        _equal_to_the_view(match, st, rng.randrange(players))


def test_a_seats_numbers_are_its_own_array() -> None:
    """The array observe returns is the seat's own: observing another seat (or another state for that seat)
    does not write it, so the caller has it until it observes that seat again."""
    match = Match("smallworld", 2)
    match.reset(3)
    rng = random.Random(3)
    for _ in range(30):
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])
    first = match.state
    mine = match.encoding.observe(first, 0)
    kept = np.array(mine, copy=True)
    for _ in range(10):
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])
        match.encoding.observe(match.state, 1)
    assert match.state.to_json() != first.to_json()
    assert np.array_equal(mine, kept)
    assert not np.array_equal(match.encoding.observe(match.state, 0), kept)
