"""Kingdom (the Conquest module): the board from the seat's side (its armies first), the round, the phase and the
move under way. The whole state is public, so the view is the state."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from conquest.core.encoding import Encoding, Features
from conquest.rulesets.kingdom.board import load_board
from conquest.rulesets.kingdom.notation import NOTATION
from conquest.rulesets.kingdom.rules import ARMIES_PER_PLAYER, OVER, PHASES, KingdomState

# where the head's numbers are (see features)
_PHASE = 1
_CURRENT = _PHASE + len(PHASES)
_FIRST, _SOLDIERS, _RESERVE, _POINTS, _STOPPED = _CURRENT + 1, _CURRENT + 2, _CURRENT + 4, _CURRENT + 6, _CURRENT + 8
_NO_TURN = [0.0, 0.0, 0.0]
"""The flag of the seat to move once the game is over, by the seat named: the view names none."""
TOKENS = ("trap", "spy", "destroy", "double_move", "krystallium")
PRODUCTION = ("material", "energy", "science", "gold", "exploration")
_COUNTS = len(TOKENS) + len(PRODUCTION)
_SCALE = [3] * len(TOKENS) + [10] * len(PRODUCTION)
"""A seat's counts of effects and production, and the scale of each."""
_ARMIES = float(ARMIES_PER_PLAYER)


