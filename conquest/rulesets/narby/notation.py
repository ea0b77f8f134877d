"""Narby notation: one line per action, words then arguments. Squares are ``x,y`` (column then row, 1-20),
places of power are their ids, dragons their colour ids, cards their ids (docs/rules/narby.md lists all).
A ``core.notation.WordNotation``: each word with its shapes, so that parsing and formatting round-trip."""

from __future__ import annotations

from typing import Any

from conquest.core.notation import WordNotation, is_digits
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.tables import TABLES as T

CARD_ARG_DRAGON = {"robber", "horror", "confuser", "peacemaker"}
POWER_ARG_DRAGON = {"tower_of_faces", "madhouse"}
NO_ARG = {"end", "pass"}
KEY_WORDS = {"claim", "destroy", "abandon", "lose"}
SQ_WORDS = {"place", "upgrade", "move"}


def _sq(tok: str) -> int:
    try:
        return B.parse_sq(tok)
    except ValueError:
        raise ValueError(f"expected a square x,y with x and y from 1 to 20, got '{tok}'") from None


def _sq_text(v: Any) -> str:
    if type(v) is not int:
        raise TypeError("a square is an index")
    return B.sq_text(v)


def _key(tok: str) -> int | str:
    if "," in tok:
        return _sq(tok)
    if tok in T.place_index:
        return tok
    raise ValueError(f"expected a square x,y or a place of power id ({', '.join(T.place_ids)})")


def _key_text(v: Any) -> str:
    return _sq_text(v) if type(v) is int else str(v)


def _among(what: str, known: Any, names: Any = None) -> Any:
    """A kind: one of ``known`` (a token given in ``names``' keys is read as its value, an alias)."""
    def check(tok: str) -> str:
        tok = (names or {}).get(tok, tok)
        if tok not in known:
            raise ValueError(f"unknown {what} '{tok}' (known: {', '.join(sorted(known))})")
        return tok

    def write(v: Any) -> str:
        if v not in known:
            raise ValueError(v)
        return str(v)
    return check, write


def _takes(what: str, known: set[str], all_ids: Any) -> Any:
    """A kind: a card (place of power) that takes a dragon as its argument; another one is named as such."""
    check, write = _among(what, known)
    any_id, _ = _among(what, all_ids)

    def named(tok: str) -> str:
        if tok not in known:
            any_id(tok)
            raise ValueError(f"{tok} takes no argument")
        return str(check(tok))
    return named, write


def _die(hi: int) -> Any:
    def check(tok: str) -> int:
        if not is_digits(tok):
            raise ValueError(f"expected a number, got '{tok}'")
        v = int(tok)
        if not 1 <= v <= hi:
            raise ValueError(f"the number is 1 to {hi}")
        return v
    return check


def _shift(tok: str) -> str:
    if len(tok) != 3 or tok[0] not in "xy" or tok[1:] not in ("+2", "-2"):
        raise ValueError("Pro-creator takes x+2, x-2, y+2 or y-2")
    return tok


def _two_claims(action: tuple[Any, ...]) -> tuple[Any, ...]:
    """``claim A B``: two different settlements, in either order (the action holds them in order)."""
    a, b = action[1], action[2]
    if a == b:
        raise ValueError("two different settlements")
    return ("claim2", min(a, b), max(a, b))


_DRAGONS = _among("dragon", T.dragon_index)
NOTATION = WordNotation("narby", {
    "end": [], "pass": [], "roll": ["d20"], "token": ["d3"], "card": ["card"], "dragon": ["dragon"],
    "place": ["sq"], "upgrade": ["sq"], "move": ["sq"], "choose": ["place"],
    "claim": ["key"], "claim2": ["sq", "sq"], "destroy": ["key"], "abandon": ["key"], "lose": ["key"],
    "steal": ["victim"], "attack": ["dragon"],
    "play": [["played"], ["dragon_card", "dragon"], ["=leader", "sq"], ["procreator", "shift"]],
    "power": [["place"], ["dragon_power", "dragon"], ["=tower_of_unquenched_flame", "sq"]],
}, kinds={
    "d20": _die(20), "d3": _die(3), "sq": (_sq, _sq_text), "key": (_key, _key_text), "shift": _shift,
    "card": _among("card", T.card_ids), "played": _among("card", T.card_ids, {"pro-creator": "procreator"}),
    "dragon": _DRAGONS, "place": _among("place of power", T.place_index),
    "victim": _among("dragon", {"chest", *T.dragon_ids}),
    "dragon_card": _takes("card", CARD_ARG_DRAGON, T.card_ids),
    "procreator": _among("card", {"procreator"}, {"pro-creator": "procreator"}),
    "dragon_power": _takes("place of power", POWER_ARG_DRAGON, T.place_index),
}, spell={"claim2": "claim"}, check={"claim2": _two_claims},
    usage={"play": "play CARD [DRAGON | x,y | x+2 ...]", "power": "power PLACE [DRAGON | x,y]"},
    help="move, claim, destroy, steal, attack, abandon, play, power, place, end, pass, ...")

parse_action = NOTATION.parse
format_action = NOTATION.format
