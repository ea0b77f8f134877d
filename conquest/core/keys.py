"""Kinds of state-document keys, for ``core.fields.Document`` (docs/architecture.md, "State declarations"): the
one place where a ruleset finds a kind of key or nested record that several rulesets declare the same way.

Ids and indices: a state keeps spaces, realms, races or territories as indices into an id table and its document
names them by id. Each kind writes the ids, reads the indices back (an id the table does not know is refused
naming the field: "unknown <what> 'x'"; a ``Literal`` type from ``one_of`` lets the schema refuse it first) and
may declare the field's start value, from which a state's constructor is derived (``Starts``).

- ``IdTable``: the ids of one kind (``what``), in order, and the index each stands for.
- ``one_id``: one index (``-1`` written as null when ``none`` is allowed); ``id_list``: a list of indices (with
  ``none``, -1 as null); ``per_id``: a list with one entry per id, written ``{id: entry}`` (an id left out keeps
  the start value); ``id_flags``: a 0/1 list or a bit mask, written as the ids it holds; ``id_dict``: a dict
  keyed by indices; ``rows``: tuples with index columns, written as objects; ``known_ids``: ids kept as ids, each
  among a data file's; ``record``: a nested record (its own ``Document``) or null.
- ``key`` and ``start``: any key with its field's start value; ``Starts``: the constructor they give.
- ``one_of`` and ``dict_of``: ids the schema lists (a ``Literal``), so that no reader checks them again.

Numbers, seats and nested records:

- ``nullable``: a number the state keeps as -1 where the document has null.
- ``seat_mask``: a set of seats in the document, a bit mask in the state, each seat within the players
  (``check_seat``); ``one_per_seat``: a key whose list has one item per seat.
- ``part`` / ``tagged`` / ``union``: nested records declared as ``name=type`` or ``name=(type, default)``, the
  pydantic models generated (a tagged union's discriminator and its models by tag); ``filled``: a validated
  nested object with the defaults its model declares for the keys it leaves out.
"""
from __future__ import annotations

from ast import literal_eval
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache, reduce
from operator import attrgetter, or_
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, Key
from conquest.core.game import json_copy
from conquest.core.schema import Body, Part

__all__ = ["IdTable", "Record", "StartKey", "Starts", "check_seat", "dict_of", "filled", "id_dict", "id_flags",
           "id_list", "key", "known_ids", "nullable", "one_id", "one_of", "one_per_seat", "part", "per_id", "record",
           "rows", "seat_mask", "start", "tagged", "union"]

NO_START: Any = object()


class Record(Body):
    """A record nested in a document (a battle, a pending move): every field declared, no other allowed."""
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class IdTable:
    """The ids of one kind of thing (``what``: "space", "realm"...) and the index each stands for (by default its
    position; ``indices`` when the table is a part of a larger one, e.g. the land spaces of a board)."""

    __slots__ = ("what", "ids", "index", "items", "of", "whole")

    def __init__(self, what: str, ids: Iterable[str], indices: Iterable[int] | None = None) -> None:
        self.what = what
        self.ids = tuple(ids)
        positions = range(len(self.ids)) if indices is None else tuple(indices)
        self.items = tuple(zip(self.ids, positions))
        self.index: dict[str, int] = dict(self.items)
        self.whole = indices is None   # the indices are the positions 0..n-1
        # index -> id: the ids themselves when the indices are their positions (a tuple is read faster)
        self.of: Mapping[int, str] | tuple[str, ...] = self.ids if self.whole else {i: x for x, i in self.items}

    def ix(self, value: Any, field: str) -> int:
        """The index of id ``value``, or a refusal naming ``field``."""
        try:
            return self.index[value]
        except (KeyError, TypeError):
            known = f" (one of {', '.join(self.ids)})" if len(self.ids) <= 8 else ""
            raise StateFormatError(field, f"unknown {self.what} {value!r}{known}") from None


@dataclass(frozen=True)
class StartKey(Key):
    """A key that knows the attribute it fills and, unless ``NO_START``, the attribute's start value in a new
    state (``Starts``)."""

    attribute: str = ""
    start: Any = NO_START


