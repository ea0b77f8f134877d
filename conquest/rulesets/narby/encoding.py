"""Narby: the 20x20 grid as planes (settlements, places of power, the chest, and per seat from the observer's
side its claims, dragon, cave and home), then the round, the node, coins, tokens, cards and the action under way.
Other seats' cards are "hidden" in the view: only whether they hold one is written.

``features(view, seat)`` is the definition; ``observe(state, seat)`` writes the same numbers straight from the
state's fields, into an array of the seat's own where only what changed since its last observation is written
again (tests/rl/test_envs.py and tests/rl/test_narby_observation.py hold the two equal)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conquest.core.encoding import Encoding, Features
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import BONUS_KEYS, CHANCE_NODES, CITY, DECISION_NODES, PHASES, RUIN, TOWN
from conquest.rulesets.narby.notation import KEY_WORDS, NO_ARG, SQ_WORDS
from conquest.rulesets.narby.tables import TABLES as T

SQ = {B.sq_text(s): s for s in range(B.SQUARES)}
NODES = sorted(CHANCE_NODES | DECISION_NODES | {"over"})
KINDS = ("town", "city", "ruin")
VERBS = sorted(NO_ARG | KEY_WORDS | SQ_WORDS | {"card", "dragon", "choose", "claim2", "steal", "attack", "play",
                                                "power", "roll", "token"})
SHIFTS = ("x+2", "x-2", "y+2", "y-2")
EVENTS = ("attack", "steal", "destroy", "claim", "place", "upgrade", "place_power", "tribute", "token", "lose")
# a seat's block of numbers: its dragon (one-hot), then from _COINS its coins, tokens, their count, rings, whether
# it holds a card, then its place in the turn order (one-hot)
_COINS = len(T.dragon_ids)
_KIND_CODES = np.array([[TOWN], [CITY], [RUIN]], dtype=np.uint8)  # the occupancy codes of KINDS, in order
_KIND_AT = (-1, 0, B.SQUARES, 2 * B.SQUARES)  # by occupancy code (TOWN, CITY, RUIN): where its plane starts
_KINDS_ONLY = bytes(c if c in (TOWN, CITY, RUIN) else 0 for c in range(256))  # bytes.translate: settlements only
_NO_SEAT = CHANCE_NODES | {"over"}  # the nodes whose view names no seat


class NarbyEncoding(Encoding):
    ruleset = "narby"
    small = B.SQUARES  # every square is one token

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        # Where each part of ``features`` starts, in the order it writes them: ``observe`` writes by index.
        n, S = players, B.SQUARES
        self._place_plane, self._chest_plane = 3 * S, 4 * S
        self._claims0 = (5 + 4 * n) * S  # claims on places of power: one row of n per place
        t = self._round = self._claims0 + len(T.place_ids) * n
        self._phase_at = {p: t + 1 + i for i, p in enumerate(PHASES)}
        t += 1 + len(PHASES)
        self._node_at = {p: t + i for i, p in enumerate(NODES)}
        self._seat = t + len(NODES)
        t = self._step = self._seat + n  # step, the two dice, the chest's coins, actions left, the four bonuses
        t = self._used = t + 9
        t += len(T.place_ids)
        self._played_at = {c: t + i for i, c in enumerate(T.card_ids)}
        t += len(T.card_ids)
        self._hand_at = {c: t + i for i, c in enumerate(T.card_ids)}
        t += len(T.card_ids)
        block = _COINS + 5 + n
        self._blocks = [t + k * block for k in range(n)]
        t = self._turn = t + n * block
        t += n + 1
        self._event_at = {e: t + i for i, e in enumerate(EVENTS)}
        t = self._mod = t + len(EVENTS)
        self._who = [t + 1 + j * n for j in range(4)]  # the event's actor, defender, seat, by
        self.size = t + 1 + 4 * n
        self._win = options["win"]
        self._used_bytes, self._used_bytes_end = 4 * self._used, 4 * (self._used + len(T.place_ids))
        self._used_bits: dict[int, bytes] = {}  # ``state.used`` -> its powers_used numbers, as bytes
        self._seen = [_Seen(self, seat) for seat in range(n)]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the seats' arrays (their memoryviews cannot be): a copy starts them again, so its
        first observation of each seat writes everything."""
        state = self.__dict__.copy()
        del state["_seen"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._seen = [_Seen(self, seat) for seat in range(self.players)]

    def strings(self) -> list[str]:
        return VERBS + list(T.place_ids) + list(T.dragon_ids) + list(T.card_ids) + ["chest"] + list(SHIFTS)

    def features(self, view: dict[str, Any], seat: int) -> np.ndarray:
        n = self.players
        order = self.others(seat)
        rel = {s: k for k, s in enumerate(order)}
        S = B.SQUARES
        grid = np.zeros((5 + 4 * n, S), dtype=np.float32)
        for sq, kind in view["settlements"].items():
            grid[KINDS.index(kind), SQ[sq]] = 1.0
        for sq in view["places"].values():
            grid[3, SQ[sq]] = 1.0
        if view["chest"]:
            grid[4, SQ[view["chest"]]] = 1.0
        place_claims = np.zeros((len(T.place_ids), n), dtype=np.float32)
        for key, owner in view["claims"].items():
            if key in SQ:
                grid[5 + rel[owner], SQ[key]] = 1.0
            else:
                place_claims[T.place_index[key], rel[owner]] = 1.0
        for plane, field in enumerate(("dragon_at", "caves", "home"), start=1):
            for s, sq in enumerate(view[field]):
                if sq:
                    grid[5 + plane * n + rel[s], SQ[sq]] = 1.0
        f = Features()
        f.add(view["round"], 100)
        f.one_hot(view["phase"], PHASES)
        f.one_hot(view["node"], NODES)
        f.one_hot(rel.get(view["seat"]) if view["seat"] is not None else None, range(n))
        f.add(view["step"], 3)
        f.many(view["dice"], 20)
        f.add(view["chest_coins"], 50)
        f.add(view["actions_left"], 3)
        f.many((view["bonus"][k] for k in BONUS_KEYS), 3)
        f.many(1.0 if p in view["powers_used"] else 0.0 for p in T.place_ids)
        f.many(1.0 if c in view["played"] else 0.0 for c in T.card_ids)
        f.one_hot(view["hands"][seat], T.card_ids)
        for s in order:
            f.one_hot(view["dragons"][s], T.dragon_ids)
            f.add(view["coins"][s], self.options["win"])
            f.add(view["tokens"][s], 10)
            f.add(view["token_count"][s], 5)
            f.add(view["rings_left"][s], 6)
            f.flag(view["hands"][s] is not None)
            f.one_hot(view["order"].index(s) if s in view["order"] else None, range(n))
        f.one_hot(view["turn"], range(n + 1))
        ev = view["event"] or {}
        f.one_hot(ev.get("type"), EVENTS)
        f.add(ev.get("mod", 0), 10)
        for key in ("actor", "defender", "seat", "by"):
            who = ev.get(key)
            f.one_hot(rel.get(who) if isinstance(who, int) else None, range(n))
        return np.concatenate([grid.ravel(), place_claims.ravel(), np.asarray(f.values, dtype=np.float32)])

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """The numbers of ``features(state.view(seat), seat)``, exactly (tests/rl/test_envs.py holds them equal),
        read from the state's fields without building the view.

        Each seat has an array of its own, written in place: ``_Seen`` keeps the values of the state each part
        of it was written from, and a part is written again (its old numbers cleared, its new ones set) only
        where they differ. The board's settlements, places of power and claims are compared whole (the
        settlements as one bytes object), and only the squares and places that differ are written. The array
        returned is the seat's own: the caller copies it before asking again.

        The only part ``view(seat)`` hides is the card in another seat's hand: of ``state.hand[s]`` for
        ``s != seat`` this reads only whether it is None, as the view's "hidden" tells."""
        # Long because: one pass over the state that compares each part with the values it was last written from and
        # rewrites only the numbers that changed; it runs at every step of the RL environments, with the seat's
        # array and its kept values in locals of one frame.
        w = self._seen[seat]
        v = w.v
        self._board(w, state)
        x = state.dpos
        if x != w.dpos:
            _pieces(v, w.dragon_at, w.dpos, x)
        x = state.cave
        if x != w.cave:
            _pieces(v, w.cave_at, w.cave, x)
        x = state.chest
        if x != w.chest:
            at = self._chest_plane
            if w.chest >= 0:
                v[at + w.chest] = 0.0
            if x >= 0:
                v[at + x] = 1.0
            w.chest = x
        x = state.home
        if x != w.home:
            _pieces(v, w.home_at, w.home, x)
        # the numbers after the board
        x = state.round
        if x != w.round:
            v[self._round] = x / 100
            w.round = x
        x = state.phase
        if x != w.phase:
            w.phase_i = _swap(v, w.phase_i, self._phase_at.get(x, -1))
            w.phase = x
        node, x = state.node, state.who
        if node != w.node or x != w.who:
            if node != w.node:
                w.node_i = _swap(v, w.node_i, self._node_at.get(node, -1))
                w.node = node
            w.who = x
            i = w.seat_at.get(x) if node not in _NO_SEAT else None
            w.seat_i = _swap(v, w.seat_i, self._seat + i if i is not None else -1)
        at = self._step
        x = state.k
        if x != w.k:
            v[at] = x / 3
            w.k = x
        x = state.die
        if x != w.die:
            v[at + 1] = x / 20
            w.die = x
        x = state.die2
        if x != w.die2:
            v[at + 2] = x / 20
            w.die2 = x
        x = state.chest_coins
        if x != w.chest_coins:
            v[at + 3] = x / 50
            w.chest_coins = x
        x = state.acts
        if x != w.acts:
            v[at + 4] = x / 3
            w.acts = x
        x = state.bonus
        if x != w.bonus:
            for i, b in enumerate(x, at + 5):
                v[i] = b / 3
            w.bonus[:] = x
        x = state.used
        if x != w.used:
            w.b[self._used_bytes:self._used_bytes_end] = self._powers_used(x)
            w.used = x
        x = state.played
        if x != w.played:
            played_at = self._played_at
            for c in w.played:
                if c in played_at:
                    v[played_at[c]] = 0.0
            for c in x:
                if c in played_at:
                    v[played_at[c]] = 1.0
            w.played[:] = x
        hand = state.hand
        x = hand[seat]
        own_changed = x != w.own
        if own_changed:
            w.own_i = _swap(v, w.own_i, self._hand_at.get(x, -1))
            w.own = x
        # another seat's card: only whether it holds one. With two seats the count of empty hands and the
        # observer's own card tell it; with more, each hand is looked at
        x = hand.count(None) if w.two else [h is None for h in hand]
        if x != w.held or own_changed:
            for s, at in w.held_at:
                v[at] = 0.0 if hand[s] is None else 1.0
            w.held = x
        x = state.coins
        if x != w.coins:
            win = self._win
            for s, at in w.coins_at:
                v[at] = x[s] / win
            w.coins[:] = x
        x = state.tok_sum
        if x != w.tok_sum:
            for s, at in w.coins_at:
                v[at + 1] = x[s] / 10
            w.tok_sum[:] = x
        x = state.tok_n
        if x != w.tok_n:
            for s, at in w.coins_at:
                v[at + 2] = x[s] / 5
            w.tok_n[:] = x
        x = state.rings_left
        if x != w.rings_left:
            for s, at in w.coins_at:
                v[at + 3] = x[s] / 6
            w.rings_left[:] = x
        x = state.dragon
        if x != w.dragon or state.order != w.order:
            self._blocks_of(w, x, state.order)
        x = state.turn
        if x != w.turn:
            w.turn_i = _swap(v, w.turn_i, self._turn + x if 0 <= x <= self.players else -1)
            w.turn = x
        x = state.ev
        if x != w.ev:
            self._event(w, x)
        return w.buf

    def _board(self, w: _Seen, state: Any) -> None:
        """Settlements, places of power and claims written where they differ from the seat's last observation,
        found by comparing them whole."""
        kinds = state.occ.translate(_KINDS_ONLY)
        if kinds != w.kinds:
            np.equal(np.frombuffer(kinds, dtype=np.uint8), _KIND_CODES, out=w.kind_planes)
            w.kinds[:] = kinds
        places = state.places
        if places != w.places:
            v, at = w.v, self._place_plane
            for a in w.places.values():
                v[at + a] = 0.0
            for a in places.values():  # a place of power's anchor square
                v[at + a] = 1.0
            w.places.clear()
            w.places.update(places)
        if state.claims != w.claims:
            self._claims(w, state.claims)

    @staticmethod
    def _claims(w: _Seen, claims: dict[int | str, int]) -> None:
        """Every claim that differs from the seat's last observation: a claim is one number (its key's, from its
        owner's side), set or cleared."""
        v, planes, rows = w.v, w.claim_plane, w.claim_row
        for key, owner in claims.items() ^ w.claims.items():
            v[planes[owner] + key if isinstance(key, int) else rows[owner][key]] = (
                1.0 if claims.get(key, -1) == owner else 0.0)
        w.claims.clear()
        w.claims.update(claims)

    def _powers_used(self, used: int) -> bytes:
        """The numbers of the places' powers used this round (bit i of ``state.used``: place i), as bytes."""
        got = self._used_bits.get(used)
        if got is None:
            bits = [float((used >> i) & 1) for i in range(len(T.place_ids))]
            got = self._used_bits[used] = np.array(bits, dtype=np.float32).tobytes()
        return got

    def _blocks_of(self, w: _Seen, dragon: list[int], order: list[int]) -> None:
        """The seats' dragons and places in the turn order (one-hot, in each seat's block)."""
        v, n = w.v, self.players
        for k, s in enumerate(w.order_of):
            at = self._blocks[k]
            old, d = w.dragon[s], dragon[s]
            if old != d:
                if old >= 0:
                    v[at + old] = 0.0
                if d >= 0:
                    v[at + d] = 1.0
            at += _COINS + 5
            i = order.index(s) if s in order else n
            old = w.order.index(s) if s in w.order else n
            if old != i:
                if old < n:
                    v[at + old] = 0.0
                if i < n:
                    v[at + i] = 1.0
        w.dragon[:] = dragon
        w.order[:] = order

    def _event(self, w: _Seen, ev: dict[str, Any] | None) -> None:
        """The event under way: its type (one-hot), its modifier and the seats it names (from the observer's
        side, one-hot each)."""
        v, hot = w.v, w.ev_at
        for i in hot:
            v[i] = 0.0
        hot.clear()
        v[self._mod] = 0.0
        if ev is not None:
            at = self._event_at.get(ev.get("type", ""), -1)
            if at >= 0:
                hot.append(at)
            mod = ev.get("mod", 0)
            if mod is not None:
                v[self._mod] = mod / 10
            for at, key in zip(self._who, ("actor", "defender", "seat", "by")):
                who = ev.get(key)
                if isinstance(who, int) and who in w.seat_at:
                    hot.append(at + w.seat_at[who])
        for i in hot:
            v[i] = 1.0
        if ev is None:
            w.ev = None
        else:  # the seat's own copy, kept from one event to the next
            w.ev = w.ev_copy
            w.ev.clear()
            w.ev.update(ev)


def _pieces(v: Any, at: list[int], before: list[int], now: list[int]) -> None:
    """One plane per seat (its dragon, its cave or its home): the square it left cleared, the square it is on
    set; ``before`` becomes ``now``."""
    for s, q in enumerate(now):
        old = before[s]
        if q != old:
            if old >= 0:
                v[at[s] + old] = 0.0
            if q >= 0:
                v[at[s] + q] = 1.0
            before[s] = q


def _swap(v: Any, old: int, new: int) -> int:
    """A one-hot moved from index ``old`` to index ``new`` (-1: none); returns ``new``."""
    if old != new:
        if old >= 0:
            v[old] = 0.0
        if new >= 0:
            v[new] = 1.0
    return new


class _Seen:
    """One observer's array, where its parts are, and the state's values each part was last written from. It
    starts as the values that write nothing (every number 0: an empty board), so a
    first observation writes every part that is not 0."""

    __slots__ = ("buf", "v", "b", "kind_planes", "order_of", "seat_at", "two", "claim_plane", "claim_row",
                 "dragon_at", "cave_at", "home_at", "held_at", "coins_at", "kinds", "places", "claims",
                 "chest", "dpos", "cave", "home", "round", "phase", "phase_i", "node", "node_i", "who", "seat_i", "k",
                 "die", "die2", "chest_coins", "acts", "bonus", "used", "played", "own", "own_i", "held", "coins",
                 "tok_sum", "tok_n", "rings_left", "dragon", "order", "turn", "turn_i", "ev", "ev_copy", "ev_at")

    def __init__(self, enc: NarbyEncoding, seat: int) -> None:
        n, S = enc.players, B.SQUARES
        self.buf = np.zeros(enc.size, dtype=np.float32)
        self.v: Any = self.buf.data  # format "f": one number written at a time, no numpy scalar made
        self.b: Any = self.buf.data.cast("B")  # the same numbers as bytes, for a part written whole
        self.kind_planes = self.buf[:3 * S].reshape(3, S)  # planes 0-2: towns, cities, ruins
        # the seats in the observer's order, and each seat's place in it
        self.order_of = enc.others(seat)
        self.seat_at = {s: k for k, s in enumerate(self.order_of)}
        self.two = n == 2
        rel = self.seat_at
        # per owner, where a claim sets its number: the owner's plane of claimed squares (a square's number is
        # the plane's start plus the square), its numbers of claimed places of power (by place id)
        self.claim_plane = [(5 + rel[s]) * S for s in range(n)]
        self.claim_row = [{p: enc._claims0 + i * n + rel[s] for i, p in enumerate(T.place_ids)} for s in range(n)]
        # per seat, the first number of its dragon, cave and home planes
        self.dragon_at, self.cave_at, self.home_at = ([(5 + plane * n + rel[s]) * S for s in range(n)]
                                                      for plane in (1, 2, 3))
        # per seat, its card flag and its coins (then its tokens, their count and its rings)
        self.held_at = [(s, enc._blocks[rel[s]] + _COINS + 4) for s in range(n)]
        self.coins_at = [(s, enc._blocks[rel[s]] + _COINS) for s in range(n)]
        self.kinds = bytearray(S)  # the occupancy codes of the settlements only (0 elsewhere)
        self.places: dict[str, int] = {}
        self.chest = -1
        self.claims: dict[int | str, int] = {}
        self.dpos, self.cave, self.home = [-1] * n, [-1] * n, [-1] * n
        self.round = self.k = self.die = self.die2 = self.chest_coins = self.acts = self.used = 0
        self.phase = self.node = ""
        self.who = -2  # the seat one-hot is written at the first observation
        self.phase_i = self.node_i = self.seat_i = self.own_i = self.turn_i = -1
        self.bonus = [0, 0, 0, 0]
        self.played: list[str] = []
        self.own: str | None = None
        self.held: Any = None  # what tells whether each seat holds a card (see ``observe``)
        self.coins, self.tok_sum, self.tok_n, self.rings_left = [0] * n, [0] * n, [0] * n, [0] * n
        self.dragon = [-1] * n
        self.order: list[int] = []
        self.turn = -1
        self.ev: dict[str, Any] | None = None
        self.ev_copy: dict[str, Any] = {}
        self.ev_at: list[int] = []
