"""Small World: the regions (whose tokens, which seat from the observer's side, markers), the races and powers
in play, the combo column, the turn and the conquest under way. Other seats' coins are face down (``None`` in
the view): only their being unknown is written."""

from __future__ import annotations

from typing import Any

import numpy as np

import conquest.rulesets.smallworld.data as D
from conquest.rl.encodings.base import Encoding, Features
from conquest.rulesets.smallworld.ruleset import _USAGE
from conquest.rulesets.smallworld.state import ACTIVE, DECLINED, NP, NR, OUT, PHASE_NAMES, RID

RACES = [r["id"] for r in D.RACES]
POWERS = [p["id"] for p in D.POWERS]
MARKERS = ("lost_tribe", "lair", "fortress", "encampments", "hole", "hero", "dragon")
TURN_FLAGS = ("readied", "conquered", "picked", "declined", "dragon_used", "fortress_placed")
COLUMN = 6
# a region's numbers after its owner's one-hot and its declined flag: tokens / 10, then the markers as counts
REGION_SCALE = np.array((10.0,) + (1.0,) * len(MARKERS))


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
        self._layout()

    def _layout(self) -> None:
        """Where ``features`` writes each part, for ``observe`` (the order below is the order of ``features``)."""
        p = self.players
        self.o_phase = 1
        self.o_seat = self.o_phase + len(PHASE_NAMES)
        self.o_coins = self.o_seat + p
        self.o_races = self.o_coins + 1
        self.race_block = NR + NP + 1 + NR          # active race, its power, its hand, the declined races
        self.o_column = self.o_races + p * self.race_block
        self.column_block = NR + NP + 1
        self.o_regions = self.o_column + COLUMN * self.column_block
        self.region_block = p + 2 + len(MARKERS)   # owner from the observer's side, declined, tokens, markers
        self.o_turn_state = self.o_regions + len(self.regions) * self.region_block
        self.size = self.o_turn_state + len(TURN_FLAGS) + 4 + p
        # the slots follow the board's own numbering (r1, r2, ...): region i of the state is slot i
        self.numbered = self.regions == list(RID[:len(self.regions)])
        # a region's owner code (0: nobody; 1 + 2 * seat from the observer's side + declined) -> its first numbers
        self.owner_rows = np.zeros((1 + 2 * p, p + 1), dtype=np.float32)
        for k in range(p):
            for declined in (0, 1):
                self.owner_rows[1 + 2 * k + declined, k] = 1.0
                self.owner_rows[1 + 2 * k + declined, p] = declined

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

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """``features(state.view(seat), seat)`` read straight from the state's fields, as a float32 array.

        It must give exactly the numbers of ``features`` (tests/rl/test_envs.py holds them equal at every
        decision of random games). The only hidden part of a Small World position is the other seats' coins
        ("kept face down"): this reads ``coins[seat]`` and no other seat's."""
        if not self.numbered:
            return super().observe(state, seat)
        p = self.players
        out = np.zeros(self.size, dtype=np.float32)
        ones: list[int] = []
        out[0] = state.turn / state.turns
        ones.append(self.o_phase + state.phase)
        ones.append(self.o_seat + (state.seat - seat) % p)
        out[self.o_coins] = state.coins[seat] / 50
        # the races in play: each seat's active race (the first by index), its power and hand, its declined ones;
        # and each race's owner code for the regions
        rseat, rstatus = state.rseat, state.rstatus
        code = [0] * (NR + 1)  # index -1 (no race) stays 0
        has_active = [False] * p
        o_races, block = self.o_races, self.race_block
        for x in range(NR):
            st = rstatus[x]
            if st == OUT:
                continue
            k = (rseat[x] - seat) % p
            base = o_races + k * block
            if st == ACTIVE:
                code[x] = 1 + 2 * k
                if not has_active[k]:
                    has_active[k] = True
                    ones.append(base + x)
                    ones.append(base + NR + state.rpower[x])
                    out[base + NR + NP] = state.rhand[x] / 10
            elif st == DECLINED:
                code[x] = 2 + 2 * k
                ones.append(base + NR + NP + 1 + x)
        # the combo column (a race drawn and waiting for its power is not a combo yet)
        base = self.o_column
        for r, pw, c in zip(state.col_race[:COLUMN], state.col_power, state.col_coins):
            ones.append(base + r)
            ones.append(base + NR + pw)
            if c:
                out[base + NR + NP] = c / 5
            base += self.column_block
        # the regions, a row each: owner one-hot and declined flag from the owner code, then tokens and markers
        n = min(state.board.n, len(self.regions))
        if n:
            w = self.region_block
            m = np.frombuffer(b"".join((bytes(map(code.__getitem__, state.rrace[:n])), bytes(state.tok[:n]),
                                        bytes(state.lost[:n]), bytes(state.lair[:n]), bytes(state.fort[:n]),
                                        bytes(state.camp[:n]), bytes(state.hole[:n]), bytes(state.hero[:n]),
                                        bytes(state.dragon[:n]))), dtype=np.uint8).reshape(2 + len(MARKERS), n)
            rows = out[self.o_regions:self.o_regions + n * w].reshape(n, w)
            rows[:, :p + 1] = self.owner_rows[m[0]]
            rows[:, p + 1:] = m[1:].T / REGION_SCALE
        # the turn under way
        base = self.o_turn_state
        for k, v in enumerate((state.readied, state.acted, state.picked, state.declined_now, state.dragon_used,
                               state.fort_placed)):
            if v:
                ones.append(base + k)
        base += len(TURN_FLAGS)
        out[base] = state.conq_ne / 5
        if state.bdie > 0:
            out[base + 1] = state.bdie / 3
        out[base + 2] = state.amazon_debt / 4
        out[base + 3] = state.camps_loose / 5
        if state.defender >= 0:
            ones.append(base + 4 + (state.defender - seat) % p)
        out[ones] = 1.0
        return out


ENCODING = SmallWorldEncoding