def start(key: Key, value: Any, attribute: str | None = None) -> StartKey:
    """``key`` with the start value of the attribute it fills (``attribute``, by default the key's name)."""
    return StartKey(key.name, key.type, key.write, key.read, key.default, key.fresh,
                    attribute or getattr(key, "attribute", "") or key.name, value)


def key(name: str, type_: Any, write: Callable[[Any], Any], read: Callable[[Any, Any], None] | None = None,
        default: Any = ..., *, fresh: bool = False, start: Any = NO_START, attribute: str | None = None) -> StartKey:
    """A ``Key`` with the start value of the attribute it fills (``attribute``, by default the key's name)."""
    return StartKey(name, type_, write, read, default, fresh, attribute or name, start)


class Starts:
    """The start values a document's keys declare, set on a new state by one generated function (straight-line
    code, as a hand-written constructor): a callable start is called with the state; any other start is a JSON
    literal (a number, a string, None, lists and dicts of them), written into the code, so that each state gets
    its own new lists and dicts."""

    def __init__(self, keys: Iterable[Key]) -> None:
        namespace: dict[str, Any] = {}
        lines = ["def start(s):"]
        for i, k in enumerate(keys):
            if not isinstance(k, StartKey) or k.start is NO_START:
                continue
            if callable(k.start):
                namespace[f"v{i}"] = k.start
                lines.append(f"    s.{k.attribute} = v{i}(s)")
            elif literal_eval(repr(k.start)) == k.start:
                lines.append(f"    s.{k.attribute} = {k.start!r}")
            else:
                raise ValueError(f"the start of {k.name} is neither a callable nor a JSON literal")
        exec("\n".join(lines + ["    return s"]), namespace)
        self.set: Callable[[Any], Any] = namespace["start"]


def one_of(ids: Iterable[str]) -> Any:
    """The type of an id among ``ids`` (a ``Literal``): the schema refuses any other, naming the field."""
    return Literal.__getitem__(tuple(ids))


def dict_of(key: Any, value: Any) -> Any:
    """``dict[key, value]`` built at run time (a key type from ``one_of`` is no static type)."""
    return dict.__class_getitem__((key, value))


def _table_of(table: IdTable | Callable[[Any], IdTable]) -> Callable[[Any], IdTable]:
    return (lambda _state: table) if isinstance(table, IdTable) else table


def one_id(name: str, table: IdTable | Callable[[Any], IdTable], attribute: str | None = None, *, none: bool = False,
           type_: Any = str, default: Any = ..., prefix: str = "", start: Any = NO_START) -> StartKey:
    """One index, written as its id (``-1`` as null when ``none``)."""
    a, field, tab = attribute or name, prefix + name, _table_of(table)
    get = attrgetter(a)

    def write(x: Any) -> Any:
        i = get(x)
        return None if none and i < 0 else tab(x).of[i]

    def read(x: Any, v: Any) -> None:
        setattr(x, a, -1 if v is None else tab(x).ix(v, field))

    if isinstance(table, IdTable):   # a fixed table: no lookup of it on every to_json and from_json
        of, ix = table.of, table.ix

        if none:
            def write(x: Any) -> Any:
                i = get(x)
                return None if i < 0 else of[i]
        else:
            def write(x: Any) -> Any:
                return of[get(x)]

        def read(x: Any, v: Any) -> None:
            setattr(x, a, -1 if v is None else ix(v, field))

    return StartKey(name, type_ | None if none else type_, write, read, default, False, a, start)


def id_list(name: str, table: IdTable | Callable[[Any], IdTable], type_: Any, attribute: str | None = None,
            default: Any = ..., prefix: str = "", start: Any = NO_START, *, none: bool = False) -> StartKey:
    """A list of indices, written as their ids in the same order (with ``none``, -1 as null)."""
    a, field, tab = attribute or name, prefix + name, _table_of(table)
    get = attrgetter(a)

    def write(x: Any) -> list[Any]:
        of = tab(x).of
        return [of[i] if i >= 0 else None for i in get(x)] if none else [of[i] for i in get(x)]

    if isinstance(table, IdTable):
        of = table.of

        if none:
            def write(x: Any) -> list[Any]:   # a fixed table: no lookup of it on every to_json
                return [of[i] if i >= 0 else None for i in get(x)]
        else:
            def write(x: Any) -> list[Any]:
                return [of[i] for i in get(x)]

    def read(x: Any, v: list[Any]) -> None:
        t = tab(x)
        setattr(x, a, [-1 if e is None else t.ix(e, field) for e in v] if none else [t.ix(e, field) for e in v])

    return StartKey(name, type_, write, read, default, True, a, start)


