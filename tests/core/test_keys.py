"""core/keys.py: id key kinds write ids and read indices back, refuse an unknown id naming the field, and the
start values they declare give each new state lists of its own; on a second small document (its model validated,
as a state document is), ids the schema lists with null as -1, seat sets, one-per-seat lists and nested records
(tagged unions, parts, their defaults)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import StrictInt

from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, attr
from conquest.core.keys import (
    IdTable,
    Starts,
    filled,
    id_flags,
    id_list,
    nullable,
    one_id,
    one_of,
    one_per_seat,
    part,
    per_id,
    seat_mask,
    start,
    tagged,
    union,
)
from conquest.core.schema import validate_document

REALM = IdTable("realm", ("red", "blue"))
LAND = IdTable("land space", ("a", "c"), (0, 2))   # a part of a board of 3 spaces


class Toy:
    pass


DOC = Document("Toy", [
    one_id("realm", REALM, start=0),
    id_list("order", REALM, list[str], start=[]),
    per_id("gold", REALM, int, start=[0, 0]),
    per_id("owner", LAND, str, "ctrl", entries=REALM, start=lambda x: [0, 0, 1]),
    id_flags("castles", LAND, 3, "castle", start=[0, 0, 0]),
    id_flags("allies", REALM, None, start=0),   # a bit mask
    start(attr("round", int), 1),
])
START = Starts(DOC.keys)


def _new() -> Toy:
    return START.set(Toy())


def test_ids_written_and_indices_read_back() -> None:
    x = _new()
    x.realm, x.order, x.gold, x.ctrl, x.castle, x.allies = 1, [1, 0], [3, 4], [1, 0, 0], [0, 0, 1], 0b10
    doc = DOC.write(x)
    assert doc == {"realm": "blue", "order": ["blue", "red"], "gold": {"red": 3, "blue": 4},
                   "owner": {"a": "blue", "c": "red"}, "castles": ["c"], "allies": ["blue"], "round": 1}
    y = _new()
    DOC.read(y, {**doc, "allies": ["blue", "red", "blue"]})   # an id named twice counts once
    assert (y.realm, y.order, y.gold, y.ctrl, y.castle, y.allies) == (1, [1, 0], [3, 4], [1, 0, 0], [0, 0, 1], 0b11)


@pytest.mark.parametrize(("patch", "field", "says"), [
    ({"realm": "green"}, "realm", "unknown realm 'green' (one of red, blue)"),
    ({"gold": {"green": 1}}, "gold/green", "unknown realm 'green'"),
    ({"owner": {"b": "red"}}, "owner/b", "unknown land space 'b'"),
    ({"owner": {"a": "green"}}, "owner/a", "unknown realm 'green'"),
    ({"castles": ["b"]}, "castles", "unknown land space 'b'"),
    ({"allies": ["green"]}, "allies", "unknown realm 'green'"),
])
def test_an_unknown_id_is_refused_naming_the_field(patch: dict, field: str, says: str) -> None:
    doc = {**DOC.write(_new()), **patch}
    with pytest.raises(StateFormatError) as e:
        DOC.read(_new(), doc)
    assert e.value.field == field and says in str(e.value)


def test_a_left_out_id_keeps_the_start_value_and_each_state_has_its_own_lists() -> None:
    x = _new()
    DOC.read(x, {**DOC.write(x), "gold": {"blue": 7}, "owner": {}})
    assert x.gold == [0, 7] and x.ctrl == [0, 0, 1]
    a, b = _new(), _new()
    a.order.append(1)
    a.gold[0] = 5
    assert b.order == [] and b.gold == [0, 0]


COLOURS = ("red", "green", "blue")
COLOUR = IdTable("colour", COLOURS)
Colour: Any = one_of(COLOURS)
Move = tagged("move", seat=StrictInt, steps=(StrictInt, 1))
Stop = tagged("stop", seat=StrictInt)
Event, BY_TAG = union(Move, Stop)
Pair = part("Pair", a=StrictInt, b=(StrictInt, 7))


class Table:
    players = 2


PLAY = Document("TableBody", [
    one_id("colour", COLOUR, type_=Colour),
    one_id("winner", COLOUR, "won", none=True, type_=Colour, default=None),
    one_per_seat(id_list("picks", COLOUR, list[Colour | None], none=True)),
    id_flags("used", COLOUR, None, type_=list[Colour]),
    seat_mask("passed", StrictInt, "passed"),
    nullable("die", StrictInt),
    attr("event", Event | None, default=None),
    attr("pair", Pair | None, default=None),
])


def _read(doc: dict[str, Any]) -> Table:
    validate_document(PLAY.model, doc)
    s = Table()
    PLAY.read(s, doc)
    return s


GOOD = {"colour": "blue", "winner": None, "picks": ["green", None], "used": ["red", "blue"], "passed": [1],
        "die": None}


def test_null_is_minus_one_and_sets_are_bit_masks_in_the_state() -> None:
    s = _read(GOOD)
    assert (s.colour, s.won, s.picks, s.used, s.passed, s.die) == (2, -1, [1, -1], 0b101, 0b10, -1)
    assert PLAY.write(s) == {**GOOD, "event": None, "pair": None}
    s.won, s.die = 0, 4
    assert PLAY.write(s)["winner"] == "red" and PLAY.write(s)["die"] == 4


def test_an_id_the_schema_lists_is_refused_by_the_declared_type_naming_the_field() -> None:
    for name, bad in (("colour", "pink"), ("picks", ["pink", None]), ("used", ["pink"])):
        with pytest.raises(StateFormatError) as e:
            _read({**GOOD, name: bad})
        assert str(e.value).startswith(name) and "'red', 'green' or 'blue'" in str(e.value)


def test_a_list_of_one_item_per_seat_has_the_players_length() -> None:
    with pytest.raises(StateFormatError, match="^picks: expected a list of 2 entries$"):
        _read({**GOOD, "picks": ["red", "green", "blue"]})


def test_a_seat_of_a_set_is_one_of_the_players() -> None:
    with pytest.raises(StateFormatError, match=r"^passed/1: expected an integer 0\.\.1, got 2$"):
        _read({**GOOD, "passed": [0, 2]})


def test_a_tagged_union_picks_its_record_by_tag_and_a_part_refuses_other_keys() -> None:
    assert set(BY_TAG) == {"move", "stop"} and BY_TAG["move"] is Move
    _read({**GOOD, "event": {"type": "stop", "seat": 1}})
    with pytest.raises(StateFormatError, match="^event/stop/steps"):
        _read({**GOOD, "event": {"type": "stop", "seat": 1, "steps": 2}})
    with pytest.raises(StateFormatError, match="^pair/c"):
        _read({**GOOD, "pair": {"a": 1, "c": 2}})


def test_filled_gives_the_declared_defaults_of_the_keys_left_out() -> None:
    assert filled(Move, {"type": "move", "seat": 0}) == {"type": "move", "seat": 0, "steps": 1}
    assert filled(Pair, {"a": 1}) == {"a": 1, "b": 7}
