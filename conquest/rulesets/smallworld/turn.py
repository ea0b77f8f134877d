"""The turn and the turn track (standard rules, "Game Turn" and "End of the Game"): a seat's turn begins
with its declined races that still conquer, then its active race (or a new combo); after scoring, the
powers that act at the end of the turn (Stout, Diplomat) and the defenders' redeployment; then the next
seat."""

from __future__ import annotations

from conquest.rulesets.smallworld.base import StateBase
from conquest.rulesets.smallworld.common import ACTIVE, CONQUER, DIPLOMACY, OVER, PICK, STOUT_CHOICE
from conquest.rulesets.smallworld.powers import POWER_RULES
from conquest.rulesets.smallworld.races import RACE_RULES


class TurnTrack(StateBase):
    __slots__ = ()

    def _reset_turn_flags(self) -> None:
        self.cur = -1
        self.readied = False
        self.acted = False
        self.picked = False
        self.declined_now = False
        self.conq_ne = 0
        self.attacked = 0
        self.converted = 0
        self.dragon_used = False
        self.die_used = False
        self.fort_placed = False
        self.bdie = -1
        self.final_r = -1
        self.amazon_debt = 0
        self.camps_loose = 0

    def start_turn(self) -> None:
        self._reset_turn_flags()
        s = self.seat
        for g in self.declined_races(s):
            if RACE_RULES[g].conquers_in_decline and (self.rhand[g] > 0 or g in self.rrace):
                # "declined Ghouls still conquer, before your active race"
                # their troops are readied at their first action, like an active race's (reading 9)
                self.cur = g
                self.readied = False
                self.phase = CONQUER
                return
        self.begin_active_part()

    def begin_active_part(self) -> None:
        s = self.seat
        x = self.active_race(s)
        self.readied = False
        self.acted = False
        self.bdie = -1
        if x < 0:
            if self.col_race:
                self.cur = -1
                self.phase = PICK
            else:  # no combo left to take: the turn is only scoring
                self.cur = -1
                self.score(s)
                self._begin_defenders()
            return
        self.cur = x
        self.phase = CONQUER

    def _active_power(self, race: int) -> int:
        """The power of ``race`` if it is active, else -1."""
        return self.rpower[race] if race >= 0 and self.rstatus[race] == ACTIVE else -1

    def end_of_turn(self) -> None:
        s = self.seat
        self.score(s)
        # Stout "may decline at the end of a normal turn": the first turn (choose, conquer, score) is one too,
        # unless option stout_first_turn=false (reading 13)
        p = self._active_power(self.cur)
        if p >= 0 and POWER_RULES[p].declines_after_scoring \
                and (not self.picked or self.options.get("stout_first_turn", True)):
            self.phase = STOUT_CHOICE
            return
        self._after_stout()

    def _after_stout(self) -> None:
        p = self._active_power(self.active_race(self.seat))
        if p >= 0 and POWER_RULES[p].makes_peace and self._peace_choices():
            self.phase = DIPLOMACY
            return
        self._begin_defenders()

    def _peace_choices(self) -> list[int]:
        return [t for t in range(self.players) if t != self.seat and not self.attacked >> t & 1]

    def next_turn(self) -> None:
        s = self.seat
        if self.peace_to == s:  # the Diplomat's protection lasted one turn of the chosen opponent
            self.peace_by = self.peace_to = -1
        s += 1
        if s == self.players:
            s = 0
            self.turn += 1
        self.seat = s
        if self.turn > self.turns:
            self.turn = self.turns
            self.seat = self.players - 1
            self._reset_turn_flags()
            self.phase = OVER
            return
        self._after_draw()
