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
from typing import Any

from conquest.core.notation import WordNotation, is_digits
from conquest.rulesets.nerath.data import PIECE_NAMES, REALMS

_ID = re.compile(r"^[a-z][a-z0-9_\-]*$")
_PIECES = set(PIECE_NAMES)
_SHAPES: dict[str, tuple[str, ...]] = {
    "done": (), "move": ("space", "space", "piece", "int"), "sail": ("int", "space"),
    "embark": ("space", "int", "piece"), "debark": ("int", "space", "piece"), "battle": ("space",),
    "press": (), "retreat": (), "withdraw": ("space", "piece", "int"), "withdraw-ship": ("int", "space"),
    "withdraw-aboard": ("int", "piece"), "amok": ("space",), "stay": (), "pass": (), "hits": ("int",),
    "extra": ("realm",), "split": ("realm", "int", "realm", "int"), "draw": ("space",), "guardian": ("space",),
    "treasure": ("space",),
}
_VARIABLE: dict[str, list[list[str]]] = {
    "hit": [["target"], ["=ship", "int"], ["hero", "int"], ["=guardian", "int", "int"]],
    "buy": [["piece", "space"], ["piece", "=ship", "int"]],
    # a card and its arguments (each a number or an id), as many as an action holds
    "play": [["arg"] * k for k in range(1, 16)],
}
WORDS = tuple(_SHAPES) + tuple(_VARIABLE)


def _int(arg: str) -> int:
    if not is_digits(arg) or len(arg) > 6:
        raise ValueError(f"'{arg}' is not a number")
    return int(arg)


def _space(arg: str) -> str:
    if not _ID.match(arg):
        raise ValueError(f"'{arg}' is not a space id")
    return arg


def _among(what: str, known: Any) -> Any:
    def check(arg: str) -> str:
        if arg not in known:
            raise ValueError(f"'{arg}' is not a {what} ({', '.join(known)})")
        return arg
    return check


def _arg(arg: str) -> int | str:
    return _int(arg) if is_digits(arg) else _space(arg)


def _two_realms(action: tuple[Any, ...]) -> tuple[Any, ...]:
    if action[1] == action[3]:
        raise ValueError("a split names the two allied realms, each once")
    return action


NOTATION = WordNotation("nerath", {**_SHAPES, **_VARIABLE}, kinds={
    "int": _int, "space": _space, "piece": _among("piece", PIECE_NAMES), "realm": _among("realm", REALMS),
    "target": _among("piece", [*PIECE_NAMES, "wounded-dragon"]), "hero": _among("Hero", ("fighter", "wizard")),
    "arg": _arg,
}, check={"split": _two_realms}, usage={
    "hit": "hit PIECE', 'hit wounded-dragon', 'hit ship N', 'hit fighter|wizard N' or 'hit guardian K FACES",
    "play": "play CARD [ARG ...]",
})

parse_action = NOTATION.parse
format_action = NOTATION.format
