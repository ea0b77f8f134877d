"""The Nerath state document declared once (``serial.DOCUMENT``, with the battle and the card window as the
nested declarations ``BATTLE`` and ``REACTION``): the derived schema and reader refuse naming the field, every
field of the records is a key of their declaration, and a document read back writes the same document."""

from __future__ import annotations

import dataclasses
import random

import pytest

from conquest.core.chance import sample_chance
from conquest.core.errors import StateFormatError
from conquest.core.game import CHANCE
from conquest.core.jsondoc import merge_patch
from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath.serial import BATTLE, DOCUMENT, REACTION
from conquest.rulesets.nerath.state import Battle, Reaction

RS = get_ruleset("nerath")


def _in_battle(seed: int) -> dict:
    rng = random.Random(seed)
    st = RS.new_game(4, {}, seed=seed)
    for _ in range(5000):
        if st.battle is not None and st.battle.queue:
            doc = st.to_json()
            doc.pop("to_move")
            return doc
        a = sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions())
        st = st.apply(a)
    raise AssertionError("no battle with hits to assign in the seeded game")


def test_every_record_field_is_declared_once():
    assert [k.name for k in BATTLE.keys if k.read] == [f.name for f in dataclasses.fields(Battle)]
    assert [k.name for k in REACTION.keys] == [f.name for f in dataclasses.fields(Reaction)]
    assert list(DOCUMENT.model.model_fields) == [k.name for k in DOCUMENT.keys]


def test_a_document_read_back_writes_the_same_document():
    doc = _in_battle(3)
    st = RS.state_from_json(doc)
    again = st.to_json()
    again.pop("to_move")
    assert again == doc
    assert st.battle is not None and st.battle.queue == RS.state_from_json(again).battle.queue


@pytest.mark.parametrize(("patch", "field"), [
    ({"realm": "orcs"}, "realm"),
    ({"phase": "lunch"}, "phase"),
    ({"gold": {"karkoth": -1}}, "gold/karkoth"),
    ({"vp": {"elves": 3}}, "vp/elves"),
    ({"control": {"zz": "karkoth"}}, "control/zz"),
    ({"castles": ["zz"]}, "castles"),
    ({"pieces": {"k01": {"karkoth": {"castle": 1}}}}, "pieces/k01/karkoth/castle"),
    ({"ships": {"x": {"owner": "karkoth", "space": "s1"}}}, "ships/x"),
    ({"ships": {"9": {"owner": "karkoth", "space": "s1", "flags": ["sunk"]}}}, "ships/9/flags/0"),
    ({"battle": {"space": "zz"}}, "battle/space"),
    ({"battle": {"attacker": "elves"}}, "battle/attacker"),
    ({"battle": {"queue": [["elves", 1]]}}, "battle/queue"),
    ({"battle": {"step": "nap"}}, "battle/step"),
    ({"battle": {"split_hits": 2}}, "battle/split_hits"),
    ({"battle": {"extra": 1}}, "battle/extra"),
    ({"reaction": {"kind": "move", "realms": ["vailin"], "mover": "karkoth"}}, "reaction/space"),
    ({"effects": [["karkoth", "attack", 1, "*", "turn", "event"]]}, "effects/0"),
    ({"guardians": {"k01": []}}, "guardians/k01"),
    ({"guardian_pile": ["no-such-tile"]}, "guardian_pile"),
    ({"treasure_deck": ["no-such-card"]}, "treasure_deck"),
    ({"stats": {"naps": 1}}, "stats"),
])
def test_the_declared_document_refuses_naming_the_field(patch, field):
    with pytest.raises(StateFormatError) as e:
        RS.state_from_json(merge_patch(_in_battle(3), patch))
    assert e.value.field == field, e.value


@pytest.mark.parametrize("piece", ["castle", "warship"])
def test_a_castle_or_warship_among_the_pieces_is_refused_saying_where_it_belongs(piece):
    with pytest.raises(StateFormatError) as e:
        RS.state_from_json(merge_patch(_in_battle(3), {"pieces": {"k01": {"karkoth": {piece: 1}}}}))
    assert e.value.field == f"pieces/k01/karkoth/{piece}"
    assert "Castles are in 'castles', Warships in 'ships'" in str(e.value)


@pytest.mark.parametrize(("effects", "field", "says"), [
    ([["vailin", "move_bonus", 10**9, "*", "turn"]], "effects/0/2", "from 0 to"),  # took minutes to read before
    ([["vailin", "zap", 1, "*", "turn"]], "effects/0/1", "one of attack_bonus"),
    ([["vailin", "move_bonus", True, "*", "turn"]], "effects/0/2", "got True"),
    ([["vailin", "move_bonus", 1, "*", "forever"]], "effects/0", "lasts a turn"),
    ([["vailin", "move_bonus", 1, "*", "turn"]] * 500, "effects", "at most"),
])
def test_an_effect_no_card_makes_is_refused_at_once(effects, field, says):
    """A lasting effect is a card's: its verb, a value within what the cards of that verb give, a piece a card
    names, a turn, a battle or the game (``effects.effect_forms``, from the card data)."""
    doc = RS.new_game(2, {}, seed=1).to_json()
    doc["effects"] = effects
    with pytest.raises(StateFormatError) as e:
        RS.state_from_json(doc)
    assert e.value.field == field and says in str(e.value)


def test_effects_that_cards_make_are_read():
    doc = RS.new_game(2, {}, seed=1).to_json()
    doc["effects"] = [["vailin", "move_bonus", 1, "footsoldier", "turn"], ["karkoth", "income_bonus", -2, "*", "turn"],
                      ["vailin", "attack_bonus", 2, "siege", "game", "treasure"]]
    assert RS.state_from_json(doc).to_json()["effects"] == doc["effects"]
