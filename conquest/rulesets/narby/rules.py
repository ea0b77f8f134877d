"""Narby Conquest: the state and the procedures of the rules document (001), named after its sections.

Setup (``choose_dragon``, ``place_cave``, ``place_dragon``), then rounds of Draw (``draw_card``), Populate
(``place_settlement``, ``place_place_of_power``, ``move_treasure_chest``), Action (``start_action_phase``,
the actions of the action table, reactions) and Tribute (``collect_tribute``), until a dragon exceeds the
win amount at the end of a round (``end_of_round``).

Every die roll is a chance node ``roll N`` (a d20); a location is two successive rolls, the column then the
row. A card dealt is ``card ID``, a treasure token drawn is ``token N``. The state is flat: a 400-square
occupancy list plus small dicts, so a clone is a handful of list copies.
"""

from __future__ import annotations

from typing import Any, Sequence

from conquest.core.errors import StateFormatError
from conquest.core.game import CHANCE, State
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.tables import TABLES as T

# ---- occupancy codes of a square -------------------------------------------------------------------
EMPTY, TOWN, CITY, RUIN, CHEST = 0, 1, 2, 3, 4
CAVE0, DRAGON0, PLACE0 = 10, 30, 50
KIND_NAME = {TOWN: "town", CITY: "city", RUIN: "ruin"}
KIND_CODE = {v: k for k, v in KIND_NAME.items()}

D20: list[tuple[Any, float]] = [(("roll", i), 1 / 20) for i in range(1, 21)]
D20_ACTIONS = [a for a, _ in D20]
TOKENS: list[tuple[Any, float]] = [(("token", v), p) for v, p in T.token_values]

CHANCE_NODES = frozenset({"dragon_roll", "cave_x", "cave_y", "draw", "settle_x", "settle_y", "pop_roll",
                          "pop_x", "pop_y", "chest_x", "chest_y", "roll", "token"})
DECISION_NODES = frozenset({"dragon_select", "place", "procreator", "upgrade", "pop_choose", "act", "react",
                            "tribute_card", "lose"})
PHASES = ("setup", "draw", "populate", "action", "tribute", "over")

PIDX = T.place_index
RESTING = "immortals_resting_place"
BABA = "baba_yaga_hut"
GOLD, COPPER, UNDEAD = T.dragon_index["gold"], T.dragon_index["copper"], T.dragon_index["undead"]
NO_DESTROY = frozenset(i for i, d in enumerate(T.dragons) if "no_destroy_settlements" in d.powers)
BONUS_KEYS = ("move", "attack", "steal", "destroy")
OWN_TURN_TARGETED = {"robber", "horror", "confuser"}


def key_text(key: int | str) -> str:
    return B.sq_text(key) if isinstance(key, int) else key


def key_parse(text: str) -> int | str:
    if "," in text:
        return B.parse_sq(text)
    if text in PIDX:
        return text
    raise ValueError(f"'{text}' is neither a square x,y nor a place of power")


