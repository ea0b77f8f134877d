"""The Conquest state as JSON (rules document ``002``; the document is described in docs/rules/kingdom.md):
``DOCUMENT`` declares every key of the body once (its type and bounds, how it is written, how it is read), and
``core.fields`` derives from it the schema a document is validated with, the writer and the reader (territories
and bonus locations by the board's id tables, ``core.keys``). What a type cannot say is checked here against the
board, and between the fields in ``coherence.py``, so that every state read can be played on."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field

from conquest.core.errors import StateFormatError
from conquest.core.fields import Document, Key, attr
from conquest.core.keys import per_id, rows
from conquest.core.schema import Count, Id, Part
from conquest.rulesets.kingdom.base import ARMIES_PER_PLAYER, MOVE, OVER, PHASES
from conquest.rulesets.kingdom.board import load_board
from conquest.rulesets.kingdom.bonus import tokens
from conquest.rulesets.kingdom.end import final_scores, territory_vp
from conquest.rulesets.kingdom.move import move_sources_for
from conquest.rulesets.kingdom.phases import production
from conquest.rulesets.kingdom.state import KingdomData

S = TypeVar("S", bound=KingdomData)

Seat = Annotated[int, Field(ge=0, le=1)]   # 0 (red) or 1 (blue), never true or false
Armies = Annotated[int, Field(ge=0, le=ARMIES_PER_PLAYER)]   # a player's whole army
Moved = Annotated[int, Field(ge=1, le=ARMIES_PER_PLAYER)]
Pair = Annotated[list[Annotated[int, Field(ge=0, le=10_000)]], Field(min_length=2, max_length=2)]


class MoveDoc(Part):
    """``{to, from}``: ``from`` maps each territory armies come from to their number (1-12)."""
    to: Id
    from_: dict[Id, Moved] = Field(default={}, alias="from")


class Task(Part):
    kind: Literal["vacate", "place"]
    territory: Id
    count: Moved


def _read_armies(s: KingdomData, armies: dict[str, list[int]]) -> None:
    b = s.board
    s.armies = [0] * (2 * b.territories)
    for name, (red, blue) in armies.items():
        t = b.territory_table.ix(name, f"armies/{name}")
        if red and blue:
            raise StateFormatError(f"armies/{name}", "both players have armies in one territory")
        s.armies[2 * t], s.armies[2 * t + 1] = red, blue


def _write_move(s: KingdomData) -> dict[str, Any] | None:
    names = s.board.names
    return None if s.move_to < 0 else {"to": names[s.move_to], "from": {names[x]: n for x, n in s.move_from}}


def _read_move(s: KingdomData, mv: dict[str, Any] | None) -> None:
    s.move_to, s.move_from, s.move_sources = -1, (), ()
    if mv is not None:
        ix = s.board.territory_table.ix
        s.move_to = ix(mv["to"], "move/to")
        s.move_from = tuple((ix(k, f"move/from/{k}"), n) for k, n in mv.get("from", {}).items())


def _derived(s: KingdomData) -> dict[str, Any]:
    """Figures written for readers (control, tokens, production, scores), ignored when a document is read."""
    b = s.board
    return {"control": {b.names[t]: (None if s.controller(t) < 0 else s.controller(t)) for t in range(b.territories)},
            "tokens": [tokens(s, p) for p in (0, 1)], "production": [production(s, p) for p in (0, 1)],
            "territory_vp": [territory_vp(s, p) for p in (0, 1)], "score": final_scores(s)}


DOCUMENT = Document("KingdomBody", [
    attr("round", Annotated[int, Field(ge=1, le=100)]),
    attr("phase", Literal[PHASES]),
    Key("current", Seat | None, lambda s: s.current if s.phase != OVER else None,
        lambda s, v: setattr(s, "current", -1 if v is None else v), None),
    attr("first_player", Seat, "first"),
    attr("soldiers", Pair),
    attr("reserve", Annotated[list[Armies], Field(min_length=2, max_length=2)]),
    Key("armies", dict[Id, Annotated[list[Armies], Field(min_length=2, max_length=2)]],
        lambda s: {name: s.armies[2 * t:2 * t + 2] for t, name in enumerate(s.board.names)},
        _read_armies, fresh=True),
    per_id("locations", lambda s: s.board.location_table, Seat | None, "loc", none=True,
           start=lambda s: [-1] * len(s.board.loc_ids)),
    attr("stopped", Seat | None, default=None),
    Key("move", MoveDoc | None, _write_move, _read_move, None, fresh=True),
    rows("tasks", list[Task], {"kind": None, "territory": lambda s: s.board.territory_table, "count": None},
         default=[]),
    attr("points", Annotated[list[Count], Field(min_length=2, max_length=2)]),
    Key("derived", dict[Id, object] | None, _derived, default=None, fresh=True),
])
"""Every key of a Kingdom state document: the declared schema, the writer and the reader in one place."""

KingdomBody = DOCUMENT.model


def from_body(cls: type[S], data: dict[str, Any], players: int, options: dict[str, Any]) -> S:
    """A state from a validated document: the keys read by ``DOCUMENT``, then the territories a move under way
    may draw from; ``coherence.check_coherence`` then refuses a field incoherent with the rest."""
    s = cls.__new__(cls)
    s.board, s.players, s.options, s._legal = load_board(options["board"]), 2, options, None
    DOCUMENT.read(s, data)
    if s.phase == MOVE and s.move_to >= 0 and s.current >= 0:
        s.move_sources = move_sources_for(s, s.move_to, s.current)
    return s
