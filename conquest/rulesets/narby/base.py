"""The shared low-level names of Narby Conquest (rules document 001), used by every section's module: what a
square holds (its occupancy code), the decision and chance points of the game, the dice, and the keys of a
claim (a square or a place of power).

Every die roll is a chance node ``roll N`` (a d20); a location is two successive rolls, the column then the
row. A card dealt is ``card ID``, a treasure token drawn is ``token N``.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.tables import TABLES as T

# ---- occupancy codes of a square -------------------------------------------------------------------
EMPTY, TOWN, CITY, RUIN, CHEST = 0, 1, 2, 3, 4
CAVE0, DRAGON0, PLACE0 = 10, 30, 50
KIND_NAME = {TOWN: "town", CITY: "city", RUIN: "ruin"}
KIND_CODE = {v: k for k, v in KIND_NAME.items()}

D20: list[tuple[Any, float]] = [(("roll", i), 1 / 20) for i in range(1, 21)]
TOKENS: list[tuple[Any, float]] = [(("token", v), p) for v, p in T.token_values]

CHANCE_NODES = frozenset({"dragon_roll", "cave_x", "cave_y", "draw", "settle_x", "settle_y", "pop_roll",
                          "pop_x", "pop_y", "chest_x", "chest_y", "roll", "token"})
DECISION_NODES = frozenset({"dragon_select", "place", "procreator", "upgrade", "pop_choose", "act", "react",
                            "tribute_card", "lose"})
PHASES = ("setup", "draw", "populate", "action", "tribute", "over")
# Not a node a state is ever seen at: the Tribute Phase is over and nobody exceeded the win amount, so a new
# round begins. ``end.end_of_round`` leaves it and ``turn.apply`` starts the round before it returns (the one
# step of the cycle of phases that goes back up the document: "Cycle through 3 phases each round").
NEW_ROUND = "new_round"

PIDX = T.place_index
RESTING = "immortals_resting_place"
BABA = "baba_yaga_hut"
GOLD, COPPER, UNDEAD = T.dragon_index["gold"], T.dragon_index["copper"], T.dragon_index["undead"]
NO_DESTROY = frozenset(i for i, d in enumerate(T.dragons) if "no_destroy_settlements" in d.powers)
BONUS_KEYS = ("move", "attack", "steal", "destroy")


def key_text(key: int | str) -> str:
    return B.sq_text(key) if isinstance(key, int) else key


def key_parse(text: str) -> int | str:
    if "," in text:
        return B.parse_sq(text)
    if text in PIDX:
        return text
    raise ValueError(f"'{text}' is neither a square x,y nor a place of power")


def key_order(k: int | str) -> tuple[int, int]:
    """Squares first (by number), then places of power (in the table's order)."""
    return (0, k) if isinstance(k, int) else (1, PIDX[k])


COINS_MAX = 100_000
"""A dragon's coins and the chest's: play stops them here (``turn.apply``; no game comes near), the bound a state
document is read with (docs/rules/narby.md, "Bounds of a state document")."""