class NarbyState(State):
    __slots__ = ("players", "options", "adj", "cblk", "node", "who", "k", "die", "die2", "round", "phase",
                 "dragon", "dpos", "cave", "home", "occ", "places", "claims", "chest", "chest_coins", "coins",
                 "tok_sum", "tok_n", "rings_left", "hand", "played", "used", "order", "turn", "acts",
                 "bonus", "ev")
    players: int
    options: dict[str, Any]
    adj: int                       # 8 or 4 (option adjacency)
    cblk: bool                     # option chest_blocks: the thief's chest keeps dragons off its square
    node: str                      # the decision or chance point (docs/rules/narby.md §6)
    who: int                       # the deciding seat at a decision node, -1 otherwise
    k: int                         # "step": the seat / repetition the phase is at
    die: int                       # the first die of a two-d20 location (0: none)
    die2: int
    round: int
    phase: str
    dragon: list[int]              # dragon index (tables) per seat, -1 before it is chosen
    dpos: list[int]                # anchor square of each dragon, -1 before it is placed
    cave: list[int]                # cave square per seat, -1 (the Undead has none)
    home: list[int]                # rolled starting square per seat
    occ: list[int]                 # 400 squares: EMPTY, TOWN, CITY, RUIN, CHEST, CAVE0+seat, DRAGON0+seat, PLACE0+i
    places: dict[str, int]         # place id -> anchor
    claims: dict[int | str, int]   # square or place id -> seat
    chest: int
    chest_coins: int
    coins: list[int]
    tok_sum: list[int]
    tok_n: list[int]
    rings_left: list[int]
    hand: list[str | None]
    played: list[str]
    used: int                      # bit i: place i used its power this round
    order: list[int]
    turn: int
    acts: int
    bonus: list[int]               # move (Speedster), attack, steal, destroy
    ev: dict[str, Any] | None

    # ================================================================== construction
    @classmethod
    def new(cls, players: int, options: dict[str, Any]) -> "NarbyState":
        s = object.__new__(cls)
        s.players = players
        s.options = dict(options)
        s.adj = int(options["adjacency"])
        s.cblk = bool(options["chest_blocks"])
        s.round = 0
        s.phase = "setup"
        s.k = 0
        s.die = s.die2 = 0
        s.dragon = [-1] * players
        s.dpos = [-1] * players
        s.cave = [-1] * players
        s.home = [-1] * players
        s.occ = [EMPTY] * B.SQUARES
        s.places = {}
        s.claims = {}
        s.chest = -1
        s.chest_coins = 0
        s.coins = [0] * players
        s.tok_sum = [0] * players
        s.tok_n = [0] * players
        s.rings_left = [0] * players
        s.hand = [None] * players
        s.played = []
        s.used = 0
        s.order = list(range(players))
        s.turn = 0
        s.acts = T.actions_per_turn
        s.bonus = [0, 0, 0, 0]
        s.ev = None
        if options["dragons"] == "roll":
            s.node, s.who = "dragon_roll", -1
        else:
            s.node, s.who = "dragon_select", 0
        return s

    def clone(self) -> "NarbyState":
        n = object.__new__(NarbyState)
        n.players = self.players
        n.options = self.options
        n.adj = self.adj
        n.cblk = self.cblk
        n.node = self.node
        n.who = self.who
        n.k = self.k
        n.die = self.die
        n.die2 = self.die2
        n.round = self.round
        n.phase = self.phase
        n.dragon = self.dragon[:]
        n.dpos = self.dpos[:]
        n.cave = self.cave[:]
        n.home = self.home[:]
        n.occ = self.occ[:]
        n.places = self.places.copy()
        n.claims = self.claims.copy()
        n.chest = self.chest
        n.chest_coins = self.chest_coins
        n.coins = self.coins[:]
        n.tok_sum = self.tok_sum[:]
        n.tok_n = self.tok_n[:]
        n.rings_left = self.rings_left[:]
        n.hand = self.hand[:]
        n.played = self.played[:]
        n.used = self.used
        n.order = self.order[:]
        n.turn = self.turn
        n.acts = self.acts
        n.bonus = self.bonus[:]
        n.ev = self.ev.copy() if self.ev is not None else None
        return n

    # ================================================================== who moves
    @property
    def to_move(self) -> int | None:
        node = self.node
        if node == "over":
            return None
        if node in CHANCE_NODES:
            return CHANCE
        return self.who

    # ================================================================== small queries
    def dragon_id(self, seat: int) -> str:
        return T.dragon_ids[self.dragon[seat]]

    def seat_of(self, dragon_id: str) -> int:
        di = T.dragon_index.get(dragon_id, -99)
        try:
            return self.dragon.index(di)
        except ValueError:
            return -1

    def controller(self, pid: str) -> int:
        """The dragon whose claim ring is on a place of power (-1: nobody)."""
        return self.claims.get(pid, -1) if pid in self.places else -1

    def power_ready(self, seat: int, pid: str) -> bool:
        return self.controller(pid) == seat and not (self.used >> PIDX[pid]) & 1

    def lowest_coin_seat(self) -> int:
        """"starting with the dragon with the lowest total coins, in case of a tie, dragon with the most
        remaining claim rings" — then the lowest seat."""
        return min(range(self.players), key=lambda s: (self.coins[s], -self.rings_left[s], s))

    def home_squares(self, seat: int) -> tuple[int, ...]:
        if self.dragon[seat] == UNDEAD:
            if RESTING in self.places:
                return B.FOOT[self.places[RESTING]]
            return (self.home[seat],) if self.home[seat] >= 0 else ()
        return (self.cave[seat],) if self.cave[seat] >= 0 else ()

    def clear_for(self, seat: int, a: int) -> bool:
        """Can the dragon of ``seat`` stand on the footprint anchored at ``a``? Move: "cannot land on a
        settlement, cave, or place of power, or another dragon" — the thief's chest is not in that list, so a
        dragon may stand over it (reading R33) unless option ``chest_blocks`` says otherwise."""
        me = DRAGON0 + seat
        occ = self.occ
        chest_ok = not self.cblk
        for q in B.FOOT[a]:
            c = occ[q]
            if c != EMPTY and c != me and not (c == CHEST and chest_ok):
                return False
        return True

    def chest_under(self) -> int:
        """The seat whose dragon stands over the thief's chest (-1: the chest is uncovered or off the board)."""
        if self.chest < 0:
            return -1
        c = self.occ[self.chest]
        return c - DRAGON0 if DRAGON0 <= c < PLACE0 else -1

    def near_chest(self, seat: int) -> bool:
        """"Dragon must be adjacent to thief's treasure chest" — a dragon standing over it is as near as can
        be, and may steal from it too (reading R33)."""
        q = self.chest
        if q < 0:
            return False
        a = self.dpos[seat]
        return q in B.RINGSET[self.adj][a] or q in B.FOOT[a]

    def adjacent_to_dragon(self, seat: int, key: int | str) -> bool:
        ring = B.RINGSET[self.adj][self.dpos[seat]]
        if isinstance(key, int):
            return key in ring
        a = self.places.get(key)
        return a is not None and not ring.isdisjoint(B.FOOT[a])

    def claim_squares(self, key: int | str) -> tuple[int, ...]:
        return (key,) if isinstance(key, int) else B.FOOT[self.places[key]]

    def total(self, seat: int) -> int:
        return self.coins[seat] + self.tok_sum[seat]

    def claims_of(self, seat: int) -> list[int | str]:
        return [k for k, o in self.claims.items() if o == seat]

    # ================================================================== legality
    def legal_actions(self) -> Sequence[Any]:
        node = self.node
        if node == "over":
            return []
        if node in CHANCE_NODES:
            return [a for a, _ in self.chance_outcomes()]
        if node == "act":
            return self.act_actions()
        if node == "react":
            return [("pass",)] + self.reactions(self.who)
        if node == "place":
            return [("place", q) for q in self.place_options()]
        if node == "dragon_select":
            return [("dragon", d.id) for i, d in enumerate(T.dragons) if i not in self.dragon]
        if node == "procreator":
            out: list[Any] = [("pass",)]
            for axis, v in (("x", self.die), ("y", self.die2)):
                for d in (2, -2):
                    if 1 <= v + d <= B.N:
                        out.append(("play", "procreator", f"{axis}{d:+d}"))
            return out
        if node == "upgrade":
            assert self.ev is not None
            return [("upgrade", t) for t in self.ev["towns"]]
        if node == "pop_choose":
            return [("choose", p) for p in T.place_ids if p not in self.places]
        if node == "tribute_card":
            return [("pass",), ("play", self.hand[self.who])]
        if node == "lose":
            return [("lose", k) for k in sorted(self.claims_of(self.who), key=_key_order)]
        return []

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        node = self.node
        if node not in CHANCE_NODES:
            return []
        if node == "draw":
            left = [c for c in T.card_ids if c not in self.hand and c not in self.played]
            p = 1 / len(left)
            return [(("card", c), p) for c in left]
        if node == "token":
            return TOKENS
        return D20

    def is_legal(self, action: Any) -> bool:
        return action in self.legal_actions()

    def illegal_reason(self, action: Any) -> str:
        node = self.node
        if node == "over":
            return "the game is over"
        kind = action[0] if isinstance(action, tuple) and action else None
        if node in CHANCE_NODES:
            return f"the game waits for a chance outcome ({_chance_name(node)})"
        if (kind in ("claim", "destroy", "abandon", "lose") and len(action) == 2 and isinstance(action[1], int)
                and 0 <= action[1] < B.SQUARES and self.occ[action[1]] >= PLACE0):
            pid = T.place_ids[self.occ[action[1]] - PLACE0]
            return f"{B.sq_text(action[1])} is part of a place of power: name it, '{kind} {pid}'"
        if node == "act":
            if kind in ("move", "claim", "claim2", "destroy", "steal", "attack", "abandon") and self.acts < 1:
                return "the dragon has no actions left this turn (\"Each turn a Dragon has 3 actions\")"
            why = self._act_reason(action)
            if why:
                return why
            return f"it is {seat_label(self, self.who)}'s turn to act"
        if node == "place" and kind == "place" and self.ev is not None:
            ev = self.ev
            what = ("Baba Yaga's Hut" if ev["piece"] == "hut" else "the thief's chest" if ev["piece"] == "chest"
                    else f"the {self.dragon_id(ev['dragon'])} dragon")
            where = {"home": "a free 2x2 place adjacent to its home cave", "claims": "a free 2x2 place adjacent "
                     "to one of its claims", "near": f"a free place at most {ev['range']} spaces away"}[ev["mode"]]
            return f"{what} must go to {where}: 'place x,y' among the legal actions"
        return f"it is not among the legal actions at this point ({node}, {seat_label(self, self.who)})"

    # ---------------------------------------------------------------- why an action is refused (own turn)
    def _what_is_on(self, q: int) -> str:
        c = self.occ[q]
        if c == EMPTY:
            return "nothing"
        if c <= RUIN:
            return f"a {KIND_NAME[c]}"
        if c == CHEST:
            return "the thief's treasure chest"
        if c < DRAGON0:
            return f"the cave of {seat_label(self, c - CAVE0)}"
        if c < PLACE0:
            return f"the dragon of {seat_label(self, c - DRAGON0)}"
        return T.places[c - PLACE0].name

    def _act_reason(self, action: Any) -> str:
        """The rule that refuses ``action`` at node act, named for this very case (not the action's whole
        row): the message a player reads when the engine says no."""
        s = self.who
        kind = action[0]
        try:
            if kind == "move":
                return self._move_reason(action[1])
            if kind == "claim":
                return self._claim_reason(action[1])
            if kind == "claim2":
                if not self.power_ready(s, "citadel_of_torture"):
                    return ("Citadel of Torture: \"May claim two settlements adjacent to dragon as a single "
                            "action\" — only for the dragon whose ring is on the Citadel, once per round")
                if self.rings_left[s] < 2:
                    return "Citadel of Torture: two claim rings are needed"
                return ("Citadel of Torture: both squares must be unclaimed settlements adjacent to the dragon "
                        "(\"Dragon has to be adjacent with target of claim\")")
            if kind == "destroy":
                return self._destroy_reason(action[1])
            if kind == "steal":
                return self._steal_reason(action[1])
            if kind == "attack":
                t = self.seat_of(action[1])
                if t < 0:
                    return f"there is no {action[1]} dragon in this game"
                if t == s:
                    return "Attack: \"Dragons may attack each other\" — a dragon cannot attack itself"
                return (f"Attack: \"When dragons are adjacent they can attack\" — the {action[1]} dragon is not "
                        f"adjacent to yours")
            if kind == "abandon":
                key = action[1]
                o = self.claims.get(key, -1)
                if o < 0:
                    return f"Abandon Claim: there is no claim ring on {key_text(key)}"
                return (f"Abandon Claim: \"Take one of your colored claim rings\" — the ring on {key_text(key)} "
                        f"is {seat_label(self, o)}'s")
            if kind == "play":
                return self._card_reason(action[1])
            if kind == "power":
                return self._power_reason(action[1])
        except (KeyError, IndexError, TypeError, ValueError):
            return ""
        return ""

    def _move_reason(self, b: int) -> str:
        s = self.who
        a = self.dpos[s]
        x, y = B.xy(b)
        if not B.is_anchor(b):
            return (f"\"Dragons take up 4 spaces in a 2x2 arrangement\": a dragon is named by its top-left square, "
                    f"and {x},{y} would put it off the board (columns and rows 1-19)")
        if b == a:
            return f"Move: the dragon is already at {x},{y}"
        rng = T.speedster_range if self.bonus[0] else T.move_range
        d = B.dist(a, b, self.adj)
        if d > rng:
            return (f"Move: \"Move up to {T.move_range} spaces\"" + (" (Speedster: 4)" if self.bonus[0] else "")
                    + f" — {x},{y} is {d} spaces away" + (" counting side steps only (adjacency=4)"
                                                           if self.adj == 4 else ""))
        for q in B.FOOT[b]:
            c = self.occ[q]
            if c == EMPTY or c == DRAGON0 + s:
                continue
            what = self._what_is_on(q)
            if c == CHEST:
                return (f"the thief's chest at {B.sq_text(q)} keeps dragons off its square (option "
                        f"chest_blocks=true; the Move row itself does not name the chest)")
            return (f"Move: \"You may fly over settlements but cannot land on a settlement, cave, or place of "
                    f"power, or another dragon\" — {B.sq_text(q)} holds {what}")
        return ""

    def _claim_reason(self, key: int | str) -> str:
        s = self.who
        if isinstance(key, str) and key not in self.places:
            return f"{T.places[PIDX[key]].name} is not on the board"
        if isinstance(key, int) and (self.occ[key] == CHEST or CAVE0 <= self.occ[key] < PLACE0):
            return (f"Claim: only a settlement, a place of power or a blank space can be claimed — "
                    f"{key_text(key)} holds {self._what_is_on(key)}")
        o = self.claims.get(key, -1)
        if o == s:
            return f"Claim: {key_text(key)} already has your claim ring"
        if self.rings_left[s] < 1:
            return "Claim: you have no claim ring left (every ring is on the board; Abandon Claim frees one)"
        if not self.adjacent_to_dragon(s, key):
            hut = (self.controller(BABA) == s and isinstance(key, int)
                   and key in B.RINGSET[self.adj][self.places[BABA]])
            if not hut or not isinstance(key, int):
                return (f"Claim: \"Dragon has to be adjacent with target of claim\" — {key_text(key)} is not "
                        f"adjacent to your dragon")
            if not TOWN <= self.occ[key] <= RUIN:
                return ("Baba Yaga's Hut: \"Claimed Dragon can use an action to claim adjacent settlement\" — "
                        "settlements only, not blank spaces")
        if o >= 0:
            if isinstance(key, int) and self.occ[key] == EMPTY:
                return (f"Claim Settlement: \"Remove opponents claim and put a claim ring on adjacent settlement "
                        f"or place of power\" — a blank space claimed by {seat_label(self, o)} cannot be taken "
                        f"(reading R14)")
            if self.acts < 2:
                return (f"Claim Settlement: taking {seat_label(self, o)}'s claim costs 2 actions, you have "
                        f"{self.acts}")
        return ""

    def _destroy_reason(self, key: int | str) -> str:
        s = self.who
        if isinstance(key, str):
            if key not in self.places:
                return f"{T.places[PIDX[key]].name} is not on the board"
        elif not TOWN <= self.occ[key] <= RUIN:
            return (f"\"Dragons may destroy settlements or places of power\" — {key_text(key)} holds "
                    f"{self._what_is_on(key)}")
        if self.claims.get(key, -1) == s:
            return (f"Destroy: {key_text(key)} is your own claim; a dragon does not destroy its own claims "
                    f"(reading R14; Abandon Claim takes a ring back)")
        if isinstance(key, int) and self.dragon[s] in NO_DESTROY:
            return f"the {self.dragon_id(s)} dragon \"Shall not destroy settlements\""
        if not self.adjacent_to_dragon(s, key):
            return (f"Destroy: the target must be adjacent to your dragon, as for Claim and Attack (reading "
                    f"R14) — {key_text(key)} is not")
        return ""

    def _steal_reason(self, target: str) -> str:
        s = self.who
        if target == "chest":
            if self.chest < 0:
                return "Steal from thief's chest: the chest is not on the board yet"
            return (f"Steal from thief's chest: \"Dragon must be adjacent to thief's treasure chest\" — the chest "
                    f"at {B.sq_text(self.chest)} is not adjacent to your dragon")
        t = self.seat_of(target)
        if t < 0:
            return f"there is no {target} dragon in this game"
        if t == s:
            return ("Steal from Dragon cave: \"Dragons may steal from other dragon caverns\" — a dragon cannot "
                    "rob its own cave")
        if self.dragon[t] == UNDEAD:
            if self.options["undead_steal"] == "never":
                return ("the Undead \"Does not place home cave\": it has no cave to steal from (option "
                        "undead_steal=never)")
            if RESTING not in self.places:
                return ("the Undead \"Does not place home cave\": it can be robbed only beside the Immortals "
                        "Resting Place, its home, which is not on the board (reading R5)")
            return ("the Undead \"Does not place home cave\": it is robbed beside the Immortals Resting Place "
                    "(reading R5), which is not adjacent to your dragon")
        return (f"Steal from Dragon cave: the cave must be adjacent to your dragon, as for the thief's chest "
                f"(reading R14) — the {target} cave at {B.sq_text(self.cave[t])} is not")

    def _card_reason(self, card: str) -> str:
        s = self.who
        if self.hand[s] != card:
            held = self.hand[s]
            return (f"the {T.cards[T.card_ids.index(card)].name} card is not in your hand"
                    + (f" (you hold the {T.cards[T.card_ids.index(held)].name})" if held else " (you hold no card)"))
        why = {
            "speedster": "before a Move, with an action left, once",
            "fighter": "before an attack: a dragon must be adjacent and an action left",
            "sneaker": "before a steal: a cave or the chest must be in reach and an action left",
            "destroyer": "before a destroy: a target must be in reach and an action left",
            "jumper": "when there is a free 2x2 place adjacent to one of your claims",
            "robber": "naming an opponent",
            "horror": "naming a dragon that has a free 2x2 place beside its cave",
            "confuser": "naming an opponent that has a free place within 3 spaces",
            "guardian": "when another dragon declares a steal from a cave",
            "peacemaker": "when a dragon declares an attack",
            "defender": "when you are attacked",
            "inciter": "when another dragon declares a destroy on a claimed settlement",
            "leader": "when another dragon declares a claim on a settlement",
            "procreator": "after the two dice of a settlement are rolled",
            "governor": "before your tribute roll",
            "sheriff": "before your tribute roll",
            "mayor": "before your tribute roll",
        }.get(card, "")
        return f"the {T.cards[T.card_ids.index(card)].name} card is played {why}, not like this now"

    def _power_reason(self, pid: str) -> str:
        s = self.who
        name = T.places[PIDX[pid]].name
        if pid not in self.places:
            return f"{name} is not on the board"
        o = self.controller(pid)
        if o != s:
            return (f"{name}: its power is for the dragon whose claim ring is on it (\"Power once per round\"), "
                    + ("nobody's" if o < 0 else f"{seat_label(self, o)}'s") + " now")
        if not self.power_ready(s, pid):
            return f"{name}: \"Power once per round\" — used already this round"
        special = {
            "pearlthorn_castle": "is used when another dragon declares a destroy of a claim",
            "blade_miller": "is used when another dragon declares a destroy",
            "soulwash_temple": "is used when another dragon declares an attack",
            "soul_mine": "applies by itself to your tribute roll",
            "immortals_resting_place": "has no power (\"Home of Undead Dragon\")",
            "citadel_of_torture": "is used by claiming two settlements at once: 'claim x,y x,y'",
        }
        if pid in special:
            return f"{name} {special[pid]}"
        return f"{name}: {T.places[PIDX[pid]].power} — not possible now (see the legal actions)"

    # ---------------------------------------------------------------- the action phase choices
    def act_actions(self) -> list[Any]:
        s = self.who
        a = self.dpos[s]
        acts = self.acts
        occ = self.occ
        claims = self.claims
        me_dragon = self.dragon[s]
        out: list[Any] = [("end",)]
        settles: list[int] = []
        blanks: list[int] = []
        place_t: list[str] = []
        caves: list[int] = []
        dragons: list[int] = []
        chest = self.near_chest(s)
        for q in B.RING[self.adj][a]:
            c = occ[q]
            if c == EMPTY:
                blanks.append(q)
            elif c <= RUIN:
                settles.append(q)
            elif c == CHEST:
                pass
            elif c < DRAGON0:
                caves.append(c - CAVE0)
            elif c < PLACE0:
                t = c - DRAGON0
                if t not in dragons:
                    dragons.append(t)
            else:
                pid = T.place_ids[c - PLACE0]
                if pid not in place_t:
                    place_t.append(pid)
        steal_t: list[str] = [T.dragon_ids[self.dragon[t]] for t in caves if t != s]
        if chest:
            steal_t.append("chest")
        if RESTING in place_t and self.options["undead_steal"] == "resting_place":
            u = self.seat_of("undead")
            if u >= 0 and u != s:
                steal_t.append("undead")
        destroy_t: list[int | str] = []
        # The order of the list is for the players (the CLI numbers it): end, then claims of settlements and
        # places, steals, attacks, destroys, cards, powers, moves, abandons, and last the claims of blank
        # squares, which earn nothing at tribute.
        moves: list[Any] = []
        late: list[Any] = []
        if acts >= 1:
            rng = T.speedster_range if self.bonus[0] else T.move_range
            for b in B.near_anchors(a, rng, self.adj):
                if self.clear_for(s, b):
                    moves.append(("move", b))
            if self.rings_left[s] >= 1:
                cl = settles
                if self.power_ready_control(s, BABA):
                    hut = self.places[BABA]
                    extra = [q for q in B.RING[self.adj][hut] if TOWN <= occ[q] <= RUIN and q not in cl]
                    cl = settles + extra
                for q in cl:
                    o = claims.get(q, -1)
                    if o == -1 or (o != s and acts >= 2):
                        out.append(("claim", q))
                for p in place_t:
                    o = claims.get(p, -1)
                    if o == -1 or (o != s and acts >= 2):
                        out.append(("claim", p))
                for q in blanks:
                    if q not in claims:
                        late.append(("claim", q))
                if self.rings_left[s] >= 2 and self.power_ready(s, "citadel_of_torture"):
                    free = [q for q in settles if q not in claims]
                    for i in range(len(free)):
                        for j in range(i + 1, len(free)):
                            out.append(("claim2", free[i], free[j]))
            if me_dragon not in NO_DESTROY:
                destroy_t.extend(q for q in settles if claims.get(q, -1) != s)
            destroy_t.extend(p for p in place_t if claims.get(p, -1) != s)
            for victim in steal_t:
                out.append(("steal", victim))
            for t in dragons:
                out.append(("attack", T.dragon_ids[self.dragon[t]]))
            for target in destroy_t:
                out.append(("destroy", target))
            abandons = [("abandon", key) for key in sorted(claims, key=_key_order) if claims[key] == s]
            late[:0] = abandons
        # ---- cards (no action spent): "Possible Cards, discarded after use"
        card = self.hand[s]
        if card is not None:
            if card == "vigor":
                out.append(("play", "vigor"))
            elif card == "speedster":
                if acts >= 1 and not self.bonus[0]:
                    out.append(("play", "speedster"))
            elif card == "fighter":
                if acts >= 1 and dragons:
                    out.append(("play", "fighter"))
            elif card == "sneaker":
                if acts >= 1 and steal_t:
                    out.append(("play", "sneaker"))
            elif card == "destroyer":
                if acts >= 1 and destroy_t:
                    out.append(("play", "destroyer"))
            elif card == "jumper":
                if self.place_options_for("dragon", s, "claims", 0):
                    out.append(("play", "jumper"))
            elif card == "robber":
                for t in range(self.players):
                    if t != s:
                        out.append(("play", "robber", self.dragon_id(t)))
            elif card == "horror":
                for t in range(self.players):
                    if self.place_options_for("dragon", t, "home", 0):
                        out.append(("play", "horror", self.dragon_id(t)))
            elif card == "confuser":
                for t in range(self.players):
                    if t != s and self.place_options_for("dragon", t, "near", 3):
                        out.append(("play", "confuser", self.dragon_id(t)))
        # ---- places of power this dragon controls: "Power once per round"
        if self.places:
            for pid in self.places:
                if not self.power_ready(s, pid):
                    continue
                if pid == BABA:
                    if self.options["baba_yaga"] == "hut":
                        if self.place_options_for("hut", -1, "near", 3):
                            out.append(("power", BABA))
                    elif self.place_options_for("dragon", s, "near", 3):
                        out.append(("power", BABA))
                elif pid == "angelstar_shrine":
                    out.append(("power", pid))
                elif pid == "tower_of_faces":
                    for t in range(self.players):
                        if self.place_options_for("dragon", t, "home", 0):
                            out.append(("power", pid, self.dragon_id(t)))
                elif pid == "tower_of_unquenched_flame":
                    for q in range(B.SQUARES):
                        if occ[q] == RUIN:
                            out.append(("power", pid, q))
                elif pid == "arch_of_triumph":
                    if acts >= 1 and dragons:
                        out.append(("power", pid))
                elif pid == "madhouse":
                    for t in range(self.players):
                        if t != s and self.place_options_for("dragon", t, "near", 1):
                            out.append(("power", pid, self.dragon_id(t)))
                elif pid == "chrysotas_chapel":
                    if acts >= 1 and steal_t:
                        out.append(("power", pid))
                elif pid == "darkheart_cottage":
                    if self.chest >= 0 and self.place_options_for("chest", -1, "near", 5):
                        out.append(("power", pid))
        out.extend(moves)
        out.extend(late)
        return out

    def power_ready_control(self, seat: int, pid: str) -> bool:
        """Control effects (Baba Yaga's Hut) are not once per round: they last while the claim does."""
        return self.controller(pid) == seat

    def reactions(self, t: int) -> list[Any]:
        """What seat ``t`` may play against the declared action in ``self.ev`` (besides ``pass``)."""
        ev = self.ev
        assert ev is not None
        actor = ev["actor"]
        if t == actor:
            return []
        out: list[Any] = []
        card = self.hand[t]
        typ = ev["type"]
        if typ == "attack":
            d = ev["defender"]
            if card == "defender" and t == d:
                out.append(("play", "defender"))
            if card == "peacemaker":
                for x in (actor, d):
                    if self.place_options_for("dragon", x, "home", 0):
                        out.append(("play", "peacemaker", self.dragon_id(x)))
            if self.power_ready(t, "soulwash_temple"):
                out.append(("power", "soulwash_temple"))
        elif typ == "steal":
            if card == "guardian" and ev["from"] != "chest":
                out.append(("play", "guardian"))
        elif typ == "destroy":
            key = ev["target"]
            claimed = key in self.claims
            if card == "inciter" and claimed and isinstance(key, int):
                out.append(("play", "inciter"))
            if claimed and self.power_ready(t, "pearlthorn_castle"):
                out.append(("power", "pearlthorn_castle"))
            if self.power_ready(t, "blade_miller"):
                out.append(("power", "blade_miller"))
        elif typ == "claim":
            if card == "leader":
                for key in ev["targets"]:
                    if isinstance(key, int) and TOWN <= self.occ[key] <= RUIN:
                        out.append(("play", "leader", key))
        return out

    # ---------------------------------------------------------------- placements
    def place_options(self) -> list[int]:
        ev = self.ev
        assert ev is not None
        return self.place_options_for(ev["piece"], ev.get("dragon", -1), ev["mode"], ev.get("range", 0))

    def place_options_for(self, piece: str, seat: int, mode: str, rng: int) -> list[int]:
        adj = self.adj
        if piece == "dragon":
            if mode == "home":
                home = self.home_squares(seat)
                if not home:
                    return []
                cand: Sequence[int] = B.anchors_beside(home, adj)
            elif mode == "claims":
                seen: set[int] = set()
                for key in self.claims_of(seat):
                    seen.update(B.anchors_beside(self.claim_squares(key), adj))
                cand = sorted(seen)
            else:
                cand = B.near_anchors(self.dpos[seat], rng, adj)
            return [b for b in cand if self.clear_for(seat, b)]
        if piece == "hut":
            a = self.places[BABA]
            me = PLACE0 + PIDX[BABA]
            occ = self.occ
            return [b for b in B.near_anchors(a, rng, adj)
                    if all(occ[q] == EMPTY or occ[q] == me for q in B.FOOT[b])]
        # the thief's treasure chest
        return [q for q in B.near_squares(self.chest, rng, adj) if self.occ[q] == EMPTY]

    # ================================================================== transitions
    def _apply(self, action: Any) -> None:
        node = self.node
        kind = action[0]
        if node in CHANCE_NODES:
            getattr(self, "_chance_" + node)(action)
        elif node == "act":
            self._act(action)
        elif node == "react":
            self._react(action)
        elif node == "place":
            self.place_piece(action[1])
        elif node == "dragon_select":
            self.choose_dragon(T.dragon_index[action[1]])
        elif node == "procreator":
            if kind == "play":
                self._discard(self.who, "procreator")
                axis, d = action[2][0], int(action[2][1:])
                if axis == "x":
                    self.die += d
                else:
                    self.die2 += d
            self.place_settlement()
        elif node == "upgrade":
            self.occ[action[1]] = CITY
            self.ev = None
            self._after_settlement()
        elif node == "pop_choose":
            self.ev = {"type": "place_power", "place": action[1]}
            self.node = "pop_x"
        elif node == "tribute_card":
            if kind == "play":
                card = action[1]
                self._discard(self.who, card)
                ev = self.ev
                assert ev is not None
                if card == "governor":
                    ev["mod"] += 2
                elif card == "sheriff":
                    ev["town"] += 1
                else:
                    ev["city"] += 1
            self.node = "roll"
        elif node == "lose":
            self._remove_claim(action[1])
            self._next_tribute()
        else:  # pragma: no cover - the node list is closed
            raise AssertionError(node)

    # ---------------------------------------------------------------- setup
    def _chance_dragon_roll(self, action: Any) -> None:
        # "roll a d20 and drop any leading digits": 10 and 20 are 0 (Undead); a dragon already taken is
        # rolled again.
        d = T.dragon_by_digit[action[1] % 10]
        if d not in self.dragon:
            self.choose_dragon(d)

    def choose_dragon(self, d: int) -> None:
        seat = self.k
        self.dragon[seat] = d
        self.rings_left[seat] = T.dragons[d].rings
        self.k += 1
        if self.k < self.players:
            if self.node == "dragon_select":
                self.who = self.k
            return
        self.k = 0
        self.node, self.who = "cave_x", -1

    def _chance_cave_x(self, action: Any) -> None:
        self.die = action[1]
        self.node = "cave_y"

    def _chance_cave_y(self, action: Any) -> None:
        self.place_cave(B.sq(self.die, action[1]))

    def place_cave(self, q: int) -> None:
        """"Roll Two d20 to determine starting location ... Place starting colored caverns on location"; the
        Undead "Does not place home cave": its rolled square is only its home. A square that is taken, or
        that leaves no room for the dragon beside it, is rolled again."""
        self.die = 0
        seat = self.k
        if self.occ[q] != EMPTY or not any(self.clear_for(seat, b) for b in B.anchors_beside((q,), self.adj)):
            self.node = "cave_x"
            return
        self.home[seat] = q
        if self.dragon[seat] != UNDEAD:
            self.cave[seat] = q
            self.occ[q] = CAVE0 + seat
        self.node, self.who = "place", seat
        self.ev = {"type": "place", "by": seat, "piece": "dragon", "dragon": seat, "mode": "home", "range": 0,
                   "then": "setup"}

    def place_piece(self, q: int) -> None:
        """``place x,y``: put a dragon (anchor), Baba Yaga's Hut (anchor) or the chest (square)."""
        ev = self.ev
        assert ev is not None
        piece = ev["piece"]
        occ = self.occ
        if piece == "dragon":
            seat = ev["dragon"]
            self._move_dragon(seat, q)
        elif piece == "hut":
            code = PLACE0 + PIDX[BABA]
            for r in B.FOOT[self.places[BABA]]:
                occ[r] = EMPTY
            for r in B.FOOT[q]:
                occ[r] = code
                if r in self.claims:  # a claim ring on a blank square under the hut goes home
                    self._remove_claim(r)
            self.places[BABA] = q
        else:
            self._set_chest(q)
        then = ev["then"]
        self.ev = None
        if then == "setup":
            self.k += 1
            if self.k < self.players:
                self.node, self.who = "cave_x", -1
            else:
                self.start_round()
        else:
            self._back_to_act()

    def _move_dragon(self, seat: int, b: int) -> None:
        """The dragon leaves its footprint (a thief's chest it stood over shows again) and covers another
        (a chest there stays beneath it: reading R33)."""
        occ = self.occ
        code = DRAGON0 + seat
        if self.dpos[seat] >= 0:
            for r in B.FOOT[self.dpos[seat]]:
                occ[r] = EMPTY
            if self.chest >= 0 and occ[self.chest] == EMPTY:
                occ[self.chest] = CHEST
        for r in B.FOOT[b]:
            occ[r] = code
        self.dpos[seat] = b

    def _set_chest(self, q: int) -> None:
        """Move the thief's chest to square ``q`` (-1: off the board); a dragon standing over either square
        stays where it is, the chest beneath it."""
        occ = self.occ
        if self.chest >= 0 and occ[self.chest] == CHEST:
            occ[self.chest] = EMPTY
        if q >= 0 and occ[q] == EMPTY:
            occ[q] = CHEST
        self.chest = q

    # ---------------------------------------------------------------- round: draw
    def start_round(self) -> None:
        self.round += 1
        self.hand = [None] * self.players
        self.played = []
        self.used = 0
        self.ev = None
        if self.options["cards"]:
            # "All cards are returned and shuffled. A random bonus card is handed out to each Dragon."
            self.phase = "draw"
            self.k = 0
            self.node, self.who = "draw", -1
        else:
            self.start_populate()

    def _chance_draw(self, action: Any) -> None:
        self.hand[self.k] = action[1]
        self.k += 1
        if self.k >= self.players or len(T.card_ids) <= self.k:
            self.start_populate()

    # ---------------------------------------------------------------- round: populate
    def start_populate(self) -> None:
        self.phase = "populate"
        self.k = 0
        self._settle_start()

    def _settle_start(self) -> None:
        self.node, self.who = "settle_x", -1

    def _chance_settle_x(self, action: Any) -> None:
        self.die = action[1]
        self.node = "settle_y"

    def _chance_settle_y(self, action: Any) -> None:
        self.die2 = action[1]
        holder = self._holder("procreator")
        if holder >= 0:
            self.node, self.who = "procreator", holder
        else:
            self.place_settlement()

    def place_settlement(self) -> None:
        """"Roll two d20 to determine settlement location, place a town miniature. If a town miniature would
        be adjacent to another town or on the same space, then place a city miniature" (readings in
        docs/rules/narby.md: on a town, that town becomes a city; beside towns, option ``city``)."""
        q = B.sq(self.die, self.die2)
        self.die = self.die2 = 0
        occ = self.occ
        c = occ[q]
        if c == TOWN:
            occ[q] = CITY  # the claim on the town (same key) is now on the city
        elif c == EMPTY:
            towns = [t for t in B.NB[self.adj][q] if occ[t] == TOWN]
            if not towns:
                occ[q] = TOWN  # a claim ring on this blank square now claims the town
            elif self.options["city"] == "beside":
                occ[q] = CITY
            elif len(towns) == 1:
                occ[towns[0]] = CITY
            else:
                self.node, self.who = "upgrade", self.k % self.players
                self.ev = {"type": "upgrade", "towns": tuple(towns)}
                return
        else:
            if any(v == EMPTY or v == TOWN for v in occ):
                self._settle_start()  # roll again: the square holds a piece a town cannot join
                return
        self._after_settlement()

    def _after_settlement(self) -> None:
        if self.options["populate_repeat"] == "all":
            self._place_start()
            return
        self.k += 1
        if self.k < self.players:
            self._settle_start()
        else:
            self._place_start()

    def _place_start(self) -> None:
        if len(self.places) >= len(T.places):
            self._chest_start()
            return
        if self.options["places"] == "select":
            self.node, self.who = "pop_choose", self.lowest_coin_seat()
        else:
            self.node, self.who = "pop_roll", -1

    def _chance_pop_roll(self, action: Any) -> None:
        r = action[1]
        if r < T.places_chooser_from:
            pid = T.place_ids[r - 1]
            if pid not in self.places:
                self.ev = {"type": "place_power", "place": pid}
                self.node = "pop_x"
            return  # already on the board: roll again
        if r == T.places_chooser_from or self.options["high_place_roll"] == "chooser":
            self.node, self.who = "pop_choose", self.lowest_coin_seat()
        # else: 16-20 are rolled again

    def _chance_pop_x(self, action: Any) -> None:
        self.die = action[1]
        self.node = "pop_y"

    def _chance_pop_y(self, action: Any) -> None:
        self.place_place_of_power(B.anchor_for(self.die, action[1]))

    def place_place_of_power(self, a: int) -> None:
        """"place one quarter of the place of power miniature in the space indicated. Places of power take up
        a 2x2 group of spaces." A footprint that is not free is rolled again."""
        self.die = 0
        occ = self.occ
        ev = self.ev
        assert ev is not None
        pid = ev["place"]
        if any(occ[q] != EMPTY for q in B.FOOT[a]):
            if any(all(occ[q] == EMPTY for q in B.FOOT[b]) for b in B.ANCHORS):
                self.node = "pop_x"
                return
            self.ev = None
            self._chest_start()
            return
        code = PLACE0 + PIDX[pid]
        for q in B.FOOT[a]:
            occ[q] = code
            if q in self.claims:
                self._remove_claim(q)
        self.places[pid] = a
        self.ev = None
        self._chest_start()

    def _chest_start(self) -> None:
        self.node, self.who = "chest_x", -1

    def _chance_chest_x(self, action: Any) -> None:
        self.die = action[1]
        self.node = "chest_y"

    def _chance_chest_y(self, action: Any) -> None:
        self.move_treasure_chest(B.sq(self.die, action[1]))

    def move_treasure_chest(self, q: int) -> None:
        """"Roll two d20 to determine treasure chest location, move the treasure chest miniature The thief's
        treasure chest is given 3 coins." An occupied square is rolled again."""
        self.die = 0
        if self.occ[q] != EMPTY and q != self.chest:
            if EMPTY in self.occ:
                self.node = "chest_x"
                return
            q = self.chest  # a full board: the chest stays where it is (or off the board)
        self._set_chest(q)
        self.chest_coins += T.chest_refill
        if self.options["populate_repeat"] == "all" and self.k + 1 < self.players:
            self.k += 1
            self._settle_start()
        else:
            self.start_action_phase()

    # ---------------------------------------------------------------- round: action
    def start_action_phase(self) -> None:
        """"starting with the dragon with the lowest total coins, in case of a tie, dragon with the most
        remaining claim rings then proceeds clockwise" (clockwise = increasing seat number)."""
        self.phase = "action"
        first = self.lowest_coin_seat()
        n = self.players
        self.order = [(first + i) % n for i in range(n)]
        self.turn = 0
        self._start_turn()

    def _start_turn(self) -> None:
        if self.options["baba_yaga_uses"] == "turn":
            self.used &= ~(1 << PIDX[BABA])  # "Moves 3 spaces each turn" (reading R34)
        self.acts = T.actions_per_turn
        self.bonus = [0, 0, 0, 0]
        self.node, self.who = "act", self.order[self.turn]
        self.ev = None

    def _back_to_act(self) -> None:
        self.node, self.who = "act", self.order[self.turn]
        self.ev = None
        if self.acts <= 0 and len(self.act_actions()) == 1:
            self._end_turn()

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn < self.players:
            self._start_turn()
        else:
            self.start_tribute()

    def _act(self, action: Any) -> None:
        s = self.who
        kind = action[0]
        if kind == "end":
            self._end_turn()
        elif kind == "move":
            self.acts -= 1
            self.bonus[0] = 0
            self._move_dragon(s, action[1])
            self._back_to_act()
        elif kind == "claim":
            key = action[1]
            self.acts -= 2 if self.claims.get(key, -1) not in (-1, s) else 1
            self._declare({"type": "claim", "actor": s, "targets": (key,)})
        elif kind == "claim2":
            self.acts -= 1
            self.used |= 1 << PIDX["citadel_of_torture"]
            self._declare({"type": "claim", "actor": s, "targets": (action[1], action[2])})
        elif kind == "destroy":
            self.acts -= 1
            mod, self.bonus[3] = self.bonus[3], 0
            self._declare({"type": "destroy", "actor": s, "target": action[1], "mod": mod})
        elif kind == "steal":
            self.acts -= 1
            mod, self.bonus[2] = self.bonus[2], 0
            t = action[1]
            self._declare({"type": "steal", "actor": s, "from": "chest" if t == "chest" else self.seat_of(t),
                           "mod": mod})
        elif kind == "attack":
            self.acts -= 1
            mod, self.bonus[1] = self.bonus[1], 0
            self._declare({"type": "attack", "actor": s, "defender": self.seat_of(action[1]), "mod": mod})
        elif kind == "abandon":
            self.acts -= 1
            self._remove_claim(action[1])
            self._back_to_act()
        elif kind == "play":
            self.play_card(s, action)
        elif kind == "power":
            self.use_power(s, action)

    def play_card(self, s: int, action: Any) -> None:
        card = action[1]
        self._discard(s, card)
        if card == "vigor":
            self.acts += 1
        elif card == "speedster":
            self.bonus[0] = 1
        elif card == "fighter":
            self.bonus[1] += 2
        elif card == "sneaker":
            self.bonus[2] += 2
        elif card == "destroyer":
            self.bonus[3] += 2
        elif card == "robber":
            t = self.seat_of(action[2])
            loss = min(T.robber_loss, self.coins[t])
            self.coins[t] -= loss
            self.chest_coins += loss
        elif card == "jumper":
            self._ask_place(s, "dragon", s, "claims", 0)
            return
        elif card == "horror":
            self._ask_place(s, "dragon", self.seat_of(action[2]), "home", 0)
            return
        elif card == "confuser":
            self._ask_place(s, "dragon", self.seat_of(action[2]), "near", 3)
            return
        self._back_to_act()

    def use_power(self, s: int, action: Any) -> None:
        pid = action[1]
        self.used |= 1 << PIDX[pid]
        if pid == "angelstar_shrine":
            self.acts += 1
        elif pid == "arch_of_triumph":
            self.bonus[1] += 2
        elif pid == "chrysotas_chapel":
            self.bonus[2] += 2
        elif pid == "tower_of_unquenched_flame":
            self.occ[action[2]] = TOWN
        elif pid == BABA:
            # "Moves 3 spaces each turn for free": the walking Hut (default) or its dragon (option baba_yaga)
            if self.options["baba_yaga"] == "hut":
                self._ask_place(s, "hut", -1, "near", 3)
            else:
                self._ask_place(s, "dragon", s, "near", 3)
            return
        elif pid == "tower_of_faces":
            self._ask_place(s, "dragon", self.seat_of(action[2]), "home", 0)
            return
        elif pid == "madhouse":
            self._ask_place(s, "dragon", self.seat_of(action[2]), "near", 1)
            return
        elif pid == "darkheart_cottage":
            self._ask_place(s, "chest", -1, "near", 5)
            return
        self._back_to_act()

    def _ask_place(self, by: int, piece: str, seat: int, mode: str, rng: int) -> None:
        self.node, self.who = "place", by
        self.ev = {"type": "place", "by": by, "piece": piece, "dragon": seat, "mode": mode, "range": rng,
                   "then": "act"}

    # ---------------------------------------------------------------- reactions
    def _declare(self, ev: dict[str, Any]) -> None:
        self.ev = ev
        n = self.players
        a = ev["actor"]
        queue = []
        for i in range(1, n):
            t = (a + i) % n
            if self.reactions(t):
                queue.append(t)
        ev["queue"] = tuple(queue)
        self._next_react()

    def _next_react(self) -> None:
        ev = self.ev
        assert ev is not None
        q = ev["queue"]
        while q:
            if self.reactions(q[0]):
                self.node, self.who = "react", q[0]
                return
            q = q[1:]
            ev["queue"] = q
        self._resolve_declared()

    def _react(self, action: Any) -> None:
        ev = self.ev
        assert ev is not None
        t = self.who
        kind = action[0]
        if kind == "pass":
            ev["queue"] = ev["queue"][1:]
            self._next_react()
            return
        what = action[1]
        if kind == "play":
            self._discard(t, what)
        else:
            self.used |= 1 << PIDX[what]
        if what == "defender":
            ev["mod"] -= 2
        elif what == "inciter":
            ev["mod"] -= 2
        elif what == "blade_miller":
            ev["mod"] -= 1
        elif what == "leader":
            ev["targets"] = tuple(k for k in ev["targets"] if k != action[2])
            if not ev["targets"]:
                self._back_to_act()
                return
        elif what == "peacemaker":
            self._ask_place(t, "dragon", self.seat_of(action[2]), "home", 0)
            return
        else:  # soulwash_temple, guardian, pearlthorn_castle: the action is prevented
            self._back_to_act()
            return
        self._next_react()

    def _resolve_declared(self) -> None:
        ev = self.ev
        assert ev is not None
        if ev["type"] == "claim":
            self.claim(ev["actor"], ev["targets"])
            self._back_to_act()
        else:
            self.node, self.who = "roll", -1

    def claim(self, s: int, targets: Sequence[int | str]) -> None:
        """Claim / Claim Settlement: "Put a claim ring on adjacent settlement or place of power"; "Remove
        opponents claim and put a claim ring"."""
        for key in targets:
            if self.rings_left[s] < 1:
                break
            prev = self.claims.get(key, -1)
            if prev >= 0:
                self.rings_left[prev] += 1
            self.claims[key] = s
            self.rings_left[s] -= 1

    def _remove_claim(self, key: int | str) -> None:
        o = self.claims.pop(key, -1)
        if o >= 0:
            self.rings_left[o] += 1

    def _discard(self, seat: int, card: str) -> None:
        self.hand[seat] = None
        self.played.append(card)

    def _holder(self, card: str) -> int:
        for t, c in enumerate(self.hand):
            if c == card:
                return t
        return -1

    # ---------------------------------------------------------------- dice of the action and tribute phases
    def _chance_roll(self, action: Any) -> None:
        r = action[1]
        ev = self.ev
        assert ev is not None
        typ = ev["type"]
        if typ == "attack":
            if "first" not in ev:
                ev["first"] = r
                return
            self.attack(ev["actor"], ev["defender"], ev["first"] + ev["mod"], r)
            self._back_to_act()
        elif typ == "steal":
            self.steal(ev["actor"], ev["from"], r + ev["mod"])
            self._back_to_act()
        elif typ == "destroy":
            tokens = self.destroy(ev["actor"], ev["target"], r + ev["mod"])
            if tokens:
                self.node = "token"
                self.ev = {"type": "token", "seat": ev["actor"], "left": tokens, "then": "act"}
            else:
                self._back_to_act()
        else:
            self.collect_tribute(ev["seat"], r, ev)

    def attack(self, a: int, d: int, a_roll: int, d_roll: int) -> None:
        """"Opposed Roll, Ties go to defender"; "Lower roll gives 3 coins to the winner"."""
        winner, loser = (a, d) if a_roll > d_roll else (d, a)
        pay = min(T.attack_stake, self.coins[loser])
        self.coins[loser] -= pay
        self.coins[winner] += pay

    def steal(self, s: int, source: int | str, roll: int) -> None:
        """The Steal Chart; "Coins lost to Turnabout or Revolt are given to the Thief's Treasure Chest"."""
        row = T.steal_row(roll)
        gain = row["gain"]
        if gain > 0:
            if source == "chest":
                amt = min(gain, self.chest_coins)
                self.chest_coins -= amt
            else:
                assert isinstance(source, int)
                amt = min(gain, self.coins[source])
                self.coins[source] -= amt
            self.coins[s] += amt
        elif gain < 0:
            amt = min(-gain, self.coins[s])
            self.coins[s] -= amt
            if self.options["turnabout"] == "target" and source != "chest":
                assert isinstance(source, int)
                self.coins[source] += amt
            else:
                self.chest_coins += amt

    def destroy(self, s: int, key: int | str, roll: int) -> int:
        """The Destroy Chart and the Destroyed Chart; returns the treasure tokens earned."""
        row = T.destroy_row(roll)
        claimed = key in self.claims
        if isinstance(key, int):
            kind = KIND_NAME[self.occ[key]]
            is_place = False
        else:
            kind = "town"  # a place of power is paid as a town (docs/rules/narby.md)
            is_place = True
        res = row["claimed"] if claimed else row["unclaimed"]
        tokens = 0
        if res == "revolt":
            loss = min(T.revolt_loss, self.coins[s])
            self.coins[s] -= loss
            self.chest_coins += loss
        elif res == "remove_claim":
            self._remove_claim(key)
        elif res == "ruin":
            if not is_place:
                assert isinstance(key, int)
                self.occ[key] = RUIN
                self.coins[s] += T.destroyed["ruin"][kind]
        elif res in ("destroyed", "destroyed_token", "destroyed_claimed"):
            self._remove_piece(key)
            self.coins[s] += T.destroyed["destroyed_claimed" if res == "destroyed_claimed" else "destroyed"][kind]
            if res == "destroyed_token":
                tokens = 1
        return tokens

    def _remove_piece(self, key: int | str) -> None:
        self._remove_claim(key)
        if isinstance(key, int):
            self.occ[key] = EMPTY
        else:
            for q in B.FOOT[self.places.pop(key)]:
                self.occ[q] = EMPTY

    def _chance_token(self, action: Any) -> None:
        ev = self.ev
        assert ev is not None
        s = ev["seat"]
        self.tok_sum[s] += action[1]
        self.tok_n[s] += 1
        ev["left"] -= 1
        if ev["left"] > 0:
            return
        if ev["then"] == "act":
            self._back_to_act()
        else:
            self._next_tribute()

    # ---------------------------------------------------------------- round: tribute
    def start_tribute(self) -> None:
        self.phase = "tribute"
        self.k = -1
        self._next_tribute()

    def _next_tribute(self) -> None:
        """"each dragon player rolls a d20 to see how tribute will be awarded" — in seat order; a dragon with
        no claim ring on the board has nothing to roll for."""
        self.ev = None
        while True:
            self.k += 1
            s = self.k
            if s >= self.players:
                self.end_of_round()
                return
            if any(o == s for o in self.claims.values()):
                break
        self.ev = {"type": "tribute", "seat": s, "mod": 0, "town": 0, "city": 0}
        if self.hand[s] in ("governor", "sheriff", "mayor"):
            self.node, self.who = "tribute_card", s
        else:
            self.node, self.who = "roll", -1

    def collect_tribute(self, s: int, die: int, ev: dict[str, Any]) -> None:
        """"One d20 roll determines coins collected from all claims. If a dragon is adjacent he automatically
        scores the coins listed. That adjacent claim is not scored as per the d20 roll." """
        roll = die + ev["mod"]
        if self.power_ready(s, "soul_mine"):
            roll += 1
            self.used |= 1 << PIDX["soul_mine"]
        row = T.tribute_row(roll)
        adjrow = T.tribute_adjacent
        d = self.dragon[s]
        coins = 0
        tokens = 0
        occ = self.occ
        for key, o in self.claims.items():
            if o != s:
                continue
            near = self.adjacent_to_dragon(s, key)
            if isinstance(key, str):
                if near:
                    coins += adjrow["place"]
                else:
                    coins += row["place"]
                    tokens += row["place_tokens"]
                continue
            c = occ[key]
            if c == TOWN:
                v = adjrow["town"] if near else row["town"]
                if d == COPPER:
                    v *= 2  # "Town coin tributes are doubled"
                coins += v + ev["town"]
            elif c == CITY:
                v = adjrow["city"] if near else row["city"]
                if d == GOLD and v > 0:
                    v += 1  # "Successful City Tributes earn +1 coin"
                coins += v + ev["city"]
            elif c == RUIN:
                coins += adjrow["ruin"] if near else row["ruin"]
        self.coins[s] += coins
        if row["lose_claim"]:
            mine = self.claims_of(s)
            if len(mine) == 1:
                self._remove_claim(mine[0])
            elif mine:
                self.node, self.who = "lose", s
                self.ev = {"type": "lose", "seat": s}
                return
        if tokens:
            self.node, self.who = "token", -1
            self.ev = {"type": "token", "seat": s, "left": tokens, "then": "tribute"}
            return
        self._next_tribute()

    def end_of_round(self) -> None:
        """"Game plays until a player exceeds 50, 75, or 100 coins": checked when the round's tribute is
        done; the round limit (option ``max_rounds``) ends the game the same way."""
        limit = self.options["max_rounds"]
        if max(self.coins) > self.options["win"] or (limit and self.round >= limit):
            self.phase = "over"
            self.node, self.who = "over", -1
            self.ev = None
            return
        self.start_round()

    # ================================================================== the end
    def result(self) -> tuple[float, ...] | None:
        if self.node != "over":
            return None
        w = self.winners()
        return tuple(1.0 / len(w) if s in w else 0.0 for s in range(self.players))

    def winners(self) -> list[int]:
        """Most coins after the treasure tokens are redeemed; a tie goes to more coins (without tokens);
        a tie on both is shared."""
        best = max((self.total(s), self.coins[s]) for s in range(self.players))
        return [s for s in range(self.players) if (self.total(s), self.coins[s]) == best]

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.total(s)) for s in range(self.players))

    # ================================================================== JSON
    def view(self, seat: int | None) -> dict[str, Any]:
        doc = self.to_json()
        doc["hands"] = [h if (t == seat or h is None) else "hidden" for t, h in enumerate(self.hand)]
        return doc

    def _body_json(self) -> dict[str, Any]:
        occ = self.occ
        ev = self.ev
        return {
            "round": self.round,
            "phase": self.phase,
            "node": self.node,
            "seat": None if self.node in CHANCE_NODES or self.node == "over" else self.who,
            "step": self.k,
            "dice": [self.die, self.die2],
            "dragons": [T.dragon_ids[d] if d >= 0 else None for d in self.dragon],
            "dragon_at": [B.sq_text(a) if a >= 0 else None for a in self.dpos],
            "caves": [B.sq_text(a) if a >= 0 else None for a in self.cave],
            "home": [B.sq_text(a) if a >= 0 else None for a in self.home],
            "settlements": {B.sq_text(q): KIND_NAME[c] for q, c in enumerate(occ) if TOWN <= c <= RUIN},
            "places": {p: B.sq_text(a) for p, a in sorted(self.places.items(), key=lambda x: PIDX[x[0]])},
            "claims": {key_text(k): o for k, o in sorted(self.claims.items(), key=lambda x: _key_order(x[0]))},
            "chest": B.sq_text(self.chest) if self.chest >= 0 else None,
            "chest_coins": self.chest_coins,
            "coins": list(self.coins),
            "tokens": list(self.tok_sum),
            "token_count": list(self.tok_n),
            "rings_left": list(self.rings_left),
            "hands": list(self.hand),
            "played": list(self.played),
            "powers_used": [p for i, p in enumerate(T.place_ids) if (self.used >> i) & 1],
            "order": list(self.order),
            "turn": self.turn,
            "actions_left": self.acts,
            "bonus": dict(zip(BONUS_KEYS, self.bonus)),
            "event": _ev_to_json(ev) if ev is not None else None,
        }

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> "NarbyState":
        return _state_from_json(cls, data, players, options)


