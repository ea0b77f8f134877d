"""Narby: the 20x20 grid as planes (settlements, places of power, the chest, and per seat from the observer's
side its claims, dragon, cave and home), then the round, the node, coins, tokens, cards and the action under way.
Other seats' cards are "hidden" in the view: only whether they hold one is written.

``features(view, seat)`` is the definition; ``observe(state, seat)`` writes the same numbers straight from the
state's fields (tests/rl/test_envs.py holds the two equal)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conquest.rl.encodings.base import Encoding, Features
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
_KINDS_ONLY = bytes(c if c in (TOWN, CITY, RUIN) else 0 for c in range(256))  # bytes.translate: settlements only


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
        self._by_seat: dict[int, tuple[Any, ...]] = {}
        self._used_at: dict[int, tuple[int, ...]] = {}
        # the last settlement layout seen (settlements change seldom) and its numbers (0 but for planes 0-2)
        self._kinds = b""
        self._settled = np.zeros(self.size, dtype=np.float32)

    def _seat_tables(self, seat: int) -> tuple[Any, ...]:
        """What ``observe`` needs for one observer (built once): the seats in the observer's order; per owner a
        map from a claim's key (square or place id) to the number it sets; the first number of the dragon, cave
        and home planes of each seat (its dragons, then its caves, then its homes); the seats' places in the
        observer's order."""
        got = self._by_seat.get(seat)
        if got is None:
            n, S = self.players, B.SQUARES
            rel = [(s - seat) % n for s in range(n)]
            claim_at = []
            for s in range(n):
                m: dict[int | str, int] = {q: (5 + rel[s]) * S + q for q in range(S)}
                m.update({p: self._claims0 + i * n + rel[s] for i, p in enumerate(T.place_ids)})
                claim_at.append(m)
            piece_at = [(5 + plane * n + rel[s]) * S for plane in (1, 2, 3) for s in range(n)]
            got = self._by_seat[seat] = (self.others(seat), claim_at, piece_at, dict(enumerate(rel)))
        return got

    def _powers_used(self, used: int) -> tuple[int, ...]:
        """The numbers set by the bits of ``state.used`` (bit i: place i used its power this round)."""
        got = self._used_at.get(used)
        if got is None:
            got = self._used_at[used] = tuple(self._used + i for i in range(len(T.place_ids)) if (used >> i) & 1)
        return got

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
        f.many((1.0 if p in view["powers_used"] else 0.0 for p in T.place_ids))
        f.many((1.0 if c in view["played"] else 0.0 for c in T.card_ids))
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
        read from the state's fields without building the view, each written at its index.

        The only part ``view(seat)`` hides is the card in another seat's hand: of ``state.hand[s]`` for
        ``s != seat`` this reads only whether it is None, as the view's "hidden" tells."""
        order, claim_at, piece_at, who_at = self._seat_tables(seat)
        # planes 0-2: towns, cities and ruins, the squares whose occupancy code is the kind's; the observation
        # starts as a copy of the last settlement layout's, which has nothing else written
        kinds = bytes(state.occ).translate(_KINDS_ONLY)
        if kinds != self._kinds:
            np.equal(np.frombuffer(kinds, dtype=np.uint8), _KIND_CODES, casting="unsafe",
                     out=self._settled[:self._place_plane].reshape(3, -1))
            self._kinds = kinds
        out = self._settled.copy()
        v: Any = out.data  # a memoryview of format "f": one number written at a time, no numpy scalar made
        at = self._place_plane
        for a in state.places.values():  # a place of power's anchor square
            v[at + a] = 1.0
        if state.chest >= 0:
            v[self._chest_plane + state.chest] = 1.0
        for key, owner in state.claims.items():
            v[claim_at[owner][key]] = 1.0
        for at, q in zip(piece_at, state.dpos + state.cave + state.home):
            if q >= 0:
                v[at + q] = 1.0
        v[self._round] = state.round / 100
        node = state.node
        for i in (self._phase_at.get(state.phase), self._node_at.get(node)):
            if i is not None:
                v[i] = 1.0
        who = state.who
        if who in who_at and node not in CHANCE_NODES and node != "over":
            v[self._seat + who_at[who]] = 1.0
        at = self._step
        v[at] = state.k / 3
        v[at + 1] = state.die / 20
        v[at + 2] = state.die2 / 20
        v[at + 3] = state.chest_coins / 50
        v[at + 4] = state.acts / 3
        for i, b in enumerate(state.bonus, at + 5):
            v[i] = b / 3
        if state.used:
            for i in self._powers_used(state.used):
                v[i] = 1.0
        played_at = self._played_at
        for c in state.played:
            if c in played_at:
                v[played_at[c]] = 1.0
        own = state.hand[seat]
        if own in self._hand_at:
            v[self._hand_at[own]] = 1.0
        dragon, hand, rank, win = state.dragon, state.hand, state.order, self._win
        coins, toks, count, rings = state.coins, state.tok_sum, state.tok_n, state.rings_left
        n = self.players
        for s, at in zip(order, self._blocks):
            if dragon[s] >= 0:
                v[at + dragon[s]] = 1.0
            at += _COINS  # then the numbers in the order of the block
            v[at] = coins[s] / win
            v[at + 1] = toks[s] / 10
            v[at + 2] = count[s] / 5
            v[at + 3] = rings[s] / 6
            if hand[s] is not None:  # another seat's card: only whether it holds one
                v[at + 4] = 1.0
            if s in rank:
                i = rank.index(s)
                if i < n:
                    v[at + 5 + i] = 1.0
        if 0 <= state.turn <= self.players:
            v[self._turn + state.turn] = 1.0
        ev = state.ev
        if ev is not None:
            i = self._event_at.get(ev.get("type"))
            if i is not None:
                v[i] = 1.0
            mod = ev.get("mod", 0)
            if mod is not None:
                v[self._mod] = mod / 10
            for at, key in zip(self._who, ("actor", "defender", "seat", "by")):
                w = ev.get(key)
                if isinstance(w, int) and w in who_at:
                    v[at + who_at[w]] = 1.0
        return out


ENCODING = NarbyEncoding
