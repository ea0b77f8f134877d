"""The Small World state document as a declared schema (docs/rules/smallworld.md, the state JSON): types and
bounds of every field; ``serial.from_body`` then checks ids against the board and the boxes, and the fields
against each other. Counts are bounded by the components: a race's tokens by its box (at most 30 with the
power's), markers by their number in the box, coins by a sane 100,000."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictFloat, StrictInt

from conquest.core.schema import Body, Count, Id, Part

Coins = Annotated[int, Field(ge=0, le=100_000)]
Tokens = Annotated[int, Field(ge=0, le=30)]
Seat = Annotated[int, Field(ge=0, le=4)]
One = Annotated[int, Field(ge=0, le=1)]


class MapDoc(Part):
    id: Id
    seed: Annotated[int, Field(ge=-(2 ** 63), le=2 ** 63)] = 0


class SeatDoc(Part):
    coins: Coins
    coins_at_least: Coins = 0   # public: the least coins the seat's public actions prove (hidden.py)


class RaceDoc(Part):
    seat: Seat
    power: Id
    status: Literal["active", "declined"] = "active"
    hand: Annotated[int, Field(ge=0, le=40)] = 0


class ComboDoc(Part):
    race: Id
    power: Id
    coins: Coins = 0


class RegionDoc(Part):
    race: Id | None = None
    tokens: Tokens = 0
    lost_tribe: One = 0
    lair: One = 0
    fortress: One = 0
    encampments: Annotated[int, Field(ge=0, le=5)] = 0
    hole: One = 0
    hero: One = 0
    dragon: One = 0


class TurnStateDoc(Part):
    race: Id | None = None
    readied: bool = False
    conquered: bool = False
    picked: bool = False
    declined: bool = False
    nonempty_conquered: Annotated[int, Field(ge=0, le=100)] = 0
    attacked: Annotated[list[Seat], Field(max_length=5)] = []
    converted: Annotated[list[Seat], Field(max_length=5)] = []
    dragon_used: bool = False
    die_used: bool = False
    fortress_placed: bool = False
    berserk_die: Annotated[int, Field(ge=0, le=3)] | None = None
    final_region: Id | None = None
    amazon_debt: Annotated[int, Field(ge=0, le=4)] = 0
    defender: Seat | None = None
    loose_encampments: Annotated[int, Field(ge=0, le=5)] = 0


class PeaceDoc(Part):
    diplomat: Seat
    opponent: Seat


class SmallWorldBody(Body):
    map: MapDoc
    turn: Annotated[int, Field(ge=0, le=10)]
    turns: Annotated[int, Field(ge=1, le=10)] | None = None
    seat: Seat
    phase: Id
    seats: Annotated[list[SeatDoc], Field(min_length=2, max_length=5)]
    races: dict[Id, RaceDoc] = {}
    column: Annotated[list[ComboDoc], Field(max_length=6)] = []
    drawn_race: Id | None = None
    regions: dict[Id, RegionDoc] = {}
    turn_state: TurnStateDoc = TurnStateDoc()
    peace: PeaceDoc | None = None
    holes_used: Annotated[int, Field(ge=0, le=2)] = 0
    stats: dict[Id, Count] = {}   # counters for reports; a document without them starts at 0
    result: list[StrictInt | StrictFloat] | None = None   # written at the end, for readers
