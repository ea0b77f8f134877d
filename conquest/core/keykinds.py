"""Kinds of state-document keys and nested records that several rulesets declare the same way (an addition to
``core.fields``, docs/architecture.md "State declarations"): a ruleset names the kind and its table instead of
writing the reader and the writer again.

- ``part`` / ``tagged`` / ``union``: nested records declared as ``name=type`` or ``name=(type, default)``,
  the pydantic part models generated (a tagged union's discriminator and its models by tag).
- ``filled``: a validated nested object with the defaults its model declares for the keys it leaves out.
- ``index_key``: an id in the document, an index into an id table in the state (-1 for null).
- ``nullable``: a number the state keeps as -1 where the document has null.
- ``seat_mask``: a set of seats in the document, a bit mask in the state, each seat within the players
  (``check_seat``).
- ``one_per_seat``: a key whose list has one item per seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache, reduce
from operator import attrgetter, or_
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, create_model

from conquest.core.errors import StateFormatError
from conquest.core.fields import Key
from conquest.core.schema import Part

__all__ = ["check_seat", "filled", "id_mask", "index_key", "index_list", "nullable", "one_per_seat", "part",
           "seat_mask", "tagged", "union"]


def part(name: str, *, base: Any = Part, **fields: Any) -> Any:
    """A nested record's model: every field ``type`` (required) or ``(type, default)``, no other key allowed."""
    return create_model(name, __base__=base, **fields)


def tagged(tag: str, *, base: type[BaseModel] = Part, key: str = "type", **fields: Any) -> Any:
    """A record of a tagged union: its ``key`` holds ``tag`` (the model is named after the tag)."""
    return part(tag.title().replace("_", ""), base=base, **{key: (Literal[tag], ...)}, **fields)


def union(*models: Any, key: str = "type") -> tuple[Any, dict[str, Any]]:
    """The discriminated union of tagged records and the models by their tag."""
    by_tag = {m.model_fields[key].annotation.__args__[0]: m for m in models}
    return Annotated[reduce(or_, models), Field(discriminator=key)], by_tag


@cache
def _defaults(model: type[BaseModel]) -> dict[str, Any]:
    return {f.alias or k: f.default for k, f in model.model_fields.items() if not f.is_required()}


def filled(model: type[BaseModel], value: dict[str, Any]) -> dict[str, Any]:
    """A validated nested object with the defaults its model declares for the keys it leaves out."""
    return {**_defaults(model), **value}


def index_key(name: str, ids: Sequence[str], attribute: str | None = None, nullable: bool = False,
              default: Any = ...) -> Key:
    """A key whose value is one of ``ids`` (null too when ``nullable``), kept in the state as its index (-1 for
    null); a document's unknown id is refused by the declared ``Literal`` type, naming the ids it may be."""
    a = attribute or name
    get = attrgetter(a)
    index = {x: i for i, x in enumerate(ids)}
    type_: Any = Literal[tuple(ids)]
    if nullable:
        return Key(name, type_ | None, lambda s: None if get(s) < 0 else ids[get(s)],
                   lambda s, v: setattr(s, a, -1 if v is None else index[v]), None if default is ... else default)
    return Key(name, type_, lambda s: ids[get(s)], lambda s, v: setattr(s, a, index[v]), default)


def nullable(name: str, type_: Any, attribute: str | None = None) -> Key:
    """A key for a number the state keeps as -1 when the document has null (null when left out)."""
    a = attribute or name
    get = attrgetter(a)
    return Key(name, type_ | None, lambda s: None if get(s) < 0 else get(s),
               lambda s, v: setattr(s, a, -1 if v is None else v), None)


def seat_mask(name: str, seat: Any, field: str, most: int = 10) -> Key:
    """A key for a set of seats (``seat`` their type, at most ``most``), a bit mask in the state; a seat past
    the players is refused naming ``field/<k>``."""
    get = attrgetter(name)

    def read(s: Any, seats: list[int]) -> None:
        m = 0
        for k, t in enumerate(seats):
            m |= 1 << check_seat(s.players, t, f"{field}/{k}")
        setattr(s, name, m)

    return Key(name, Annotated[list[seat], Field(max_length=most)],
               lambda s: [t for t in range(s.players) if get(s) >> t & 1], read, [])


def _list_of(item: Any) -> Any:
    return list[item]


def index_list(name: str, ids: Sequence[str], attribute: str, wrap: Callable[[Any], Any] = _list_of) -> Key:
    """A key for a list of ids or nulls (its type ``wrap(item)``, e.g. one per seat), kept in the state as a list
    of indices into ``ids`` (-1 for null)."""
    get = attrgetter(attribute)
    index = {x: i for i, x in enumerate(ids)}
    return Key(name, wrap(Literal[tuple(ids)] | None), lambda s: [ids[i] if i >= 0 else None for i in get(s)],
               lambda s, v: setattr(s, attribute, [-1 if x is None else index[x] for x in v]), fresh=True)


def id_mask(name: str, ids: Sequence[str], attribute: str, most: int = 100) -> Key:
    """A key for a set of ids (listed in the order of ``ids``; a document's list at most ``most`` long, an id
    named twice counts once), kept in the state as a bit mask over ``ids``."""
    get = attrgetter(attribute)
    index = {x: i for i, x in enumerate(ids)}
    item: Any = Literal[tuple(ids)]

    def write(s: Any) -> list[str]:
        mask = get(s)
        return [x for i, x in enumerate(ids) if mask >> i & 1] if mask else []

    return Key(name, Annotated[list[item], Field(max_length=most)], write,
               lambda s, v: setattr(s, attribute, sum(1 << index[x] for x in set(v))), fresh=True)


def one_per_seat(key: Key, what: str = "entries") -> Key:
    """``key`` for a list with one item per seat: a document's list of another length is refused naming the key
    ("expected a list of 3 entries"), before ``key`` reads it."""
    read = key.read
    assert read is not None, "a key read for its length is read"

    def checked(s: Any, v: list[Any]) -> None:
        if len(v) != s.players:
            raise StateFormatError(key.name, f"expected a list of {s.players} {what}")
        read(s, v)

    return replace(key, read=checked)


def check_seat(players: int, t: int, field: str) -> int:
    """``t``, a seat of a validated document, if it is one of the ``players``; else a refusal naming ``field``."""
    if t >= players:
        raise StateFormatError(field, f"expected an integer 0..{players - 1}, got {t!r}")
    return t
