"""What a Nerath variant may change (``NerathRuleset.variant_schema``, docs/balance.md "Variant files"): the
prices of the pieces (Reinforce), each realm's treasury and starting forces (``setup.yaml``: Castles, pieces on
its spaces, Warships with their cargo), and the cards in the decks (Event and Treasure cards left out).

The rules read these through ``prices_of``, ``setup_of`` and ``cards_out_of`` (from the state's options); a
realm's starting forces are checked like the published ones (its own spaces, a Castle on its capital)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from conquest.core.variants import VariantModel, parse_variant
from conquest.rulesets.nerath.cards import event_cards, treasure_cards
from conquest.rulesets.nerath.data import COUNTED, PIECE_NAMES, REALMS, DataError, check_setup, tables

if TYPE_CHECKING:
    PieceId = str
    CountedId = str
    RealmId = str
    CardId = str
else:  # the published names, as pydantic checks them (the type checker sees text)
    PieceId = Literal[PIECE_NAMES]
    CountedId = Literal[COUNTED]
    RealmId = Literal[REALMS]
    CardId = Literal[tuple(sorted(set(event_cards()) | set(treasure_cards())))]

Count = Annotated[int, Field(ge=0, le=30)]


class Forces(BaseModel):
    """One realm's starting forces (replacing the published ones whole)."""
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    castles: list[str] = Field(min_length=1)
    pieces: dict[str, dict[CountedId, Count]] = Field(default_factory=dict)
    warships: list[list[str]] = Field(default_factory=list)


class NerathVariant(VariantModel):
    prices: dict[PieceId, Annotated[int, Field(ge=0, le=100)]] | None = None
    """Gold a piece costs at Reinforce (0: free)."""
    treasury: dict[RealmId, Annotated[int, Field(ge=0, le=1000)]] | None = None
    """Each realm's gold at the start."""
    forces: dict[RealmId, Forces] | None = None
    removed_cards: list[CardId] | None = None
    """Event and Treasure cards left out of the decks."""

    @model_validator(mode="after")
    def _playable(self) -> NerathVariant:
        if self.forces:
            try:
                check_setup(setup_for_variant(self.model_dump(mode="json", exclude_unset=True)), tables().board)
            except (DataError, KeyError, TypeError, ValueError) as e:
                raise ValueError(str(e).replace("setup.yaml: ", "forces: ")) from None
        return self


def setup_for_variant(v: dict[str, Any]) -> dict[str, Any]:
    base = tables().setup
    realms = dict(base["realms"])
    for realm, forces in (v.get("forces") or {}).items():
        realms[realm] = forces
    treasury = {**base["treasury"], **(v.get("treasury") or {})}
    return {**base, "realms": realms, "treasury": treasury}


@lru_cache(maxsize=64)
def _setup(text: str) -> dict[str, Any]:
    return tables().setup if not text else setup_for_variant(parse_variant(text))


@lru_cache(maxsize=64)
def _prices(text: str) -> dict[str, int]:
    tb = tables()
    out = {**{p: tb.pieces[p].cost for p in COUNTED}, "castle": tb.castle.cost, "warship": tb.warship.cost}
    out.update((parse_variant(text).get("prices") or {}) if text else {})
    return out


def _text(s: Any) -> str:
    return str(s.options.get("variant") or "")


def setup_of(s: Any) -> dict[str, Any]:
    """The set-up (treasury and realms' forces) a game plays with."""
    return _setup(_text(s))


def prices_of(s: Any) -> dict[str, int]:
    """The price of each piece (``ALL_COSTS`` of the variant) a game plays with."""
    return _prices(_text(s))


def cards_out_of(s: Any) -> frozenset[str]:
    """The cards a game's variant leaves out of the decks."""
    text = _text(s)
    return frozenset(parse_variant(text).get("removed_cards") or ()) if text else frozenset()
