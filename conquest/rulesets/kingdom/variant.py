"""What a Kingdom variant may change (``KingdomRuleset.variant_schema``, docs/balance.md "Variant files"): the
board's values in the standalone stand-in for the base game (``economy.yaml``): the points a bonus location of
each kind is worth per round, and the points per production icon printed in a castle territory. The Soldier
income is already the options ``soldier_base`` and ``soldier_die`` (a variant file sets them under ``options``).

The rules read these through ``economy_of(state)``: the published economy with the variant's values over it."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from conquest.core.variants import VariantModel, merged, parse_variant
from conquest.rulesets.kingdom.base import economy
from conquest.rulesets.kingdom.board import BONUS_EFFECTS, PRODUCTION_ICONS

if TYPE_CHECKING:
    Kind = str
else:  # the kinds of bonus location, as pydantic checks them (the type checker sees text)
    Kind = Literal[tuple(BONUS_EFFECTS + PRODUCTION_ICONS)]


class KingdomVariant(VariantModel):
    points: dict[Kind, Annotated[int, Field(ge=0, le=100)]] | None = None
    """Points per round for controlling a bonus location of the kind."""
    castle_icon: int | None = Field(default=None, ge=0, le=100)


@lru_cache(maxsize=64)
def economy_for(text: str) -> dict[str, Any]:
    """The economy of a game whose ``variant`` option is ``text`` (the published one for ``""``)."""
    if not text:
        return economy()
    v = parse_variant(text)
    out: dict[str, Any] = merged(economy(), {k: v[k] for k in ("points", "castle_icon") if k in v})
    return out


def economy_of(s: Any) -> dict[str, Any]:
    """The economy a game plays with (its variant's, from its options)."""
    return economy_for(str(s.options.get("variant") or ""))
