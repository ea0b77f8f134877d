"""Dungeon entrances: the Guardian tiles and the Treasure deck as data (``guardians.yaml``, ``treasures.yaml``),
and the small rules of Guardians that the battle code asks for."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from conquest.rulesets.nerath.data import DataError

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Guardian:
    id: str
    name: str
    dice: tuple[int, ...]
    first_strike: bool
    heroes_need: int
    reward: int


@lru_cache(maxsize=1)
def guardian_tiles() -> dict[str, Guardian]:
    data = yaml.safe_load((HERE / "guardians.yaml").read_text())
    out: dict[str, Guardian] = {}
    for i, t in enumerate(data.get("tiles", [])):
        try:
            g = Guardian(id=str(t["id"]), name=str(t["name"]), dice=tuple(int(d) for d in t["dice"]),
                         first_strike=bool(t.get("first_strike", False)),
                         heroes_need=int(t.get("heroes_need", 0) or 0), reward=int(t.get("reward", 0)))
        except (KeyError, TypeError, ValueError) as e:
            raise DataError(f"guardians.yaml: tiles[{i}] is malformed ({e})") from None
        if not g.dice or any(d < 2 for d in g.dice) or g.id in out:
            raise DataError(f"guardians.yaml: {g.id}: needs unique id and at least one die")
        if g.heroes_need not in (0, 7, 8):
            raise DataError(f"guardians.yaml: {g.id}: heroes_need is 7 or 8")
        if not 0 <= g.reward <= 5:
            raise DataError(f"guardians.yaml: {g.id}: a Reward is 1 to 5 gold")
        out[g.id] = g
    return out


@lru_cache(maxsize=1)
def treasure_cards() -> dict[str, dict[str, Any]]:
    from conquest.rulesets.nerath.effects import check_effects
    data = yaml.safe_load((HERE / "treasures.yaml").read_text())
    out: dict[str, dict[str, Any]] = {}
    for c in data.get("cards", []):
        cid = c.get("id")
        if not isinstance(cid, str) or cid in out:
            raise DataError(f"treasures.yaml: card ids must be unique strings ({cid!r})")
        if not isinstance(c.get("vp"), int) or not 0 <= c["vp"] <= 3:
            raise DataError(f"treasures.yaml: {cid}: vp must be 0 to 3")
        check_effects(f"treasures.yaml: {cid}", c.get("power", []) + c.get("property", []))
        out[cid] = c
    return out


def full_strength(tile: str) -> list[int]:
    return list(guardian_tiles()[tile].dice)
