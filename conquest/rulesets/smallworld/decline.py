"""Going into decline (standard rules, "Going into Decline"): one token per region is flipped, the others
leave; the seat's earlier declined race leaves the map (Spirit changes that, Ghouls keep their tokens)."""

from __future__ import annotations

from conquest.rulesets.smallworld.base import StateBase
from conquest.rulesets.smallworld.common import DECLINED, OUT
from conquest.rulesets.smallworld.powers import POWER_RULES
from conquest.rulesets.smallworld.races import RACE_RULES


class Declining(StateBase):
    __slots__ = ()

    def _spirit(self, race: int) -> bool:
        p = self.rpower[race]
        return p >= 0 and POWER_RULES[p].spirit

    def go_into_decline(self, s: int) -> None:
        """One token per region is flipped, the others removed (Ghouls keep all); the race's earlier
        declined race leaves the map, unless that one has Spirit (then it does not count) or this one does."""
        x = self.active_race(s)
        self.count("declines")
        spirit = self._spirit(x)
        for y in self.declined_races(s):
            if self._spirit(y) == spirit:
                self.remove_race(y)
        keep = RACE_RULES[x].keeps_tokens_in_decline
        rr, tok = self.rrace, self.tok
        for i in range(len(rr)):
            if rr[i] == x:
                if not keep:
                    tok[i] = 1
                self.hero[i] = 0
                self.dragon[i] = 0
                self.hole[i] = 0
                self.camp[i] = 0
        if not keep:
            self.rhand[x] = 0
        self.rstatus[x] = DECLINED
        self.amazon_debt = 0

    def remove_race(self, y: int) -> None:
        """The race's tokens leave the map; its banner and badge go back to the piles."""
        for i in range(len(self.rrace)):
            if self.rrace[i] == y:
                self._clear_region(i)
        self.rhand[y] = 0
        self.rstatus[y] = OUT
        self.rseat[y] = -1
        self.rpower[y] = -1