def per_id(name: str, table: IdTable | Callable[[Any], IdTable], type_: Any, attribute: str | None = None,
           default: Any = ..., *, nonzero: bool = False, start: Any = NO_START, prefix: str = "",
           entries: IdTable | None = None, none: bool = False) -> StartKey:
    """A list with one entry per id of ``table`` (per realm, per seat...), written ``{id: entry}`` (only the
    entries that are not 0 when ``nonzero``; an entry that is an index of ``entries`` as its id; with ``none``,
    -1 as null); read over the start value when one is declared (a callable start is called when the document
    is read), else over the state's current list: an id left out keeps it."""
    a, tab = attribute or name, _table_of(table)
    get = attrgetter(a)

    def write(x: Any) -> dict[str, Any]:
        values = get(x)
        if entries is not None:
            return {k: entries.of[values[i]] for k, i in tab(x).items}
        if none:
            return {k: None if values[i] < 0 else values[i] for k, i in tab(x).items}
        return {k: values[i] for k, i in tab(x).items if values[i] or not nonzero}

    if isinstance(table, IdTable) and table.whole and not (entries or none or nonzero):
        ids = table.ids

        def write(x: Any) -> dict[str, Any]:   # every id, by position: one zip (on every to_json)
            return dict(zip(ids, get(x)))

    def read(x: Any, v: Mapping[str, Any]) -> None:
        values = start(x) if callable(start) else get(x) if start is NO_START else json_copy(start)
        t = tab(x)
        for k, e in v.items():
            field = f"{prefix}{name}/{k}"
            i = t.ix(k, field)
            values[i] = entries.ix(e, field) if entries is not None else -1 if e is None else json_copy(e)
        setattr(x, a, values)

    # the document copies the entries unless they are ids or numbers, new or immutable already
    return StartKey(name, dict[str, type_], write, read, default, entries is not None or none, a, start)


def id_flags(name: str, table: IdTable, size: int | None, attribute: str | None = None,
             default: Any = ..., start: Any = NO_START, *, type_: Any = list[str]) -> StartKey:
    """The ids of ``table`` a state holds, written in the table's order: a 0/1 list over a board (``size``
    entries) or, when ``size`` is None, a bit mask (bit ``i`` for index ``i``); an id not in the table is refused,
    an id named twice counts once."""
    a = attribute or name
    get = attrgetter(a)

    def write(x: Any) -> list[str]:
        flags = get(x)
        return [k for k, i in table.items if flags[i]]

    def read(x: Any, v: list[Any]) -> None:
        flags = [0] * (size or 0)
        for e in v:
            flags[table.ix(e, name)] = 1
        setattr(x, a, flags)

    if size is None:
        items = table.items

        def write(x: Any) -> list[str]:
            mask = get(x)
            return [k for k, i in items if mask >> i & 1] if mask else []

        def read(x: Any, v: list[Any]) -> None:
            mask = 0
            for e in v:
                mask |= 1 << table.ix(e, name)
            setattr(x, a, mask)

    return StartKey(name, type_, write, read, default, True, a, start)


def id_dict(name: str, table: IdTable, type_: Any, attribute: str | None = None, default: Any = ...,
            start: Any = NO_START) -> StartKey:
    """A dict from indices to values (a count per space...), written ``{id: value}`` by index order."""
    a = attribute or name
    get = attrgetter(a)

    def write(x: Any) -> dict[str, Any]:
        of = table.of
        return {of[i]: v for i, v in sorted(get(x).items())}

    def read(x: Any, v: Mapping[str, Any]) -> None:
        setattr(x, a, {table.ix(k, f"{name}/{k}"): json_copy(e) for k, e in v.items()})

    return StartKey(name, dict[str, type_], write, read, default, False, a, start)  # the document copies it


