"""Conquest of Nerath: rule readings from an independent review of the document (000): a Castle built this
turn counts for "only one Castle", Heroes leaving a plundered dungeon, and refusals naming their reason."""

from __future__ import annotations

import pytest

from conquest.core.errors import IllegalAction
from conquest.core.jsondoc import merge_patch
from conquest.rulesets.nerath import RULESET


def make(patch: dict, players: int = 4, **options: object):
    st = RULESET.new_game(players, {"board_setup": "empty", "events": "none", **options}, 0)
    doc = st.to_json()
    doc.pop("to_move")
    return RULESET.state_from_json(merge_patch(doc, patch))


def play(st, *actions: str):
    for a in actions:
        st = st.apply(a)
    return st


def refusal(st, action: str) -> str:
    with pytest.raises(IllegalAction) as err:
        st.apply(action)
    return str(err.value)


def test_a_castle_built_this_turn_counts_as_a_second_castle() -> None:
    """"At other Castles, you may only place up to 4 new pieces; but if you control only one Castle, this
    limit does not apply." A Castle built this turn is one the realm controls (as a captured one is), though
    "On the turn you place a new Castle, you cannot place other new pieces there"."""
    st = make({"phase": "reinforce", "gold": {"karkoth": 60}, "castles": ["k07", "v05", "i08", "n07", "k13"],
               "control": {"k07": "nerath"}, "control_at_turn_start": {"k07": "nerath"}})
    alone = play(st, *["buy footsoldier k13"] * 5)          # its only Castle: no limit
    assert alone.to_json()["pieces"]["k13"]["karkoth"]["footsoldier"] == 5
    st = play(st, "buy castle k12", *["buy footsoldier k13"] * 4)
    assert not st.is_legal(("buy", "footsoldier", "k13"))   # two Castles now: 4 at k13
    assert not st.is_legal(("buy", "footsoldier", "k12"))   # nothing at the new Castle this turn
    with pytest.raises(IllegalAction):
        st.apply("buy footsoldier k13")


def test_building_a_castle_keeps_the_closest_space_for_a_realm_without_castles() -> None:
    """"If you control no Castles, all the new pieces must appear in the friendly land space closest to your
    Capital." A Castle built this turn takes no pieces, so pieces bought after it still appear there."""
    st = make({"phase": "reinforce", "gold": {"karkoth": 40}, "control": {"k07": "nerath"},
               "control_at_turn_start": {"k07": "nerath"}})
    st = play(st, "buy castle k13", "buy footsoldier k06")
    assert st.to_json()["pieces"]["k06"]["karkoth"]["footsoldier"] == 1
