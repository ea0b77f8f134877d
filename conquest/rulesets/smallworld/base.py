"""The fields of a Small World position and the small questions every step asks of them (whose regions,
which race is active, what is left in the piles). The steps of the turn (conquest.py, combo.py,
redeployment.py, decline.py, scoring.py, turn.py) are functions taking the state first; ``state.SmallWorldState``
binds them to a subclass of this one.

Every list is flat (ints and bools) so that ``clone`` is a handful of list copies. Region numbers are 0-based
inside (``r1`` is 0); races and powers are indices into ``data.RACES`` / ``data.POWERS``.
"""

from __future__ import annotations

from typing import Any

from conquest.core.fields import DICT, LIST, SHARE, Slots
from conquest.core.game import State
from conquest.core.schema import add_to_counter
from conquest.rulesets.smallworld import owned
from conquest.rulesets.smallworld.common import ACTIVE, DECLINED, NP, NR, OUT
from conquest.rulesets.smallworld.data import Board
from conquest.rulesets.smallworld.variant import figures_of

STAT_KEYS = ("conquests", "conquests_of_enemies", "lost_tribes_conquered", "conversions", "declines",
             "combos_picked", "pick_coins_paid", "reinforcement_rolls", "coins_regions", "coins_race", "coins_power",
             "coins_column")
"""The running counts a finished game reports (``SmallWorldRuleset.game_stats``, docs/rules/smallworld.md):
regions conquered (of them from another seat's race, of them from a Lost Tribe), Sorcerers' conversions, races
put into decline, combos picked and the coins laid on the column to pick them, reinforcement die rolls, and the
victory coins scored by source: regions occupied, race bonuses, the active power's bonus, and the coins taken
from the column with a combo."""


COMMON = {
    "players": SHARE, "options": SHARE, "board": SHARE, "map_seed": SHARE, "turns": SHARE,
    "turn": SHARE, "seat": SHARE, "phase": SHARE, "coins": LIST, "coins_floor": LIST,
    "rseat": LIST, "rpower": LIST, "rstatus": LIST, "rhand": LIST,
    "col_race": LIST, "col_power": LIST, "col_coins": LIST,
    "region_race": LIST, "tokens": LIST, "lost": LIST,
    "cur": SHARE, "readied": SHARE, "acted": SHARE, "picked": SHARE, "declined_now": SHARE,
    "conquered_non_empty": SHARE, "attacked": SHARE, "die_used": SHARE, "final_r": SHARE, "defender": SHARE,
    "stats": DICT,
}
"""The fields every position has and how a copy takes it (``core.fields``): numbers, flags, the board and the
options are shared, the flat lists copied, the report counters copied."""

FIELDS = Slots(**COMMON, **owned.POLICIES)
"""The state's one flat set of slots: the common fields, then those the races' and powers' entries declare
(owned.py; their types are annotated on ``state.SmallWorldState``)."""


class StateBase(State):
    __slots__ = FIELDS.names
    clone = FIELDS.clone

    players: int
    options: dict[str, Any]
    board: Board
    map_seed: int
    turns: int
    turn: int
    seat: int
    phase: int
    coins: list[int]
    coins_floor: list[int]  # per seat, the least coins its public actions prove it holds (``hidden``)
    rseat: list[int]
    rpower: list[int]
    rstatus: list[int]
    rhand: list[int]
    col_race: list[int]
    col_power: list[int]
    col_coins: list[int]
    region_race: list[int]
    tokens: list[int]
    lost: list[int]
    cur: int
    readied: bool
    acted: bool
    picked: bool
    declined_now: bool
    conquered_non_empty: int
    attacked: int
    die_used: bool
    final_r: int
    defender: int
    stats: dict[str, int]  # counters for reports (``STAT_KEYS``); no rule reads them

    # ---- small queries ----------------------------------------------------------------------------
    def count(self, key: str, n: int = 1) -> None:
        """Add ``n`` to the report counter ``key`` (one of ``STAT_KEYS``), up to ``core.schema.COUNTER_MAX``."""
        add_to_counter(self.stats, key, n)

    def regions_of(self, race: int) -> list[int]:
        rr = self.region_race
        return [i for i in range(len(rr)) if rr[i] == race]

    def race_total(self, race: int) -> int:
        """Tokens of ``race`` in play (on the board and in hand): never above the race's supply."""
        rr, tok = self.region_race, self.tokens
        return self.rhand[race] + sum(tok[i] for i in range(len(rr)) if rr[i] == race)

    def seat_races(self, seat: int) -> list[int]:
        return [x for x in range(NR) if self.rseat[x] == seat]

    def active_race(self, seat: int) -> int:
        for x in range(NR):
            if self.rseat[x] == seat and self.rstatus[x] == ACTIVE:
                return x
        return -1

    def declined_races(self, seat: int) -> list[int]:
        return [x for x in range(NR) if self.rseat[x] == seat and self.rstatus[x] == DECLINED]

    def power_active(self, race: int, power: int) -> bool:
        return race >= 0 and self.rstatus[race] == ACTIVE and self.rpower[race] == power

    def pile_races(self) -> list[int]:
        col = set(self.col_race)
        gone = figures_of(self).removed_races
        return [x for x in range(NR) if self.rstatus[x] == OUT and x not in col and x not in gone]

    def pile_powers(self) -> list[int]:
        used = set(self.col_power) | {p for p in self.rpower if p >= 0} | figures_of(self).removed_powers
        return [p for p in range(NP) if p not in used]

    immune = owned.immune  # Holes-in-the-Ground, Heroes and the Dragon: the markers their entries declare

    def tokens_on_map(self, seat: int) -> int:
        rs, rr, tok = self.rseat, self.region_race, self.tokens
        return sum(tok[i] for i in range(len(rr)) if rr[i] >= 0 and rs[rr[i]] == seat)

    def _clear_region(self, r: int) -> None:
        """An abandoned region keeps only what belongs to the board: its Mountain."""
        self.region_race[r] = -1
        self.tokens[r] = 0
        owned.clear_region(self, r)
