"""The Kingdom state document as a declared schema (docs/rules/kingdom.md, the state JSON): types and bounds of
every field; ``rules.KingdomState._from_body`` then checks what depends on the board and on other fields."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from conquest.core.schema import Body, Count, Id, Part

Seat = Annotated[int, Field(ge=0, le=1)]   # 0 (red) or 1 (blue), never true or false
Armies = Annotated[int, Field(ge=0, le=12)]      # ARMIES_PER_PLAYER: a player's whole army
Moved = Annotated[int, Field(ge=1, le=12)]
Soldiers = Annotated[int, Field(ge=0, le=10_000)]


class MoveDoc(Part):
    """``{to, from}``: ``from`` maps each territory armies come from to their number (1-12)."""
    to: Id
    from_: dict[Id, Moved] = Field(default={}, alias="from")


class Task(Part):
    kind: Literal["vacate", "place"]
    territory: Id
    count: Moved


class KingdomBody(Body):
    round: Annotated[int, Field(ge=1, le=100)]
    phase: Id
    current: Seat | None = None
    first_player: Seat
    soldiers: Annotated[list[Soldiers], Field(min_length=2, max_length=2)]
    reserve: Annotated[list[Armies], Field(min_length=2, max_length=2)]
    armies: dict[Id, Annotated[list[Armies], Field(min_length=2, max_length=2)]]
    locations: dict[Id, Seat | None]
    stopped: Seat | None = None
    move: MoveDoc | None = None
    tasks: list[Task] = []
    points: Annotated[list[Count], Field(min_length=2, max_length=2)]
    derived: dict[Id, object] | None = None  # written for readers, ignored when read
