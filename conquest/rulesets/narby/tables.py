"""The Narby Conquest tables (``tables.yaml``), loaded once and validated, then turned into lookups indexed by
the modified roll so that the rules never search a chart at play time."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conquest.core.errors import ConquestError

ROLL_MIN = -20   # lowest modified roll we index (a d20 of 1 with every minus the rules allow is > -10)
ROLL_MAX = 40    # highest (20 + every plus)


class TableError(ConquestError):
    pass


@dataclass(frozen=True)
class Dragon:
    digit: int
    id: str
    name: str
    rings: int
    color: str
    powers: tuple[str, ...]


@dataclass(frozen=True)
class Place:
    roll: int
    id: str
    name: str
    power: str
    control: str


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    timing: str
    text: str


def _rows_to_lookup(rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """One row per modified roll from ROLL_MIN to ROLL_MAX; checks that the rows tile the line exactly."""
    out: list[dict[str, Any] | None] = [None] * (ROLL_MAX - ROLL_MIN + 1)
    for i, row in enumerate(rows):
        lo = ROLL_MIN if row.get("min") is None else int(row["min"])
        hi = ROLL_MAX if row.get("max") is None else int(row["max"])
        if lo > hi:
            raise TableError(f"{name} row {i}: min {lo} > max {hi}")
        for r in range(lo, hi + 1):
            if out[r - ROLL_MIN] is not None:
                raise TableError(f"{name}: roll {r} is in two rows")
            out[r - ROLL_MIN] = row
    missing = [ROLL_MIN + i for i, v in enumerate(out) if v is None]
    if missing:
        raise TableError(f"{name}: no row for rolls {missing[:3]}...")
    return out  # type: ignore[return-value]


def clamp_roll(r: int) -> int:
    return ROLL_MIN if r < ROLL_MIN else ROLL_MAX if r > ROLL_MAX else r


class Tables:
    def __init__(self, data: dict[str, Any]) -> None:
        self.raw = data
        self.size = int(data["board_size"])
        if self.size != 20:
            raise TableError("board_size: the document's board is 20x20")
        self.actions_per_turn = int(data["actions_per_turn"])
        self.move_range = int(data["move_range"])
        self.speedster_range = int(data["speedster_range"])
        self.chest_refill = int(data["chest_refill"])
        self.attack_stake = int(data["attack_stake"])
        self.revolt_loss = int(data["revolt_loss"])
        self.robber_loss = int(data["robber_loss"])
        self.dragons = [Dragon(int(d["digit"]), d["id"], d["name"], int(d["rings"]), d["color"],
                               tuple(d.get("powers", ()))) for d in data["dragons"]]
        if sorted(d.digit for d in self.dragons) != list(range(10)):
            raise TableError("dragons: one dragon per digit 0-9")
        self.dragon_ids = [d.id for d in self.dragons]
        self.dragon_index = {d.id: i for i, d in enumerate(self.dragons)}
        self.dragon_by_digit = {d.digit: i for i, d in enumerate(self.dragons)}
        self.places = [Place(int(p["roll"]), p["id"], p["name"], p["power"], p.get("control", ""))
                       for p in data["places"]]
        if [p.roll for p in self.places] != list(range(1, len(self.places) + 1)):
            raise TableError("places: rolls must run 1, 2, 3, ...")
        self.place_ids = [p.id for p in self.places]
        self.place_index = {p.id: i for i, p in enumerate(self.places)}
        self.places_chooser_from = int(data["places_chooser_from"])
        if self.places_chooser_from != len(self.places) + 1:
            raise TableError("places_chooser_from must follow the last place row")
        self.cards = [Card(c["id"], c["name"], c["timing"], c["text"]) for c in data["cards"]]
        self.card_ids = [c.id for c in self.cards]
        if len(set(self.card_ids)) != len(self.card_ids):
            raise TableError("cards: duplicate id")
        self.steal = _rows_to_lookup(data["steal_chart"], "steal_chart")
        self.destroy = _rows_to_lookup(data["destroy_chart"], "destroy_chart")
        for row in data["destroy_chart"]:
            if row["unclaimed"] not in ("nothing", "ruin", "destroyed", "destroyed_token"):
                raise TableError(f"destroy_chart: unknown unclaimed result {row['unclaimed']!r}")
            if row["claimed"] not in ("revolt", "nothing", "remove_claim", "ruin", "destroyed_claimed"):
                raise TableError(f"destroy_chart: unknown claimed result {row['claimed']!r}")
        dc = data["destroyed_chart"]
        self.destroyed: dict[str, dict[str, int]] = {}
        for res in ("ruin", "destroyed", "destroyed_claimed"):
            self.destroyed[res] = {k: int(dc[res][k]) for k in ("town", "city", "ruin")}
        self.tribute = _rows_to_lookup(data["tribute_chart"], "tribute_chart")
        self.tribute_adjacent = {k: int(v) for k, v in data["tribute_adjacent"].items()}
        tok: dict[int, float] = {}
        total = sum(float(t["weight"]) for t in data["treasure_tokens"])
        for t in data["treasure_tokens"]:
            tok[int(t["value"])] = tok.get(int(t["value"]), 0.0) + float(t["weight"]) / total
        self.token_values = sorted(tok.items())

    def steal_row(self, roll: int) -> dict[str, Any]:
        return self.steal[clamp_roll(roll) - ROLL_MIN]

    def destroy_row(self, roll: int) -> dict[str, Any]:
        return self.destroy[clamp_roll(roll) - ROLL_MIN]

    def tribute_row(self, roll: int) -> dict[str, Any]:
        return self.tribute[clamp_roll(roll) - ROLL_MIN]


def load_tables(path: Path | None = None) -> Tables:
    p = path or Path(__file__).with_name("tables.yaml")
    try:
        data = yaml.safe_load(p.read_text())
        return Tables(data)
    except (KeyError, TypeError, ValueError) as e:
        raise TableError(f"{p.name}: {e}") from None


TABLES = load_tables()
