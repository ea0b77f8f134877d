"""Picking a race and special power combo (standard rules, "Picking a combo"): the column of visible
combos, the coins laid on the combos above the chosen one, and the tokens of banner plus badge."""

from __future__ import annotations

from conquest.rulesets.smallworld.base import StateBase
from conquest.rulesets.smallworld.common import ACTIVE, CONQUER, DRAW_RACE, VISIBLE
from conquest.rulesets.smallworld.races import RACE_RULES
from conquest.rulesets.smallworld.variant import figures_of


class PickingCombo(StateBase):
    __slots__ = ()

    def _after_draw(self) -> None:
        if len(self.col_race) < VISIBLE and self.pile_races():
            self.phase = DRAW_RACE
            return
        if self.turn == 0:
            self.turn = 1
            self.seat = 0
        self.start_turn()

    def choose_combo(self, i: int) -> None:
        """Slot i costs i coins, one laid on each combo above it; the coins on the chosen combo are taken.
        Tokens: banner + badge, limited by the race's supply (Amazons take their 4 for conquest too)."""
        s = self.seat
        self.count("combos_picked")
        self.count("pick_coins_paid", i)
        self.coins[s] -= i
        # public: the seat had the i coins it laid down, and takes the coins on the combo (``hidden``)
        self.coins_floor[s] = max(self.coins_floor[s], i) - i + self.col_coins[i]
        for k in range(i):
            self.col_coins[k] += 1
        self.coins[s] += self.col_coins[i]
        self.count("coins_column", self.col_coins[i])
        x = self.col_race.pop(i)
        p = self.col_power.pop(i)
        self.col_coins.pop(i)
        self.rseat[x] = s
        self.rpower[x] = p
        self.rstatus[x] = ACTIVE
        self.rhand[x] = figures_of(self).tokens(x, p)
        self.cur = x
        self.picked = True
        self.readied = True
        self.acted = False
        RACE_RULES[x].on_pick(self)
        # the column slides up; the new combo at the bottom is drawn before the next turn begins
        self.phase = CONQUER
