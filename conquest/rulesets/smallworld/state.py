"""The state of a Small World game and its procedures, named after the rules: choosing a combo, readying
troops, conquering (003), enemy losses and withdrawals, the final conquest with the reinforcement die,
redeployment, going into decline, scoring, the defenders' redeployment and the turn track.

Every list is flat (ints and bools) so that ``clone`` is a handful of list copies. Region numbers are 0-based
inside (``r1`` is 0); races and powers are indices into ``data.RACES`` / ``data.POWERS``.
"""

from __future__ import annotations

from typing import Any

from conquest.core.game import CHANCE, State
from conquest.rulesets.smallworld import data as D
from conquest.rulesets.smallworld.schema import SmallWorldBody
from conquest.rulesets.smallworld.data import (
    ALCHEMIST, AMAZONS, BERSERK, BIVOUACKING, COMMANDO, DIPLOMAT, DRAGON_MASTER, DWARVES, ELVES, FARMLAND,
    FLYING, FOREST, FOREST_T, FORTIFIED, GHOULS, GIANTS, HALFLINGS, HEROIC, HILL, HILL_T, HUMANS, MERCHANT,
    MOUNTED, ORCS, PILLAGING, SEAFARING, SKELETONS, SORCERERS, SPIRIT, STOUT, SWAMP, SWAMP_T, TRITONS, TROLLS,
    UNDERWORLD, WEALTHY, WIZARDS, Board,
)

# phases
DRAW_RACE, DRAW_POWER, PICK, CONQUER, DIE, REDEPLOY, STOUT_CHOICE, DIPLOMACY, DEFEND, OVER = range(10)
PHASE_NAMES = ["draw-race", "draw-power", "pick", "conquer", "die", "redeploy", "stout", "diplomat", "defend",
               "over"]
PHASE_INDEX = {n: i for i, n in enumerate(PHASE_NAMES)}
# race status
OUT, ACTIVE, DECLINED = 0, 1, 2
STATUS_NAMES = ["box", "active", "declined"]

NR = len(D.RACES)
NP = len(D.POWERS)
EXTRA = int(D.SETUP["amazon_extra"])
MAX_FORTS = D.MARKERS["fortresses"]
MAX_CAMPS = D.MARKERS["encampments"]
MAX_HEROES = D.MARKERS["heroes"]
MAX_HOLES = D.MARKERS["holes"]
VISIBLE = int(D.SETUP["visible_combos"])
DIE_PROBS: list[tuple[int, float]] = sorted(
    {f: D.DIE_FACES.count(f) / len(D.DIE_FACES) for f in D.DIE_FACES}.items())

# region ids in actions: actions carry "r12" (a string, as the board's ids), the state indexes lists with 11
RID: tuple[str, ...] = tuple(f"r{i + 1}" for i in range(128))
RIDX: dict[str, int] = {r: i for i, r in enumerate(RID)}
REGION_ACTIONS = frozenset(("conquer", "final", "dragon", "convert", "abandon", "camp", "fortress", "hero",
                            "redeploy"))

# region fields kept as parallel lists (tokens of one race per region; markers as counts)
REGION_FIELDS = ("rrace", "tok", "lost", "lair", "fort", "camp", "hole", "hero", "dragon")


