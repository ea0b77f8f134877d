"""The notation of the Conquest module. One action per line, lower case, single spaces:

    recruit N            spend N Soldier tokens, N armies from the reserve to your castle
    move T               start a Move Armies action into territory T
    from T N             move N armies from your territory T (a starting territory of the move)
    go                   carry out the move
    vacate T.K           which bonus location of T loses its pawn (when pawns leave and you choose)
    place T.K            which free bonus location of T your arriving pawn takes (when you choose)
    stop                 Stop your conquest
    soldiers N           companion mode: the Soldier tokens you bring to this Conquest phase
    roll N               chance: the Soldier income die (standalone mode)
"""

from __future__ import annotations

import re

from conquest.core.notation import WordNotation

_LOC = re.compile(r"^[a-z][a-z0-9_]*\.[1-9][0-9]*$")


def _location(arg: str) -> str:
    if not _LOC.match(arg):
        raise ValueError(f"'{arg}' is not a bonus location (territory.number)")
    return arg


def _territory(arg: str) -> str:
    if not re.match(r"^[a-z][a-z0-9_]*$", arg):
        raise ValueError(f"'{arg}' is not a territory id")
    return arg


NOTATION = WordNotation("kingdom", {
    "recruit": ["int"], "move": ["territory"], "from": ["territory", "int"], "go": [], "vacate": ["location"],
    "place": ["location"], "stop": [], "soldiers": ["int"], "roll": ["int"],
}, kinds={"territory": _territory, "location": _location})

parse_action = NOTATION.parse
format_action = NOTATION.format
