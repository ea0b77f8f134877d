"""Small World: the regions (whose tokens, which seat from the observer's side, markers), the races and powers
in play, the combo column, the turn and the conquest under way. Other seats' coins are face down (``None`` in
the view): only their being unknown is written.

``features(view, seat)`` defines the numbers; ``observe(state, seat)`` reads the same numbers straight from the
state's fields (the environment's fast path: no JSON view is built)."""

from __future__ import annotations

from typing import Any

import numpy as np

import conquest.rulesets.smallworld.data as D
from conquest.core.encoding import Encoding, Features
from conquest.rulesets.smallworld.state import DECLINED, NP, NR, OUT, PHASE_NAMES, RID, SmallWorldState

RACES = [r["id"] for r in D.RACES]
POWERS = [p["id"] for p in D.POWERS]
MARKERS = ("lost_tribe", "lair", "fortress", "encampments", "hole", "hero", "dragon")
TURN_FLAGS = ("readied", "conquered", "picked", "declined", "dragon_used", "fortress_placed")
COLUMN = 6
# the turn under way as observe reads it: its flags (TURN_FLAGS, from the state's readied, acted, picked,
# declined_now, dragon_used, fort_placed), then conquered_non_empty, berserk_die (written only above 0: -1 is
# none), amazon_debt, camps_loose (each divided by its scale) and the defender (one place per seat, from the
# observer's side)
_TURN_SCALES = (5, 3, 4, 5)
# in a place's races (a seat from the observer's side): its first active race, that race's power, its hand (at
# _HAND_AT), its races in decline (from _DECLINED_AT)
_HAND_AT, _DECLINED_AT = NR + NP, NR + NP + 1
_RN = range(NR)
assert OUT == 0  # a race's status read as "in play or not"


