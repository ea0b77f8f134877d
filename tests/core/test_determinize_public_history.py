"""Determinizations consistent with the public history (issue 33, section 4; docs/agents.md, "Determinization").

The form chosen: along seeded random games the test keeps, as any seat at the table could, what the public log
proves about the hidden parts -- lower bounds on hidden quantities, cards placed by public actions -- without
reading anything hidden. At decisions along the game, for each seat s and each opponent o, the determinization
for s must satisfy every such fact about o, and play on (its legal actions apply). The facts per ruleset:

- Small World: coins are face down, picks are public. "Slot i costs i coins" proves the seat had i coins; it
  then holds at least the coins it took from the combo, and coins only grow until its next pick. So after the
  start (5 coins) the proven floor is ``max(floor, i) - i + taken`` at each pick, and every determinization
  gives each seat at least that.
- Nerath: an Event card played (or drawn and applied at once) is seen, then lies in its realm's facedown
  discards until they are reshuffled into the deck (the public deck size shows when): a determinization keeps
  it there and never deals it back into the hand.
- Narby: a bonus card played is public and out of every hand until the next round returns every card.
- Kingdom: nothing is hidden: a determinization is the position itself.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from conquest.core.chance import sample_chance
from conquest.core.game import CHANCE, State
from conquest.core.registry import rulesets

SEEDS = (1, 2, 3)


def _step(state: State, rng: random.Random) -> tuple[Any, State]:
    a = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_actions()))
    return a, state.apply(a)


def _plays_on(d: State, rng: random.Random, steps: int = 12) -> None:
    for _ in range(steps):
        if d.to_move is None:
            return
        _a, d = _step(d, rng)


@pytest.mark.parametrize("seed", SEEDS)
def test_smallworld_coins_are_never_below_what_the_picks_prove(seed: int) -> None:
    rs = rulesets()["smallworld"]
    players = 2 + seed % 3
    state = rs.new_game(players, {}, seed)
    rng, drng = random.Random(seed), random.Random(100 + seed)
    proven = [5] * players          # "Each player receives 5 Victory coins" at the start
    checked = 0
    step = 0
    while state.to_move is not None and step < 3000:
        before = state.view(None)   # the spectator's view: public facts only
        a, after = _step(state, rng)
        if a[0] == "pick":
            seat, i = before["seat"], a[1]
            proven[seat] = max(proven[seat], i) - i + before["column"][i]["coins"]
        state = after
        step += 1
        if state.to_move not in (None, CHANCE) and step % 7 == 0:
            for s in range(players):
                d = state.determinize(s, drng)
                for o in range(players):
                    assert d.coins[o] >= proven[o], (  # type: ignore[attr-defined]
                        f"step {step}: seat {o} is given {d.coins[o]} coins, "  # type: ignore[attr-defined]
                        f"its picks prove {proven[o]}")
                _plays_on(d, drng)
            checked += 1
    assert checked >= 10


def test_smallworld_a_pick_that_cost_five_is_remembered() -> None:
    """The issue's case: a seat that took slot 5 had 5 coins; with the coins it took it holds at least that
    many afterwards, whatever the estimate says, in every determinization."""
    rs = rulesets()["smallworld"]
    state = rs.new_game(2, {}, 4)
    rng = random.Random(4)
    while not (state.to_move == 0 and state.phase == 0 + 2):  # type: ignore[attr-defined]
        _a, state = _step(state, rng)
        if state.to_move is None:
            pytest.skip("no pick")
    view = state.view(None)
    assert "pick" in view["phase"]
    slot = len(view["column"]) - 1
    state.coins[0] = slot + 3  # type: ignore[attr-defined]  # enough to pay for the last slot
    taken = view["column"][slot]["coins"]
    after = state.apply(("pick", slot))
    for k in range(200):
        d = after.determinize(1, random.Random(k))
        assert d.coins[0] >= taken  # type: ignore[attr-defined]
        assert d.coins[0] >= d.coins_floor[0]  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_nerath_cards_seen_played_stay_in_the_discards(seed: int) -> None:
    rs = rulesets()["nerath"]
    state = rs.new_game(None, {}, seed)
    rng, drng = random.Random(seed), random.Random(100 + seed)
    seen: list[Counter[str]] = [Counter() for _ in range(4)]
    checked = 0
    for step in range(1500):
        if state.to_move is None:
            break
        before = state
        a, state = _step(state, rng)
        for r in range(4):
            if not state.discards[r]:  # type: ignore[attr-defined]  # reshuffled (the public count shows it)
                seen[r].clear()
            # a card that went to the discards went there in sight: played, or drawn and applied at once
            grew = Counter(state.discards[r]) - Counter(before.discards[r])  # type: ignore[attr-defined]
            if grew and a[0] in ("play", "draw"):
                seen[r] += grew
        if state.to_move not in (None, CHANCE) and step % 25 == 0:
            for s in range(state.players):
                d = state.determinize(s, drng)
                for r in range(4):
                    assert not seen[r] - Counter(d.discards[r]), (  # type: ignore[attr-defined]
                        f"step {step}: seat {s}'s determinization moves cards seen played by realm {r} "
                        f"out of its discards")
                _plays_on(d, drng, 6)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("seed", SEEDS)
def test_narby_cards_played_stay_out_of_every_hand(seed: int) -> None:
    rs = rulesets()["narby"]
    state = rs.new_game(None, {}, seed)
    rng, drng = random.Random(seed), random.Random(100 + seed)
    played: set[str] = set()
    checked = 0
    for step in range(2000):
        if state.to_move is None:
            break
        round_before = state.view(None)["round"]
        _a, state = _step(state, rng)
        if state.view(None)["round"] != round_before:
            played = set()   # "All cards are returned and shuffled" each round
        played |= set(state.view(None)["played"])
        if state.to_move not in (None, CHANCE) and step % 10 == 0:
            for s in range(state.players):
                d = state.determinize(s, drng)
                assert not played & {c for c in d.hand if c}, step  # type: ignore[attr-defined]
                _plays_on(d, drng)
            checked += 1
    assert checked >= 10


def test_kingdom_hides_nothing_so_a_determinization_is_the_position() -> None:
    rs = rulesets()["kingdom"]
    state = rs.new_game(None, {}, 1)
    rng = random.Random(1)
    for step in range(300):
        if state.to_move is None:
            break
        _a, state = _step(state, rng)
        if step % 20 == 0 and state.to_move not in (None, CHANCE):
            for s in range(2):
                assert state.determinize(s, rng).to_json() == state.to_json()
