"""The Narby Conquest state document as a declared schema (docs/rules/narby.md §5): types and bounds of every
field; ``serial.from_body`` then checks squares, ids and the coherence of the node with the rest.

Bounds: coins and the chest's coins at most 100,000; a seat's treasure tokens at most 1,000 (values 1-3 each,
so their sum at most 3,000); actions left and action bonuses at most 20 (docs/rules/narby.md, "Bounds of a state
document")."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictInt, StrictStr

from conquest.core.schema import Body, Count, Id, Text

COINS_MAX = 100_000   # a dragon's coins and the chest's: play stops them here (turn.apply), no game comes near
Coins = Annotated[int, Field(ge=0, le=COINS_MAX)]
Square = Annotated[StrictStr, Field(max_length=5)]
SeatList = Annotated[list[Id | None], Field(min_length=2, max_length=10)]
Seat = Annotated[int, Field(ge=0, le=9)]
Bonus = Annotated[int, Field(ge=-20, le=20)]
EventValue = StrictInt | Text | list[StrictInt | Text]


class NarbyBody(Body):
    round: Annotated[int, Field(ge=0, le=10_000)]
    phase: Id
    node: Id
    seat: Seat | None = None
    step: Annotated[int, Field(ge=-1, le=10_000)]
    dice: Annotated[list[Annotated[int, Field(ge=0, le=20)]], Field(min_length=2, max_length=2)]
    dragons: SeatList
    dragon_at: Annotated[list[Square | None], Field(min_length=2, max_length=10)]
    caves: Annotated[list[Square | None], Field(min_length=2, max_length=10)]
    home: Annotated[list[Square | None], Field(min_length=2, max_length=10)]
    settlements: Annotated[dict[Square, Id], Field(max_length=400)]
    places: dict[Id, Square]
    claims: dict[Id, Seat]
    chest: Square | None = None
    chest_coins: Coins
    coins: Annotated[list[Coins], Field(min_length=2, max_length=10)]
    tokens: Annotated[list[Annotated[int, Field(ge=0, le=3_000)]], Field(min_length=2, max_length=10)]
    token_count: Annotated[list[Annotated[int, Field(ge=0, le=1_000)]], Field(min_length=2, max_length=10)]
    rings_left: list[Annotated[int, Field(ge=0, le=100)]] | None = None   # derived from claims when read
    hands: SeatList
    played: Annotated[list[Id], Field(max_length=100)]
    powers_used: Annotated[list[Id], Field(max_length=100)]
    order: Annotated[list[Seat], Field(min_length=2, max_length=10)]
    turn: Annotated[int, Field(ge=0, le=10)]
    actions_left: Annotated[int, Field(ge=0, le=20)]
    bonus: dict[Id, Bonus]
    event: dict[Id, EventValue] | None = None
    stats: dict[Id, Count] | None = None   # counters for reports; a document without them starts at 0