class SmallWorldEncoding(Encoding):
    ruleset = "smallworld"
    small = 64

    def __init__(self, players: int, options: dict[str, Any], verbs: tuple[str, ...] = ()) -> None:
        """``verbs``: the notation's verbs, in its order (the ruleset's ``rl_encoding`` gives them: this module
        does not import the ruleset, which imports it)."""
        super().__init__(players, options)
        self.verbs = tuple(verbs)
        if options["map"] == "standard":
            from conquest.core.registry import get_ruleset
            probe = get_ruleset("smallworld").new_game(players, options, seed=0)
            self.regions = list(probe.view(None)["regions"])
        else:
            self.regions = list(RID)
        self._layout()

    def _layout(self) -> None:
        """Where ``features`` writes each part, for ``observe`` (the order below is the order of ``features``)."""
        p = self.players
        self.o_phase = 1
        self.o_seat = self.o_phase + len(PHASE_NAMES)
        self.o_coins = self.o_seat + p
        self.o_races = self.o_coins + 1
        self.race_block = NR + NP + 1 + NR          # active race, its power, its hand, the declined races
        self.o_column = self.o_races + p * self.race_block
        self.column_block = NR + NP + 1
        self.o_regions = self.o_column + COLUMN * self.column_block
        self.region_block = p + 2 + len(MARKERS)   # owner from the observer's side, declined, tokens, markers
        self.o_turn_state = self.o_regions + len(self.regions) * self.region_block
        self.size = self.o_turn_state + len(TURN_FLAGS) + 4 + p
        # region i of the state (r{i + 1}) is slot i: the standard board's regions are r1..rN in the view, and a
        # generated board has a slot for each of the ids r1..r128
        assert self.regions == list(RID[:len(self.regions)])
        self.slots = len(self.regions)
        self.race_starts = [self.o_races + k * self.race_block for k in range(p)]  # where each place's races start
        self.rows = [self.o_regions + i * self.region_block for i in range(self.slots)]  # where each row starts
        self.o_markers = p + 2  # in a region's row: where its markers start (its tokens are just before)
        # a region's owner code (0: nobody; 1 + 2 * the owner's place, + 1 if the race is in decline) -> the
        # numbers of its row that are 1 (the owner's place, the declined flag)
        self.owner_slots: list[tuple[int, ...]] = [()]
        for k in range(p):
            self.owner_slots += [(k,), (k, p)]
        self._observers: dict[int, _Observer] = {}
        # the numbers of a combo of the column with no coin on it, by race and power; of a place with no combo
        combos = np.zeros((NR, NP, self.column_block), dtype=np.float32)
        for r in range(NR):
            combos[r, :, r] = 1.0
        for power in range(NP):
            combos[:, power, NR + power] = 1.0
        self.combos = [[combos[r, power].data for power in range(NP)] for r in range(NR)]
        self.no_combo = np.zeros(self.column_block, dtype=np.float32).data

    def strings(self) -> list[str]:
        return list(self.verbs) + list(RID) + RACES + POWERS

    def features(self, view: dict[str, Any], seat: int) -> list[float]:
        f = Features()
        order = self.others(seat)
        rel = {s: k for k, s in enumerate(order)}
        races = view["races"]
        f.add(view["turn"], view["turns"])
        f.one_hot(view["phase"], PHASE_NAMES)
        f.one_hot(view["seat"] is not None and rel.get(view["seat"]), range(self.players))
        coins = view["seats"][seat]["coins"]
        f.add(coins, 50)
        for s in order:
            active = [r for r, d in races.items() if d["seat"] == s and d["status"] == "active"]
            declined = [r for r, d in races.items() if d["seat"] == s and d["status"] == "declined"]
            a = active[0] if active else None
            f.one_hot(a, RACES)
            f.one_hot(races[a]["power"] if a else None, POWERS)
            f.add(races[a]["hand"] if a else 0, 10)
            f.many(1.0 if r in declined else 0.0 for r in RACES)
        column = view["column"]
        for k in range(COLUMN):
            c = column[k] if k < len(column) else None
            f.one_hot(c and c["race"], RACES)
            f.one_hot(c and c["power"], POWERS)
            f.add(c["coins"] if c else 0, 5)
        regions = view["regions"]
        for rid in self.regions:
            r = regions.get(rid)
            if r is None:
                f.many([0.0] * (self.players + 2 + len(MARKERS)))
                continue
            race = r["race"]
            owner = races[race]["seat"] if race in races else None
            f.one_hot(rel.get(owner) if owner is not None else None, range(self.players))
            f.flag(race is not None and races.get(race, {}).get("status") == "declined")
            f.add(r["tokens"], 10)
            f.many(r[m] for m in MARKERS)
        ts = view.get("turn_state") or {}
        f.many(1.0 if ts.get(k) else 0.0 for k in TURN_FLAGS)
        f.add(ts.get("nonempty_conquered", 0), 5)
        f.add(ts.get("berserk_die") or 0, 3)
        f.add(ts.get("amazon_debt", 0), 4)
        f.add(ts.get("loose_encampments", 0), 5)
        d = ts.get("defender")
        f.one_hot(rel.get(d) if d is not None else None, range(self.players))
        return f.values

    def observe(self, state: SmallWorldState, seat: int) -> np.ndarray:
        """``features(state.view(seat), seat)`` read straight from the state's fields, as a float32 array.

        It must give exactly the numbers of ``features`` (tests/rl/test_envs.py holds them equal at every
        decision of random games). The only hidden part of a Small World position is the other seats' coins
        ("kept face down"): this reads ``coins[seat]`` and no other seat's.

        Each seat keeps its last numbers and the values of the state they were written from (``_Observer``); a
        call compares the state's values with those and writes only the numbers that changed (most actions change
        a region or two and a hand). A state is not changed once made (``apply`` makes a new one), so the lists of
        the state last observed are kept as they are, not copied. The array returned is the seat's own: the
        caller copies it (``Match.observe``) before it is written again."""
        observer = self._observers.get(seat)
        if observer is None or observer.n != state.board.n:
            if state.board.n > self.slots:  # a board with more regions than slots: only the view's numbering knows
                out: np.ndarray = super().observe(state, seat)
                return out
            observer = self._observers[seat] = _Observer(self, seat, state.board.n)
        return observer.observe(state)


