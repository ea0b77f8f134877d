"""Refusals at chance nodes are answered in core, the same way for every ruleset: an outcome that is not
possible at this chance node is named as such, with the possible ones listed."""

from __future__ import annotations

import random

import pytest

from conquest.core.chance import sample_chance
from conquest.core.errors import IllegalAction
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset, rulesets


def _first_chance_node(rid: str, seed: int = 1):
    """The first chance node of a random game, and a decision's action seen on the way (parseable text)."""
    rs = get_ruleset(rid)
    state = rs.new_game(None, {}, 0)
    rng = random.Random(seed)
    decision = None
    for _ in range(5000):
        if state.to_move == CHANCE and decision is not None:
            return state, decision
        if state.to_move == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            decision = rs.format_action(legal[0])
            state = state.apply(legal[rng.randrange(len(legal))])
    raise AssertionError(f"{rid}: no chance node after a decision")


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_a_decision_forced_at_a_chance_node_names_the_possible_outcomes(rid):
    state, decision = _first_chance_node(rid)
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply(decision)
    msg = str(e.value)
    assert "not possible at this chance node" in msg
    first = state.ruleset.format_action(state.chance_outcomes()[0][0])
    assert f"'{first}'" in msg
    assert state.to_json() == before


def test_kingdom_die_face_out_of_range():
    state = get_ruleset("kingdom").new_game(2, {})
    with pytest.raises(IllegalAction) as e:
        state.apply("roll 7")
    assert str(e.value) == ("illegal action 'roll 7': that outcome is not possible at this chance node; the "
                            "possible outcomes are 'roll 1', 'roll 2', 'roll 3', 'roll 4', 'roll 5', 'roll 6'")


def test_nerath_hits_beyond_the_dice_rolled():
    """One die rolls (two outcomes, 'hits 0' and 'hits 1'): forcing 'hits 2' names the outcome as impossible
    rather than calling it "not a decision"."""
    rs = get_ruleset("nerath")
    state = rs.new_game(None, {}, 0)
    rng = random.Random(1)
    for _ in range(20000):
        if state.to_move == CHANCE:
            outs = [rs.format_action(a) for a, _ in state.chance_outcomes()]
            if outs == ["hits 0", "hits 1"]:
                break
            state = state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
    else:
        pytest.fail("no one-die roll reached")
    with pytest.raises(IllegalAction) as e:
        state.apply("hits 2")
    assert "not a decision" not in str(e.value)
    assert str(e.value).endswith("not possible at this chance node; the possible outcomes are 'hits 0', 'hits 1'")


def test_many_outcomes_are_cut_short():
    state = get_ruleset("narby").new_game(2, {})
    rng = random.Random(0)
    while state.to_move != CHANCE:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    n = len({state.ruleset.format_action(a) for a, _ in state.chance_outcomes()})
    assert n > 12  # narby's first chance node rolls a d20
    with pytest.raises(IllegalAction) as e:
        state.apply("end")
    assert f"({n} in all)" in str(e.value)
