"""The Event cards and the Treasure cards as data (``events.yaml``, ``treasures.yaml``) and their checks; what
playing them does is in ``effects.py``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from conquest.rulesets.nerath.data import COUNTED, REALMS, DataError

VERBS = ("gain_gold", "attack_bonus", "move_bonus", "income_bonus", "place_pieces", "remove_piece",
         "reroll", "cancel_hits", "tax")
INSTANT = ("gain_gold", "place_pieces", "remove_piece", "reroll", "cancel_hits", "tax")
WHEN = ("move", "fight", "reinforce", "any", "battle", "roll", "damage", "income", "enemy_move", "enemy_income")
WINDOWS = ("battle", "roll", "damage")   # moments inside a battle, in anyone's turn
REACTIONS = ("income", "enemy_move", "enemy_income")   # moments outside battles, offered as card windows


@lru_cache(maxsize=1)
def event_cards() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((Path(__file__).parent / "events.yaml").read_text())
    out: dict[str, dict[str, Any]] = {}
    for realm, cards in data.get("cards", {}).items():
        if realm not in REALMS:
            raise DataError(f"events.yaml: unknown realm {realm}")
        for c in cards:
            cid = c.get("id")
            if not isinstance(cid, str) or cid in out:
                raise DataError(f"events.yaml: card ids must be unique strings ({cid!r})")
            if c.get("when") not in WHEN:
                raise DataError(f"events.yaml: {cid}: when must be one of {', '.join(WHEN)}")
            check_effects(f"events.yaml: {cid}", c.get("effects", []))
            verbs = {e[0] for e in c.get("effects", [])}
            if "reroll" in verbs and c["when"] != "roll" or "cancel_hits" in verbs and c["when"] != "damage":
                raise DataError(f"events.yaml: {cid}: reroll is a 'roll' card, cancel_hits a 'damage' card")
            if targeted(c.get("effects", [])) and (c.get("immediate") or c["when"] in WINDOWS + (
                    "income", "enemy_income")):
                raise DataError(f"events.yaml: {cid}: a card that removes a piece is played by choice, on its "
                                f"realm's turn or when an enemy moves in (not immediate, not a battle card)")
            if "tax" in verbs and c["when"] != "enemy_income":
                raise DataError(f"events.yaml: {cid}: tax is an 'enemy_income' card")
            if c["when"] in REACTIONS and c.get("immediate"):
                raise DataError(f"events.yaml: {cid}: a card kept for a moment is not Play Immediately")
            out[cid] = {**c, "realm": realm}
    return out


def targeted(effects: Any) -> str | None:
    """The piece kind a card's remove_piece effect targets (or None)."""
    for verb, _value, piece in effects:
        if verb == "remove_piece":
            return str(piece)
    return None


def check_effects(where: str, effects: Any) -> None:
    for e in effects:
        if len(e) != 3 or e[0] not in VERBS or not isinstance(e[1], int) or \
                (e[2] != "*" and e[2] not in COUNTED + ("warship", "castle")):
            raise DataError(f"{where}: effect {e!r} is not [verb, N, piece-or-*]")


@lru_cache(maxsize=1)
def treasure_cards() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((Path(__file__).parent / "treasures.yaml").read_text())
    out: dict[str, dict[str, Any]] = {}
    for c in data.get("cards", []):
        cid = c.get("id")
        if not isinstance(cid, str) or cid in out:
            raise DataError(f"treasures.yaml: card ids must be unique strings ({cid!r})")
        if not isinstance(c.get("vp"), int) or not 1 <= c["vp"] <= 3:
            # "1-3 VP Play a Treasure card"
            raise DataError(f"treasures.yaml: {cid}: vp must be 1 to 3 (\"1-3 VP Play a Treasure card\")")
        check_effects(f"treasures.yaml: {cid}", c.get("power", []) + c.get("property", []))
        out[cid] = c
    return out