class _Observer:
    """One seat's observation kept up to date: its last numbers (``buf``, written through ``mv``), the values of
    the state they were written from, and where each part is (the encoding's layout, kept here to be read fast).

    The head (turn, phase, seat to play) and the turn under way are written from numbers kept by their values;
    the lists (races, column, regions) are compared with the last ones and only what differs is written. At
    first nothing is written, as if the board were empty and no race in play: the values kept are -1 or -2 where
    a number must be written whatever the state's value is."""

    __slots__ = ("buf", "mv", "n", "seat", "place", "o_coins", "o_column", "o_regions", "o_turn",
                 "column_block", "race_starts", "rows", "tokens_at", "markers_at", "owner_slots", "head", "heads",
                 "coins", "turn", "turns", "slow", "hand", "code", "first", "hands", "region_race", "owners", "tokens",
                 "layout", "regions")

    def __init__(self, encoding: SmallWorldEncoding, seat: int, n: int) -> None:
        p, e = encoding.players, encoding
        self.buf = np.zeros(e.size, dtype=np.float32)
        self.mv: Any = self.buf.data  # its items are the float32 numbers (written with floats)
        self.n, self.seat, self.layout = n, seat, e
        self.regions = range(n)
        self.place = [(s - seat) % p for s in range(p)]  # each seat's place from the observer's side
        self.o_coins, self.o_turn = e.o_coins, e.o_turn_state
        self.o_column, self.o_regions = e.o_column, e.o_regions
        self.column_block, self.race_starts, self.rows, self.owner_slots = (
            e.column_block, e.race_starts, e.rows, e.owner_slots)
        self.markers_at = e.o_markers       # in a region's row: its markers
        self.tokens_at = e.o_markers - 1    # its tokens
        self.head: tuple[int, ...] = (-1,)
        self.heads: dict[tuple[int, ...], memoryview] = {}  # the head's numbers, by its values
        self.coins = -1
        self.turn: tuple[int, ...] = (-1,)
        self.turns: dict[tuple[int, ...], memoryview] = {}  # the numbers of the turn under way, by its values
        # the lists of the races, the column and the markers (as in observe)
        self.slow: tuple[list[int], ...] = ([OUT] * NR, [-1] * NR, [-1] * NR, [], [], [],
                                            *([-1] * n for _ in MARKERS))
        self.hand = [-1] * NR
        self.code = [0] * (NR + 1)           # each race's owner code (the last one: no race, -1)
        self.first = [(-1, -1)] * p          # each place's first active race and its power (-1: none)
        self.hands: list[tuple[int, int]] = []  # where each of those races' hand is written, the race
        self.region_race = [-2] * n
        self.owners = [0] * n                # each region's owner code (see SmallWorldEncoding.owner_slots)
        self.tokens = [-1] * n

    def observe(self, state: SmallWorldState) -> np.ndarray:
        """The seat's numbers for ``state``: the last ones, with what changed since written again."""
        mv = self.mv
        got: Any = (state.turn, state.turns, state.phase, state.seat)
        if got != self.head:
            numbers = self.heads.get(got)
            if numbers is None:
                numbers = _keep(self.heads, got, self._head(got))
            mv[:self.o_coins] = numbers
            self.head = got
        got = state.coins[self.seat]  # the observer's coins: the others' are face down
        if got != self.coins:
            mv[self.o_coins] = got / 50
            self.coins = got
        got = (state.readied, state.acted, state.picked, state.declined_now, state.dragon_used, state.fort_placed,
               state.conquered_non_empty, state.berserk_die, state.amazon_debt, state.camps_loose, state.defender)
        if got != self.turn:
            numbers = self.turns.get(got)
            if numbers is None:
                numbers = _keep(self.turns, got, self._turn(got))
            mv[self.o_turn:] = numbers
            self.turn = got
        # the lists that change less often: the races (the regions of a race whose owner code changed are
        # written again below), the column, the markers
        moved: list[int] = []
        got = (state.rstatus, state.rseat, state.rpower, state.col_race, state.col_power, state.col_coins,
               state.lost, state.lair, state.fort, state.camp, state.hole, state.hero, state.dragon)
        if got != self.slow:
            moved = self._slow(got, state.rhand)
        hand = state.rhand
        if hand != self.hand:
            for i, x in self.hands:
                mv[i] = hand[x] / 10
            self.hand = hand
        # the regions whose race (or its owner) or tokens changed
        rows, R, at = self.rows, self.regions, self.tokens_at
        rr, was_rr, tok, was_tok = state.region_race, self.region_race, state.tokens, self.tokens
        if moved or rr != was_rr:
            code, owners, slots = self.code, self.owners, self.owner_slots
            for i in R:
                if rr[i] != was_rr[i] or tok[i] != was_tok[i] or moved and rr[i] in moved:
                    r, was, now = rows[i], owners[i], code[rr[i]]
                    if was != now:
                        for k in slots[was]:
                            mv[r + k] = 0.0
                        for k in slots[now]:
                            mv[r + k] = 1.0
                        owners[i] = now
                    mv[r + at] = tok[i] / 10
            self.region_race, self.tokens = rr, tok
        elif tok != was_tok:
            for i in R:
                if tok[i] != was_tok[i]:
                    mv[rows[i] + at] = tok[i] / 10
            self.tokens = tok
        return self.buf

    def _head(self, head: tuple[int, ...]) -> memoryview:
        """The first numbers: the turn (of so many), the phase, the seat to play (from the observer's side)."""
        turn, turns, phase, to_play = head
        e = self.layout
        numbers = np.zeros(self.o_coins, dtype=np.float32)
        numbers[0] = turn / turns
        numbers[e.o_phase + phase] = 1.0
        numbers[e.o_seat + self.place[to_play]] = 1.0
        return numbers.data

    def _turn(self, turn: tuple[int, ...]) -> memoryview:
        """The last numbers: the turn under way's flags, its counts, the defender (from the observer's side)."""
        flags = len(TURN_FLAGS)
        conquered_non_empty, berserk_die, debt, loose, defender = turn[flags:]
        numbers = np.zeros(self.layout.size - self.o_turn, dtype=np.float32)
        numbers[:flags] = [1.0 if v else 0.0 for v in turn[:flags]]
        counts = (conquered_non_empty, max(berserk_die, 0), debt, loose)
        numbers[flags:flags + 4] = [x / scale for x, scale in zip(counts, _TURN_SCALES)]
        if defender >= 0:
            numbers[flags + 4 + self.place[defender]] = 1.0
        return numbers.data

    def _slow(self, slow: tuple[list[int], ...], hand: list[int]) -> list[int]:
        """Writes what changed in the races, the column and the markers; returns the races whose regions' owner
        numbers change (see ``_races``)."""
        before, moved = self.slow, []
        if slow[:3] != before[:3]:
            moved = self._races(slow[0], slow[1], slow[2], hand)
        if slow[3:6] != before[3:6]:
            self._column(slow[3], slow[4], slow[5])
        if slow[6:] != before[6:]:  # the markers that changed, region by region
            mv, rows, R, at = self.mv, self.rows, self.regions, self.markers_at - 6
            for m in range(6, len(slow)):
                now, then = slow[m], before[m]
                if now != then:
                    for i in R:
                        if now[i] != then[i]:
                            mv[rows[i] + at + m] = now[i]
        self.slow = slow
        return moved

    def _races(self, rstatus: list[int], rseat: list[int], rpower: list[int], hand: list[int]) -> list[int]:
        """Writes the races whose status, seat or power changed: the declined ones' flags, and each place's first
        active race, its power and its hand. Keeps each race's owner code for the regions (0: not in play;
        1 + 2 * its place, + 1 if in decline) and returns the races whose code changed from another code than 0
        (their regions are written again; a race out of play holds no region)."""
        mv, place, starts, code = self.mv, self.place, self.race_starts, self.code
        was_status, was_seat, was_power = self.slow[0], self.slow[1], self.slow[2]
        places = set()  # the places whose first active race is found again
        moved = []
        for x in ([x for x in _RN if rstatus[x] != was_status[x]] if rseat == was_seat and rpower == was_power else
                  [x for x in _RN if rstatus[x] != was_status[x] or rseat[x] != was_seat[x]
                   or rpower[x] != was_power[x]]):
            c = 2 * place[rseat[x]] + (2 if rstatus[x] == DECLINED else 1) if rstatus[x] else 0
            was = code[x]
            if c != was:
                if was & 1:
                    places.add(was >> 1)
                elif was:
                    mv[starts[(was >> 1) - 1] + _DECLINED_AT + x] = 0.0
                if c and not c & 1:
                    mv[starts[(c >> 1) - 1] + _DECLINED_AT + x] = 1.0
                if was:
                    moved.append(x)
                code[x] = c
            if c & 1:
                places.add(c >> 1)
        first = self.first
        for k in places:
            x = code.index(1 + 2 * k) if 1 + 2 * k in code else -1
            now = (x, rpower[x] if x >= 0 else -1)
            if now != first[k]:
                start, (y, power) = starts[k], first[k]
                if y >= 0:
                    mv[start + y] = 0.0
                    mv[start + NR + power] = 0.0
                if x >= 0:
                    mv[start + x] = 1.0
                    mv[start + NR + now[1]] = 1.0
                else:
                    mv[start + _HAND_AT] = 0.0
                first[k] = now
        self.hands = [(starts[k] + _HAND_AT, x) for k, (x, _power) in enumerate(first) if x >= 0]
        for i, x in self.hands:
            mv[i] = hand[x] / 10
        self.hand = hand
        return moved

    def _column(self, races: list[int], powers: list[int], coins: list[int]) -> None:
        """Writes the combo column again (a race drawn and waiting for its power is not a combo yet): each
        combo's numbers, then its coins."""
        mv, start, size, combos = self.mv, self.o_column, self.column_block, self.layout.combos
        for r, power, c in zip(races[:COLUMN], powers, coins):
            mv[start:start + size] = combos[r][power]
            if c:
                mv[start + NR + NP] = c / 5
            start += size
        while start < self.o_regions:
            mv[start:start + size] = self.layout.no_combo
            start += size


def _keep(numbers_of: dict[tuple[int, ...], memoryview], key: tuple[int, ...], numbers: memoryview) -> memoryview:
    """``numbers`` kept under ``key`` (a dictionary grown large is emptied first: its keys are few in play)."""
    if len(numbers_of) >= 4096:
        numbers_of.clear()
    numbers_of[key] = numbers
    return numbers