class KingdomEncoding(Encoding):
    ruleset = "kingdom"
    small = 64

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.board = load_board(options["board"])
        self.territories = list(self.board.names)
        self.locations = list(self.board.loc_ids)
        # where each part of the observation starts (see features): the head, the territories (8 numbers
        # each), the locations (2 each), then the task and the two seats' counts
        self._t0 = _STOPPED + 2
        self._l0 = self._t0 + 8 * self.board.territories
        self._tail = self._l0 + 2 * len(self.locations)
        self.size = self._tail + 2 + 2 * (len(TOKENS) + len(PRODUCTION) + 2)
        # for observe: where each phase's flag is and each location's kind (its place among a seat's counts: the
        # effects, then the production)
        self._rounds = options["rounds"]
        self._phase_at = {ph: _PHASE + i for i, ph in enumerate(PHASES)}
        self._kind = [(TOKENS + PRODUCTION).index(kind) for kind in self.board.loc_kind]
        # by the length in bits of the differences between two lists packed a byte an item: the highest item that
        # differs and the bits below it
        self._highest = [(0, 0)] + [((n - 1) >> 3, (1 << ((n - 1) & -8)) - 1)
                                  for n in range(1, 8 * max(2 * self.board.territories, len(self.locations)) + 1)]
        self._start = KingdomState.setup(options)
        """The state every game starts from: each seat's array is kept as it is there (``_restart``)."""
        self._arrays()

    def _arrays(self) -> None:
        """The packer of the locations' pawns and each seat's array (made again in a copy: a struct and a
        memoryview cannot be pickled)."""
        self._pack_locations = struct.Struct(f"{len(self.locations)}b").pack
        self._seats: list[_Written] = []
        for seat in (0, 1):
            self._written(seat)

    def strings(self) -> list[str]:
        return list(NOTATION.forms) + self.territories + self.locations

    def features(self, view: dict[str, Any], seat: int) -> list[float]:
        f = Features()
        me, op = seat, 1 - seat
        f.add(view["round"], self.options["rounds"])
        f.one_hot(view["phase"], PHASES)
        f.flag(view["current"] == me)
        f.flag(view["first_player"] == me)
        for key, scale in (("soldiers", 20), ("reserve", ARMIES_PER_PLAYER), ("points", 40)):
            f.add(view[key][me], scale)
            f.add(view[key][op], scale)
        f.flag(view["stopped"] == me)
        f.flag(view["stopped"] == op)
        move = view["move"] or {"to": None, "from": {}}
        control = view["derived"]["control"]
        armies, moving, to = view["armies"], move["from"], move["to"]
        mine, theirs = self.board.castles[me], self.board.castles[op]
        A = float(ARMIES_PER_PLAYER)
        f.values.extend([x for t, tid in enumerate(self.territories) for x in (
            armies[tid][me] / A, armies[tid][op] / A, control[tid] == me, control[tid] == op, t == mine,
            t == theirs, to == tid, moving.get(tid, 0) / A)])
        locations = view["locations"]
        f.values.extend([x for loc in self.locations for x in (locations[loc] == me, locations[loc] == op)])
        task = view["tasks"][0] if view["tasks"] else None
        f.one_hot(task and task["kind"], ("vacate", "place"))
        d = view["derived"]
        for p in (me, op):
            f.many((d["tokens"][p][k] for k in TOKENS), 3)
            f.many((d["production"][p][k] for k in PRODUCTION), 10)
            f.add(d["territory_vp"][p], 10)
            f.add(d["score"][p], 50)
        return f.values

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """The numbers of ``features(state.view(seat), seat)`` read straight from the state (every part of a
        Kingdom state is public, so nothing is left unread for being hidden). Must match ``features``
        exactly: tests/rl/test_envs.py holds them equal over random games.

        Each seat's array is kept with the engine values it was last written from, and only the numbers whose
        values differ are written again: the counts of armies and the locations that changed are found from the
        bits that differ between the old and new lists read as integers (a byte each), and the control of the
        territories, their points and the seats' counts of effects and production are kept up to date from
        those changes alone; a new game puts back the array kept from the start of a game. The array returned is
        that seat's own: the caller copies it (``Match.observe``) before it is written again."""
        # Long because: one pass over the state that compares each part with the values it was last written from and
        # rewrites only the numbers that changed; it runs at every step of the RL environments, with the seat's
        # array and its kept values in locals of one frame.
        w = self._seats[seat]
        mv = w.mv
        op = 1 - seat
        # the head
        phase = state.phase
        if phase != w.phase:
            mv[w.phase_at] = 0.0
            w.phase_at = at = self._phase_at[phase]
            mv[at] = 1.0
            w.phase = phase
            w.turn = w.turns if phase != OVER else _NO_TURN
        mv[_CURRENT] = w.turn[state.current]
        if state.round != w.round:
            w.round = state.round
            mv[0] = state.round / self._rounds
        if state.first != w.first:
            w.first = state.first
            mv[_FIRST] = 1.0 if state.first == seat else 0.0
        soldiers = state.soldiers
        if soldiers != w.soldiers:
            w.soldiers = soldiers[:]
            mv[_SOLDIERS], mv[_SOLDIERS + 1] = soldiers[seat] / 20, soldiers[op] / 20
        reserve = state.reserve
        if reserve != w.reserve:
            w.reserve = reserve[:]
            mv[_RESERVE], mv[_RESERVE + 1] = reserve[seat] / ARMIES_PER_PLAYER, reserve[op] / ARMIES_PER_PLAYER
        points = state.points
        scores = points != w.points
        if scores:
            w.points = points[:]
            mv[_POINTS], mv[_POINTS + 1] = points[seat] / 40, points[op] / 40
        if state.stopped != w.stopped:
            w.stopped = stopped = state.stopped
            mv[_STOPPED], mv[_STOPPED + 1] = 1.0 if stopped == seat else 0.0, 1.0 if stopped == op else 0.0
        # the counts of armies that changed, and where a count became or stopped being zero, the control of the
        # territory and its points: only one seat can have armies in a territory ("a move sends every enemy army
        # home"), so a territory is a seat's when that seat has armies there, but for the castles, always their
        # owner's (their control was written with the array)
        A = state.armies
        if A != w.armies:
            if A == self._start.armies and state.loc == self._start.loc and w.start is not None:
                # the board every game starts from (a new game): the seat's array as it was then
                self._restart(w)
                scores = True
            else:
                now = int.from_bytes(bytes(A), "little")
                diff = now ^ w.armies_bits
                w.armies_bits = now
                before, info, highest, tvp = w.armies, w.army_info, self._highest, w.tvp
                while diff:
                    e, below = highest[diff.bit_length()]
                    diff &= below
                    n = A[e]
                    was = before[e]
                    before[e] = n
                    at, k, vp = info[e]
                    mv[at] = n / _ARMIES
                    if k and not (n and was):
                        if n:
                            mv[k] = 1.0
                            tvp[e & 1] += vp
                        else:
                            mv[k] = 0.0
                            tvp[e & 1] -= vp
                        scores = True
        # the move under way: its destination and the armies sent from each territory
        to = state.move_to
        if to != w.move_to or state.move_from is not w.move_from:
            moving = state.move_from if to >= 0 else ()
            t0 = self._t0
            if w.move_to >= 0:
                mv[t0 + 8 * w.move_to + 6] = 0.0
            for t, _n in w.moving:
                mv[t0 + 8 * t + 7] = 0.0
            if to >= 0:
                mv[t0 + 8 * to + 6] = 1.0
            for t, n in moving:
                mv[t0 + 8 * t + 7] = n / _ARMIES
            w.move_to, w.move_from, w.moving = to, state.move_from, moving
        # the locations whose pawn changed: the seat's pawn and the other's, and the counts of effects and
        # production of the seats that lost or took it
        loc = state.loc
        if loc != w.loc:
            now = int.from_bytes(self._pack_locations(*loc), "little")
            diff = now ^ w.loc_bits
            w.loc_bits = now
            before, places, flags, highest, counts = w.loc, w.loc_info, w.loc_flags, self._highest, w.counts
            while diff:
                i, below = highest[diff.bit_length()]
                diff &= below
                o = loc[i]
                was = before[i]
                before[i] = o
                j, of, scale = places[i]
                mv[j], mv[j + 1] = flags[o]
                if was >= 0:
                    at = of[was]
                    n = counts[at] - 1
                    counts[at] = n
                    mv[at] = n / scale
                if o >= 0:
                    at = of[o]
                    n = counts[at] + 1
                    counts[at] = n
                    mv[at] = n / scale
        # the tail: the task under way, each seat's territory points and score
        tasks = state.tasks
        if tasks is not w.tasks:
            w.tasks = tasks
            task = tasks[0][0] if tasks else None
            tail = self._tail
            mv[tail], mv[tail + 1] = 1.0 if task == "vacate" else 0.0, 1.0 if task == "place" else 0.0
        if scores:
            i0, i1, i2, i3 = w.score_at
            a, b = w.tvp[seat], w.tvp[op]
            mv[i0], mv[i1], mv[i2], mv[i3] = a / 10, (points[seat] + a) / 50, b / 10, (points[op] + b) / 50
        return w.buf

    def _written(self, seat: int) -> _Written:
        """A seat's array as the numbers of an empty board (no armies, every location free, no move, no task,
        no points), with what never changes for the seat written: its castle and the other's, each always
        controlled by its owner, and the production icons of the castles; and where the seat's numbers are.
        Its head is written at the first observation."""
        b, t0, op = self.board, self._t0, 1 - seat
        w = _Written(self.size, 2 * b.territories, len(self.locations), self._pack_locations)
        buf = w.buf
        for owner, t in enumerate(b.castles):
            buf[t0 + 8 * t + 2 + (owner != seat)] = 1.0
            buf[t0 + 8 * t + 4 + (owner != seat)] = 1.0
        # per count of armies (armies[2 * territory + seat]): where it is, where the flag of that seat's control
        # of the territory is (0: none, a castle) and the points that control is worth
        w.army_info = [(t0 + 8 * (e >> 1) + ((e & 1) != seat),
                        0 if e >> 1 in b.castles else t0 + 8 * (e >> 1) + 2 + ((e & 1) != seat),
                        0 if e >> 1 in b.castles else b.vp[e >> 1][e & 1]) for e in range(2 * b.territories)]
        w.turns = [1.0 if p == seat else 0.0 for p in (0, 1)] + [0.0]
        # a location's two numbers by the seat on it (0, 1, or -1: the last); per location, where they are, where
        # the count of its kind is for each seat, and that count's scale; the counts (castle icons included) are
        # kept where they are written
        w.loc_flags = [(1.0 if o == seat else 0.0, 1.0 if o == op else 0.0) for o in (0, 1)] + [(0.0, 0.0)]
        at = [self._tail + 2 + (_COUNTS + 2) * (p != seat) for p in (0, 1)]
        w.loc_info = [(self._l0 + 2 * i, (at[0] + k, at[1] + k), _SCALE[k]) for i, k in enumerate(self._kind)]
        w.score_at = (at[seat] + _COUNTS, at[seat] + _COUNTS + 1, at[op] + _COUNTS, at[op] + _COUNTS + 1)
        w.counts = [0] * self.size
        for p in (0, 1):
            for icon in b.castle_icons[p]:
                w.counts[at[p] + len(TOKENS) + PRODUCTION.index(icon)] += 1
            for k in range(_COUNTS):
                buf[at[p] + k] = w.counts[at[p] + k] / _SCALE[k]
        # the array at the start of a game, and what it was written from
        self._seats.append(w)
        self.observe(self._start, seat)
        w.start = (buf[t0:].copy().data, w.armies[:], w.armies_bits, w.loc[:], w.loc_bits, w.tvp[:],
                   w.counts[:])
        return w

    def _restart(self, w: _Written) -> None:
        """The seat's array as it was at the start of a game (its board, counts and task: all but the head)."""
        board, w.armies, w.armies_bits, w.loc, w.loc_bits, w.tvp, w.counts = w.start
        w.mv[self._t0:] = board
        w.armies, w.loc, w.tvp, w.counts = w.armies[:], w.loc[:], w.tvp[:], w.counts[:]
        w.move_to, w.move_from, w.moving, w.tasks = self._start.move_to, self._start.move_from, (), self._start.tasks

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the seats' arrays and the packer of the locations (a memoryview and a struct cannot be
        pickled): a copy makes them afresh."""
        state = self.__dict__.copy()
        del state["_seats"], state["_pack_locations"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._arrays()


class _Written:
    """A seat's array, a writable view of it, where the seat's numbers are in it, and the engine values it was
    last written from."""

    __slots__ = ("buf", "mv", "phase", "phase_at", "turns", "turn", "round", "first", "stopped", "soldiers",
                 "reserve", "points", "armies", "armies_bits", "army_info", "tvp", "move_to", "move_from", "moving",
                 "loc", "loc_bits", "loc_flags", "loc_info", "counts", "score_at", "tasks", "start")

    def __init__(self, size: int, armies: int, locations: int, pack_locations: Any) -> None:
        self.buf = np.zeros(size, dtype=np.float32)
        self.mv: Any = self.buf.data
        """The array as a memoryview of floats (a number written there costs less than in the array)."""
        self.phase: str | None = None
        self.phase_at = _PHASE
        self.turns: list[float] = []
        """The flag of the seat to move, by the seat to move (-1: the last)."""
        self.turn = _NO_TURN
        self.round = self.first = -1
        self.stopped: int | None = None
        self.soldiers: list[int] | None = None
        self.reserve: list[int] | None = None
        self.points: list[int] | None = None
        self.armies = [0] * armies
        self.armies_bits = 0
        self.army_info: list[tuple[int, int, int]] = []
        self.tvp = [0, 0]
        """Each seat's territory points, as written."""
        self.move_to = -1
        self.move_from: Any = ()
        self.moving: Any = ()
        self.loc = [-1] * locations
        self.loc_bits = int.from_bytes(pack_locations(*self.loc), "little")
        self.loc_flags: list[tuple[float, float]] = []
        self.loc_info: list[tuple[int, tuple[int, int], int]] = []
        self.counts: list[int] = []
        """Each seat's counts of effects and production (castle icons included), where they are written."""
        self.score_at: tuple[int, int, int, int] = (0, 0, 0, 0)
        """Where the seat's territory points and score are, then the other's."""
        self.tasks: Any = ()
        self.start: Any = None
        """The array's board part at the start of a game and what it was written from (``_restart``)."""
