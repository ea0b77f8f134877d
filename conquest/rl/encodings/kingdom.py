"""Kingdom (the Conquest module): the board from the seat's side (its armies first), the round, the phase and the
move under way. The whole state is public, so the view is the state."""

from __future__ import annotations

from typing import Any

import numpy as np

from conquest.rl.encodings.base import Encoding, Features
from conquest.rulesets.kingdom.board import LOCATION_KINDS, load_board
from conquest.rulesets.kingdom.notation import NOTATION
from conquest.rulesets.kingdom.rules import ARMIES_PER_PLAYER, OVER, PHASES

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
        self._phase_hot = {ph: [1.0 if ph == other else 0.0 for other in PHASES] for ph in PHASES}
        # where each part of the observation starts (see features): the head, the territories (8 numbers
        # each), the locations (2 each), then the task and the two seats' counts
        self._t0 = 1 + len(PHASES) + 2 + 6 + 2
        self._l0 = self._t0 + 8 * self.board.territories
        self._tail = self._l0 + 2 * len(self.locations)
        self.size = self._tail + 2 + 2 * (len(TOKENS) + len(PRODUCTION) + 2)
        self._last: dict[int, _Written] = {}

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

        Each seat's last numbers are kept with the armies, pawns and move they were written from; only the
        territories and locations that changed since are written again. The array returned is that seat's
        own: the caller copies it (``Match.observe``) before it is written again."""
        me, op = seat, 1 - seat
        last = self._last.get(seat)
        if last is None:
            last = self._last[seat] = _Written(self.size)
        buf = last.buf
        phase = state.phase
        head = [state.round / self.options["rounds"]]
        head += self._phase_hot[phase]
        head.append(1.0 if (phase != OVER and state.current == me) else 0.0)
        head.append(1.0 if state.first == me else 0.0)
        for pair, scale in ((state.soldiers, 20), (state.reserve, ARMIES_PER_PLAYER), (state.points, 40)):
            head.append(pair[me] / scale)
            head.append(pair[op] / scale)
        stopped = state.stopped
        head.append(1.0 if stopped == me else 0.0)
        head.append(1.0 if stopped == op else 0.0)
        buf[:self._t0] = head
        A = state.armies
        if A != last.armies:
            self._write_territories(buf, A, last.armies, seat)
            last.tvp = self._territory_points(A)
            last.armies = A[:]
        moving = state.move_from if state.move_to >= 0 else ()
        if state.move_to != last.move_to or moving != last.moving:
            t0, AP = self._t0, float(ARMIES_PER_PLAYER)
            if last.move_to >= 0:
                buf[t0 + 8 * last.move_to + 6] = 0.0
            for t, _n in last.moving:
                buf[t0 + 8 * t + 7] = 0.0
            if state.move_to >= 0:
                buf[t0 + 8 * state.move_to + 6] = 1.0
            for t, n in moving:
                buf[t0 + 8 * t + 7] = n / AP
            last.move_to, last.moving = state.move_to, moving
        loc = state.loc
        if loc != last.loc:
            self._write_locations(buf, loc, last.loc, seat)
            last.counts = self._location_counts(loc)
            last.loc = loc[:]
        task = state.tasks[0][0] if state.tasks else None
        tvp, counts = last.tvp, last.counts
        tail = [1.0 if task == "vacate" else 0.0, 1.0 if task == "place" else 0.0]
        for p in (me, op):
            tail += counts[p]
            tail.append(tvp[p] / 10)
            tail.append((state.points[p] + tvp[p]) / 50)
        buf[self._tail:] = tail
        return buf

    def _write_territories(self, buf: np.ndarray, A: list[int], before: list[int], seat: int) -> None:
        """Per territory that changed: the seat's armies, the other's, who controls it, and the castles."""
        me, op = seat, 1 - seat
        c0, c1 = self.board.castles
        mine, theirs = (c0, c1) if me == 0 else (c1, c0)
        AP = float(ARMIES_PER_PLAYER)
        fresh = not before
        for t in range(self.board.territories):
            a0, a1 = A[2 * t], A[2 * t + 1]
            if not fresh and a0 == before[2 * t] and a1 == before[2 * t + 1]:
                continue
            ctrl = 0 if t == c0 else 1 if t == c1 else 0 if a0 else 1 if a1 else -1
            i = self._t0 + 8 * t
            buf[i:i + 6] = (A[2 * t + me] / AP, A[2 * t + op] / AP, 1.0 if ctrl == me else 0.0,
                            1.0 if ctrl == op else 0.0, 1.0 if t == mine else 0.0, 1.0 if t == theirs else 0.0)

    def _territory_points(self, A: list[int]) -> list[int]:
        b = self.board
        c0, c1 = b.castles
        tvp = [0, 0]
        for t in range(b.territories):
            if t != c0 and t != c1:
                ctrl = 0 if A[2 * t] else 1 if A[2 * t + 1] else -1
                if ctrl >= 0:
                    tvp[ctrl] += b.vp[t][ctrl]
        return tvp

    def _write_locations(self, buf: np.ndarray, loc: list[int], before: list[int], seat: int) -> None:
        """Per location that changed: the seat's pawn, the other's."""
        me, op = seat, 1 - seat
        fresh = not before
        for i, o in enumerate(loc):
            if fresh or o != before[i]:
                j = self._l0 + 2 * i
                buf[j] = 1.0 if o == me else 0.0
                buf[j + 1] = 1.0 if o == op else 0.0

    def _location_counts(self, loc: list[int]) -> list[list[float]]:
        """Per seat: its tokens and its production."""
        b = self.board
        kinds = b.loc_kind
        found: tuple[dict[str, int], dict[str, int]] = ({k: 0 for k in LOCATION_KINDS},
                                                        {k: 0 for k in LOCATION_KINDS})
        for i, o in enumerate(loc):
            if o >= 0:
                found[o][kinds[i]] += 1
        counts: list[list[float]] = []
        for p in (0, 1):
            c = found[p]
            prod = [c[k] for k in PRODUCTION]
            for icon in b.castle_icons[p]:
                prod[PRODUCTION.index(icon)] += 1
            counts.append([c[k] / 3 for k in TOKENS] + [x / 10 for x in prod])
        return counts


class _Written:
    """A seat's last observation and what it was written from."""

    __slots__ = ("buf", "armies", "loc", "move_to", "moving", "tvp", "counts")

    def __init__(self, size: int) -> None:
        self.buf = np.zeros(size, dtype=np.float32)
        self.armies: list[int] = []
        self.loc: list[int] = []
        self.move_to = -1
        self.moving: Any = ()
        self.tvp = [0, 0]
        self.counts: list[list[float]] = [[], []]


ENCODING = KingdomEncoding
