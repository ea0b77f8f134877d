"""The Conquest of Nerath state document as a declared schema (docs/rules/nerath.md, the state JSON): types and
bounds of every field; ``serial.from_body`` then checks ids against the board and the card lists and the
fields against each other.

Bounds: "Your forces aren't limited by the mix of pieces and chips available", so the document sets no piece
supply; a realm has at most ``MAX_REALM_PIECES`` (500) pieces on the board in all (random games peak near 60),
gold at most 100,000 and victory points at most 10,000 (docs/rules/nerath.md, "Bounds of a state document").
A legal list then stays in the thousands: a move is listed per count moved."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from conquest.core.schema import Body, Count, Id, Part, Text

MAX_PIECES = 500
GOLD_MAX = 100_000       # a realm's gold, and
VP_MAX = 10_000          # its victory points: play stops them here (serial.keep_bounds), no game comes near
MAX_REALM_PIECES = 500   # a realm's pieces on the board, all spaces and kinds (checked by serial.from_body)
Pieces = Annotated[int, Field(ge=0, le=MAX_PIECES)]
Small = Annotated[int, Field(ge=0, le=MAX_PIECES)]
Seatish = Annotated[int, Field(ge=-1, le=3)]
Cards = Annotated[list[Id], Field(max_length=200)]
ByRealm = dict[Id, Cards]


class Ship(Part):
    owner: Id
    space: Id
    moves: Annotated[int, Field(ge=0, le=10)] = 0
    flags: list[Id] = []
    cargo: Annotated[list[Id], Field(max_length=2)] = []
    cargo_from: Annotated[list[Id | None], Field(max_length=2)] = []


class Reaction(Part):
    kind: Literal["move", "income"]
    realms: Annotated[list[Id], Field(min_length=1, max_length=4)]
    space: Id | None = None
    mover: Id


class Battle(Part):
    space: Id
    kind: Literal["land", "sea", "dungeon"]
    attacker: Id
    defenders: Annotated[list[Id], Field(max_length=4)]
    round: Annotated[int, Field(ge=0, le=1_000)]
    step: Id
    hits_on_attacker: Small = 0
    hits_on_defenders: Small = 0
    queue: list[Annotated[list[StrictStr | StrictInt], Field(min_length=2, max_length=2)]] = []
    hit_this_assignment: Small = 0
    after: Text = ""
    castle_inactive: StrictBool = False
    wounded_dragons: dict[Id, Small] = {}
    split_hits: Small = 0
    guardian_seat: Seatish = -1
    guardian_tiles: list[Id] = []
    restock: Small = 0
    window: Annotated[list[Id], Field(max_length=4)] = []
    window_kind: Text = ""
    window_step: Text = ""
    rolled: Small = 0
    offered: Annotated[list[Id], Field(max_length=4)] = []
    rolling: list[list[StrictStr | StrictInt]] = []   # derived, for readers; ignored when read


class Guardian(Part):
    tile: Id
    face_up: StrictBool = False
    dice: Annotated[list[Annotated[int, Field(ge=1, le=100)]], Field(min_length=1, max_length=20)] = [6]


Scalar = StrictStr | StrictInt | StrictBool | None


class NerathBody(Body):
    round: Annotated[int, Field(ge=1, le=10_000)]
    realm: Id
    phase: Id
    gold: dict[Id, Annotated[int, Field(ge=0, le=GOLD_MAX)]]
    vp: dict[Id, Annotated[int, Field(ge=0, le=VP_MAX)]]
    control: dict[Id, Id]
    control_at_turn_start: dict[Id, Id]
    castles: list[Id]
    pieces: dict[Id, dict[Id, dict[Id, Pieces]]]
    ships: dict[Id, Ship]
    next_ship: Annotated[int, Field(ge=0, le=1_000_000)]
    movable: Literal["all"] | dict[Id, dict[Id, Pieces]]
    battles: list[Id]
    battle: Battle | None = None
    reaction: Reaction | None = None
    placed: dict[Id, Pieces] = {}
    built: list[Id] = []
    event_decks: ByRealm = {}
    event_hands: ByRealm = {}
    event_discards: ByRealm = {}
    treasure_deck: Cards = []
    treasure_hands: ByRealm = {}
    treasures_played: ByRealm = {}
    effects: list[Annotated[list[Scalar], Field(min_length=5, max_length=6)]] = []
    guardians: dict[Id, Annotated[list[Guardian], Field(max_length=10)]] = {}
    guardian_pile: Cards = []
    dealing_guardians: list[Id] = []
    dealing: list[Id] = []
    stats: dict[Id, Count] = {}
    winners: Annotated[list[Annotated[int, Field(ge=0, le=3)]], Field(max_length=4)] | None = None
    end_reason: Text = ""
