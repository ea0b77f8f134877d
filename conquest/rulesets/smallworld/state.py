"""The state of a Small World game: its fields (base.py) with the rules' procedures bound as class
attributes, the one binding style of every ruleset (docs/architecture.md). The procedures are the steps of the
rules, each a module of functions: picking a combo (combo.py), conquering regions (conquest.py, as page 4 of
003 reads), redeployment (redeployment.py), going into decline (decline.py), scoring (scoring.py), the turn,
its end and the defenders' redeployment (turn.py), the dispatcher by phase (dispatch.py); the races' and
powers' effects and own actions are their entries (races.py, powers.py); refusals are explained by
messages.py; the JSON form is serial.py.
"""

from __future__ import annotations

from typing import Any

import conquest.rulesets.smallworld.data as D
from conquest.core.game import CHANCE
from conquest.rulesets.smallworld import (
    coherence,
    combo,
    conquest,
    decline,
    dispatch,
    messages,
    owned,
    redeployment,
    scoring,
    turn,
)
from conquest.rulesets.smallworld.base import STAT_KEYS, StateBase
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
from conquest.rulesets.smallworld.data import Board
from conquest.rulesets.smallworld.serial import SmallWorldBody, body_json, from_body
from conquest.rulesets.smallworld.variant import figures_of


class SmallWorldState(StateBase):
    __slots__ = ()
    schema = SmallWorldBody
    body_is_fresh = True  # body_json is its DOCUMENT's writer

    # the fields the races' and powers' entries own (their ``fields``; slots in ``base.FIELDS``, built by
    # owned.py), annotated for the type checker: tests/smallworld/test_state_fields.py holds the two together
    lair: list[int]         # Trolls: a Troll's Lair per region
    hole: list[int]         # Halflings: a Hole-in-the-Ground per region
    holes_used: int         # Halflings: Holes placed since the combo was picked (2 at most)
    amazon_debt: int        # Amazons: lent tokens still to give back at redeployment
    converted: int          # Sorcerers: the seats converted from this turn, a bit mask
    berserk_die: int        # Berserk: the die rolled before the next conquest (-1: none)
    camp: list[int]         # Bivouacking: Encampments per region
    camps_loose: int        # Bivouacking: Encampments lost with a region, to be placed again
    peace_by: int           # Diplomat: the seat that made peace (-1: none)
    peace_to: int           # Diplomat: the opponent it made peace with
    dragon: list[int]       # Dragon Master: the Dragon's region
    dragon_used: bool       # Dragon Master: the Dragon attacked this turn
    fort: list[int]         # Fortified: a Fortress per region
    fort_placed: bool       # Fortified: a Fortress placed this turn
    hero: list[int]         # Heroic: a Hero per region

    # the game interface (``core.game.State``): the dispatcher by phase, the refusals, the end
    legal_actions = dispatch.legal_actions
    chance_outcomes = dispatch.chance_outcomes
    _apply = dispatch.apply
    illegal_reason = messages.illegal_reason
    check_coherence = coherence.check_coherence
    result = scoring.result
    scores = scoring.scores

    # the rules' procedures and queries, by step (for code outside the package and the races' and powers'
    # hooks; inside the package, the steps call one another's functions)
    choose_combo = combo.choose_combo
    ready_troops = conquest.ready_troops
    hand_now = conquest.hand_now
    can_sail = conquest.can_sail
    conquest_targets = conquest.conquest_targets
    conquest_cost = conquest.conquest_cost
    lose_region = conquest.lose_region
    occupy = conquest.occupy
    conquer = conquest.conquer
    roll_resolved = conquest.roll_resolved
    start_redeployment = redeployment.start_redeployment
    finish_redeployment = redeployment.finish_redeployment
    go_into_decline = decline.go_into_decline
    remove_race = decline.remove_race
    score = scoring.score
    start_turn = turn.start_turn
    begin_active_part = turn.begin_active_part
    end_of_turn = turn.end_of_turn
    next_turn = turn.next_turn
    begin_defenders = turn.begin_defenders
    next_defender = turn.next_defender

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
        s.region_race = [-1] * n
        s.tokens = [0] * n
        s.lost = list(board.lost_tribe)
        owned.start_game(s, n)
        turn.reset_turn_flags(s)
        s.defender = -1
        s.stats = dict.fromkeys(STAT_KEYS, 0)
        turn.after_draw(s)
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

