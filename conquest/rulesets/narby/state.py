"""The data of a Narby Conquest position (rules document 001) and the small queries and piece moves every
section shares; the procedures are in the sections' modules (``setup``, ``draw``, ``populate``, ``places``,
``action_phase``, ``actions``, ``charts``, ``tribute``, ``cards``, ``end``), called by ``turn``.

``NarbyData`` holds the fields; ``rules.NarbyState`` is the game's state class, these fields with the
procedures bound. The state is flat: a 400-square occupancy array (a ``bytearray``: every code is below 256)
plus small dicts, so a clone is a handful of list copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from conquest.core.fields import DICT, DICT_OR_NONE, LIST, SHARE, Slots
from conquest.core.game import CHANCE, State
from conquest.core.schema import add_to_counter
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import BABA, CHANCE_NODES, CHEST, DRAGON0, EMPTY, PIDX, PLACE0, RESTING, UNDEAD
from conquest.rulesets.narby.tables import TABLES as T

STAT_KEYS = ("claims", "claims_taken", "places_claimed", "places_destroyed", "settlements_destroyed",
             "settlements_ruined", "attacks", "steals", "destroys", "cards_played", "powers_used", "tribute_coins",
             *(f"tribute_rolls_{b}" for b in ("4_or_less", "5_to_8", "9_to_15", "16_to_19", "20_or_more")))
"""The running counts a finished game reports (``NarbyRuleset.game_stats``, docs/rules/narby.md §5 ``stats``):
claim rings put down (of them taken from another dragon, of them on a place of power), places of power and
settlements destroyed, settlements left in ruins, attacks, steals and destroys rolled (an action a card or a
power prevented is not), bonus cards played, powers of places used, coins won at tribute, and tribute rolls by
band of the modified roll (the published Tribute Chart's rows: ``tribute_band``)."""


def tribute_band(roll: int) -> str:
    """The counter of a modified tribute roll: its row of the published Tribute Chart ("0 to 4", "5 to 8",
    "9 to 15", "16 to 19", "20 to 21", the ends open), whatever chart a variant plays with."""
    band = ("4_or_less" if roll <= 4 else "5_to_8" if roll <= 8 else "9_to_15" if roll <= 15
            else "16_to_19" if roll <= 19 else "20_or_more")
    return f"tribute_rolls_{band}"


def count(s: NarbyData, key: str, n: int = 1) -> None:
    """Add ``n`` to the report counter ``key`` (one of ``STAT_KEYS``), up to ``core.schema.COUNTER_MAX``."""
    add_to_counter(s.stats, key, n)


FIELDS = Slots(players=SHARE, options=SHARE, adj=SHARE, cblk=SHARE, node=SHARE, who=SHARE, k=SHARE, die=SHARE,
               die2=SHARE, round=SHARE, phase=SHARE, dragon=LIST, dpos=LIST, cave=LIST, home=LIST, occ=LIST,
               places=DICT, claims=DICT, chest=SHARE, chest_coins=SHARE, coins=LIST, tok_sum=LIST, tok_n=LIST,
               rings_left=LIST, hand=LIST, played=LIST, used=SHARE, order=LIST, turn=SHARE, acts=SHARE,
               bonus=LIST, ev=DICT_OR_NONE, stats=DICT)
"""Every field of a position and how a copy takes it (``core.fields``)."""


class NarbyData(State):
    __slots__ = FIELDS.names
    clone = FIELDS.clone

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
    occ: bytearray                 # 400 squares: EMPTY, TOWN, CITY, RUIN, CHEST, CAVE0+seat, DRAGON0+seat, PLACE0+i
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
    stats: dict[str, int]          # counters for reports (``STAT_KEYS``); no rule reads them

    # ================================================================== construction
    @classmethod
    def new(cls, players: int, options: dict[str, Any]) -> Self:
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
        s.occ = bytearray([EMPTY] * B.SQUARES)
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
        s.stats = dict.fromkeys(STAT_KEYS, 0)
        # Setup: "Randomly pick a dragon, roll a d20 and drop any leading digits or Select from the Dragon cards"
        if options["dragons"] == "roll":
            s.node, s.who = "dragon_roll", -1
        else:
            s.node, s.who = "dragon_select", 0
        return s

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

    def power_ready_control(self, seat: int, pid: str) -> bool:
        """Control effects (Baba Yaga's Hut) are not once per round: they last while the claim does."""
        return self.controller(pid) == seat

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
        settlement, cave, or place of power, or another dragon" — a ruin counts as a settlement here (reading
        R36); the thief's chest is not in that list, so a dragon may stand over it (reading R33) unless option
        ``chest_blocks`` says otherwise."""
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

    # ---------------------------------------------------------------- where a piece may be put
    def place_options(self) -> list[int]:
        """The squares of ``place x,y`` at node place: where the event's piece may go."""
        ev = self.ev
        assert ev is not None
        return self.place_options_for(ev["piece"], ev.get("dragon", -1), ev["mode"], ev.get("range", 0))

    def place_options_for(self, piece: str, seat: int, mode: str, rng: int) -> list[int]:
        """A dragon beside its home (``home``: Setup, Horror, Peacemaker, Tower of Faces), beside one of its
        claims (``claims``: Jumper) or within ``rng`` spaces (``near``: Confuser, Madhouse, Baba Yaga's Hut);
        the Hut within ``rng`` spaces; the thief's chest within ``rng`` squares (Darkheart Cottage)."""
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


