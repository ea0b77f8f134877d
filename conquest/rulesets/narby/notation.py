"""Narby notation: one line per action, words then arguments. Squares are ``x,y`` (column then row, 1-20),
places of power are their ids, dragons their colour ids, cards their ids (docs/rules/narby.md lists all)."""

from __future__ import annotations

from typing import Any

from conquest.core.errors import NotationError
from conquest.core.notation import is_digits
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.tables import TABLES as T

CARD_ARG_DRAGON = {"robber", "horror", "confuser", "peacemaker"}
POWER_ARG_DRAGON = {"tower_of_faces", "madhouse"}
NO_ARG = {"end", "pass"}
KEY_WORDS = {"claim", "destroy", "abandon", "lose"}
SQ_WORDS = {"place", "upgrade", "move"}


def _sq(word: str, tok: str) -> int:
    try:
        return B.parse_sq(tok)
    except ValueError:
        raise NotationError(f"'{word} {tok}': expected a square x,y with x and y from 1 to 20") from None


def _key(word: str, tok: str) -> int | str:
    if "," in tok:
        return _sq(word, tok)
    if tok in T.place_index:
        return tok
    raise NotationError(f"'{word} {tok}': expected a square x,y or a place of power id "
                        f"({', '.join(T.place_ids)})")


def _dragon(word: str, tok: str) -> str:
    if tok not in T.dragon_index:
        raise NotationError(f"'{word} {tok}': unknown dragon (known: {', '.join(T.dragon_ids)})")
    return tok


def parse_action(text: str) -> Any:
    # Long because: one branch per action word and its argument shapes, as the notation's table lists them.
    if not isinstance(text, str):
        raise NotationError(f"an action is text, got {text!r}")
    toks = text.strip().lower().split()
    if not toks:
        raise NotationError("empty action")
    w, args = toks[0], toks[1:]

    def nargs(*allowed: int) -> None:
        if len(args) not in allowed:
            raise NotationError(f"'{text.strip()}': '{w}' takes {' or '.join(str(a) for a in allowed)} "
                                f"argument(s)")

    if w in NO_ARG:
        nargs(0)
        return (w,)
    if w in ("roll", "token"):
        nargs(1)
        if not is_digits(args[0]):
            raise NotationError(f"'{text.strip()}': expected a number")
        v = int(args[0])
        hi = 20 if w == "roll" else 3
        if not 1 <= v <= hi:
            raise NotationError(f"'{text.strip()}': {w} is 1 to {hi}")
        return (w, v)
    if w == "card":
        nargs(1)
        if args[0] not in T.card_ids:
            raise NotationError(f"'{text.strip()}': unknown card (known: {', '.join(T.card_ids)})")
        return ("card", args[0])
    if w == "dragon":
        nargs(1)
        return ("dragon", _dragon(w, args[0]))
    if w in SQ_WORDS:
        nargs(1)
        return (w, _sq(w, args[0]))
    if w == "choose":
        nargs(1)
        if args[0] not in T.place_index:
            raise NotationError(f"'{text.strip()}': unknown place of power (known: {', '.join(T.place_ids)})")
        return ("choose", args[0])
    if w == "claim" and len(args) == 2:
        a, b = _sq(w, args[0]), _sq(w, args[1])
        if a == b:
            raise NotationError(f"'{text.strip()}': two different settlements")
        return ("claim2", min(a, b), max(a, b))  # the pair in either order
    if w in KEY_WORDS:
        nargs(1)
        return (w, _key(w, args[0]))
    if w == "steal":
        nargs(1)
        return ("steal", "chest" if args[0] == "chest" else _dragon(w, args[0]))
    if w == "attack":
        nargs(1)
        return ("attack", _dragon(w, args[0]))
    if w == "play":
        nargs(1, 2)
        card = args[0]
        if card == "pro-creator":
            card = "procreator"
        if card not in T.card_ids:
            raise NotationError(f"'{text.strip()}': unknown card (known: {', '.join(T.card_ids)})")
        if len(args) == 1:
            return ("play", card)
        if card in CARD_ARG_DRAGON:
            return ("play", card, _dragon(w, args[1]))
        if card == "leader":
            return ("play", card, _sq(w, args[1]))
        if card == "procreator":
            shift = args[1]
            if len(shift) != 3 or shift[0] not in "xy" or shift[1:] not in ("+2", "-2"):
                raise NotationError(f"'{text.strip()}': Pro-creator takes x+2, x-2, y+2 or y-2")
            return ("play", card, shift)
        raise NotationError(f"'{text.strip()}': {card} takes no argument")
    if w == "power":
        nargs(1, 2)
        pid = args[0]
        if pid not in T.place_index:
            raise NotationError(f"'{text.strip()}': unknown place of power (known: {', '.join(T.place_ids)})")
        if len(args) == 1:
            return ("power", pid)
        if pid in POWER_ARG_DRAGON:
            return ("power", pid, _dragon(w, args[1]))
        if pid == "tower_of_unquenched_flame":
            return ("power", pid, _sq(w, args[1]))
        raise NotationError(f"'{text.strip()}': {pid} takes no argument")
    raise NotationError(f"'{text.strip()}': unknown action word '{w}' (actions: move, claim, destroy, steal, "
                        f"attack, abandon, play, power, place, end, pass, ...)")


def _arg(v: Any) -> str:
    return B.sq_text(v) if isinstance(v, int) else str(v)


def format_action(action: Any) -> str:
    w = action[0]
    if w == "claim2":
        return f"claim {B.sq_text(action[1])} {B.sq_text(action[2])}"
    if w in ("roll", "token"):
        return f"{w} {action[1]}"
    return " ".join([w] + [_arg(a) for a in action[1:]])
