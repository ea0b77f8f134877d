"""Request bodies of the API: pydantic models, one per endpoint that takes a body."""

from __future__ import annotations

import re
from typing import Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

OptionValue = Union[StrictBool, StrictInt, StrictFloat, StrictStr]


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field("human", max_length=32)
    name: str | None = Field(None, max_length=40)


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=64)
    players: int | None = Field(None, ge=1, le=16)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=64)
    seats: list[SeatIn] = Field(default_factory=list, max_length=16)
    seed: int | None = Field(None, ge=0, le=2 ** 62)


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=500)
    step: int | None = Field(None, ge=0)


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: int = Field(1, ge=1, le=50)
    step: int | None = Field(None, ge=0)


class GameRef(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(max_length=32)
    token: str = Field(max_length=128)


class MyGames(BaseModel):
    model_config = ConfigDict(extra="forbid")
    games: list[GameRef] = Field(max_length=200)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_name(name: str | None, default: str) -> str:
    n = _CONTROL.sub("", name or "").strip()
    return n[:40] or default
