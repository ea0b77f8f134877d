"""Declared schemas of state documents (pydantic v2, strict: no coercion, ``true`` is not a number, ``"3"`` is
not a count). A ruleset's state class names its body model in ``State.schema``; ``Ruleset.state_from_json``
validates the document with it before the ruleset's loader checks what a schema cannot say (that a region
holding a race holds a token, that a card is in one place). A refusal names the field as a JSON pointer
without the leading slash, e.g. ``pieces/k03/karkoth/footsoldier``.

The pieces here are the shapes every ruleset uses: bounded whole numbers, short ids, seats."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from conquest.core.errors import StateFormatError

__all__ = ["Body", "Part", "Count", "Int", "Id", "Flag", "Text", "add_to_counter", "check_nesting", "read_counters",
           "validate_document"]


class Body(BaseModel):
    """The body of a state document: the header fields (format, ruleset, players...) pass through, unknown
    fields are refused by ``state_from_json`` itself."""
    model_config = ConfigDict(extra="allow", strict=True, frozen=True)


class Part(BaseModel):
    """A nested object of a state document: every field declared, no other allowed."""
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# Bounded whole numbers are written ``Annotated[int, Field(ge=LO, le=HI)]`` in the models (strict: a bool or a
# float is refused); these are the common ones.
Count = Annotated[StrictInt, Field(ge=0, le=1_000_000)]   # a count with no rule of its own: non-negative, sane
Int = Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]
Id = Annotated[StrictStr, Field(min_length=1, max_length=64)]
Text = Annotated[StrictStr, Field(max_length=200)]
Flag = StrictBool


MAX_NESTING = 32
"""No state or record document of any ruleset nests objects and lists deeper than this (the deepest, a Nerath
card's effect, is under ten). A deeper one is refused before anything recursive (pydantic, ``repr``, the
loaders) reads it: Python objects nested past ~1,000 levels would otherwise raise ``RecursionError``."""


def check_nesting(doc: Any, limit: int = MAX_NESTING) -> None:
    """Raise ``StateFormatError`` naming the first field of ``doc`` nested deeper than ``limit``. Iterative:
    any depth is answered, in one pass over the containers."""
    stack: list[tuple[Any, int, tuple[str, ...]]] = [(doc, 0, ())]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, (dict, list, tuple)):
            if depth >= limit:
                raise StateFormatError("/".join(path[:4]) or "(document)",
                                       f"nested more than {limit} levels deep: no state is")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((v, depth + 1, path + (str(k)[:40] if isinstance(k, (str, int)) else "?",))
                         for k, v in items)


def validate_document(model: type[BaseModel], data: dict[str, Any]) -> None:
    """Raise ``StateFormatError`` naming the first field of ``data`` that ``model`` refuses."""
    try:
        model.model_validate(data)
    except ValidationError as e:
        err = e.errors(include_url=False)[0]
        loc = [str(x) for x in err["loc"] if not str(x).startswith(("function-", "tagged-union"))]
        # a union reports each alternative: keep the path of the data, drop the type names pydantic adds
        path = "/".join(p for p in loc if not p[:1].isupper() and p not in ("int", "str", "bool", "none",
                                                                             "list", "dict", "literal", "[key]"))
        value = err.get("input")
        shown = repr(value)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        msg = err["msg"].removeprefix("Value error, ")   # a validator's own sentence, as it wrote it
        raise StateFormatError(path or "(document)", f"{msg[:1].lower()}{msg[1:]} (got {shown})") from None


COUNTER_MAX = 1_000_000
"""A report counter (``read_counters``) stops here: no rule reads it, and a counter that went on past the bound
that documents are read with would make a state whose own document is refused."""


def add_to_counter(counters: dict[str, int], key: str, n: int = 1) -> None:
    """Add ``n`` to a report counter, stopping at ``COUNTER_MAX`` (reports read it as "at least")."""
    counters[key] = min(COUNTER_MAX, counters[key] + n)


def read_counters(doc: dict[str, Any], keys: tuple[str, ...], field: str = "stats") -> dict[str, int]:
    """The report counters of a state document (``field``: ``{counter: count}``, no rule reads them): each of
    ``keys``, 0 when the document leaves it (or the whole object) out. An unknown counter or a value that is not
    a count is refused naming the field."""
    found = doc.get(field) or {}
    if not isinstance(found, dict) or any(k not in keys for k in found):
        raise StateFormatError(field, f"counters for reports, among {', '.join(keys)}")
    out: dict[str, int] = {}
    for k in keys:
        v = found.get(k, 0)
        if type(v) is not int or not 0 <= v <= COUNTER_MAX:
            raise StateFormatError(f"{field}/{k}", f"a count from 0 to {COUNTER_MAX}, got {v!r}")
        out[k] = v
    return out
