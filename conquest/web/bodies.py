"""Request bodies of the API: strict pydantic models, one per endpoint that takes a body, and the JSON
reader they go through.

Strict: a number where text is expected (or text where a number is), ``1.0`` for a whole number, ``true``
for a number, an unknown field, a duplicate key, ``NaN``/``Infinity`` or a number too large for a float
(``1e999``) are all refused with 422 naming the field. Every body is read with ``read_body`` (a dependency
made by ``json_body``), never by FastAPI's lenient default.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Annotated, Any, Literal, TypeVar

import anyio.to_thread
from fastapi import Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from conquest.core.variants import VARIANT_OPTION
from conquest.web.games import MAX_RECORD_ACTIONS, WebError

INT64 = 2 ** 63
STRICT = ConfigDict(extra="forbid", strict=True)


def _option_value(v: Any) -> Any:
    if isinstance(v, bool) or isinstance(v, str) and len(v) <= 200:
        return v
    if isinstance(v, int):
        if not -INT64 <= v < INT64:
            raise ValueError("a whole number beyond 64 bits")
        return v
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError("not a finite number")
        return v
    if isinstance(v, str):
        raise ValueError("text of 200 characters at most")
    raise ValueError("an option's value must be true/false, a number or text")


def _long_text(v: Any) -> Any:
    """An option's value: a variant's text may be long (checked per key by ``_options``); the rest, as
    ``_option_value`` says."""
    return v if isinstance(v, str) and len(v) <= MAX_WEB_VARIANT else _option_value(v)


def _options(d: dict[str, Any]) -> dict[str, Any]:
    """Text longer than 200 characters only for a game's variant (``core.variants``), a document."""
    for k, v in d.items():
        if k != VARIANT_OPTION and isinstance(v, str) and len(v) > 200:
            raise ValueError(f"option {k[:40]}: text of 200 characters at most")
    return d


MAX_WEB_VARIANT = 20_000
"""The longest variant text the lobby may send (a whole chart set is a few thousand characters)."""
OptionValue = Annotated[Any, AfterValidator(_long_text)]
Options = Annotated[dict[str, OptionValue], Field(max_length=64), AfterValidator(_options)]
Int64 = Annotated[int, Field(ge=-INT64, lt=INT64)]


class SeatIn(BaseModel):
    model_config = STRICT
    kind: str = Field("human", max_length=32)
    name: str | None = Field(None, max_length=40)


class PaceIn(BaseModel):
    """A game's pace (``conquest.web.pace``): live, or turn-based with a deadline per turn and what happens
    at it."""
    model_config = STRICT
    mode: Literal["live", "turn"] = "live"
    deadline_seconds: int | None = Field(None, ge=60, le=30 * 24 * 3600)
    at_deadline: Literal["computer", "drop"] | None = None
    level: str | None = Field(None, max_length=32)


class NotifyIn(BaseModel):
    """The e-mail address a seat is told at when its turn begins (null: none)."""
    model_config = STRICT
    email: str | None = Field(max_length=254)


class CreateGame(BaseModel):
    model_config = STRICT
    ruleset: str = Field(max_length=64)
    players: int | None = Field(None, ge=1, le=16)
    options: Options = Field(default_factory=dict)
    seats: list[SeatIn] = Field(default_factory=list, max_length=16)
    seed: int | None = Field(None, ge=0, le=2 ** 62)
    pace: PaceIn | None = None


class ActionIn(BaseModel):
    model_config = STRICT
    action: str = Field(min_length=1, max_length=500)
    step: int | None = Field(None, ge=0)


class UndoIn(BaseModel):
    model_config = STRICT
    count: int = Field(1, ge=1, le=50)
    step: int | None = Field(None, ge=0)


class GameRef(BaseModel):
    model_config = STRICT
    id: str = Field(max_length=32)
    token: str = Field(max_length=128)


class MyGames(BaseModel):
    model_config = STRICT
    games: list[GameRef] = Field(max_length=200)


def _finite(v: float) -> float:
    if not math.isfinite(v):
        raise ValueError("not a finite number")
    return v


