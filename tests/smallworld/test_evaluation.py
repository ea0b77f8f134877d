"""The evaluation the computer players share (``SmallWorldRuleset.evaluate``): when to put a race into
decline. The standard rules (A turn): "go into decline: flip one token per region to its declined side, remove
the others; ... score; next turn choose a new combo and conquer with it." Declining trades a turn of conquest
for a fresh race; the evaluation must see what that fresh race will take over the turns left."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquest.agents.greedy import GreedyAgent, expected_value
from tests.smallworld.helpers import make

COLUMN = "elves:forest,trolls:stout,sorcerers:bivouacking,halflings:commando,giants:pillaging,orcs:swamp"


SMALL = "dwarves:alchemist,humans:merchant,wizards:fortified,halflings:commando,giants:pillaging,orcs:swamp"


def spent_race(turn: int, hand: int, regions: int = 6, column: str = COLUMN) -> Any:
    """Seat 0 at the start of its turn ``turn`` of 10: active Berserk Ratmen (no income bonus) holding
    ``regions`` regions with one token each and ``hand`` tokens in hand; seat 1's Amazons far away."""
    own = {f"r{i}": {"race": "ratmen", "tokens": 1, "lost_tribe": 0} for i in (8, 9, 10, 11, 12, 13)[:regions]}
    return make(column=column, setup={
        "turn": turn, "seat": 0, "phase": "conquer",
        "races": {"ratmen": {"seat": 0, "power": "berserk", "status": "active", "hand": hand},
                  "amazons": {"seat": 1, "power": "hill", "status": "active", "hand": 4}},
        "regions": {**own, "r22": {"race": "amazons", "tokens": 2, "lost_tribe": 0}},
        "turn_state": {"race": "ratmen"},
    })


def values(state: Any) -> dict[str, float]:
    rs = state.ruleset
    return {rs.format_action(a): expected_value(state.apply(a), 0) for a in state.legal_actions()}


def test_a_spent_race_goes_into_decline_when_a_fresh_combo_has_turns_to_grow() -> None:
    """Ratmen with no token to spare on six regions at turn 4 of 10: holding them brings six coins a
    turn, a fresh ten-token combo from the column takes about four regions its first turn and more after."""
    state = spent_race(turn=4, hand=0)
    v = values(state)
    assert v["decline"] > v["end"]
    assert state.ruleset.format_action(GreedyAgent().choose(state, random.Random(0))) == "decline"


def test_a_race_with_tokens_to_spare_keeps_conquering() -> None:
    """The same regions with seven tokens in hand (the rest of the Ratmen's 13, six being on the board): the race
    can still take regions, declining throws that away."""
    v = values(spent_race(turn=4, hand=7))
    assert v["decline"] < max(val for a, val in v.items() if a.startswith("conquer"))


def test_declining_is_worth_more_when_the_column_shows_bigger_combos() -> None:
    """The combo picked after a decline comes from the column: ten-token combos at the top (Forest Elves,
    Bivouacking Sorcerers) make declining worth more than seven- and eight-token ones (Alchemist Dwarves,
    Merchant Humans, Fortified Wizards)."""
    big, small = values(spent_race(turn=4, hand=0)), values(spent_race(turn=4, hand=0, column=SMALL))
    assert big["decline"] - big["end"] > small["decline"] - small["end"] + 1


@pytest.mark.parametrize("turns_left", [1, 3, 6])
def test_a_fresh_combo_is_worth_more_with_more_turns_and_bigger_combos(turns_left: int) -> None:
    """The value of a combo still to be picked grows with the turns left for it to score and with the tokens
    of the combos in the column."""
    from conquest.rulesets.smallworld.ruleset import SmallWorldRuleset
    big, small = make(column=COLUMN), make(column=SMALL)
    f = SmallWorldRuleset._fresh_combo
    assert f(big, turns_left, False) > f(small, turns_left, False) > 0
    assert f(big, turns_left + 1, False) > f(big, turns_left, False)
    assert f(big, turns_left, True) > f(big, turns_left, False)