def seat_label(s: NarbyData, seat: int) -> str:
    """A seat as players read it (the CLI's seat names, the text board): "Seat 1 (red)" is seat 0 of the
    state JSON."""
    if seat < 0:
        return "chance"
    d = s.dragon[seat]
    return f"Seat {seat + 1} ({T.dragon_ids[d]})" if d >= 0 else f"Seat {seat + 1}"


# ==================================================================== moving pieces (every section's)
def move_dragon(s: NarbyData, seat: int, b: int) -> None:
    """The dragon leaves its footprint (a thief's chest it stood over shows again) and covers another
    (a chest there stays beneath it: reading R33)."""
    occ = s.occ
    code = DRAGON0 + seat
    if s.dpos[seat] >= 0:
        for r in B.FOOT[s.dpos[seat]]:
            occ[r] = EMPTY
        if s.chest >= 0 and occ[s.chest] == EMPTY:
            occ[s.chest] = CHEST
    for r in B.FOOT[b]:
        occ[r] = code
    s.dpos[seat] = b


def set_chest(s: NarbyData, q: int) -> None:
    """Move the thief's chest to square ``q`` (-1: off the board); a dragon standing over either square
    stays where it is, the chest beneath it."""
    occ = s.occ
    if s.chest >= 0 and occ[s.chest] == CHEST:
        occ[s.chest] = EMPTY
    if q >= 0 and occ[q] == EMPTY:
        occ[q] = CHEST
    s.chest = q


def remove_claim(s: NarbyData, key: int | str) -> None:
    """The claim ring on ``key`` (if any) goes back to its dragon."""
    o = s.claims.pop(key, -1)
    if o >= 0:
        s.rings_left[o] += 1


def put_piece(s: NarbyData, q: int) -> None:
    """``place x,y``: put the event's piece, a dragon (anchor), Baba Yaga's Hut (anchor) or the chest
    (square); the event is done."""
    ev = s.ev
    assert ev is not None
    piece = ev["piece"]
    occ = s.occ
    if piece == "dragon":
        move_dragon(s, ev["dragon"], q)
    elif piece == "hut":
        code = PLACE0 + PIDX[BABA]
        for r in B.FOOT[s.places[BABA]]:
            occ[r] = EMPTY
        for r in B.FOOT[q]:
            occ[r] = code
            if r in s.claims:  # a claim ring on a blank square under the hut goes home
                remove_claim(s, r)
        s.places[BABA] = q
    else:
        set_chest(s, q)
    s.ev = None


def ask_place(s: NarbyData, by: int, piece: str, seat: int, mode: str, rng: int) -> None:
    """Seat ``by`` is to put a piece (node place) in the action phase: ``place_options_for`` says where."""
    s.node, s.who = "place", by
    s.ev = {"type": "place", "by": by, "piece": piece, "dragon": seat, "mode": mode, "range": rng, "then": "act"}


def discard(s: NarbyData, seat: int, card: str) -> None:
    """"Possible Cards, discarded after use"."""
    s.hand[seat] = None
    s.played.append(card)
    count(s, "cards_played")


def holder(s: NarbyData, card: str) -> int:
    """The seat holding ``card`` (-1: nobody)."""
    for t, c in enumerate(s.hand):
        if c == card:
            return t
    return -1
