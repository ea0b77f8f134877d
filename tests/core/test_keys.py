"""core/keys.py: id key kinds write ids and read indices back, refuse an unknown id naming the field, and the
start values they declare give each new state lists of its own."""

from __future__ import annotations

import pytest

from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, attr
from conquest.core.keys import IdTable, Starts, id_flags, id_list, one_id, per_id, start

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
    start(attr("round", int), 1),
])
START = Starts(DOC.keys)


def _new() -> Toy:
    return START.set(Toy())


def test_ids_written_and_indices_read_back() -> None:
    x = _new()
    x.realm, x.order, x.gold, x.ctrl, x.castle = 1, [1, 0], [3, 4], [1, 0, 0], [0, 0, 1]
    doc = DOC.write(x)
    assert doc == {"realm": "blue", "order": ["blue", "red"], "gold": {"red": 3, "blue": 4},
                   "owner": {"a": "blue", "c": "red"}, "castles": ["c"], "round": 1}
    y = _new()
    DOC.read(y, doc)
    assert (y.realm, y.order, y.gold, y.ctrl, y.castle) == (1, [1, 0], [3, 4], [1, 0, 0], [0, 0, 1])


@pytest.mark.parametrize(("patch", "field", "says"), [
    ({"realm": "green"}, "realm", "unknown realm 'green' (one of red, blue)"),
    ({"gold": {"green": 1}}, "gold/green", "unknown realm 'green'"),
    ({"owner": {"b": "red"}}, "owner/b", "unknown land space 'b'"),
    ({"owner": {"a": "green"}}, "owner/a", "unknown realm 'green'"),
    ({"castles": ["b"]}, "castles", "unknown land space 'b'"),
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
