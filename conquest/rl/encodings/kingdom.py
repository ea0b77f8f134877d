"""Kingdom (the Conquest module): the board from the seat's side (its armies first), the round, the phase and the
move under way. The whole state is public, so the view is the state."""

from __future__ import annotations

from typing import Any

from conquest.rl.encodings.base import Encoding, Features
from conquest.rulesets.kingdom.board import load_board
from conquest.rulesets.kingdom.notation import NOTATION
from conquest.rulesets.kingdom.rules import ARMIES_PER_PLAYER, PHASES

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
        for t, tid in enumerate(self.territories):
            a = view["armies"][tid]
            f.add(a[me], ARMIES_PER_PLAYER)
            f.add(a[op], ARMIES_PER_PLAYER)
            f.flag(control[tid] == me)
            f.flag(control[tid] == op)
            f.flag(self.board.castles[me] == t)
            f.flag(self.board.castles[op] == t)
            f.flag(move["to"] == tid)
            f.add(move["from"].get(tid, 0), ARMIES_PER_PLAYER)
        for loc in self.locations:
            f.flag(view["locations"][loc] == me)
            f.flag(view["locations"][loc] == op)
        task = view["tasks"][0] if view["tasks"] else None
        f.one_hot(task and task["kind"], ("vacate", "place"))
        d = view["derived"]
        for p in (me, op):
            f.many((d["tokens"][p][k] for k in TOKENS), 3)
            f.many((d["production"][p][k] for k in PRODUCTION), 10)
            f.add(d["territory_vp"][p], 10)
            f.add(d["score"][p], 50)
        return f.values


ENCODING = KingdomEncoding
