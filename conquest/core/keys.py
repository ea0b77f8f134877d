"""Kinds of document keys that map ids to indices (docs/architecture.md, "State declarations"), for
``core.fields.Document``: a state keeps spaces, realms or territories as indices into an id table and its
document names them by id. Each kind writes the ids, reads the indices back (an id the table does not know is
refused naming the field: "unknown <what> 'x'") and may declare the field's start value, from which a state's
constructor is derived (``Starts``).

- ``IdTable``: the ids of one kind (``what``), in order, and the index each stands for.
- ``one_id``: one index (``-1`` written as null when ``none`` is allowed); ``id_list``: a list of indices;
  ``per_id``: a list with one entry per id, written ``{id: entry}`` (an id left out keeps the start value);
  ``id_flags``: a 0/1 list, written as the ids whose entry is 1; ``id_dict``: a dict keyed by indices;
  ``rows``: tuples with index columns, written as objects; ``known_ids``: ids kept as ids, each among a data
  file's; ``record``: a nested record (its own ``Document``) or null.
- ``key`` and ``start``: any key with its field's start value; ``Starts``: the constructor they give.
- ``one_of`` and ``dict_of``: ids the schema lists (a ``Literal``), so that no reader checks them again.
"""

from __future__ import annotations

from ast import literal_eval
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Literal

from pydantic import ConfigDict

from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, Key
from conquest.core.game import json_copy
from conquest.core.schema import Body

__all__ = ["IdTable", "Record", "StartKey", "Starts", "dict_of", "id_dict", "id_flags", "id_list", "key",
           "known_ids", "one_id", "one_of", "per_id", "record", "rows", "start"]

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

    if isinstance(table, IdTable) and not none:
        of = table.of

        def write(x: Any) -> Any:   # a fixed table: no lookup of it on every to_json
            return of[get(x)]

    def read(x: Any, v: Any) -> None:
        setattr(x, a, -1 if v is None else tab(x).ix(v, field))

    return StartKey(name, type_ | None if none else type_, write, read, default, False, a, start)


def id_list(name: str, table: IdTable | Callable[[Any], IdTable], type_: Any, attribute: str | None = None,
            default: Any = ..., prefix: str = "", start: Any = NO_START) -> StartKey:
    """A list of indices, written as their ids in the same order."""
    a, field, tab = attribute or name, prefix + name, _table_of(table)
    get = attrgetter(a)

    def write(x: Any) -> list[str]:
        of = tab(x).of
        return [of[i] for i in get(x)]

    if isinstance(table, IdTable):
        of = table.of

        def write(x: Any) -> list[str]:   # a fixed table: no lookup of it on every to_json
            return [of[i] for i in get(x)]

    def read(x: Any, v: list[Any]) -> None:
        t = tab(x)
        setattr(x, a, [t.ix(e, field) for e in v])

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


def id_flags(name: str, table: IdTable, size: int, attribute: str | None = None,
             default: Any = ..., start: Any = NO_START) -> StartKey:
    """A 0/1 list over a board (``size`` entries), written as the ids of ``table`` whose entry is 1, in the
    table's order; an id not in the table is refused."""
    a = attribute or name
    get = attrgetter(a)

    def write(x: Any) -> list[str]:
        flags = get(x)
        return [k for k, i in table.items if flags[i]]

    def read(x: Any, v: list[Any]) -> None:
        flags = [0] * size
        for e in v:
            flags[table.ix(e, name)] = 1
        setattr(x, a, flags)

    return StartKey(name, list[str], write, read, default, True, a, start)


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


def record(name: str, doc: Document, cls: type, check: Callable[[Any, Any], None] | None = None,
           write: Callable[[Any], Any] | None = None, attribute: str | None = None) -> StartKey:
    """A nested record or null (its own ``Document`` declares its keys: the model, writer and reader), read into
    a new ``cls``, then ``check(state, record)``; written by ``doc`` unless by ``write``. Starts as None."""
    a = attribute or name
    get = attrgetter(a)

    def read(x: Any, d: Mapping[str, Any] | None) -> None:
        setattr(x, a, None)
        if d is not None:
            rec: Any = object.__new__(cls)
            doc.read(rec, d)
            setattr(x, a, rec)
            if check is not None:
                check(x, rec)

    def written(x: Any) -> Any:
        rec = get(x)
        return None if rec is None else doc.write(rec)

    return StartKey(name, doc.model | None, write or written, read, None, True, a, None)