def _n(count: int, noun: str) -> str:
    """'1 token', '3 tokens'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class SmallWorldState(State):
    schema = SmallWorldBody
    __slots__ = (
        "players", "options", "board", "map_seed", "turns",
        "turn", "seat", "phase", "coins",
        "rseat", "rpower", "rstatus", "rhand",
        "col_race", "col_power", "col_coins",
        "rrace", "tok", "lost", "lair", "fort", "camp", "hole", "hero", "dragon",
        "cur", "readied", "acted", "picked", "declined_now", "conq_ne", "attacked", "converted",
        "dragon_used", "fort_placed", "bdie", "final_r", "amazon_debt", "defender", "camps_loose",
        "peace_by", "peace_to", "holes_used",
    )

    board: Board
    map_seed: int
    turns: int
    turn: int
    seat: int
    phase: int
    coins: list[int]
    rseat: list[int]
    rpower: list[int]
    rstatus: list[int]
    rhand: list[int]
    col_race: list[int]
    col_power: list[int]
    col_coins: list[int]
    rrace: list[int]
    tok: list[int]
    lost: list[int]
    lair: list[int]
    fort: list[int]
    camp: list[int]
    hole: list[int]
    hero: list[int]
    dragon: list[int]
    cur: int
    readied: bool
    acted: bool
    picked: bool
    declined_now: bool
    conq_ne: int
    attacked: int
    converted: int
    dragon_used: bool
    fort_placed: bool
    bdie: int
    final_r: int
    amazon_debt: int
    defender: int
    camps_loose: int
    peace_by: int
    peace_to: int
    holes_used: int

    # ---- construction -----------------------------------------------------------------------------
    @classmethod
    def fresh(cls, players: int, options: dict[str, Any], board: Board, map_seed: int,
              column: list[tuple[int, int]]) -> "SmallWorldState":
        s = cls.__new__(cls)
        s.players = players
        s.options = options
        s.board = board
        s.map_seed = map_seed
        s.turns = D.FIGURES[players]["turns"]
        s.turn = 0
        s.seat = 0
        s.phase = DRAW_RACE
        s.coins = [int(D.SETUP["starting_coins"])] * players
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
        s._after_draw()
        return s

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
        self.fort_placed = False
        self.bdie = -1
        self.final_r = -1
        self.amazon_debt = 0
        self.camps_loose = 0

    def clone(self) -> "SmallWorldState":
        s = SmallWorldState.__new__(SmallWorldState)
        s.players = self.players
        s.options = self.options
        s.board = self.board
        s.map_seed = self.map_seed
        s.turns = self.turns
        s.turn = self.turn
        s.seat = self.seat
        s.phase = self.phase
        s.coins = self.coins[:]
        s.rseat = self.rseat[:]
        s.rpower = self.rpower[:]
        s.rstatus = self.rstatus[:]
        s.rhand = self.rhand[:]
        s.col_race = self.col_race[:]
        s.col_power = self.col_power[:]
        s.col_coins = self.col_coins[:]
        s.rrace = self.rrace[:]
        s.tok = self.tok[:]
        s.lost = self.lost[:]
        s.lair = self.lair[:]
        s.fort = self.fort[:]
        s.camp = self.camp[:]
        s.hole = self.hole[:]
        s.hero = self.hero[:]
        s.dragon = self.dragon[:]
        s.cur = self.cur
        s.readied = self.readied
        s.acted = self.acted
        s.picked = self.picked
        s.declined_now = self.declined_now
        s.conq_ne = self.conq_ne
        s.attacked = self.attacked
        s.converted = self.converted
        s.dragon_used = self.dragon_used
        s.fort_placed = self.fort_placed
        s.bdie = self.bdie
        s.final_r = self.final_r
        s.amazon_debt = self.amazon_debt
        s.defender = self.defender
        s.camps_loose = self.camps_loose
        s.peace_by = self.peace_by
        s.peace_to = self.peace_to
        s.holes_used = self.holes_used
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

    # ---- small queries ----------------------------------------------------------------------------
    def regions_of(self, race: int) -> list[int]:
        rr = self.rrace
        return [i for i in range(len(rr)) if rr[i] == race]

    def race_total(self, race: int) -> int:
        """Tokens of ``race`` in play (on the board and in hand): never above the race's supply."""
        rr, tok = self.rrace, self.tok
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

    def can_sail(self, race: int) -> bool:
        # "Seafaring: may conquer seas and the lake; kept in decline"
        return self.rpower[race] == SEAFARING

    def pile_races(self) -> list[int]:
        col = set(self.col_race)
        return [x for x in range(NR) if self.rstatus[x] == OUT and x not in col]

    def pile_powers(self) -> list[int]:
        used = set(self.col_power) | {p for p in self.rpower if p >= 0}
        return [p for p in range(NP) if p not in used]

    def immune(self, r: int) -> bool:
        """Holes-in-the-Ground, Heroes and the Dragon make a region immune to conquest."""
        return bool(self.hole[r] or self.hero[r] or self.dragon[r])

    def tokens_on_map(self, seat: int) -> int:
        rs, rr, tok = self.rseat, self.rrace, self.tok
        return sum(tok[i] for i in range(len(rr)) if rr[i] >= 0 and rs[rr[i]] == seat)

    # ---- 003: conquering regions ------------------------------------------------------------------
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
            p = self.rpower[race]
            if p == COMMANDO:
                c -= 1
            elif p == MOUNTED and b.terrain[r] in (HILL_T, FARMLAND):
                c -= 1
            elif p == UNDERWORLD and b.cavern[r]:
                c -= 1
            if race == TRITONS and b.coastal[r]:
                c -= 1
            elif race == GIANTS:
                rr = self.rrace
                for m in b.adj[r]:
                    if rr[m] == race and b.mountain[m]:
                        c -= 1
                        break
        return c if c > 1 else 1

    def conquest_targets(self, race: int) -> list[int]:
        """Regions ``race`` may attack now: a first conquest enters by a border region; following conquests
        are adjacent to a region it occupies (Flying, Underworld and Halflings change that)."""
        b = self.board
        rr = self.rrace
        own = [i for i in range(b.n) if rr[i] == race]
        active = self.rstatus[race] == ACTIVE
        power = self.rpower[race] if active else -1
        if power == FLYING or (not own and race == HALFLINGS and active):
            cand: list[int] | set[int] = range(b.n)  # type: ignore[assignment]
        elif not own:
            cand = [i for i in range(b.n) if b.entry[i]]
        else:
            cs: set[int] = set()
            for i in own:
                cs.update(b.adj[i])
            if power == UNDERWORLD and any(b.cavern[i] for i in own):
                cs.update(b.caverns)
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

    def _spare_before_ready(self, race: int) -> int:
        """Tokens readying troops would put in hand (all but one per region, Amazons' +4)."""
        rr, tok = self.rrace, self.tok
        spare = sum(tok[i] - 1 for i in range(len(rr)) if rr[i] == race)
        if race == AMAZONS and self.rstatus[race] == ACTIVE:
            spare += min(EXTRA, D.SUPPLY[AMAZONS] - self.race_total(race))
        return spare

    def hand_now(self) -> int:
        x = self.cur
        h = self.rhand[x]
        return h if self.readied else h + self._spare_before_ready(x)

    def ready_troops(self) -> None:
        """"Ready your troops": all but one token of each region go back in hand; Amazons take their 4."""
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
        if x == AMAZONS and self.rstatus[x] == ACTIVE:
            extra = min(EXTRA, D.SUPPLY[AMAZONS] - self.race_total(x))
            self.rhand[x] += extra
            self.amazon_debt = extra
        self.readied = True

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
            n = self.tok[r]
            keep = n if (y == ELVES and self.rstatus[y] == ACTIVE) else n - 1
            self.rhand[y] += keep
            t = self.rseat[y]
            if t != self.seat and self.rstatus[y] == ACTIVE:
                # the Diplomat names "one opponent whose active race you did not attack this turn"
                self.attacked |= 1 << t
            if self.camp[r]:
                # Encampments are not lost with the region: their owner places them again at the end of the
                # attacker's turn
                self.camps_loose += self.camp[r]
        self._clear_region(r)
        return nonempty

    def occupy(self, race: int, r: int, n: int, nonempty: bool) -> None:
        """The conquering tokens are deployed inside the region's borders (003)."""
        self.rrace[r] = race
        self.tok[r] = n
        if race == TROLLS:
            self.lair[r] = 1
        active = self.rstatus[race] == ACTIVE
        if race == HALFLINGS and active and self.holes_used < MAX_HOLES:
            self.hole[r] = 1
            self.holes_used += 1
        if nonempty and active:
            self.conq_ne += 1
        self.acted = True

    def conquer(self, r: int, cost: int) -> None:
        x = self.cur
        nonempty = self.lose_region(r)
        self.rhand[x] -= cost
        self.occupy(x, r, cost, nonempty)

    # ---- legal actions ----------------------------------------------------------------------------
    def legal_actions(self) -> list[tuple]:  # type: ignore[override]
        ph = self.phase
        if ph == CONQUER:
            return self._conquer_actions()
        if ph == REDEPLOY:
            return self._redeploy_actions()
        if ph == DEFEND:
            h = self.rhand[self.cur]
            own = self.regions_of(self.cur)
            acts: list[tuple] = [("redeploy", RID[r], k) for r in own for k in range(1, h + 1)]
            if self.camps_loose and self.power_active(self.cur, BIVOUACKING):
                acts.extend(("camp", RID[r]) for r in own)
            return acts
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

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
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

    def _conquer_actions(self) -> list[tuple]:
        x = self.cur
        hand = self.hand_now()
        acts: list[tuple] = []
        active = self.rstatus[x] == ACTIVE
        power = self.rpower[x] if active else -1
        bd = self.bdie
        if hand >= 1:
            cost = self.conquest_cost
            final_ok = power != BERSERK
            for r in self.conquest_targets(x):
                c = cost(x, r)
                if bd >= 0:
                    c = c - bd if c - bd > 1 else 1
                if c <= hand:
                    acts.append(("conquer", RID[r]))
                elif final_ok and c - hand <= 3:
                    acts.append(("final", RID[r]))
                if power == DRAGON_MASTER and not self.dragon_used and bd < 0:
                    acts.append(("dragon", RID[r]))
            if power == BERSERK and bd < 0:
                acts.append(("berserk",))
        if x == SORCERERS and active and bd < 0:
            for r in self._conversion_targets():
                acts.append(("convert", RID[r]))
        if not self.acted and bd < 0:
            for r in self.regions_of(x):
                acts.append(("abandon", RID[r]))
            if active and not self.readied and not self.picked:
                acts.append(("decline",))
        acts.append(("end",))
        return acts

    def _conversion_targets(self) -> list[int]:
        """Sorcerers: a lone active token of an opponent not yet converted this turn, in a region adjacent
        to one of theirs, while a Sorcerer is left in the supply."""
        x = SORCERERS
        if self.race_total(x) >= D.SUPPLY[x]:
            return []
        b = self.board
        rr = self.rrace
        seat = self.seat
        sail = self.can_sail(x)
        near: set[int] = set()
        for i in range(b.n):
            if rr[i] == x:
                near.update(b.adj[i])
        out = []
        for r in sorted(near):
            y = rr[r]
            if y < 0 or y == x or self.tok[r] != 1 or self.rstatus[y] != ACTIVE:
                continue
            t = self.rseat[y]
            if t == seat or self.converted >> t & 1 or self.immune(r) or (b.water[r] and not sail) or self.camp[r]:
                continue
            if self.peace_to == seat and self.peace_by == t:
                continue
            out.append(r)
        return out

    def _redeploy_actions(self) -> list[tuple]:
        x = self.cur
        own = self.regions_of(x)
        if self.amazon_debt > 0:
            return [("abandon", RID[r]) for r in own]
        h = self.rhand[x]
        acts: list[tuple] = [("redeploy", RID[r], k) for r in own for k in range(1, h + 1)]
        if self.rstatus[x] == ACTIVE:
            p = self.rpower[x]
            if p == BIVOUACKING and sum(self.camp) < MAX_CAMPS:
                acts.extend(("camp", RID[r]) for r in own)
            elif p == FORTIFIED and not self.fort_placed and sum(self.fort) < MAX_FORTS:
                acts.extend(("fortress", RID[r]) for r in own if not self.fort[r])
            elif p == HEROIC and sum(self.hero) < MAX_HEROES:
                acts.extend(("hero", RID[r]) for r in own if not self.hero[r])
        if h == 0:
            acts.append(("end",))
        return acts

    def _peace_choices(self) -> list[int]:
        return [t for t in range(self.players) if t != self.seat and not self.attacked >> t & 1]

    def _step_rule(self, k: str) -> str:
        """The rule of the current step, for an action that belongs to another step."""
        ph = self.phase
        x = self.cur
        name = D.RACES[x]["name"] if x >= 0 else ""
        if k == "pick" and self.active_race(self.seat) >= 0:
            y = self.active_race(self.seat)
            return (f"you have an active race ({D.RACES[y]['name']}): you pick a new combo only on the turn after "
                    "it went into decline")
        if ph == PICK:
            return ("you have no active race: choose a combo first (pick I; slot I costs I coins), then conquer "
                    "with it")
        if ph == CONQUER:
            who = f"your declined {name}" if self.rstatus[x] == DECLINED else f"your {name}"
            return (f"{who} are conquering: conquer rN (or final rN with the reinforcement die), abandon rN before "
                    "the first conquest, or end; tokens are redeployed after end")
        if ph == REDEPLOY:
            if self.amazon_debt:
                return (f"you are redeploying: the Amazons first give back their 4 extra tokens "
                        f"({_n(self.amazon_debt, 'token')} left: abandon rN)")
            return ("you are redeploying: the turn's conquests are over; place the tokens in hand (redeploy rN K"
                    + (", and markers" if self.rstatus[x] == ACTIVE and self.rpower[x] in (BIVOUACKING, FORTIFIED,
                                                                                        HEROIC) else "")
                    + "), then end")
        if ph == STOUT_CHOICE:
            return "the turn is scored: Stout may now go into decline (decline) or not (end)"
        if ph == DIPLOMACY:
            return "the turn is scored: the Diplomat names an opponent it did not attack this turn (peace S)"
        if ph == DEFEND:
            return (f"seat {self.defender} is redeploying the tokens its {name} took back in hand, into regions "
                    "they still hold (redeploy rN K), as the final action of the turn (003)")
        return f"'{k}' is not possible in the {PHASE_NAMES[ph]} step"

    def illegal_reason(self, action: Any) -> str:  # noqa: C901 - one message per rule
        """Why an action is refused, naming the rule it breaks."""
        ph = self.phase
        if ph == OVER:
            return "the game is over"
        if not isinstance(action, tuple) or not action:
            return "not a Small World action"
        k = action[0]
        if ph in (DRAW_RACE, DRAW_POWER, DIE):
            if k == {DRAW_RACE: "race", DRAW_POWER: "power", DIE: "die"}[ph]:
                return "not one of the outcomes here (a race or power already shown or in play, or not a die face)"
            return f"chance is to move ({PHASE_NAMES[ph]}): only its outcomes can be applied"
        if k in ("race", "power", "die"):
            return "that is a chance outcome, and the state is not at a chance node"
        phase_of = {"pick": (PICK,), "conquer": (CONQUER,), "final": (CONQUER,), "dragon": (CONQUER,),
                    "convert": (CONQUER,), "berserk": (CONQUER,), "abandon": (CONQUER, REDEPLOY),
                    "decline": (CONQUER, STOUT_CHOICE), "end": (CONQUER, REDEPLOY, STOUT_CHOICE),
                    "redeploy": (REDEPLOY, DEFEND), "camp": (REDEPLOY, DEFEND), "fortress": (REDEPLOY,),
                    "hero": (REDEPLOY,), "peace": (DIPLOMACY,)}
        if k not in phase_of:
            return "not a Small World action"
        if ph not in phase_of[k]:
            rule = self._step_rule(k)
            if k == "decline" and ph != PICK:
                rule += "; a race goes into decline at the start of its turn, instead of conquering"
            return rule
        n = self.board.n
        if k in REGION_ACTIONS:
            ri = RIDX.get(action[1], n) if len(action) > 1 else n
            if ri >= n:
                return f"this board has regions r1 to r{n}"
            action = (k, ri) + tuple(action[2:])
        x = self.cur
        if k == "pick":
            i = action[1]
            if i >= len(self.col_race):
                m = len(self.col_race)
                return (f"only {_n(m, 'combo')} {'is' if m == 1 else 'are'} shown "
                        + ("(slot 0)" if m == 1 else f"(slots 0 to {m - 1})"))
            return (f"the combo in slot {i} costs {_n(i, 'coin')} (1 on each combo above it) and you have "
                    f"{self.coins[self.seat]}")
        if k in ("conquer", "final", "dragon"):
            r = action[1]
            if self.bdie >= 0 and k != "conquer":
                return "after the Berserk roll the next action is a conquest with the die (or end)"
            if k == "dragon" and (not self.power_active(x, DRAGON_MASTER) or self.dragon_used):
                return "the Dragon attacks once per turn, for a Dragon Master race"
            if self.rrace[r] == x:
                return "the region is already yours"
            if self.board.water[r] and not self.can_sail(x):
                return "Seas and Lakes cannot usually be conquered (003); only Seafaring races may"
            if self.immune(r):
                return "the region is immune (Hole-in-the-Ground, Hero or Dragon)"
            if r not in self.conquest_targets(x):
                y = self.rrace[r]
                if y >= 0 and self.peace_to == self.seat and self.rseat[y] == self.peace_by:
                    return "the Diplomat's peace: you may not attack that player's active race this turn"
                if not any(self.rrace[i] == x for i in range(n)):
                    return ("a race deploying on the map must enter it by conquering one of its border Regions "
                            "(003)")
                return ("each newly conquered Region must be adjacent to a Region already occupied by his "
                        "active Race tokens (003)")
            hand = self.hand_now()
            if hand < 1:
                return "a player must always have at least one Race token available to initiate a new Conquest (003)"
            c = self.conquest_cost(x, r)
            if k == "final":
                if self.power_active(x, BERSERK):
                    return "Berserk rolls the die before each conquest instead of a final conquest"
                if c <= hand:
                    return f"you have the {_n(c, 'token')} needed: conquer it without the die"
                return f"the die adds 3 at most: {_n(c, 'token')} needed, {hand} in hand"
            if self.bdie >= 0:
                c = max(1, c - self.bdie)
            return (f"to conquer it you need {_n(c, 'token')} (2 + 1 per Encampment, Fortress, Mountain, Troll's Lair, "
                    f"Lost Tribe or enemy token, less discounts, 003) and you have {hand}")
        if k == "convert":
            return ("Sorcerers replace a lone active token of an opponent, once per opponent per turn, in a region "
                    "adjacent to theirs, while a Sorcerer is left in the supply")
        if k == "berserk":
            return "only an active Berserk race rolls before a conquest, once per conquest"
        if k == "abandon":
            if ph == REDEPLOY:
                return "regions are abandoned when troops are readied, before the turn's first conquest"
            if self.rrace[action[1]] != x:
                return "you can only abandon a region your race occupies"
            return "regions are abandoned when troops are readied, before the turn's first conquest"
        if k == "decline":
            if ph == CONQUER and self.picked:
                return ("the first turn of a race is 'choose a combo, conquer, score': it cannot go into decline "
                        "on the turn its combo was chosen (Stout may, after scoring)")
            if ph == CONQUER and self.rstatus[x] == DECLINED:
                return ("the declined Ghouls act first (conquests, then redeployment); the active race may go "
                        "into decline when its part of the turn begins")
            if ph == CONQUER and self.rstatus[x] == ACTIVE and self.readied:
                return ("a race goes into decline instead of expanding, before anything else in its turn; "
                        "its troops are already readied (Stout may decline after scoring)")
            return ("a race goes into decline at the start of its turn instead of conquering (Stout: also at the "
                    "end of a normal turn, after scoring)")
        if k == "end":
            if ph == REDEPLOY and self.amazon_debt:
                return (f"the Amazons still give back {_n(self.amazon_debt, 'token')}: abandon regions to take them "
                        "(at least one token stays in each region if possible)")
            if ph == REDEPLOY:
                h = self.rhand[x]
                return (f"redeploy the {_n(h, 'token')} in hand first "
                        "(redeploy rN K), then end")
            return "not now"
        if k == "redeploy":
            r, m = action[1], action[2]
            if self.rrace[r] != x:
                return (f"the {D.RACES[x]['name']} redeploy only into regions they still occupy"
                        + (" (003: 'in any other Region(s) still occupied by his race')" if ph == DEFEND else ""))
            if m < 1:
                return "redeploy at least 1 token"
            return f"{_n(m, 'token')} asked, {self.rhand[x]} in hand"
        if k == "camp":
            return "Bivouacking: 5 Encampments, in your regions, placed during redeployment"
        if k == "fortress":
            return "Fortified: one Fortress per turn, one per region, 6 on the map at most"
        if k == "hero":
            return "Heroic: 2 Heroes, in 2 different regions of yours"
        if k == "peace":
            return "the Diplomat names one opponent (not yourself) that was not attacked this turn"
        return "it is not among the legal actions here"

    # ---- transitions ------------------------------------------------------------------------------
    def _apply(self, a: tuple) -> None:  # type: ignore[override]
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

    def _clear_region(self, r: int) -> None:
        """An abandoned region keeps only what belongs to the board: its Mountain."""
        self.rrace[r] = -1
        self.tok[r] = 0
        self.lair[r] = 0
        self.fort[r] = 0
        self.camp[r] = 0
        self.hole[r] = 0
        self.hero[r] = 0
        self.dragon[r] = 0

    # ---- choosing a combo -------------------------------------------------------------------------
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
        self.coins[s] -= i
        for k in range(i):
            self.col_coins[k] += 1
        self.coins[s] += self.col_coins[i]
        x = self.col_race.pop(i)
        p = self.col_power.pop(i)
        self.col_coins.pop(i)
        self.rseat[x] = s
        self.rpower[x] = p
        self.rstatus[x] = ACTIVE
        self.rhand[x] = min(D.BANNER[x] + D.BADGE[p], D.SUPPLY[x])
        if x == HALFLINGS:
            self.holes_used = 0
        self.cur = x
        self.picked = True
        self.readied = True
        self.acted = False
        if x == AMAZONS:
            extra = min(EXTRA, D.SUPPLY[x] - self.rhand[x])
            self.rhand[x] += extra
            self.amazon_debt = extra
        # the column slides up; the new combo at the bottom is drawn before the next turn begins
        self.phase = CONQUER

    # ---- the turn ---------------------------------------------------------------------------------
    def start_turn(self) -> None:
        self._reset_turn_flags()
        s = self.seat
        for g in self.declined_races(s):
            if g == GHOULS and (self.rhand[g] > 0 or GHOULS in self.rrace):
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

    def roll_resolved(self, d: int) -> None:
        """The reinforcement die. For a final conquest the region was chosen before the roll: with the die
        the tokens in hand suffice or not; either way the turn's conquests end. For Berserk the die is known
        before the region is chosen."""
        self.phase = CONQUER
        r = self.final_r
        if r < 0:
            self.bdie = d
            return
        self.final_r = -1
        x = self.cur
        h = self.rhand[x]
        if h + d >= self.conquest_cost(x, r):
            self.conquer(r, h)
        self.start_redeployment()

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
        if x == SKELETONS and active:
            self.rhand[x] += max(0, min(self.conq_ne // 2, D.SUPPLY[x] - self.race_total(x)))
        if self.amazon_debt:
            take = min(self.amazon_debt, self.rhand[x])
            self.rhand[x] -= take
            self.amazon_debt -= take
            if not own:
                self.amazon_debt = 0
        if active:
            p = self.rpower[x]
            if p == BIVOUACKING:
                self.camp = [0] * len(self.camp)
            elif p == HEROIC:
                self.hero = [0] * len(self.hero)
        if not own:
            self.finish_redeployment()
            return
        self.phase = REDEPLOY

    def finish_redeployment(self) -> None:
        if self.rstatus[self.cur] == DECLINED:  # the declined Ghouls' part is over
            self.begin_active_part()
            return
        self.end_of_turn()

    def end_of_turn(self) -> None:
        s = self.seat
        self.score(s)
        # Stout "may decline at the end of a normal turn": the first turn (choose, conquer, score) is one too,
        # unless option stout_first_turn=false (reading 13)
        if self.power_active(self.cur, STOUT) and (not self.picked or self.options.get("stout_first_turn", True)):
            self.phase = STOUT_CHOICE
            return
        self._after_stout()

    def _after_stout(self) -> None:
        x = self.active_race(self.seat)
        if self.power_active(x, DIPLOMAT) and self._peace_choices():
            self.phase = DIPLOMACY
            return
        self._begin_defenders()

    def _begin_defenders(self) -> None:
        self.defender = -1
        self._next_defender()

    def _defender_camps(self) -> bool:
        return bool(self.camps_loose) and self.power_active(self.cur, BIVOUACKING)

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
                if self.rhand[y] <= 0 and not (self.camps_loose and self.power_active(y, BIVOUACKING)):
                    continue
                if y in self.rrace:
                    self.defender = t
                    self.cur = y
                    self.phase = DEFEND
                    return
        self.defender = -1
        self.camps_loose = 0
        self.next_turn()

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

    # ---- decline ----------------------------------------------------------------------------------
    def go_into_decline(self, s: int) -> None:
        """One token per region is flipped, the others removed (Ghouls keep all); the race's earlier
        declined race leaves the map, unless that one has Spirit (then it does not count) or this one does."""
        x = self.active_race(s)
        spirit = self.rpower[x] == SPIRIT
        for y in self.declined_races(s):
            if (self.rpower[y] == SPIRIT) == spirit:
                self.remove_race(y)
        rr, tok = self.rrace, self.tok
        for i in range(len(rr)):
            if rr[i] == x:
                if x != GHOULS:
                    tok[i] = 1
                self.hero[i] = 0
                self.dragon[i] = 0
                self.hole[i] = 0
                self.camp[i] = 0
        if x != GHOULS:
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

    # ---- Sorcerers --------------------------------------------------------------------------------
    def sorcerers_convert(self, r: int) -> None:
        y = self.rrace[r]
        t = self.rseat[y]
        self.converted |= 1 << t
        self.attacked |= 1 << t
        self.rrace[r] = -1
        self.tok[r] = 0
        self.lair[r] = 0
        self.fort[r] = 0
        self.camp[r] = 0
        self.occupy(SORCERERS, r, 1, True)

    # ---- scoring ----------------------------------------------------------------------------------
    def score(self, s: int) -> int:
        """1 coin per region occupied (active and declined) plus the race's and power's bonuses."""
        b = self.board
        x = self.active_race(s)
        px = self.rpower[x] if x >= 0 else -1
        g = 0
        rr, rs = self.rrace, self.rseat
        for i in range(b.n):
            y = rr[i]
            if y < 0 or rs[y] != s:
                continue
            g += 1
            if y == DWARVES and b.mine[i]:
                g += 1
            if y == x:
                t = b.terrain[i]
                if (x == HUMANS and t == FARMLAND) or (x == WIZARDS and b.magic[i]):
                    g += 1
                if (px == FOREST and t == FOREST_T) or (px == HILL and t == HILL_T) \
                        or (px == SWAMP and t == SWAMP_T) or px == MERCHANT:
                    g += 1
                if px == FORTIFIED:
                    g += self.fort[i]
        if x >= 0:
            if x == ORCS:
                g += self.conq_ne
            if px == PILLAGING:
                g += self.conq_ne
            if px == ALCHEMIST:
                g += int(D.SETUP["alchemist_coins"])
            if px == WEALTHY and self.picked:
                g += int(D.SETUP["wealthy_coins"])
        self.coins[s] += g
        return g

    # ---- the end ----------------------------------------------------------------------------------
    def result(self) -> tuple[float, ...] | None:
        if self.phase != OVER:
            return None
        keys = [(self.coins[s], self.tokens_on_map(s)) for s in range(self.players)]
        best = max(keys)
        winners = [s for s in range(self.players) if keys[s] == best]
        return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(self.players))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(c) for c in self.coins)

    # ---- information ------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Coins are kept face down: a seat sees its own total only."""
        doc = self.to_json()
        for i, st in enumerate(doc["seats"]):
            if i != seat:
                st["coins"] = None
        if self.phase != OVER:
            doc.pop("result", None)
        return doc

    def _body_json(self) -> dict[str, Any]:
        from conquest.rulesets.smallworld.serial import body_json
        return body_json(self)

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> "SmallWorldState":
        from conquest.rulesets.smallworld.serial import from_body
        return from_body(cls, data, players, options)


__all__ = ["SmallWorldState", "PHASE_NAMES"]
