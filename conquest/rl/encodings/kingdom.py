"""Kingdom (the Conquest module): the board from the seat's side (its armies first), the round, the phase and the
move under way. The whole state is public, so the view is the state."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from conquest.rl.encodings.base import Encoding, Features
from conquest.rulesets.kingdom.board import load_board
from conquest.rulesets.kingdom.notation import NOTATION
from conquest.rulesets.kingdom.rules import ARMIES_PER_PLAYER, OVER, PHASES

# where the head's numbers are (see features)
_PHASE = 1
_CURRENT = _PHASE + len(PHASES)
_FIRST, _SOLDIERS, _RESERVE, _POINTS, _STOPPED = _CURRENT + 1, _CURRENT + 2, _CURRENT + 4, _CURRENT + 6, _CURRENT + 8
TOKENS = ("trap", "spy", "destroy", "double_move", "krystallium")
PRODUCTION = ("material", "energy", "science", "gold", "exploration")


class KingdomEncoding(Encoding):
    ruleset = "kingdom"
    small = 64

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.board = load_board(options["board"])
        self.territories = list(self.board.names)
        self.locations = list(self.board.loc_ids)
        self._phase_hot = {ph: tuple(1.0 if ph == other else 0.0 for other in PHASES) for ph in PHASES}
        # where each part of the observation starts (see features): the head, the territories (8 numbers
        # each), the locations (2 each), then the task and the two seats' counts
        self._t0 = _STOPPED + 2
        self._l0 = self._t0 + 8 * self.board.territories
        self._tail = self._l0 + 2 * len(self.locations)
        self.size = self._tail + 2 + 2 * (len(TOKENS) + len(PRODUCTION) + 2)
        # for observe: where each phase's flag and each territory's numbers are, the bits below a territory's (16
        # bits each) and a location's (8 each), the locations' pawns packed as bytes (-1 free, 0, 1), each
        # territory's points when controlled (None: a castle, always its owner's and worth none), each
        # location's place among a seat's counts (its effects, then its production) and that count's scale
        self._rounds = options["rounds"]
        self._phase_at = {ph: _PHASE + i for i, ph in enumerate(PHASES)}
        self._at_territory = [self._t0 + 8 * t for t in range(self.board.territories)]
        self._below_territory = [(1 << 16 * t) - 1 for t in range(self.board.territories)]
        self._below_location = [(1 << 8 * i) - 1 for i in range(len(self.locations))]
        self._pack_locations = struct.Struct(f"{len(self.locations)}b").pack
        self._vp = [None if t in self.board.castles else self.board.vp[t] for t in range(self.board.territories)]
        self._slot = [(TOKENS + PRODUCTION).index(kind) for kind in self.board.loc_kind]
        self._count_scale = [3] * len(TOKENS) + [10] * len(PRODUCTION)
        self._seats: list[_Written | None] = [None, None]

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
        values differ are written again: the territories and locations that changed are found from the bits
        that differ between the old and new lists read as integers (a territory's two counts of armies in 16
        bits, a location's pawn in 8), and the territory points and the seats' counts of effects and
        production are kept up to date from those changes alone. The array returned is that seat's own: the
        caller copies it (``Match.observe``) before it is written again."""
        w = self._seats[seat]
        if w is None:
            w = self._seats[seat] = self._written(seat)
        mv = w.mv
        op = 1 - seat
        # the head
        phase = state.phase
        if phase != w.phase:
            mv[w.phase_at] = 0.0
            w.phase_at = at = self._phase_at[phase]
            mv[at] = 1.0
            w.phase = phase
        if state.round != w.round:
            w.round = state.round
            mv[0] = state.round / self._rounds
        mv[_CURRENT] = 1.0 if state.current == seat and phase != OVER else 0.0
        mv[_FIRST] = 1.0 if state.first == seat else 0.0
        soldiers = state.soldiers
        if soldiers != w.soldiers:
            mv[_SOLDIERS] = soldiers[seat] / 20
            mv[_SOLDIERS + 1] = soldiers[op] / 20
            w.soldiers = soldiers[:]
        reserve = state.reserve
        if reserve != w.reserve:
            mv[_RESERVE] = reserve[seat] / ARMIES_PER_PLAYER
            mv[_RESERVE + 1] = reserve[op] / ARMIES_PER_PLAYER
            w.reserve = reserve[:]
        points = state.points
        scores = points != w.points
        if scores:
            mv[_POINTS] = points[seat] / 40
            mv[_POINTS + 1] = points[op] / 40
            w.points = points[:]
        stopped = state.stopped
        mv[_STOPPED] = 1.0 if stopped == seat else 0.0
        mv[_STOPPED + 1] = 1.0 if stopped == op else 0.0
        # the territories whose armies changed: the seat's armies and the other's, who controls it (a castle is
        # always its owner's: its control was written with the array) and the territory points
        A = state.armies
        if A != w.armies:
            now = int.from_bytes(bytes(A), "little")
            diff = now ^ w.armies_bits
            w.armies, w.armies_bits = A[:], now
            at_t, low, vps, control, tvp = self._at_territory, self._below_territory, self._vp, w.control, w.tvp
            AP = float(ARMIES_PER_PLAYER)
            while diff:
                t = (diff.bit_length() - 1) >> 4
                diff &= low[t]
                a0, a1 = A[2 * t], A[2 * t + 1]
                i = at_t[t]
                if seat:
                    mv[i], mv[i + 1] = a1 / AP, a0 / AP
                else:
                    mv[i], mv[i + 1] = a0 / AP, a1 / AP
                c = 0 if a0 else 1 if a1 else -1
                was = control[t]
                if c != was:
                    vp = vps[t]
                    if vp is not None:
                        control[t] = c
                        if was >= 0:
                            tvp[was] -= vp[was]
                        if c >= 0:
                            tvp[c] += vp[c]
                        mv[i + 2] = 1.0 if c == seat else 0.0
                        mv[i + 3] = 1.0 if c == op else 0.0
                        scores = True
        # the move under way: its destination and the armies sent from each territory
        to = state.move_to
        moving = state.move_from if to >= 0 else ()
        if to != w.move_to or moving != w.moving:
            t0, AP = self._t0, float(ARMIES_PER_PLAYER)
            if w.move_to >= 0:
                mv[t0 + 8 * w.move_to + 6] = 0.0
            for t, _n in w.moving:
                mv[t0 + 8 * t + 7] = 0.0
            if to >= 0:
                mv[t0 + 8 * to + 6] = 1.0
            for t, n in moving:
                mv[t0 + 8 * t + 7] = n / AP
            w.move_to, w.moving = to, moving
        # the locations whose pawn changed: the seat's pawn and the other's, and the counts of effects and
        # production of the seats that lost or took it
        loc = state.loc
        if loc != w.loc:
            now = int.from_bytes(self._pack_locations(*loc), "little")
            diff = now ^ w.loc_bits
            before = w.loc
            w.loc, w.loc_bits = loc[:], now
            low, slots, scales, counts, at = self._below_location, self._slot, self._count_scale, w.counts, w.at
            l0 = self._l0
            while diff:
                i = (diff.bit_length() - 1) >> 3
                diff &= low[i]
                o, was = loc[i], before[i]
                j = l0 + 2 * i
                mv[j] = 1.0 if o == seat else 0.0
                mv[j + 1] = 1.0 if o == op else 0.0
                k = slots[i]
                if was >= 0:
                    c = counts[was]
                    c[k] -= 1
                    mv[at[was] + k] = c[k] / scales[k]
                if o >= 0:
                    c = counts[o]
                    c[k] += 1
                    mv[at[o] + k] = c[k] / scales[k]
        # the tail: the task under way, each seat's territory points and score
        tasks = state.tasks
        if tasks is not w.tasks:
            tail = self._tail
            task = tasks[0][0] if tasks else None
            mv[tail] = 1.0 if task == "vacate" else 0.0
            mv[tail + 1] = 1.0 if task == "place" else 0.0
            w.tasks = tasks
        if scores:
            tvp, at = w.tvp, w.at
            for p in (seat, op):
                mv[at[p] + 10] = tvp[p] / 10
                mv[at[p] + 11] = (points[p] + tvp[p]) / 50
        return w.buf

    def _written(self, seat: int) -> "_Written":
        """A seat's array as the numbers of an empty board (no armies, every location free, no move, no task,
        no points), with what never changes for the seat written: its castle and the other's, each always
        controlled by its owner, and the production icons of the castles. Its head is written at the first
        observation (the values it was written from are unknown)."""
        b, t0 = self.board, self._t0
        w = _Written(self.size, 2 * b.territories, len(self.locations), self._pack_locations)
        for owner, t in enumerate(b.castles):
            i = t0 + 8 * t
            w.buf[i + 2 + (owner != seat)] = 1.0
            w.buf[i + 4 + (owner != seat)] = 1.0
        w.control = [-1] * b.territories
        for owner, t in enumerate(b.castles):
            w.control[t] = owner
        w.at = [self._tail + 2 + 12 * (p != seat) for p in (0, 1)]
        for p in (0, 1):
            for icon in b.castle_icons[p]:
                w.counts[p][len(TOKENS) + PRODUCTION.index(icon)] += 1
            for k, n in enumerate(w.counts[p]):
                w.buf[w.at[p] + k] = n / self._count_scale[k]
        return w

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the seats' arrays (a memoryview cannot be pickled): a copy writes them afresh."""
        state = self.__dict__.copy()
        state["_seats"] = [None, None]
        return state


