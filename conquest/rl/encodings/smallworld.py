"""Small World: the regions (whose tokens, which seat from the observer's side, markers), the races and powers
in play, the combo column, the turn and the conquest under way. Other seats' coins are face down (``None`` in
the view): only their being unknown is written.

``features(view, seat)`` defines the numbers; ``observe(state, seat)`` reads the same numbers straight from the
state's fields (the environment's fast path: no JSON view is built)."""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

import conquest.rulesets.smallworld.data as D
from conquest.rl.encodings.base import Encoding, Features
from conquest.rulesets.smallworld.ruleset import _USAGE
from conquest.rulesets.smallworld.state import DECLINED, NP, NR, OUT, PHASE_NAMES, RID, SmallWorldState

RACES = [r["id"] for r in D.RACES]
POWERS = [p["id"] for p in D.POWERS]
MARKERS = ("lost_tribe", "lair", "fortress", "encampments", "hole", "hero", "dragon")
TURN_FLAGS = ("readied", "conquered", "picked", "declined", "dragon_used", "fortress_placed")
COLUMN = 6
# observe writes a region's numbers as bytes: a count c (owner flags, markers) as c, its tokens t as 128 + t
# (TOKENS; a region never holds 128 tokens); REGION_NUMBERS reads them back as c and t / 10 (as features divides)
TOKENS = bytes((128 + t) % 256 for t in range(256))
REGION_NUMBERS = np.concatenate((np.arange(128, dtype=np.float64), np.arange(128) / 10)).astype(np.float32)


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
        # region i of the state (r{i + 1}) is slot i: the standard board's regions are r1..rN in the view, and a
        # generated board has a slot for each of the ids r1..r128
        assert self.regions == list(RID[:len(self.regions)])
        self._columns: dict[tuple, np.ndarray] = {}
        # a region's owner code (0: nobody, 1 + 2 * seat from the observer's side + 1 if in decline) -> its
        # numbers in each owner column (one per seat, then the declined flag)
        self.owner_columns = [bytes(1 if c and (c - 1) // 2 == k else 0 for c in range(256)) for k in range(p)]
        self.owner_columns.append(bytes(1 if c and c % 2 == 0 else 0 for c in range(256)))

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

    def observe(self, state: SmallWorldState, seat: int) -> np.ndarray:
        """``features(state.view(seat), seat)`` read straight from the state's fields, as a float32 array.

        It must give exactly the numbers of ``features`` (tests/rl/test_envs.py holds them equal at every
        decision of random games). The only hidden part of a Small World position is the other seats' coins
        ("kept face down"): this reads ``coins[seat]`` and no other seat's."""
        n = state.board.n
        if n > len(self.regions):  # a board with more regions than slots: only the view's numbering knows
            return super().observe(state, seat)
        p = self.players
        out = np.zeros(self.size, dtype=np.float32)
        out[0] = state.turn / state.turns
        out[self.o_phase + state.phase] = 1.0
        out[self.o_seat + (state.seat - seat) % p] = 1.0
        out[self.o_coins] = state.coins[seat] / 50
        # the races in play: each seat's first active race, its power and hand, and its races in decline; and
        # each race's owner code, for the regions: 0 (no race, or out of play), or 1 + 2 * its seat from the
        # observer's side + 1 if in decline
        rseat, block = state.rseat, self.race_block
        code = bytearray(256)  # a race's byte -> its owner code
        active = 0             # the seats (from the observer's side) whose active race is written, as bits
        for x, st in enumerate(state.rstatus):
            if st == OUT:
                continue
            k = (rseat[x] - seat) % p
            base = self.o_races + k * block
            if st == DECLINED:
                code[x] = 2 + 2 * k
                out[base + NR + NP + 1 + x] = 1.0
            else:  # active
                code[x] = 1 + 2 * k
                if not active >> k & 1:
                    active |= 1 << k
                    out[base + x] = 1.0
                    out[base + NR + state.rpower[x]] = 1.0
                    out[base + NR + NP] = state.rhand[x] / 10
        out[self.o_column:self.o_regions] = self._column(state)
        # the regions, one row each, from one column of bytes per number: the owner columns (the race's byte,
        # -1 being 255, translated to its owner code, then to each column), the tokens, the markers;
        # REGION_NUMBERS turns the bytes into the numbers
        owner = array("b", state.rrace).tobytes().translate(code)
        columns = [owner.translate(t) for t in self.owner_columns]
        columns.append(bytes(state.tok).translate(TOKENS))
        columns += [bytes(state.lost), bytes(state.lair), bytes(state.fort), bytes(state.camp), bytes(state.hole),
                    bytes(state.hero), bytes(state.dragon)]
        codes = np.frombuffer(b"".join(columns), dtype=np.uint8).reshape(self.region_block, n).T
        REGION_NUMBERS.take(codes, out=out[self.o_regions:self.o_regions + n * self.region_block]
                            .reshape(n, self.region_block), mode="clip")
        # the turn under way
        base = self.o_turn_state
        for k, v in enumerate((state.readied, state.acted, state.picked, state.declined_now, state.dragon_used,
                               state.fort_placed)):
            if v:
                out[base + k] = 1.0
        base += len(TURN_FLAGS)
        out[base] = state.conq_ne / 5
        if state.bdie > 0:
            out[base + 1] = state.bdie / 3
        out[base + 2] = state.amazon_debt / 4
        out[base + 3] = state.camps_loose / 5
        if state.defender >= 0:
            out[base + 4 + (state.defender - seat) % p] = 1.0
        return out

    def _column(self, state: SmallWorldState) -> np.ndarray:
        """The numbers of the combo column (a race drawn and waiting for its power is not a combo yet), kept by
        content: the column changes only when a combo is picked or drawn."""
        key = (tuple(state.col_race), tuple(state.col_power), tuple(state.col_coins))
        got = self._columns.get(key)
        if got is None:
            got = np.zeros(self.o_regions - self.o_column, dtype=np.float32)
            base = 0
            for r, pw, c in zip(state.col_race[:COLUMN], state.col_power, state.col_coins):
                got[base + r] = 1.0
                got[base + NR + pw] = 1.0
                got[base + NR + NP] = c / 5
                base += self.column_block
            if len(self._columns) >= 4096:
                self._columns.clear()
            self._columns[key] = got
        return got


ENCODING = SmallWorldEncoding
