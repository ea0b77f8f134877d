"""Scoring Victory Coins (standard rules, "Scoring Victory Coins") and the end of the game: 1 coin per
region occupied, active or in decline, plus the race's and the active power's bonuses (their ``coins``
hooks); the richest seat wins, ties broken by tokens on the map."""

from __future__ import annotations

from conquest.rulesets.smallworld.base import StateBase
from conquest.rulesets.smallworld.common import OVER
from conquest.rulesets.smallworld.powers import COINS as POWER_COINS
from conquest.rulesets.smallworld.races import COINS as RACE_COINS


class Scoring(StateBase):
    __slots__ = ()

    def score(self, s: int) -> int:
        """1 coin per region occupied (active and declined) plus the race's and power's bonuses."""
        x = self.active_race(s)
        rr = self.rrace
        g = 0
        for y in self.seat_races(s):
            regs = [i for i in range(len(rr)) if rr[i] == y]
            active = y == x
            g += len(regs)
            self.count("coins_regions", len(regs))
            self.coins_floor[s] += len(regs)   # public: 1 coin per region seen occupied (``hidden``)
            coins = RACE_COINS[y]
            if coins is not None:
                bonus = coins(self, regs, active)
                g += bonus
                self.count("coins_race", bonus)
            if active:
                coins = POWER_COINS[self.rpower[y]]
                if coins is not None:
                    bonus = coins(self, regs)
                    g += bonus
                    self.count("coins_power", bonus)
        self.coins[s] += g
        return g

    def result(self) -> tuple[float, ...] | None:
        if self.phase != OVER:
            return None
        keys = [(self.coins[s], self.tokens_on_map(s)) for s in range(self.players)]
        best = max(keys)
        winners = [s for s in range(self.players) if keys[s] == best]
        return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(self.players))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(c) for c in self.coins)
