"""A state's fields declared once (docs/architecture.md, "State declarations").

A ruleset declares its state in two tables and derives the plumbing from them:

- ``Slots``: every attribute of the state with its copy policy (``SHARE`` an immutable or never-changed value,
  ``LIST`` a flat list, ``NESTED`` a list of lists, ``DICT`` a flat dict, ``DICT_LISTS`` a dict of lists,
  ``DICT_NESTED`` a dict of lists of lists, ``RECORD`` an object with a ``copy()`` method or None,
  ``DICT_OR_NONE`` a flat dict or None, ``RESET`` a cache set back to None). From it: ``__slots__`` and
  ``clone``, generated as straight-line code (one assignment per field, as a hand-written clone would be: the
  copy is on every search step's path).
- ``Document``: every key of the state's JSON body with its declared type (a pydantic annotation), a writer
  (state -> JSON value) and a reader (state, validated value -> sets fields), or none for a key written for
  readers and ignored when read. From it: the pydantic model that ``Ruleset.state_from_json`` validates a
  document with, the JSON writer (the keys in declaration order) and the reader (validated values only: types
  and bounds are never checked twice; a ruleset's reader keeps only ids to indices and cross-field checks).

The layout stays flat and cheap to copy; the declaration only removes the five or six places each field used to
be written in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Protocol, TypeVar, cast

from pydantic import Field, create_model

from conquest.core.errors import StateFormatError
from conquest.core.game import json_copy
from conquest.core.schema import Body

__all__ = ["DICT", "DICT_LISTS", "DICT_NESTED", "DICT_OR_NONE", "LIST", "NESTED", "RECORD", "RESET", "SHARE",
           "Document", "Key", "Slots", "attr", "index_of"]

SHARE = "share"
LIST = "list"
NESTED = "nested"
DICT = "dict"
DICT_LISTS = "dict_lists"
DICT_NESTED = "dict_nested"
RECORD = "record"
DICT_OR_NONE = "dict_or_none"
RESET = "reset"

_COPY = {
    SHARE: "self.{0}",
    LIST: "self.{0}[:]",
    NESTED: "[x[:] for x in self.{0}]",
    DICT: "self.{0}.copy()",
    DICT_LISTS: "{{k: v[:] for k, v in self.{0}.items()}}",
    DICT_NESTED: "{{k: [x[:] for x in v] for k, v in self.{0}.items()}}",
    RECORD: "None if self.{0} is None else self.{0}.copy()",
    DICT_OR_NONE: "None if self.{0} is None else self.{0}.copy()",
    RESET: "None",
}

_S = TypeVar("_S")


class CloneMethod(Protocol):
    """The type of a generated ``clone`` put in a class body: read from a state, it is a method returning a
    state of that same class (at run time a plain function, which binds the same way)."""

    def __get__(self, obj: _S, owner: Any) -> Callable[[], _S]: ...


class Slots:
    """The attributes of a state class, each with its copy policy, in one declaration:
    ``FIELDS = Slots(board=SHARE, armies=LIST, ...)``, then ``__slots__ = FIELDS.names`` and
    ``clone = FIELDS.clone`` in the class body."""

    def __init__(self, **policies: str) -> None:
        unknown = {p for p in policies.values() if p not in _COPY}
        if unknown:
            raise ValueError(f"unknown copy policies {sorted(unknown)} (one of {', '.join(_COPY)})")
        self.policies = policies
        self.names: tuple[str, ...] = tuple(policies)
        self.clone: CloneMethod = cast(CloneMethod, self._make_clone())

    def _make_clone(self) -> Callable[[Any], Any]:
        lines = ["def clone(self):", "    s = _new(self.__class__)"]
        lines += [f"    s.{name} = {_COPY[p].format(name)}" for name, p in self.policies.items()]
        lines.append("    return s")
        namespace: dict[str, Any] = {"_new": object.__new__}
        exec("\n".join(lines), namespace)  # straight-line code from the declaration: no loop per clone
        fn: Callable[[Any], Any] = namespace["clone"]
        fn.__doc__ = "A copy that shares nothing mutable with this state (generated from its ``Slots``)."
        return fn


_REQUIRED: Any = ...


@dataclass(frozen=True)
class Key:
    """One key of a state document: its JSON name, its declared type (a pydantic annotation; bounds in
    ``Annotated[..., Field(...)]``), how it is written and how it is read. ``read`` None: written for readers
    only (derived figures), ignored when a document is read. ``default``: the value a document may leave out
    (none: the key is required). ``fresh``: the writer builds a new value each time, sharing no list or dict
    with the state, so the document need not copy it again (tests/core/test_contract.py holds every ruleset's
    documents to it)."""

    name: str
    type: Any
    write: Callable[[Any], Any]
    read: Callable[[Any, Any], None] | None = None
    default: Any = _REQUIRED
    fresh: bool = False


class Document:
    """A state's JSON body as a list of ``Key``: the pydantic model, the writer and the reader derived. A state
    class whose ``_body_json`` is ``write`` sets ``body_is_fresh = True`` (``State.to_json`` then copies
    nothing more)."""

    def __init__(self, model_name: str, keys: Sequence[Key], base: type[Body] = Body) -> None:
        self.keys = tuple(keys)
        fields: dict[str, Any] = {}
        for i, k in enumerate(self.keys):
            default = ... if k.default is _REQUIRED else k.default
            if k.name.isidentifier() and not k.name.startswith("_") and k.name not in _RESERVED:
                fields[k.name] = (k.type, default)
            else:  # "from", "class" or a key a model cannot name: an alias
                fields[f"key_{i}"] = (k.type, Field(default, alias=k.name))
        self.model: type[Body] = create_model(model_name, __base__=base, **fields)
        self._readers = tuple((k.name, k.read, k.default) for k in self.keys if k.read is not None)
        self.write: Callable[[Any], dict[str, Any]] = self._make_writer()

    def _make_writer(self) -> Callable[[Any], dict[str, Any]]:
        """``write(state)``: the body of ``state``'s document, the keys in declaration order, a fresh document
        (every value copied, except the ``fresh`` ones, new already), as one generated dict display (an ``attr``
        key reads its attribute in place; every other key calls its writer), so that a ``to_json`` costs what a
        hand-written one did."""
        namespace: dict[str, Any] = {"c": json_copy}
        items = []
        for i, k in enumerate(self.keys):
            attribute = getattr(k.write, "attribute", None)
            if attribute is not None:
                value = f"s.{attribute}"
            else:
                namespace[f"w{i}"] = k.write
                value = f"w{i}(s)"
            items.append(f"{k.name!r}: {value if k.fresh else f'c({value})'}")
        exec("def write(s):\n    return {" + ", ".join(items) + "}", namespace)
        fn: Callable[[Any], dict[str, Any]] = namespace["write"]
        fn.__doc__ = "The body of a state's document, the keys in declaration order (generated from its keys)."
        return fn

    def read(self, state: Any, data: Mapping[str, Any]) -> None:
        """Set ``state``'s fields from a document the model has validated (a key left out reads its default)."""
        for name, read, default in self._readers:
            read(state, data[name] if name in data else default)


_RESERVED = frozenset({"model_config", "model_fields", "schema", "json", "dict", "copy", "validate", "construct"})


def index_of(index: Mapping[Any, int], value: Any, field: str, what: str) -> int:
    """The index of ``value`` in ``index`` (an id -> index map of the board or the realms), or a refusal naming
    ``field``: "unknown <what> 'x'"."""
    try:
        return index[value]
    except (KeyError, TypeError):
        raise StateFormatError(field, f"unknown {what} {value!r}") from None


class _AttrWriter:
    """The writer of an ``attr`` key: the attribute as it is (``Document`` inlines it as ``s.<attribute>``)."""

    __slots__ = ("attribute", "_get")

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute
        self._get = attrgetter(attribute)

    def __call__(self, state: Any) -> Any:
        return self._get(state)


def attr(name: str, type_: Any, attribute: str | None = None, default: Any = _REQUIRED) -> Key:
    """A key that is one attribute as it is (a number, an id, a list of them): written as a copy of the
    attribute (``Document.write`` copies it), read as a copy of the validated value."""
    a = attribute or name
    get = _AttrWriter(a)

    def read(state: Any, value: Any) -> None:
        setattr(state, a, json_copy(value))

    return Key(name, type_, get, read, default)