Number = Annotated[int | float, AfterValidator(_finite)]


class RecordIn(BaseModel):
    """A ``conquest-record/1`` document (``conquest.core.records.Record``), checked field by field before
    its steps are replayed. Fields this server does not know are ignored (a record is a file format)."""
    model_config = ConfigDict(extra="ignore", strict=True)
    format: Literal["conquest-record/1"]
    ruleset: str = Field(max_length=64)
    rules_version: str = Field("", max_length=64)
    players: int = Field(ge=1, le=16)
    options: Options = Field(default_factory=dict)
    seats: list[Annotated[str, Field(max_length=200)]] | None = Field(None, max_length=16)
    seed: Int64 = 0
    actions: list[Annotated[str, Field(max_length=500)]] = Field(max_length=MAX_RECORD_ACTIONS)
    result: list[Number] | None = Field(None, max_length=16)
    scores: list[Number] | None = Field(None, max_length=16)
    start: dict[str, Any] | None = None


class ImportRecord(BaseModel):
    model_config = STRICT
    record: RecordIn


# ---- reading a body ---------------------------------------------------------------------------------

def one_line(errors: Sequence[Any]) -> str:
    """The first of pydantic's errors as ``field.path: message`` (and how many more there are)."""
    if not errors:
        return "invalid request"
    e = errors[0]
    loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
    msg = str(e.get("msg", "invalid")).splitlines()[0].removeprefix("Value error, ")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{loc}: {msg}{more}"


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise WebError(422, f"the key '{k[:40]}' appears twice in an object of the body")
        out[k] = v
    return out


def _constant(name: str) -> Any:
    raise WebError(422, f"{name} is not a number JSON allows")


MAX_DEPTH = 32  # levels of arrays and objects in a body (a record needs 4)


def _too_deep(doc: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``doc`` nests arrays and objects more than ``limit`` levels (walked without recursion, so
    nothing later, pydantic or the engine, recurses through a deep body)."""
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


def parse_json(raw: bytes | str, what: str = "the body") -> Any:
    """The body as JSON, refusing duplicate keys, NaN/Infinity and nesting deeper than MAX_DEPTH levels
    (422 whichever)."""
    if not raw.strip():
        raise WebError(422, "the request needs a JSON body")
    try:
        doc = json.loads(raw, object_pairs_hook=_pairs, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise WebError(422, f"{what} is not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except (UnicodeDecodeError, RecursionError, ValueError) as e:  # bad bytes, deep nesting, huge numbers
        if isinstance(e, RecursionError):
            raise WebError(422, f"{what} is nested too deeply ({MAX_DEPTH} levels at most)") from None
        raise WebError(422, f"{what} is not JSON ({str(e).splitlines()[0][:120]})") from None
    if _too_deep(doc):
        raise WebError(422, f"{what} is nested too deeply ({MAX_DEPTH} levels at most)")
    return doc


M = TypeVar("M", bound=BaseModel)


def validate(model: type[M], data: Any) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise WebError(422, one_line(e.errors())) from None


async def read_json(request: Request) -> Any:
    """The request's body parsed by ``parse_json`` (a large one, a record, off the event loop)."""
    raw = await request.body()
    if len(raw) > 64 * 1024:
        return await anyio.to_thread.run_sync(parse_json, raw)
    return parse_json(raw)


async def read_body(request: Request, model: type[M]) -> M:
    return validate(model, await read_json(request))


def json_body(model: type[M]) -> Callable[[Request], Coroutine[Any, Any, M]]:
    """A dependency giving the body as ``model`` (strict; 422 naming the field otherwise)."""
    async def dependency(request: Request) -> M:
        return await read_body(request, model)
    dependency.__name__ = f"{model.__name__.lower()}_body"
    return dependency


def record_of(data: Any) -> RecordIn:
    """``{"record": {...}}`` or the record itself."""
    if isinstance(data, dict) and "record" in data and "format" not in data:
        return validate(ImportRecord, data).record
    return validate(RecordIn, data)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_name(name: str | None, default: str) -> str:
    n = _CONTROL.sub("", name or "").strip()
    return n[:40] or default
