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

from conquest.core.errors import NotationError

Action = tuple

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_LOC = re.compile(r"^[a-z][a-z0-9_]*\.[1-9][0-9]*$")
_WORDS = {"recruit": ("int",), "move": ("id",), "from": ("id", "int"), "go": (), "vacate": ("loc",),
          "place": ("loc",), "stop": (), "soldiers": ("int",), "roll": ("int",)}


def parse_action(text: str) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, got {type(text).__name__}")
    parts = text.strip().lower().split()
    if not parts:
        raise NotationError("empty action")
    word, args = parts[0], parts[1:]
    if word not in _WORDS:
        raise NotationError(f"unknown action '{parts[0]}' (expected one of: {', '.join(_WORDS)})")
    shape = _WORDS[word]
    if len(args) != len(shape):
        usage = " ".join([word] + [{"int": "N", "id": "TERRITORY", "loc": "TERRITORY.K"}[s] for s in shape])
        raise NotationError(f"'{text.strip()}': expected '{usage}'")
    out: list[object] = [word]
    for kind, arg in zip(shape, args):
        if kind == "int":
            if not arg.isdigit() or len(arg) > 4:
                raise NotationError(f"'{text.strip()}': '{arg}' is not a number")
            out.append(int(arg))
        elif kind == "id":
            if not _ID.match(arg):
                raise NotationError(f"'{text.strip()}': '{arg}' is not a territory id")
            out.append(arg)
        else:
            if not _LOC.match(arg):
                raise NotationError(f"'{text.strip()}': '{arg}' is not a bonus location (territory.number)")
            out.append(arg)
    return tuple(out)


def format_action(action: Action) -> str:
    if not isinstance(action, tuple) or not action or action[0] not in _WORDS:
        raise NotationError(f"not a kingdom action: {action!r}")
    return " ".join(str(x) for x in action)
