"""What a Narby variant may change (``NarbyRuleset.variant_schema``, docs/balance.md "Variant files"): the four
charts (Steal, Destroy, Destroyed, Tribute, with the adjacent-settlement tribute), the fixed coin amounts of the
actions and cards (attack stake, revolt loss, robber loss, the chest's refill) and the bonus cards in the deck.
The win amount is the option ``win`` (a variant file sets it under ``options``).

The rules read these through ``tables_of(state)``: the published tables (``tables.yaml``) with the variant's
fields laid over them, built once per variant and checked like the published ones (rows that tile the line of
modified rolls)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from conquest.core.variants import VariantModel, merged, parse_variant, variant_of
from conquest.rulesets.narby.tables import TABLES, TableError, Tables

Coins = Field(ge=0, le=1000)


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    min: int | None = Field(default=None, ge=-20, le=40)
    max: int | None = Field(default=None, ge=-20, le=40)
    note: str = ""


class StealRow(_Row):
    gain: int = Field(ge=-1000, le=1000)
    """Coins the thief takes (negative: a Turnabout, coins the thief loses)."""
    loss: int | None = Field(default=None, ge=-1000, le=1000)


class DestroyRow(_Row):
    unclaimed: Literal["nothing", "ruin", "destroyed", "destroyed_token"]
    claimed: Literal["revolt", "nothing", "remove_claim", "ruin", "destroyed_claimed"]


class TributeRow(_Row):
    lose_claim: bool
    town: int = Coins
    city: int = Coins
    ruin: int = Coins
    place: int = Coins
    place_tokens: int = Field(ge=0, le=100)


class Paid(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    town: int = Coins
    city: int = Coins
    ruin: int = Coins


class Destroyed(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    ruin: Paid | None = None
    destroyed: Paid | None = None
    destroyed_claimed: Paid | None = None


class Adjacent(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    town: int = Coins
    city: int = Coins
    ruin: int = Coins
    place: int = Coins


if TYPE_CHECKING:
    CardId = str
else:  # the published card titles, as pydantic checks them (the type checker sees text)
    CardId = Literal[tuple(TABLES.card_ids)]


class NarbyVariant(VariantModel):
    steal_chart: list[StealRow] | None = None
    destroy_chart: list[DestroyRow] | None = None
    destroyed_chart: Destroyed | None = None
    tribute_chart: list[TributeRow] | None = None
    tribute_adjacent: Adjacent | None = None
    attack_stake: int | None = Field(default=None, ge=0, le=1000)
    revolt_loss: int | None = Field(default=None, ge=0, le=1000)
    robber_loss: int | None = Field(default=None, ge=0, le=1000)
    chest_refill: int | None = Field(default=None, ge=0, le=1000)
    cards: list[CardId] | None = Field(default=None, min_length=1)
    """The bonus cards in the deck (one of each title, as published; default: all of them)."""

    @model_validator(mode="after")
    def _playable(self) -> NarbyVariant:
        data = self.model_dump(mode="json", exclude_unset=True)
        if self.cards is not None and len(set(self.cards)) != len(self.cards):
            raise ValueError("cards: each card title at most once (the deck holds one of each)")
        try:
            build(data)
        except TableError as e:
            raise ValueError(str(e)) from None
        return self


def build(variant: dict[str, Any]) -> Tables:
    """The tables of a variant: the published data with the variant's fields over it."""
    raw = dict(TABLES.raw)
    for key in ("steal_chart", "destroy_chart", "tribute_chart"):
        if key in variant:
            raw[key] = variant[key]
    for key in ("destroyed_chart", "tribute_adjacent", "attack_stake", "revolt_loss", "robber_loss",
                "chest_refill"):
        if key in variant:
            raw[key] = merged(raw[key], variant[key])
    if "cards" in variant:
        wanted = set(variant["cards"])
        raw["cards"] = [c for c in raw["cards"] if c["id"] in wanted]
    return Tables(raw)


@lru_cache(maxsize=64)
def tables_for(text: str) -> Tables:
    """The tables of a game whose ``variant`` option is ``text`` (the published ones for ``""``)."""
    return TABLES if not text else build(parse_variant(text))


def tables_of(s: Any) -> Tables:
    """The tables a game plays with (its variant's, from its options)."""
    text = s.options.get("variant") or ""
    return TABLES if not text else tables_for(text)


__all__ = ["NarbyVariant", "build", "tables_for", "tables_of", "variant_of"]