# ==================================================================== helpers
_NODE_PHASE = {"dragon_roll": "setup", "dragon_select": "setup", "cave_x": "setup", "cave_y": "setup",
               "draw": "draw", "settle_x": "populate", "settle_y": "populate", "procreator": "populate",
               "upgrade": "populate", "pop_roll": "populate", "pop_choose": "populate", "pop_x": "populate",
               "pop_y": "populate", "chest_x": "populate", "chest_y": "populate", "act": "action",
               "react": "action", "tribute_card": "tribute", "lose": "tribute", "over": "over"}


def _phase_of(node: str, ev: dict[str, Any] | None) -> str:
    if node in _NODE_PHASE:
        return _NODE_PHASE[node]
    typ = ev["type"] if ev is not None else ""
    if node == "place":
        return "setup" if ev is not None and ev.get("then") == "setup" else "action"
    if node == "token":
        return "tribute" if ev is not None and ev.get("then") == "tribute" else "action"
    return "tribute" if typ == "tribute" else "action"  # node roll


def _key_order(k: int | str) -> tuple[int, int]:
    return (0, k) if isinstance(k, int) else (1, PIDX[k])


def _chance_name(node: str) -> str:
    return {"draw": "a card dealt: card ID", "token": "a treasure token: token N"}.get(node, "a d20: roll N")


