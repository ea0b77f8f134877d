"""The state of a Small World game: its fields (base.py), what may be done now, and the transitions. The
procedures are the steps of the rules, each in its own module: picking a combo (combo.py), conquering
regions (conquest.py, as page 4 of 003 reads), redeployment and the defenders' redeployment
(redeployment.py), going into decline (decline.py), scoring (scoring.py) and the turn track (turn.py); the
races' and powers' effects are hooks of their entries (races.py, powers.py); refusals are explained by
messages.py; the JSON form is serial.py.
"""

from __future__ import annotations

from typing import Any

import conquest.rulesets.smallworld.data as D
from conquest.core.game import CHANCE
from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.smallworld.base import STAT_KEYS
from conquest.rulesets.smallworld.combo import PickingCombo
from conquest.rulesets.smallworld.common import (
    ACTIVE,
    CONQUER,
    DECLINED,
    DEFEND,
    DIE,
    DIE_PROBS,
    DIPLOMACY,
    DRAW_POWER,
    DRAW_RACE,
    EXTRA,
    MAX_CAMPS,
    MAX_FORTS,
    MAX_HEROES,
    MAX_HOLES,
    NP,
    NR,
    OUT,
    OVER,
    PHASE_INDEX,
    PHASE_NAMES,
    PICK,
    REDEPLOY,
    REGION_ACTIONS,
    REGION_FIELDS,
    RID,
    RIDX,
    STATUS_NAMES,
    STOUT_CHOICE,
    VISIBLE,
    _n,
)
from conquest.rulesets.smallworld.conquest import Conquering
from conquest.rulesets.smallworld.data import Board
from conquest.rulesets.smallworld.decline import Declining
from conquest.rulesets.smallworld.messages import Explaining
from conquest.rulesets.smallworld.redeployment import Redeploying
from conquest.rulesets.smallworld.scoring import Scoring
from conquest.rulesets.smallworld.serial import SmallWorldBody, body_json, from_body
from conquest.rulesets.smallworld.turn import TurnTrack
from conquest.rulesets.smallworld.variant import figures_of


