"""The notation of Conquest of Nerath: one action per line, lower case, single spaces. Spaces are board ids
(``k07``, ``s5``, ``d3``), pieces are ``footsoldier siege fighter wizard monster storm dragon castle warship``,
Warships are named by their number (``ship 3`` in text, ``3`` in arguments).

    done                          end the current step (Move, Reposition, Reinforce) or stop landing
    move FROM TO PIECE N          N pieces of one kind move from FROM to TO (a whole move, path implied)
    sail SHIP TO                  a Warship moves one sea space
    embark FROM SHIP PIECE        one land piece boards a Warship from the coastal space FROM
    debark SHIP TO PIECE          one carried piece lands in the coastal space (or dungeon entrance) TO
    battle SPACE                  the attacker chooses the next battle to fight
    hit PIECE | hit wounded-dragon | hit ship SHIP | hit PIECE SHIP | hit guardian K FACES
                                  the owner of a piece chooses it to take one hit (a Hero aboard SHIP);
                                  the Guardians' controller chooses which die Guardian K (from 1) loses
    split REALM N REALM M         one seat playing both defending allies splits their hits: N to the first
                                  realm, M to the second (the realms in turn order)
    press | retreat               the attacker's choice at the end of a battle round
    withdraw TO PIECE N           retreating pieces go to TO
    withdraw-ship SHIP TO         a retreating Warship (with its cargo) goes to the sea space TO
    withdraw-aboard SHIP PIECE    a retreating land piece boards SHIP in an adjacent sea space
    amok TO | stay                a surviving Monster runs amok into TO; stay ends running amok
    buy PIECE SPACE               buy a piece and place it in SPACE (a Castle's space, a sea space, ...)
    buy PIECE ship SHIP           buy a land piece and place it aboard SHIP
    play CARD [ARG ...]           play a card (Event or Treasure)
    pass                          play no (more) card before this battle
  chance outcomes:
    hits N                        a side's roll scored N hits
    extra REALM                   the odd hit on allies with as many pieces goes to REALM
    draw CARD                     the Event card drawn
    guardian TILE                 the Guardian tile drawn from the pile (set-up, restocking)
    treasure CARD                 the Treasure card drawn when plundering
"""

from __future__ import annotations

import re

from conquest.core.errors import NotationError
from conquest.core.kinds import Action as Action  # the contract's action type, as this module spoke of it
from conquest.core.notation import is_digits
from conquest.rulesets.nerath.data import PIECE_NAMES, REALMS

_ID = re.compile(r"^[a-z][a-z0-9_\-]*$")
_PIECES = set(PIECE_NAMES)
_SHAPES: dict[str, tuple[str, ...]] = {
    "done": (), "move": ("space", "space", "piece", "int"), "sail": ("int", "space"),
    "embark": ("space", "int", "piece"), "debark": ("int", "space", "piece"), "battle": ("space",),
    "press": (), "retreat": (), "withdraw": ("space", "piece", "int"), "withdraw-ship": ("int", "space"),
    "withdraw-aboard": ("int", "piece"), "amok": ("space",), "stay": (), "pass": (), "hits": ("int",),
    "extra": ("realm",), "split": ("realm", "int", "realm", "int"), "draw": ("id",), "guardian": ("id",),
    "treasure": ("id",),
}
_VARIABLE = ("hit", "buy", "play")
WORDS = tuple(_SHAPES) + _VARIABLE


def _bad(text: str, why: str) -> NotationError:
    return NotationError(f"'{text.strip()}': {why}")


def _int(text: str, arg: str) -> int:
    if not is_digits(arg) or len(arg) > 6:
        raise _bad(text, f"'{arg}' is not a number")
    return int(arg)


def _check(text: str, kind: str, arg: str) -> str | int:
    if kind == "int":
        return _int(text, arg)
    if kind == "piece":
        if arg not in _PIECES:
            raise _bad(text, f"'{arg}' is not a piece ({', '.join(PIECE_NAMES)})")
        return arg
    if kind == "realm":
        if arg not in REALMS:
            raise _bad(text, f"'{arg}' is not a realm ({', '.join(REALMS)})")
        return arg
    if not _ID.match(arg):
        raise _bad(text, f"'{arg}' is not a space id")
    return arg


def parse_action(text: str) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, got {type(text).__name__}")
    parts = text.strip().lower().split()
    if not parts:
        raise NotationError("empty action")
    word, args = parts[0], parts[1:]
    if word in _SHAPES:
        shape = _SHAPES[word]
        if len(args) != len(shape):
            usage = " ".join([word] + [s.upper() for s in shape])
            raise _bad(text, f"expected '{usage}'")
        out: Action = (word, *(_check(text, k, a) for k, a in zip(shape, args)))
        if word == "split" and out[1] == out[3]:
            raise _bad(text, "a split names the two allied realms, each once")
        return out
    if word == "hit":
        if len(args) == 1 and (args[0] in _PIECES or args[0] == "wounded-dragon"):
            return ("hit", args[0])
        if len(args) == 2 and args[0] == "ship":
            return ("hit", "ship", _int(text, args[1]))
        if len(args) == 2 and args[0] in ("fighter", "wizard"):
            return ("hit", args[0], _int(text, args[1]))
        if len(args) == 3 and args[0] == "guardian":
            return ("hit", "guardian", _int(text, args[1]), _int(text, args[2]))
        raise _bad(text, "expected 'hit PIECE', 'hit wounded-dragon', 'hit ship N', 'hit fighter|wizard N' or "
                         "'hit guardian K FACES'")
    if word == "buy":
        if len(args) == 2:
            return ("buy", _check(text, "piece", args[0]), _check(text, "space", args[1]))
        if len(args) == 3 and args[1] == "ship":
            return ("buy", _check(text, "piece", args[0]), "ship", _int(text, args[2]))
        raise _bad(text, "expected 'buy PIECE SPACE' or 'buy PIECE ship N'")
    if word == "play":
        if not args:
            raise _bad(text, "expected 'play CARD [ARG ...]'")
        return ("play", *(_int(text, a) if is_digits(a) else _check(text, "id", a) for a in args))
    raise NotationError(f"unknown action '{parts[0]}' (expected one of: {', '.join(WORDS)})")


def format_action(action: Action) -> str:
    if not isinstance(action, tuple) or not action or action[0] not in WORDS:
        raise NotationError(f"not a nerath action: {action!r}")
    return " ".join(str(x) for x in action)