def seat_label(s: NarbyState, seat: int) -> str:
    """A seat as players read it (the CLI's seat names, the text board): "Seat 1 (red)" is seat 0 of the
    state JSON."""
    if seat < 0:
        return "chance"
    d = s.dragon[seat]
    return f"Seat {seat + 1} ({T.dragon_ids[d]})" if d >= 0 else f"Seat {seat + 1}"


_KEY_FIELDS = {"targets", "target", "towns"}


def _ev_to_json(ev: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in ev.items():
        if k == "target":
            out[k] = key_text(v)
        elif k in ("targets", "towns"):
            out[k] = [key_text(x) for x in v]
        elif k == "queue":
            out[k] = list(v)
        else:
            out[k] = v
    return out


EVENT_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "attack": {"actor": int, "defender": int, "mod": int, "queue": list},
    "steal": {"actor": int, "from": (int, str), "mod": int, "queue": list},
    "destroy": {"actor": int, "target": str, "mod": int, "queue": list},
    "claim": {"actor": int, "targets": list, "queue": list},
    "place": {"by": int, "piece": str, "dragon": int, "mode": str, "range": int, "then": str},
    "upgrade": {"towns": list},
    "place_power": {"place": str},
    "tribute": {"seat": int, "mod": int, "town": int, "city": int},
    "token": {"seat": int, "left": int, "then": str},
    "lose": {"seat": int},
}


