"""The shared names of the Conquest module (rules document ``002``) that every section's module uses: the
pawns of a player (COMPONENTS), the colours of the seats, the steps a state can be at, and the economy of the
standalone stand-in for the base game (``economy.yaml``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

from conquest.rulesets.kingdom.board import BONUS_EFFECTS, PRODUCTION_ICONS

ARMIES_PER_PLAYER = 12
""""Take the 12 Army pawns of your color" (Setup)."""
MAX_SOLDIER_ENTRY = 40
"""Companion mode: the most Soldier tokens a player may enter for one Conquest phase."""
COLORS = ("red", "blue")

INCOME, CONQUEST, MOVE, VACATE, PLACE, OVER = "income", "conquest", "move", "vacate", "place", "over"
PHASES = (INCOME, CONQUEST, MOVE, VACATE, PLACE, OVER)
"""Where a state is: the Soldier income of a round (``phases``), the Conquest phase's choice of action
(``conquest_phase``), a Move Armies action under way and its choices of bonus location (``move``), the end."""


@cache
def economy() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((Path(__file__).parent / "economy.yaml").read_text())
    for kind in BONUS_EFFECTS + PRODUCTION_ICONS:
        if not isinstance(data["points"].get(kind), int):
            raise ValueError(f"economy.yaml: points.{kind} must be an integer")
    return data