class _Written:
    """A seat's array, a writable view of it, and the engine values it was last written from."""

    __slots__ = ("buf", "mv", "phase", "phase_at", "round", "soldiers", "reserve", "points", "armies",
                 "armies_bits", "control", "tvp", "move_to", "moving", "loc", "loc_bits", "counts", "at", "tasks")

    def __init__(self, size: int, armies: int, locations: int, pack_locations: Any) -> None:
        self.buf = np.zeros(size, dtype=np.float32)
        self.mv = memoryview(self.buf)
        self.phase: str | None = None
        self.phase_at = 1
        self.round = -1
        self.soldiers: list[int] | None = None
        self.reserve: list[int] | None = None
        self.points: list[int] | None = None
        self.armies = [0] * armies
        self.armies_bits = 0
        self.control: list[int] = []
        """Who controls each territory (-1: nobody), as written."""
        self.tvp = [0, 0]
        self.move_to = -1
        self.moving: Any = ()
        self.loc = [-1] * locations
        self.loc_bits = int.from_bytes(pack_locations(*self.loc), "little")
        self.counts = [[0] * (len(TOKENS) + len(PRODUCTION)) for _ in (0, 1)]
        """Each seat's effects and production (castle icons included), as written."""
        self.at = [0, 0]
        """Where each seat's counts start in the array (then its territory points and score)."""
        self.tasks: Any = ()


ENCODING = KingdomEncoding