EVENT_DEFAULTS: dict[str, Any] = {"mod": 0, "town": 0, "city": 0, "queue": [], "range": 0, "dragon": -1,
                                  "then": "act"}


def _ev_from_json(v: Any, players: int) -> dict[str, Any] | None:
    if v is None:
        return None
    if not isinstance(v, dict) or v.get("type") not in EVENT_FIELDS:
        raise StateFormatError("event", f"must be null or an object with a type among {sorted(EVENT_FIELDS)}")
    spec = EVENT_FIELDS[v["type"]]
    out: dict[str, Any] = {"type": v["type"]}
    for k, typ in spec.items():
        if k not in v and k not in EVENT_DEFAULTS:
            raise StateFormatError(f"event/{k}", "missing")
        raw = v.get(k, EVENT_DEFAULTS.get(k))
        if not isinstance(raw, typ) or isinstance(raw, bool):
            raise StateFormatError(f"event/{k}", f"wrong type {type(raw).__name__}")
        x: Any = raw
        try:
            if k == "target":
                x = key_parse(x)
            elif k in ("targets", "towns"):
                x = tuple(key_parse(str(y)) for y in x)
            elif k == "queue":
                x = tuple(int(y) for y in x)
                if any(not 0 <= y < players for y in x):
                    raise ValueError("seats out of range")
        except ValueError as e:
            raise StateFormatError(f"event/{k}", str(e)) from None
        out[k] = x
    for k in ("actor", "defender", "seat", "by"):
        if k in out and not 0 <= out[k] < players:
            raise StateFormatError(f"event/{k}", f"seat {out[k]} out of range")
    if v["type"] == "steal" and isinstance(out["from"], str) and out["from"] != "chest":
        raise StateFormatError("event/from", "a seat number or \"chest\"")
    if v["type"] == "place" and v["piece"] not in ("dragon", "hut", "chest"):
        raise StateFormatError("event/piece", "dragon, hut or chest")
    if v["type"] == "attack" and "first" in v:
        out["first"] = int(v["first"])
    if v["type"] == "place_power" and out["place"] not in PIDX:
        raise StateFormatError("event/place", f"unknown place of power {out['place']!r}")
    return out


