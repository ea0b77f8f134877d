"""Narby's observation is written in place, per seat, only where the state changed since that seat's last
observation (conquest/rl/encodings/narby.py ``observe``); the board's settlements, places of power and claims
are found through the state's chain of changed keys (``state.touched``). tests/rl/test_envs.py holds the numbers
equal to the view's when every seat looks at every decision; here, the cases that path has to survive: the chain
itself, seats that look seldom (as in the environments, where a seat looks when it is to move), games cut short
and started again on the same encoding, and positions loaded from their JSON."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from conquest.core.chance import sample_chance  # noqa: E402
from conquest.core.game import CHANCE  # noqa: E402
from conquest.core.registry import get_ruleset  # noqa: E402
from conquest.rl.match import Match  # noqa: E402
from conquest.rulesets.narby.base import RUIN, TOWN  # noqa: E402

SETUPS: list[tuple[int | None, dict[str, Any]]] = [
    (None, {}),
    (3, {"places": "select", "city": "beside"}),
    (5, {"dragons": "select", "win": 75, "populate_repeat": "all"}),
    (2, {"cards": False, "adjacency": "4", "chest_blocks": True, "baba_yaga": "dragon"}),
]


def _kind(code: int) -> int:
    return code if TOWN <= code <= RUIN else 0


def _chain_since(after: Any, before: Any) -> list[Any] | None:
    """The keys of ``after.touched`` added since ``before.touched`` (None: that link is not in the chain)."""
    keys, link = [], after.touched
    while link[1] > before.touched[1]:
        keys.append(link[2])
        link = link[0]
    return keys if link is before.touched else None


@pytest.mark.parametrize("players, options", SETUPS)
def test_the_chain_of_touched_keys_names_every_change_of_the_board(players: int | None,
                                                                    options: dict[str, Any]) -> None:
    """Every action, chance included: each square whose settlement changed is in the chain as ~square, each
    claim that changed as its key, each place of power put, moved or destroyed as its id (unless the chain
    started again, which the reader sees)."""
    rs = get_ruleset("narby")
    changes = restarts = 0
    for seed in range(3):
        rng = random.Random(seed)
        st = rs.new_game(players, options, seed=seed)
        for _ in range(3000):
            if st.to_move is None:
                break
            if st.to_move == CHANCE:
                action = sample_chance(st, rng)
            else:
                legal = st.legal_actions()
                action = legal[rng.randrange(len(legal))]
            after = st.apply_unchecked(action)
            keys = _chain_since(after, st)
            if keys is None:  # the chain started again (TOUCHED_MOST): a reader compares the whole board
                assert after.touched[1] < st.touched[1], f"{action}: the chain does not go on from the one before"
                restarts += 1
                st = after
                continue
            named = set(keys)
            for q, (a, b) in enumerate(zip(st.occ, after.occ)):
                if _kind(a) != _kind(b):
                    assert ~q in named, f"{action}: the settlement on square {q} changed unnamed"
                    changes += 1
            for key, _owner in st.claims.items() ^ after.claims.items():
                assert key in named, f"{action}: the claim on {key!r} changed unnamed"
                changes += 1
            for pid in set(st.places) | set(after.places):
                if st.places.get(pid) != after.places.get(pid):
                    assert pid in named, f"{action}: the place {pid} changed unnamed"
                    changes += 1
            st = after
    assert changes > 100 and changes > 10 * restarts


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
    numbers, the chain of touched keys included; so does the original."""
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


def test_the_chain_stays_short_enough_to_copy() -> None:
    """A long game's position still deep-copies and pickles: the chain starts again past ``TOUCHED_MOST``
    links, and an observation across that restart is still the view's numbers."""
    from conquest.rulesets.narby.state import TOUCHED_MOST
    match = Match("narby", None, {"win": 100})
    match.reset(4)
    rng = random.Random(4)
    longest = restarts = 0
    for _ in range(6000):
        if match.over():
            break
        before = match.state.touched
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])
        after = match.state.touched
        longest = max(longest, after[1])
        restarts += after[1] < before[1]
        if match.to_move is not None:
            _check(match, [match.to_move], "a long game")
    assert longest <= TOUCHED_MOST and restarts > 0
    copy.deepcopy(match.state)
    pickle.loads(pickle.dumps(match.state))
