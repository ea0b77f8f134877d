"""Troop redeployment (standard rules, "Troop Redeployment"), and the defenders' redeployment at the end of
the attacker's turn (003, "Enemy Losses and Withdrawals")."""

from __future__ import annotations

from conquest.core.kinds import Action
from conquest.rulesets.smallworld.base import StateBase
from conquest.rulesets.smallworld.common import ACTIVE, DECLINED, DEFEND, NR, REDEPLOY, RID
from conquest.rulesets.smallworld.powers import MARKER_ACTIONS, POWER_RULES
from conquest.rulesets.smallworld.races import RACE_RULES


class Redeploying(StateBase):
    __slots__ = ()

    def start_redeployment(self) -> None:
        """Troop redeployment: the race's tokens may be moved freely between its regions, at least one in
        each: we take all but one into hand and the player places them."""
        x = self.cur
        rr, tok = self.rrace, self.tok
        own = [i for i in range(len(rr)) if rr[i] == x]
        for i in own:
            if tok[i] > 1:
                self.rhand[x] += tok[i] - 1
                tok[i] = 1
        active = self.rstatus[x] == ACTIVE
        if active:
            RACE_RULES[x].on_redeployment(self)
        if self.amazon_debt:
            take = min(self.amazon_debt, self.rhand[x])
            self.rhand[x] -= take
            self.amazon_debt -= take
            if not own:
                self.amazon_debt = 0
        if active:
            POWER_RULES[self.rpower[x]].on_redeployment(self)
        if not own:
            self.finish_redeployment()
            return
        self.phase = REDEPLOY

    def finish_redeployment(self) -> None:
        if self.rstatus[self.cur] == DECLINED:  # the declined Ghouls' part is over
            self.begin_active_part()
            return
        self.end_of_turn()

    def _redeploy_actions(self) -> list[Action]:
        x = self.cur
        own = self.regions_of(x)
        if self.amazon_debt > 0:
            return [("abandon", RID[r]) for r in own]
        h = self.rhand[x]
        acts: list[Action] = [("redeploy", RID[r], k) for r in own for k in range(1, h + 1)]
        if self.rstatus[x] == ACTIVE:
            markers = MARKER_ACTIONS[self.rpower[x]]
            if markers is not None:
                acts.extend(markers(self, own))
        if h == 0:
            acts.append(("end",))
        return acts

    # ---- the defenders' redeployment --------------------------------------------------------------
    def _replaces_camps(self, race: int) -> bool:
        """The race's power has Encampments its owner places again when a region is lost (Bivouacking)."""
        return race >= 0 and self.rstatus[race] == ACTIVE and POWER_RULES[self.rpower[race]].replaces_lost_camps

    def _defend_actions(self) -> list[Action]:
        h = self.rhand[self.cur]
        own = self.regions_of(self.cur)
        acts: list[Action] = [("redeploy", RID[r], k) for r in own for k in range(1, h + 1)]
        if self.camps_loose and self._replaces_camps(self.cur):
            acts.extend(("camp", RID[r]) for r in own)
        return acts

    def _begin_defenders(self) -> None:
        self.defender = -1
        self._next_defender()

    def _defender_camps(self) -> bool:
        return bool(self.camps_loose) and self._replaces_camps(self.cur)

    def _next_defender(self) -> None:
        """Defenders redeploy the tokens they took back in hand "as the final action of the current player's
        turn", into regions their race still holds; seats in turn order after the current one."""
        s = self.seat
        own_active = self.active_race(s)
        for k in range(1, self.players + 1):
            t = (s + k) % self.players
            for y in range(NR):
                if self.rseat[y] != t or (t == s and y == own_active):
                    continue
                if self.rhand[y] <= 0 and not (self.camps_loose and self._replaces_camps(y)):
                    continue
                if y in self.rrace:
                    self.defender = t
                    self.cur = y
                    self.phase = DEFEND
                    return
        self.defender = -1
        self.camps_loose = 0
        self.next_turn()
