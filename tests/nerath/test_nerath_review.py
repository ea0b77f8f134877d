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


PLUNDERED = {"phase": "reposition", "pieces": {"d1": {"karkoth": {"fighter": 1, "wizard": 1}}}, "movable": "all"}


def test_heroes_with_a_way_out_must_leave_the_dungeon_before_done() -> None:
    """"Heroes that successfully explored dungeons must exit after plundering them. Move each of your
    surviving Heroes to a friendly land space adjacent to the dungeon entrance, or to a Warship in a
    friendly sea space adjacent to the dungeon entrance." """
    st = make(PLUNDERED)
    assert not st.is_legal(("done",))
    assert "d1" in refusal(st, "done") and "exit" in refusal(st, "done")
    st = st.apply("move d1 k08 fighter 1")
    assert not st.is_legal(("done",))                     # the Wizard is still inside
    st = play(st, "move d1 k04 wizard 1", "done")
    assert st.to_json()["pieces"]["k08"]["karkoth"]["fighter"] == 1
    assert st.to_json()["pieces"]["k04"]["karkoth"]["wizard"] == 1


def test_a_warship_beside_the_entrance_is_a_way_out() -> None:
    """"... or to a Warship in a friendly sea space adjacent to the dungeon entrance": with the adjacent land
    spaces in enemy hands, the Heroes board the Warship; the step cannot end before they do."""
    ship = {"owner": "karkoth", "space": "s2", "moves": 0, "flags": [], "cargo": []}
    st = make({**PLUNDERED, "control": {"k04": "vailin", "k08": "vailin"}, "ships": {"1": ship},
               "next_ship": 2})
    assert not st.is_legal(("done",))
    st = play(st, "embark d1 1 fighter", "embark d1 1 wizard", "done")
    assert sorted(st.to_json()["ships"]["1"]["cargo"]) == ["fighter", "wizard"]


def test_heroes_with_no_way_out_are_lost_at_done() -> None:
    """With no friendly land space and no Warship of the realm next to the entrance, the document gives the
    Heroes nowhere to go ("must exit ... to a friendly land space ... or to a Warship"): `done` is allowed
    and they are lost. A full Warship is no way out either (it "can carry up to 2 land pieces")."""
    full = {"owner": "karkoth", "space": "s2", "moves": 0, "flags": [], "cargo": ["footsoldier", "footsoldier"]}
    st = make({**PLUNDERED, "control": {"k04": "vailin", "k08": "vailin"}, "ships": {"1": full},
               "next_ship": 2})
    assert st.is_legal(("done",))
    st = st.apply("done")
    assert "d1" not in st.to_json()["pieces"] or "karkoth" not in st.to_json()["pieces"]["d1"]


def test_a_refused_move_names_what_is_wrong() -> None:
    """Each refused move says which rule it breaks: "Each piece can move a number of spaces up to its Move
    value" / "Castles cannot move" / each piece moves once."""
    st = make({"pieces": {"k13": {"karkoth": {"footsoldier": 2}}}, "movable": "all"})
    assert refusal(st, "move k99 k10 footsoldier 1").endswith("there is no space 'k99' on the board")
    assert refusal(st, "move k13 k10 footsoldier 3").endswith(
        "only 2 footsoldier in k13 may still move; the move asks for 3")
    assert refusal(st, "move k13 k10 wizard 1").endswith("your realm has no wizard in k13")
    assert refusal(st, "move k07 k12 castle 1").endswith("Castles cannot move")
    assert refusal(st, "move k13 k10 footsoldier 0").endswith("move at least one piece")
    assert "n10 is out of reach of the footsoldier in k13" in refusal(st, "move k13 n10 footsoldier 1")
    st = st.apply("move k13 k10 footsoldier 2")
    assert refusal(st, "move k10 k09 footsoldier 1").endswith(
        "each piece moves once a turn: every footsoldier in k10 has moved")
    assert refusal(st, "move k13 k10 footsoldier 1").endswith("your realm has no footsoldier in k13")
    assert "at sea it rides a Warship" in refusal(st, "move s2 k12 footsoldier 1")
    assert refusal(st, "move k13 k10 warship 1").endswith(
        "a Warship moves with 'sail SHIP TO', one sea space at a time")


def test_refused_moves_in_reposition_and_reinforce_name_the_step_rule() -> None:
    """"Your flying pieces can move to any friendly land space they can reach with their Move" (4.
    REPOSITION) / new pieces move in 5. REINFORCE ("Moving New Pieces")."""
    st = make({"phase": "reposition", "pieces": {"k13": {"karkoth": {"footsoldier": 2}}}, "movable": "all"})
    assert refusal(st, "move k13 k10 footsoldier 1").endswith(
        "in the Reposition step only flying pieces move (and Heroes leaving a dungeon)")
    st = make({"phase": "reinforce", "gold": {"karkoth": 10}, "pieces": {"k13": {"karkoth": {"footsoldier": 2}}}})
    assert refusal(st, "move k13 k10 footsoldier 1").endswith(
        "only new pieces move in the Reinforce step; no new footsoldier in k13 is left to move")
    assert refusal(st, "buy footsoldier d1").endswith("new pieces are never placed in a dungeon entrance such as d1")
    assert "no Castle next to s9 can take new pieces" in refusal(st, "buy warship s9")


def test_a_refused_purchase_names_the_placement_rule_it_breaks() -> None:
    """"You cannot place new pieces at any Castle you captured or recaptured this turn." / "At other Castles,
    you may only place up to 4 new pieces" / "If you buy a new Castle, you must place it in a friendly land
    space that contains no other Castles, and that you controlled since the start of your turn." """
    st = make({"phase": "reinforce", "gold": {"karkoth": 30},
               "castles": ["k07", "v05", "i08", "n07", "k13", "n04"], "control": {"n04": "karkoth"}})
    poor = make({"phase": "reinforce", "gold": {"karkoth": 2}})
    assert refusal(poor, "buy monster k07").endswith("a monster costs 3 gold and your realm has 2")
    assert "captured or recaptured this turn" in refusal(st, "buy footsoldier n04")
    assert "that you controlled since the start of your turn\": n05 is not one" in refusal(st, "buy castle n05")
    assert "Only 1 Castle can be built in any land space\": k13 has one" in refusal(st, "buy castle k13")
    assert refusal(st, "buy footsoldier k12").endswith("k12 holds none of yours")
    assert "a footsoldier is a land piece" in refusal(st, "buy footsoldier s2")
    assert refusal(st, "buy footsoldier k99").endswith("there is no space 'k99' on the board")
    assert refusal(st, "buy footsoldier ship 7").endswith("your realm has no Warship 7")
    st = play(st, *["buy footsoldier k13"] * 4)
    assert "4 new pieces\": 4 already placed at k13" in refusal(st, "buy footsoldier k13")
    st = st.apply("buy castle k12")
    assert "cannot place other new pieces there\" (k12)" in refusal(st, "buy footsoldier k12")
