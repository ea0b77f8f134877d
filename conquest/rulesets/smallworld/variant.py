"""What a Small World variant may change (``SmallWorldRuleset.variant_schema``, docs/balance.md "Variant
files"): each race's banner tokens and supply, each special power's badge tokens, races and powers left out of
the box, and the coins each player starts with.

The rules read these through ``figures_of(state)`` (built once per variant): picking a combo gives
``min(banner + badge, supply)`` tokens of the variant, the race and power piles never hold what it leaves out,
and every seat starts with its coins."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

import conquest.rulesets.smallworld.data as D
from conquest.core.variants import VariantModel, parse_variant
from conquest.rulesets.smallworld.common import VISIBLE

if TYPE_CHECKING:
    RaceId = str
    PowerId = str
else:  # the published names, as pydantic checks them (the type checker sees text)
    RaceId = Literal[tuple(D.RACE_IDS)]
    PowerId = Literal[tuple(D.POWER_IDS)]


class RaceTokens(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    banner: int | None = Field(default=None, ge=1, le=30)
    """Race tokens the banner gives (added to the badge's)."""
    supply: int | None = Field(default=None, ge=1, le=40)
    """Every token of the race in the box: a hard limit."""


class PowerTokens(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    badge: int = Field(ge=0, le=20)


class SmallWorldVariant(VariantModel):
    races: dict[RaceId, RaceTokens] | None = None
    powers: dict[PowerId, PowerTokens] | None = None
    removed_races: list[RaceId] | None = None
    """Races left in the box (never drawn)."""
    removed_powers: list[PowerId] | None = None
    starting_coins: int | None = Field(default=None, ge=0, le=1000)
    seat_coins: list[Annotated[int, Field(ge=0, le=1000)]] | None = Field(default=None, min_length=1, max_length=5)
    """Extra coins per seat at the start, first seat first (a handicap against the first seat's advantage); seats
    beyond the list get none."""

    @model_validator(mode="after")
    def _playable(self) -> SmallWorldVariant:
        for key, ids in (("removed_races", self.removed_races), ("removed_powers", self.removed_powers)):
            if ids is not None and len(set(ids)) != len(ids):
                raise ValueError(f"{key}: each name at most once")
        if len(D.RACE_IDS) - len(self.removed_races or ()) < VISIBLE:
            raise ValueError(f"removed_races: at least {VISIBLE} races must stay (the column shows {VISIBLE})")
        if len(D.POWER_IDS) - len(self.removed_powers or ()) < VISIBLE:
            raise ValueError(f"removed_powers: at least {VISIBLE} powers must stay (the column shows {VISIBLE})")
        fig = build(self.model_dump(mode="json", exclude_unset=True))
        for x, rid in enumerate(D.RACE_IDS):
            if fig.banner[x] > fig.supply[x]:
                raise ValueError(f"races.{rid}: banner {fig.banner[x]} is more than the supply {fig.supply[x]}")
        return self


@dataclass(frozen=True)
class Figures:
    banner: tuple[int, ...]
    supply: tuple[int, ...]
    badge: tuple[int, ...]
    removed_races: frozenset[int]
    removed_powers: frozenset[int]
    starting_coins: int
    seat_coins: tuple[int, ...] = ()

    def coins_at_start(self, seat: int) -> int:
        """The coins ``seat`` starts with: the starting coins and the seat's extra."""
        return self.starting_coins + (self.seat_coins[seat] if seat < len(self.seat_coins) else 0)

    def tokens(self, race: int, power: int) -> int:
        """The tokens a combo gives: banner plus badge, within the race's supply."""
        return min(self.banner[race] + self.badge[power], self.supply[race])


def build(variant: dict[str, Any]) -> Figures:
    races = variant.get("races") or {}
    powers = variant.get("powers") or {}
    banner = tuple(int(races.get(r, {}).get("banner") or D.BANNER[x]) for x, r in enumerate(D.RACE_IDS))
    supply = tuple(int(races.get(r, {}).get("supply") or D.SUPPLY[x]) for x, r in enumerate(D.RACE_IDS))
    badge = tuple(int(powers[p]["badge"]) if p in powers else D.BADGE[i] for i, p in enumerate(D.POWER_IDS))
    return Figures(banner, supply, badge, frozenset(D.RACE_INDEX[r] for r in variant.get("removed_races") or ()),
                   frozenset(D.POWER_INDEX[p] for p in variant.get("removed_powers") or ()),
                   int(variant.get("starting_coins", D.SETUP["starting_coins"])),
                   tuple(int(c) for c in variant.get("seat_coins") or ()))


PUBLISHED = build({})


@lru_cache(maxsize=64)
def figures_for(text: str) -> Figures:
    """The figures of a game whose ``variant`` option is ``text`` (the published ones for ``""``)."""
    return PUBLISHED if not text else build(parse_variant(text))


def figures_of(s: Any) -> Figures:
    """The figures a game plays with (its variant's, from its options)."""
    text = s.options.get("variant") or ""
    return PUBLISHED if not text else figures_for(text)