def known_ids(name: str, type_: Any, known: Callable[[], Collection[str]], what: str, default: Any = ...,
              start: Any = NO_START) -> StartKey:
    """A list of ids that stay ids (cards of a data file...), each among ``known()`` (else refused: "a list of
    <what>"), kept sorted; null (when the document may leave it out) keeps the start value."""

    def read(x: Any, v: list[str] | None) -> None:
        if v is not None and any(c not in known() for c in v):
            raise StateFormatError(name, f"a list of {what}")
        if v is not None:
            setattr(x, name, sorted(v))

    return StartKey(name, type_, attrgetter(name), read, default, False, name, start)


def rows(name: str, type_: Any, columns: Mapping[str, Callable[[Any], IdTable] | None],
         attribute: str | None = None, default: Any = ...) -> StartKey:
    """A tuple of rows (tuples), each written as an object of ``columns``: a column with a table (a function of
    the state) holds an index, written as its id and read back (refused naming ``<name>/<row>/<column>``)."""
    a = attribute or name
    get = attrgetter(a)
    cols = tuple(columns.items())

    def write(x: Any) -> list[dict[str, Any]]:
        found = get(x)
        if not found:
            return []
        tables = [(c, None if t is None else t(x).of) for c, t in cols]
        return [{c: v if of is None else of[v] for (c, of), v in zip(tables, row)} for row in found]

    def read(x: Any, v: list[Mapping[str, Any]]) -> None:
        tables = [(c, None if t is None else t(x)) for c, t in cols]
        setattr(x, a, tuple(tuple(r[c] if t is None else t.ix(r[c], f"{name}/{i}/{c}") for c, t in tables)
                            for i, r in enumerate(v)))

    return StartKey(name, type_, write, read, default, True, a)


def record(name: str, doc: Document, cls: type, write: Callable[[Any], Any] | None = None,
           attribute: str | None = None) -> StartKey:
    """A nested record or null (its own ``Document`` declares its keys: the model, writer and reader), read into
    a new ``cls``; written by ``doc`` unless by ``write``. Starts as None."""
    a = attribute or name
    get = attrgetter(a)

    def read(x: Any, d: Mapping[str, Any] | None) -> None:
        setattr(x, a, None)
        if d is not None:
            rec: Any = object.__new__(cls)
            doc.read(rec, d)
            setattr(x, a, rec)

    def written(x: Any) -> Any:
        rec = get(x)
        return None if rec is None else doc.write(rec)

    return StartKey(name, doc.model | None, write or written, read, None, True, a, None)


def nullable(name: str, type_: Any, attribute: str | None = None) -> StartKey:
    """A number the state keeps as -1 when the document has null (null when left out)."""
    a = attribute or name
    get = attrgetter(a)
    return StartKey(name, type_ | None, lambda s: None if get(s) < 0 else get(s),
                    lambda s, v: setattr(s, a, -1 if v is None else v), None, False, a)


def check_seat(players: int, t: int, field: str) -> int:
    """``t``, a seat of a validated document, if it is one of the ``players``; else a refusal naming ``field``."""
    if t >= players:
        raise StateFormatError(field, f"expected an integer 0..{players - 1}, got {t!r}")
    return t


def seat_mask(name: str, seat: Any, field: str, most: int = 10) -> StartKey:
    """A set of seats (``seat`` their type, at most ``most``), a bit mask in the state; a seat past the players
    is refused naming ``field/<k>``."""
    get = attrgetter(name)

    def read(s: Any, seats: list[int]) -> None:
        m = 0
        for k, t in enumerate(seats):
            m |= 1 << check_seat(s.players, t, f"{field}/{k}")
        setattr(s, name, m)

    return StartKey(name, Annotated[list[seat], Field(max_length=most)],
                    lambda s: [t for t in range(s.players) if get(s) >> t & 1], read, [], False, name)


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
