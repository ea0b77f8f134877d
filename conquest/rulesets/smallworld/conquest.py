"""Conquering Regions (003, page 4), in the page's order: readying troops, the first conquest, the conquest
cost, enemy losses and withdrawals, following conquests, and the final conquest with the reinforcement die.
The races' and powers' changes to these steps are their hooks (races.py, powers.py)."""

from __future__ import annotations

from conquest.core.kinds import Action
from conquest.rulesets.smallworld.base import StateBase
from conquest.rulesets.smallworld.common import ACTIVE, CONQUER, RID
from conquest.rulesets.smallworld.powers import COST_DISCOUNT as POWER_DISCOUNT, EXTEND_REACH, NO_POWER, POWER_RULES
from conquest.rulesets.smallworld.races import (
    CONQUEST_ACTIONS,
    COST_DISCOUNT as RACE_DISCOUNT,
    ON_OCCUPY,
    RACE_RULES,
    SORCERERS_RULE,
    TOKENS_KEPT,
)


class Conquering(StateBase):
    __slots__ = ()

    # ---- readying troops --------------------------------------------------------------------------
    def _spare_before_ready(self, race: int) -> int:
        """Tokens readying troops would put in hand (all but one per region, and the tokens a race is lent
        for conquest: the Amazons' 4)."""
        rr, tok = self.rrace, self.tok
        spare = sum(tok[i] - 1 for i in range(len(rr)) if rr[i] == race)
        if self.rstatus[race] == ACTIVE:
            spare += RACE_RULES[race].extra_tokens(self)
        return spare

    def hand_now(self) -> int:
        x = self.cur
        h = self.rhand[x]
        return h if self.readied else h + self._spare_before_ready(x)

    def ready_troops(self) -> None:
        """"Ready your troops": all but one token of each region go back in hand (Amazons take their 4)."""
        if self.readied:
            return
        x = self.cur
        rr, tok = self.rrace, self.tok
        h = 0
        for i in range(len(rr)):
            if rr[i] == x and tok[i] > 1:
                h += tok[i] - 1
                tok[i] = 1
        self.rhand[x] += h
        if self.rstatus[x] == ACTIVE:
            RACE_RULES[x].on_ready(self)
        self.readied = True

    # ---- first and following conquests ------------------------------------------------------------
    def can_sail(self, race: int) -> bool:
        # "Seafaring: may conquer seas and the lake; kept in decline"
        p = self.rpower[race]
        return p >= 0 and POWER_RULES[p].sails

    def conquest_targets(self, race: int) -> list[int]:
        """Regions ``race`` may attack now: a first conquest enters by a border region; following conquests
        are adjacent to a region it occupies (Flying, Underworld and Halflings change that). Flying reaches any
        region for the first conquest too unless option ``flying_first_conquest`` is false (reading 20)."""
        b = self.board
        rr = self.rrace
        own = [i for i in range(b.n) if rr[i] == race]
        active = self.rstatus[race] == ACTIVE
        p = self.rpower[race] if active else -1
        flies = p >= 0 and POWER_RULES[p].reaches_anywhere \
            and (bool(own) or self.options.get("flying_first_conquest", True))
        if flies or (not own and active and RACE_RULES[race].first_conquest_anywhere):
            cand: list[int] | set[int] = range(b.n)  # type: ignore[assignment]
        elif not own:
            cand = [i for i in range(b.n) if b.entry[i]]
        else:
            cs: set[int] = set()
            for i in own:
                cs.update(b.adj[i])
            reach = EXTEND_REACH[p] if p >= 0 else None
            if reach is not None:
                reach(self, own, cs)
            cand = sorted(cs)
        sail = self.can_sail(race)
        seat = self.rseat[race]
        out = []
        for r in cand:
            y = rr[r]
            if y == race or (b.water[r] and not sail) or self.immune(r):
                continue
            if y >= 0 and self.peace_to == seat and self.rseat[y] == self.peace_by and self.rstatus[y] == ACTIVE:
                continue
            out.append(r)
        return out

    # ---- the conquest cost ------------------------------------------------------------------------
    def conquest_cost(self, race: int, r: int) -> int:
        """"2 Race tokens + 1 additional Race token for each Encampment, Fortress, Mountain, or Troll's Lair
        marker + 1 additional Race token for each Lost Tribe or other player's Race token already present in
        the Region" (003), less the race's and power's discounts, never below 1."""
        b = self.board
        c = 2 + b.mountain[r] + self.lair[r] + self.fort[r] + self.camp[r] + self.lost[r]
        y = self.rrace[r]
        if y >= 0 and (self.rseat[y] != self.rseat[race] or self.options.get("own_decline_defends")):
            c += self.tok[r]
        if self.rstatus[race] == ACTIVE:
            d = POWER_DISCOUNT[self.rpower[race]]
            if d is not None:
                c -= d(self, r)
            d = RACE_DISCOUNT[race]
            if d is not None:
                c -= d(self, r)
        return c if c > 1 else 1

    # ---- enemy losses and withdrawals -------------------------------------------------------------
    def lose_region(self, r: int) -> bool:
        """Enemy losses and withdrawals (003): the Lost Tribe is discarded; a race's tokens go back in its
        owner's hand less one discarded (a lone token is discarded; Elves lose none). Markers that belong to
        the occupant (Lair, Fortress, Encampments) leave; a Mountain stays. True if the region was
        non-empty."""
        nonempty = bool(self.lost[r])
        self.lost[r] = 0
        y = self.rrace[r]
        if y >= 0:
            nonempty = True
            kept = TOKENS_KEPT[y]
            self.rhand[y] += self.tok[r] - 1 if kept is None else kept(self, self.tok[r])
            t = self.rseat[y]
            if t != self.seat and self.rstatus[y] == ACTIVE:
                # the Diplomat names "one opponent whose active race you did not attack this turn"
                self.attacked |= 1 << t
            if self.camp[r] and t != self.seat:
                # Encampments are not lost with the region: their owner places them again at the end of the
                # attacker's turn. When the attacker took them from its own race (declined Ghouls conquering
                # the seat's active Bivouacking race), they go back to the race's stock at once: their owner is
                # the player whose turn it is and places them in its own redeployment (at most 5 in all).
                self.camps_loose += self.camp[r]
        self._clear_region(r)
        return nonempty

    def occupy(self, race: int, r: int, n: int, nonempty: bool) -> None:
        """The conquering tokens are deployed inside the region's borders (003)."""
        self.rrace[r] = race
        self.tok[r] = n
        active = self.rstatus[race] == ACTIVE
        hook = ON_OCCUPY[race]
        if hook is not None:
            hook(self, r, active)
        if nonempty and active:
            self.conq_ne += 1
        self.acted = True

    def conquer(self, r: int, cost: int) -> None:
        x = self.cur
        self.count("conquests")
        y = self.rrace[r]
        if y >= 0 and self.rseat[y] != self.rseat[x]:
            self.count("conquests_of_enemies")
        elif self.lost[r]:
            self.count("lost_tribes_conquered")
        nonempty = self.lose_region(r)
        self.rhand[x] -= cost
        self.occupy(x, r, cost, nonempty)

    # ---- the final conquest -----------------------------------------------------------------------
    def roll_resolved(self, d: int) -> None:
        """The reinforcement die. For a final conquest the region was chosen before the roll: with the die
        the tokens in hand suffice or not; either way the turn's conquests end. For Berserk the die is known
        before the region is chosen."""
        self.phase = CONQUER
        self.count("reinforcement_rolls")
        r = self.final_r
        if r < 0:
            self.bdie = d
            return
        self.final_r = -1
        self.die_used = True
        x = self.cur
        h = self.rhand[x]
        if h + d >= self.conquest_cost(x, r):
            self.conquer(r, h)
        self.start_redeployment()

    # ---- what the conquering race may do ----------------------------------------------------------
    def _conquer_actions(self) -> list[Action]:
        x = self.cur
        hand = self.hand_now()
        acts: list[Action] = []
        active = self.rstatus[x] == ACTIVE
        pw = POWER_RULES[self.rpower[x]] if active else NO_POWER
        bd = self.bdie
        # option reinforcement_die=once_a_turn: "After the die, the turn's conquests end" — a race acting after
        # the declined Ghouls' die conquers (and converts) no more
        over = self.die_used and self.options.get("reinforcement_die", "once_a_turn") == "once_a_turn"
        if hand >= 1 and not over:
            cost = self.conquest_cost
            final_ok = not pw.rolls_before_conquest
            dragon_ok = pw.dragon and not self.dragon_used and bd < 0
            for r in self.conquest_targets(x):
                c = cost(x, r)
                if bd >= 0:
                    c = c - bd if c - bd > 1 else 1
                if c <= hand:
                    acts.append(("conquer", RID[r]))
                elif final_ok and c - hand <= 3:
                    acts.append(("final", RID[r]))
                if dragon_ok:
                    acts.append(("dragon", RID[r]))
            if pw.rolls_before_conquest and bd < 0:
                acts.append(("berserk",))
        if active and not over:
            more = CONQUEST_ACTIONS[x]
            if more is not None:
                more(self, acts, bd)
        if not self.acted and bd < 0:
            for r in self.regions_of(x):
                acts.append(("abandon", RID[r]))
            if active and not self.readied and not self.picked:
                acts.append(("decline",))
        acts.append(("end",))
        return acts

    def _conversion_targets(self) -> list[int]:
        """Sorcerers: see ``races.Sorcerers.conversion_targets``."""
        return SORCERERS_RULE.conversion_targets(self)

    def sorcerers_convert(self, r: int) -> None:
        SORCERERS_RULE.convert(self, r)


__all__ = ["Conquering"]
