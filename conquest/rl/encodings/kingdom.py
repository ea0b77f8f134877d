"""Kingdom (the Conquest module): the board from the seat's side (its armies first), the round, the phase and the
move under way. The whole state is public, so the view is the state."""

from __future__ import annotations

from typing import Any

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

    def observe(self, state: Any, seat: int) -> list[float]:
        """The numbers of ``features(state.view(seat), seat)`` read straight from the state (every part of a
        Kingdom state is public, so nothing is left unread for being hidden). Must match ``features``
        exactly: tests/rl/test_envs.py holds them equal over random games."""
        me, op = seat, 1 - seat
        b = state.board
        phase = state.phase
        out: list[float] = [state.round / self.options["rounds"]]
        out += self._phase_hot[phase]
        out.append(1.0 if (phase != OVER and state.current == me) else 0.0)
        out.append(1.0 if state.first == me else 0.0)
        for pair, scale in ((state.soldiers, 20), (state.reserve, ARMIES_PER_PLAYER), (state.points, 40)):
            out.append(pair[me] / scale)
            out.append(pair[op] / scale)
        stopped = state.stopped
        out.append(1.0 if stopped == me else 0.0)
        out.append(1.0 if stopped == op else 0.0)
        A = state.armies
        c0, c1 = b.castles
        to = state.move_to
        moving = dict(state.move_from) if to >= 0 else {}
        vp = b.vp
        mine, theirs = c0 if me == 0 else c1, c1 if me == 0 else c0
        tvp = [0, 0]
        AP = float(ARMIES_PER_PLAYER)
        for t in range(b.territories):
            a0, a1 = A[2 * t], A[2 * t + 1]
            ctrl = 0 if t == c0 else 1 if t == c1 else 0 if a0 else 1 if a1 else -1
            if ctrl >= 0 and t != c0 and t != c1:
                tvp[ctrl] += vp[t][ctrl]
            out += (A[2 * t + me] / AP, A[2 * t + op] / AP, 1.0 if ctrl == me else 0.0,
                    1.0 if ctrl == op else 0.0, 1.0 if t == mine else 0.0, 1.0 if t == theirs else 0.0,
                    1.0 if t == to else 0.0, moving.get(t, 0) / AP)
        counts = ({k: 0 for k in LOCATION_KINDS}, {k: 0 for k in LOCATION_KINDS})
        kinds = b.loc_kind
        for i, o in enumerate(state.loc):
            out.append(1.0 if o == me else 0.0)
            out.append(1.0 if o == op else 0.0)
            if o >= 0:
                counts[o][kinds[i]] += 1
        task = state.tasks[0][0] if state.tasks else None
        out.append(1.0 if task == "vacate" else 0.0)
        out.append(1.0 if task == "place" else 0.0)
        for p in (me, op):
            c = counts[p]
            out += [c[k] / 3 for k in TOKENS]
            prod = [c[k] for k in PRODUCTION]
            for icon in b.castle_icons[p]:
                prod[PRODUCTION.index(icon)] += 1
            out += [x / 10 for x in prod]
            out.append(tvp[p] / 10)
            out.append((state.points[p] + tvp[p]) / 50)
        return out


ENCODING = KingdomEncoding