class SmallWorldState(Conquering, PickingCombo, Redeploying, TurnTrack, Declining, Scoring, Explaining):
    __slots__ = ()
    schema = SmallWorldBody
    body_is_fresh = True  # body_json is its DOCUMENT's writer

    # ---- construction -----------------------------------------------------------------------------
    @classmethod
    def fresh(cls, players: int, options: dict[str, Any], board: Board, map_seed: int,
              column: list[tuple[int, int]]) -> SmallWorldState:
        s = cls.__new__(cls)
        s.players = players
        s.options = options
        s.board = board
        s.map_seed = map_seed
        s.turns = D.FIGURES[players]["turns"]
        s.turn = 0
        s.seat = 0
        s.phase = DRAW_RACE
        s.coins = [figures_of(s).coins_at_start(t) for t in range(players)]
        s.coins_floor = s.coins[:]
        s.rseat = [-1] * NR
        s.rpower = [-1] * NR
        s.rstatus = [OUT] * NR
        s.rhand = [0] * NR
        s.col_race = [r for r, _ in column]
        s.col_power = [p for _, p in column]
        s.col_coins = [0] * len(column)
        n = board.n
        s.rrace = [-1] * n
        s.tok = [0] * n
        s.lost = list(board.lost_tribe)
        s.lair = [0] * n
        s.fort = [0] * n
        s.camp = [0] * n
        s.hole = [0] * n
        s.hero = [0] * n
        s.dragon = [0] * n
        s._reset_turn_flags()
        s.defender = -1
        s.peace_by = -1
        s.peace_to = -1
        s.holes_used = 0
        s.stats = dict.fromkeys(STAT_KEYS, 0)
        s._after_draw()
        return s

    # ---- who moves --------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        ph = self.phase
        if ph == OVER:
            return None
        if ph in (DRAW_RACE, DRAW_POWER, DIE):
            return CHANCE
        if ph == DEFEND:
            return self.defender
        return self.seat

    # ---- legal actions ----------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == CONQUER:
            return self._conquer_actions()
        if ph == REDEPLOY:
            return self._redeploy_actions()
        if ph == DEFEND:
            return self._defend_actions()
        if ph == PICK:
            c = self.coins[self.seat]
            return [("pick", i) for i in range(len(self.col_race)) if i <= c]
        if ph in (DRAW_RACE, DRAW_POWER, DIE):
            return [a for a, _ in self.chance_outcomes()]
        if ph == STOUT_CHOICE:
            return [("decline",), ("end",)]
        if ph == DIPLOMACY:
            return [("peace", t) for t in self._peace_choices()]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        ph = self.phase
        if ph == DRAW_RACE:
            pile = self.pile_races()
            return [(("race", D.RACE_IDS[x]), 1.0 / len(pile)) for x in pile]
        if ph == DRAW_POWER:
            pile = self.pile_powers()
            return [(("power", D.POWER_IDS[p]), 1.0 / len(pile)) for p in pile]
        if ph == DIE:
            return [(("die", f), p) for f, p in DIE_PROBS]
        return []

    # ---- transitions ------------------------------------------------------------------------------
    def _apply(self, a: ActionArgs) -> None:
        # Long because: one branch per action verb (conquer, the reinforcement die, redeploy, decline, pick a combo,
        # the powers' actions), each the few lines of its rule, in the order of a turn.
        kind = a[0]
        if kind in REGION_ACTIONS:
            a = (kind, RIDX[a[1]]) + a[2:]
        if kind == "conquer":
            self.ready_troops()
            r = a[1]
            c = self.conquest_cost(self.cur, r)
            if self.bdie >= 0:
                c = max(1, c - self.bdie)
                self.bdie = -1
            self.conquer(r, c)
        elif kind == "redeploy":
            r, k = a[1], a[2]
            self.tok[r] += k
            self.rhand[self.cur] -= k
            if self.phase == DEFEND and self.rhand[self.cur] == 0 and not self._defender_camps():
                self._next_defender()
        elif kind == "end":
            if self.phase == CONQUER:
                self.ready_troops()
                self.bdie = -1
                self.start_redeployment()
            elif self.phase == REDEPLOY:
                self.finish_redeployment()
            else:  # Stout: no decline
                self._after_stout()
        elif kind == "pick":
            self.choose_combo(a[1])
        elif kind == "race":
            self.col_race.append(D.RACE_INDEX[a[1]])
            self.phase = DRAW_POWER
        elif kind == "power":
            self.col_power.append(D.POWER_INDEX[a[1]])
            self.col_coins.append(0)
            self._after_draw()
        elif kind == "die":
            self.roll_resolved(a[1])
        elif kind == "final":
            self.ready_troops()
            self.acted = True
            self.final_r = a[1]
            self.phase = DIE
        elif kind == "berserk":
            self.ready_troops()
            self.acted = True
            self.phase = DIE
        elif kind == "dragon":
            self.ready_troops()
            r = a[1]
            self.dragon = [0] * len(self.dragon)
            self.conquer(r, 1)
            self.dragon[r] = 1
            self.dragon_used = True
        elif kind == "convert":
            self.ready_troops()
            self.sorcerers_convert(a[1])
        elif kind == "abandon":
            r = a[1]
            if self.phase == REDEPLOY:  # Amazons short of their 4 tokens
                self.tok[r] -= 1
                self.amazon_debt -= 1
                if self.tok[r] == 0:
                    self._clear_region(r)
                if self.amazon_debt and self.cur not in self.rrace:  # nothing left to give back
                    self.amazon_debt = 0
                    self.finish_redeployment()
            else:
                self.ready_troops()
                self.rhand[self.cur] += self.tok[r]
                self._clear_region(r)
        elif kind == "decline":
            if self.phase == STOUT_CHOICE:
                self.go_into_decline(self.seat)
                self._after_stout()
            else:
                self.go_into_decline(self.seat)
                self.declined_now = True
                self.score(self.seat)
                self._begin_defenders()
        elif kind == "camp":
            self.camp[a[1]] += 1
            if self.phase == DEFEND:
                self.camps_loose -= 1
                if self.rhand[self.cur] == 0 and not self.camps_loose:
                    self._next_defender()
        elif kind == "fortress":
            self.fort[a[1]] = 1
            self.fort_placed = True
        elif kind == "hero":
            self.hero[a[1]] = 1
        elif kind == "peace":
            self.peace_by = self.seat
            self.peace_to = a[1]
            self._begin_defenders()
        else:  # pragma: no cover - the checked apply never gets here
            raise ValueError(f"unknown action {a!r}")

    # ---- information ------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Coins are kept face down: a seat sees its own total only, until the game is over (then every
        player's coins are turned over and counted)."""
        doc = self.to_json()
        for i, st in enumerate(doc["seats"]):
            if i != seat and self.phase != OVER:
                st["coins"] = None
        if self.phase != OVER:
            doc.pop("result", None)
        return doc

    def _body_json(self) -> dict[str, Any]:
        return body_json(self)

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> SmallWorldState:
        return from_body(cls, data, players, options)


__all__ = [
    "SmallWorldState", "Board", "PHASE_NAMES", "PHASE_INDEX", "STATUS_NAMES", "DRAW_RACE", "DRAW_POWER", "PICK",
    "CONQUER", "DIE", "REDEPLOY", "STOUT_CHOICE", "DIPLOMACY", "DEFEND", "OVER", "OUT", "ACTIVE", "DECLINED",
    "NR", "NP", "EXTRA", "MAX_FORTS", "MAX_CAMPS", "MAX_HEROES", "MAX_HOLES", "VISIBLE", "DIE_PROBS", "RID",
    "RIDX", "REGION_ACTIONS", "REGION_FIELDS", "_n", "D",
]

