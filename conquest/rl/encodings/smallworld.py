"""Small World: the regions (whose tokens, which seat from the observer's side, markers), the races and powers
in play, the combo column, the turn and the conquest under way. Other seats' coins are face down (``None`` in
the view): only their being unknown is written."""

from __future__ import annotations

from typing import Any

import conquest.rulesets.smallworld.data as D
from conquest.rl.encodings.base import Encoding, Features
from conquest.rulesets.smallworld.ruleset import _USAGE
from conquest.rulesets.smallworld.state import PHASE_NAMES, RID

RACES = [r["id"] for r in D.RACES]
POWERS = [p["id"] for p in D.POWERS]
MARKERS = ("lost_tribe", "lair", "fortress", "encampments", "hole", "hero", "dragon")
TURN_FLAGS = ("readied", "conquered", "picked", "declined", "dragon_used", "fortress_placed")
COLUMN = 6


class SmallWorldEncoding(Encoding):
    ruleset = "smallworld"
    small = 64

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        if options["map"] == "standard":
            from conquest.core.registry import get_ruleset
            probe = get_ruleset("smallworld").new_game(players, options, seed=0)
            self.regions = list(probe.view(None)["regions"])
        else:
            self.regions = list(RID)

    def strings(self) -> list[str]:
        return list(_USAGE) + list(RID) + RACES + POWERS

    def features(self, view: dict[str, Any], seat: int) -> list[float]:
        f = Features()
        order = self.others(seat)
        rel = {s: k for k, s in enumerate(order)}
        races = view["races"]
        f.add(view["turn"], view["turns"])
        f.one_hot(view["phase"], PHASE_NAMES)
        f.one_hot(view["seat"] is not None and rel.get(view["seat"]), range(self.players))
        coins = view["seats"][seat]["coins"]
        f.add(coins, 50)
        for s in order:
            active = [r for r, d in races.items() if d["seat"] == s and d["status"] == "active"]
            declined = [r for r, d in races.items() if d["seat"] == s and d["status"] == "declined"]
            a = active[0] if active else None
            f.one_hot(a, RACES)
            f.one_hot(races[a]["power"] if a else None, POWERS)
            f.add(races[a]["hand"] if a else 0, 10)
            f.many((1.0 if r in declined else 0.0 for r in RACES))
        column = view["column"]
        for k in range(COLUMN):
            c = column[k] if k < len(column) else None
            f.one_hot(c and c["race"], RACES)
            f.one_hot(c and c["power"], POWERS)
            f.add(c["coins"] if c else 0, 5)
        regions = view["regions"]
        for rid in self.regions:
            r = regions.get(rid)
            if r is None:
                f.many([0.0] * (self.players + 2 + len(MARKERS)))
                continue
            race = r["race"]
            owner = races[race]["seat"] if race in races else None
            f.one_hot(rel.get(owner) if owner is not None else None, range(self.players))
            f.flag(race is not None and races.get(race, {}).get("status") == "declined")
            f.add(r["tokens"], 10)
            f.many((r[m] for m in MARKERS))
        ts = view.get("turn_state") or {}
        f.many((1.0 if ts.get(k) else 0.0 for k in TURN_FLAGS))
        f.add(ts.get("nonempty_conquered", 0), 5)
        f.add(ts.get("berserk_die") or 0, 3)
        f.add(ts.get("amazon_debt", 0), 4)
        f.add(ts.get("loose_encampments", 0), 5)
        d = ts.get("defender")
        f.one_hot(rel.get(d) if d is not None else None, range(self.players))
        return f.values


ENCODING = SmallWorldEncoding
