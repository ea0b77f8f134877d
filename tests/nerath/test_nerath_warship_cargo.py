"""Conquest of Nerath: a land piece carried by a Warship debarks into another coastal space than the one it
embarked from ("The land pieces embark onto the ship from a coastal space and debark into another coastal
space.")."""

from __future__ import annotations

import pytest

from conquest.core.errors import IllegalAction
from conquest.core.jsondoc import merge_patch
from conquest.rulesets.nerath import RULESET

SENTENCE = "debark into another coastal space"


def make(patch: dict):
    st = RULESET.new_game(4, {"board_setup": "empty", "events": "none"}, 0)
    doc = st.to_json()
    doc.pop("to_move")
    return RULESET.state_from_json(merge_patch(doc, patch))


def ship(space: str, cargo: list[str] | None = None, **extra: object) -> dict:
    return {"1": {"owner": "karkoth", "space": space, "moves": 0, "flags": [], "cargo": cargo or [], **extra}}


def test_piece_loaded_after_two_moves_does_not_debark_back_where_it_embarked() -> None:
    """"If a Warship moved 2 sea spaces before it loaded land pieces, it can unload those pieces only into another
    coastal space adjacent to the sea space it is in." / "... debark into another coastal space.\""""
    st = make({"pieces": {"k15": {"karkoth": {"fighter": 1}}}, "ships": ship("s2"), "next_ship": 2,
               "movable": "all"})
    for a in ("sail 1 s5", "sail 1 s9", "embark k15 1 fighter"):
        st = st.apply(a)
    legal = {RULESET.format_action(a) for a in st.legal_actions()}
    assert "debark 1 k15 fighter" not in legal
    assert "debark 1 v10 fighter" in legal
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        st.apply("debark 1 k15 fighter")
    assert SENTENCE in str(err.value)
    assert st.to_json() == before


def test_piece_embarked_onto_a_ship_that_has_not_moved_does_not_debark_back() -> None:
    """"The land pieces embark onto the ship from a coastal space and debark into another coastal space.\""""
    st = make({"pieces": {"k14": {"karkoth": {"footsoldier": 1}}}, "ships": ship("s5"), "next_ship": 2,
               "movable": "all"})
    st = st.apply("embark k14 1 footsoldier")
    legal = {RULESET.format_action(a) for a in st.legal_actions()}
    assert "debark 1 k14 footsoldier" not in legal
    assert any(a.startswith("debark 1 ") for a in legal)


def test_only_the_piece_that_embarked_there_is_refused() -> None:
    """"... embark onto the ship from a coastal space and debark into another coastal space": a Fighter that was
    aboard since an earlier turn may land in k14 even though another Fighter just embarked from k14."""
    st = make({"pieces": {"k14": {"karkoth": {"fighter": 1}}}, "ships": ship("s5", ["fighter"]), "next_ship": 2,
               "movable": "all"})
    st = st.apply("embark k14 1 fighter")
    assert st.to_json()["ships"]["1"]["cargo_from"] == [None, "k14"]
    st = st.apply("debark 1 k14 fighter")      # the one carried from an earlier turn
    assert st.to_json()["ships"]["1"]["cargo"] == ["fighter"]
    assert st.to_json()["ships"]["1"]["cargo_from"] == ["k14"]
    with pytest.raises(IllegalAction) as err:
        st.apply("debark 1 k14 fighter")         # the one that embarked from k14
    assert SENTENCE in str(err.value)


def test_cargo_from_round_trips_and_defaults_to_no_origin() -> None:
    """The embarked-from space is part of the state JSON (cargo_from, optional): absent means the piece may debark
    into any adjacent coastal space ("debark into another coastal space" only concerns this turn's embarking)."""
    st = make({"ships": ship("s5", ["fighter"]), "next_ship": 2, "movable": "all"})
    assert "cargo_from" not in st.to_json()["ships"]["1"]
    assert "debark 1 k14 fighter" in {RULESET.format_action(a) for a in st.legal_actions()}
    st = make({"ships": ship("s5", ["fighter"], cargo_from=["k14"]), "next_ship": 2, "movable": "all"})
    assert "debark 1 k14 fighter" not in {RULESET.format_action(a) for a in st.legal_actions()}
    doc = st.to_json()
    again = RULESET.state_from_json(doc)
    assert again.to_json() == doc


def test_origins_are_forgotten_at_the_next_turn() -> None:
    """Cargo stays aboard across turns; "debark into another coastal space" is about the embarking of this turn,
    so a piece still aboard on a later turn may land where it once embarked."""
    st = make({"pieces": {"k14": {"karkoth": {"footsoldier": 1}}}, "ships": ship("s5"), "next_ship": 2,
               "movable": "all"})
    st = st.apply("embark k14 1 footsoldier")
    st.start_turn()
    assert "cargo_from" not in st.to_json()["ships"]["1"]
