"""core.keykinds: the key kinds and nested records that Narby and Small World declare their documents with, on a
small document of their own (its model validated, its writer and reader derived by ``core.fields.Document``)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import StrictInt

from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, attr
from conquest.core.keykinds import (
    id_mask,
    index_key,
    index_list,
    nullable,
    one_per_seat,
    part,
    seat_mask,
    tagged,
    union,
)
from conquest.core.schema import validate_document

COLOURS = ("red", "green", "blue")
Move = tagged("move", seat=StrictInt, steps=(StrictInt, 1))
Stop = tagged("stop", seat=StrictInt)
Event, BY_TAG = union(Move, Stop)
Pair = part("Pair", a=StrictInt, b=(StrictInt, 7))


class Toy:
    players = 2


DOC = Document("ToyBody", [
    index_key("colour", COLOURS),
    index_key("winner", COLOURS, "won", nullable=True),
    one_per_seat(index_list("picks", COLOURS, "picks")),
    id_mask("used", COLOURS, "used"),
    seat_mask("passed", StrictInt, "passed"),
    nullable("die", StrictInt),
    attr("event", Event | None, default=None),
    attr("pair", Pair | None, default=None),
])


def read(doc: dict[str, Any]) -> Toy:
    validate_document(DOC.model, doc)
    s = Toy()
    DOC.read(s, doc)
    return s


GOOD = {"colour": "blue", "winner": None, "picks": ["green", None], "used": ["red", "blue"], "passed": [1],
        "die": None}


def test_ids_are_indices_in_the_state_and_ids_again_in_the_document():
    s = read(GOOD)
    assert (s.colour, s.won, s.picks, s.used, s.passed, s.die) == (2, -1, [1, -1], 0b101, 0b10, -1)
    assert DOC.write(s) == {**GOOD, "event": None, "pair": None}
    s.won, s.die = 0, 4
    assert DOC.write(s)["winner"] == "red" and DOC.write(s)["die"] == 4


def test_an_unknown_id_is_refused_by_the_declared_type_naming_the_field():
    for key, bad in (("colour", "pink"), ("picks", ["pink", None]), ("used", ["pink"])):
        with pytest.raises(StateFormatError) as e:
            read({**GOOD, key: bad})
        assert str(e.value).startswith(key) and "'red', 'green' or 'blue'" in str(e.value)


def test_a_list_of_one_item_per_seat_has_the_players_length():
    with pytest.raises(StateFormatError, match="^picks: expected a list of 2 entries$"):
        read({**GOOD, "picks": ["red", "green", "blue"]})


def test_a_seat_of_a_set_is_one_of_the_players():
    with pytest.raises(StateFormatError, match=r"^passed/1: expected an integer 0\.\.1, got 2$"):
        read({**GOOD, "passed": [0, 2]})


def test_a_tagged_union_picks_its_record_by_tag_and_a_part_refuses_other_keys():
    assert set(BY_TAG) == {"move", "stop"} and BY_TAG["move"] is Move
    read({**GOOD, "event": {"type": "stop", "seat": 1}})
    with pytest.raises(StateFormatError, match="^event/stop/steps"):
        read({**GOOD, "event": {"type": "stop", "seat": 1, "steps": 2}})
    with pytest.raises(StateFormatError, match="^pair/c"):
        read({**GOOD, "pair": {"a": 1, "c": 2}})


def test_filled_gives_the_declared_defaults_of_the_keys_left_out():
    from conquest.core.keykinds import filled
    assert filled(Move, {"type": "move", "seat": 0}) == {"type": "move", "seat": 0, "steps": 1}
    assert filled(Pair, {"a": 1}) == {"a": 1, "b": 7}