def _state_from_json(cls: type[NarbyState], d: dict[str, Any], players: int,
                     options: dict[str, Any]) -> NarbyState:
    def need(name: str) -> Any:
        if name not in d:
            raise StateFormatError(name, "missing")
        return d[name]

    def as_int(name: str, lo: int | None = None, hi: int | None = None) -> int:
        v = need(name)
        if not isinstance(v, int) or isinstance(v, bool):
            raise StateFormatError(name, f"expected an integer, got {v!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise StateFormatError(name, f"{v} out of range")
        return v

    def seat_list(name: str) -> list[Any]:
        v = need(name)
        if not isinstance(v, list) or len(v) != players:
            raise StateFormatError(name, f"expected a list of {players} entries")
        return v

    def square(name: str, v: Any, anchor: bool = False) -> int:
        if v is None:
            return -1
        try:
            q = B.parse_sq(str(v))
        except ValueError:
            raise StateFormatError(name, f"expected a square \"x,y\" (1-20), got {v!r}") from None
        if anchor and not B.is_anchor(q):
            raise StateFormatError(name, f"{v} cannot be the top-left square of a 2x2 piece")
        return q

    s = object.__new__(cls)
    s.players = players
    s.options = dict(options)
    s.adj = int(options["adjacency"])
    s.cblk = bool(options["chest_blocks"])
    s.round = as_int("round", 0)
    if d.get("phase") not in PHASES:
        raise StateFormatError("phase", f"one of {', '.join(PHASES)}")
    s.node = need("node")
    if s.node not in CHANCE_NODES and s.node not in DECISION_NODES and s.node != "over":
        raise StateFormatError("node", f"unknown node {s.node!r}")
    seat = d.get("seat")
    if s.node in DECISION_NODES:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise StateFormatError("seat", f"a decision node needs the deciding seat, got {seat!r}")
        s.who = seat
    else:
        s.who = -1
    s.k = as_int("step", -1)
    dice = need("dice")
    if not isinstance(dice, list) or len(dice) != 2 or not all(isinstance(x, int) and 0 <= x <= 20 for x in dice):
        raise StateFormatError("dice", "two numbers 0-20 (0: not rolled)")
    s.die, s.die2 = dice
    s.dragon = []
    for i, v in enumerate(seat_list("dragons")):
        if v is None:
            s.dragon.append(-1)
        elif v in T.dragon_index:
            s.dragon.append(T.dragon_index[v])
        else:
            raise StateFormatError(f"dragons/{i}", f"unknown dragon {v!r} (known: {', '.join(T.dragon_ids)})")
    if len([x for x in s.dragon if x >= 0]) != len({x for x in s.dragon if x >= 0}):
        raise StateFormatError("dragons", "a dragon is chosen twice")
    s.dpos = [square(f"dragon_at/{i}", v, True) for i, v in enumerate(seat_list("dragon_at"))]
    s.cave = [square(f"caves/{i}", v) for i, v in enumerate(seat_list("caves"))]
    s.home = [square(f"home/{i}", v) for i, v in enumerate(seat_list("home"))]
    for i in range(players):
        if s.home[i] < 0 and s.cave[i] >= 0:
            s.home[i] = s.cave[i]
        if s.cave[i] >= 0 and s.dragon[i] == UNDEAD:
            raise StateFormatError(f"caves/{i}", "the Undead \"Does not place home cave\"")
    occ = [EMPTY] * B.SQUARES

    def put(name: str, q: int, code: int) -> None:
        if occ[q] != EMPTY:
            raise StateFormatError(name, f"square {B.sq_text(q)} is already taken")
        occ[q] = code

    sett = need("settlements")
    if not isinstance(sett, dict):
        raise StateFormatError("settlements", "an object {\"x,y\": \"town\"|\"city\"|\"ruin\"}")
    for k, v in sett.items():
        if v not in KIND_CODE:
            raise StateFormatError(f"settlements/{k}", "town, city or ruin")
        put(f"settlements/{k}", square(f"settlements/{k}", k), KIND_CODE[v])
    for i, q in enumerate(s.cave):
        if q >= 0:
            put(f"caves/{i}", q, CAVE0 + i)
    s.chest = square("chest", need("chest"))
    if s.chest >= 0:
        put("chest", s.chest, CHEST)
    pl = need("places")
    if not isinstance(pl, dict):
        raise StateFormatError("places", "an object {place_id: \"x,y\"}")
    s.places = {}
    for p, v in pl.items():
        if p not in PIDX:
            raise StateFormatError(f"places/{p}", "unknown place of power")
        a = square(f"places/{p}", v, True)
        s.places[p] = a
        for q in B.FOOT[a]:
            put(f"places/{p}", q, PLACE0 + PIDX[p])
    for i, a in enumerate(s.dpos):
        if a >= 0:
            for q in B.FOOT[a]:
                if q == s.chest and occ[q] == CHEST and not s.cblk:
                    occ[q] = EMPTY  # a dragon may stand over the thief's chest (reading R33)
                put(f"dragon_at/{i}", q, DRAGON0 + i)
    s.occ = occ
    cl = need("claims")
    if not isinstance(cl, dict):
        raise StateFormatError("claims", "an object {\"x,y\" or place_id: seat}")
    s.claims = {}
    for k, o in cl.items():
        try:
            key = key_parse(k)
        except ValueError as e:
            raise StateFormatError(f"claims/{k}", str(e)) from None
        if isinstance(key, str) and key not in s.places:
            raise StateFormatError(f"claims/{k}", "that place of power is not on the board")
        if not isinstance(o, int) or isinstance(o, bool) or not 0 <= o < players:
            raise StateFormatError(f"claims/{k}", f"expected a seat number, got {o!r}")
        s.claims[key] = o
    s.rings_left = []
    for i in range(players):
        used = sum(1 for o in s.claims.values() if o == i)
        total = T.dragons[s.dragon[i]].rings if s.dragon[i] >= 0 else 0
        if used > total:
            raise StateFormatError("claims", f"seat {i} has {used} claim rings on the board, more than {total}")
        s.rings_left.append(total - used)
    s.chest_coins = as_int("chest_coins", 0)
    s.coins = []
    for i, v in enumerate(seat_list("coins")):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise StateFormatError(f"coins/{i}", "a whole number of coins, 0 or more")
        s.coins.append(v)
    s.tok_sum = [int(v) for v in seat_list("tokens")]
    s.tok_n = [int(v) for v in seat_list("token_count")]
    s.hand = []
    for i, v in enumerate(seat_list("hands")):
        if v is not None and v not in T.card_ids:
            raise StateFormatError(f"hands/{i}", f"unknown card {v!r} (known: {', '.join(T.card_ids)})")
        s.hand.append(v)
    played = need("played")
    if not isinstance(played, list) or any(c not in T.card_ids for c in played):
        raise StateFormatError("played", "a list of card ids")
    s.played = list(played)
    dealt = [c for c in s.hand if c is not None] + s.played
    if len(dealt) != len(set(dealt)):
        raise StateFormatError("hands", "a card is in two places (the deck has one card of each title)")
    pu = need("powers_used")
    if not isinstance(pu, list) or any(p not in PIDX for p in pu):
        raise StateFormatError("powers_used", "a list of place of power ids")
    s.used = 0
    for p in pu:
        s.used |= 1 << PIDX[p]
    order = need("order")
    if not isinstance(order, list) or sorted(order) != list(range(players)):
        raise StateFormatError("order", f"a permutation of the seats 0-{players - 1}")
    s.order = list(order)
    s.turn = as_int("turn", 0, players)
    s.acts = as_int("actions_left", 0)
    bonus = need("bonus")
    if not isinstance(bonus, dict) or set(bonus) != set(BONUS_KEYS):
        raise StateFormatError("bonus", f"an object with {', '.join(BONUS_KEYS)}")
    s.bonus = [int(bonus[k]) for k in BONUS_KEYS]
    s.ev = _ev_from_json(need("event"), players)
    s.phase = _phase_of(s.node, s.ev)  # derived: the node (and its event) says which phase it belongs to
    if s.ev is not None and s.phase == "tribute" and "seat" in s.ev:
        s.k = s.ev["seat"]  # the tribute goes on with the next seat after this one
    # ---- coherence of the node with the rest
    node = s.node
    needs_ev = {"react": ("attack", "steal", "destroy", "claim"), "place": ("place",), "upgrade": ("upgrade",),
                "pop_x": ("place_power",), "pop_y": ("place_power",), "token": ("token",),
                "tribute_card": ("tribute",), "lose": ("lose",),
                "roll": ("attack", "steal", "destroy", "tribute")}
    if node in needs_ev and (s.ev is None or s.ev["type"] not in needs_ev[node]):
        raise StateFormatError("event", f"node {node} needs an event of type {' or '.join(needs_ev[node])}")
    if node == "act":
        if s.turn >= players or s.order[s.turn] != s.who:
            s.turn = s.order.index(s.who)  # the acting seat decides which turn of the order this is
        if s.dpos[s.who] < 0:
            raise StateFormatError("dragon_at", f"seat {s.who} acts but its dragon is not on the board")
    if node in ("act", "react", "roll") and s.phase in ("action",):
        missing = [i for i in range(players) if s.dpos[i] < 0 or s.dragon[i] < 0]
        if missing:
            raise StateFormatError("dragon_at", f"seats {missing} have no dragon on the board")
    if node == "react" and s.ev is not None and s.who not in s.ev["queue"][:1]:
        raise StateFormatError("seat", "at node react the seat must be the first of event/queue")
    if node in ("tribute_card",) and s.hand[s.who] not in ("governor", "sheriff", "mayor"):
        raise StateFormatError("hands", "node tribute_card needs a Governor, Sheriff or Mayor in hand")
    if node == "procreator" and s.hand[s.who] != "procreator":
        raise StateFormatError("hands", "node procreator needs the Pro-creator in the seat's hand")
    if node in ("settle_y", "pop_y", "chest_y", "cave_y", "procreator") and s.die == 0:
        raise StateFormatError("dice", f"node {node} needs the first die")
    if node == "procreator" and s.die2 == 0:
        raise StateFormatError("dice", "node procreator needs both dice")
    return s
