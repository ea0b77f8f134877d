"""The notation of Small World: one action per line, a word then its arguments (docs/rules/smallworld.md,
"Notation"). Regions are ``r1``, ``r2``...; a ``core.notation.WordNotation``, so that parsing and formatting
round-trip, with the argument names and the form to write that its refusals quote."""

from __future__ import annotations

from collections.abc import Callable

import conquest.rulesets.smallworld.data as D
from conquest.core.notation import WordNotation, is_digits
from conquest.rulesets.smallworld.common import RID

NOTATION_HELP = (
    "pick I | conquer rN | final rN | dragon rN | convert rN | berserk | abandon rN | decline | end | "
    "redeploy rN K | camp rN | fortress rN | hero rN | peace SEAT | (chance) race ID, power ID, die D"
)
REGION_WORDS = ("conquer", "final", "dragon", "convert", "abandon", "camp", "fortress", "hero")
# every word of the notation (in the order the RL encoding numbers them): its shape, the names of its arguments
# and the form to write
_WORDS: dict[str, tuple[list[str], tuple[str, ...], str]] = {
    "pick": (["slot"], ("the slot",), "pick I — I is the slot, 0 at the top"),
    "berserk": ([], (), "berserk"),
    "decline": ([], (), "decline"),
    "end": ([], (), "end"),
    "redeploy": (["region", "tokens"], ("the region", "the number of tokens"),
                 "redeploy rN K — K tokens from hand into region rN"),
    "peace": (["seat"], ("the seat",), "peace S — S is the opponent's seat, 0-based"),
    "die": (["face"], ("the die face",), "die D — D is 0, 1, 2 or 3"),
    "race": (["race"], ("the race id",), "race ID"),
    "power": (["power"], ("the power id",), "power ID"),
    **{k: (["region"], ("the region",), f"{k} rN") for k in REGION_WORDS},
}
VERBS = tuple(_WORDS)


def _region(tok: str) -> str:
    if len(tok) < 2 or tok[0] != "r" or not is_digits(tok[1:]) or not 1 <= int(tok[1:]) <= len(RID):
        raise ValueError(f"'{tok}' is not a region (write r1, r2, ...)")
    return RID[int(tok[1:]) - 1]


def _whole(what: str, minimum: int = 0) -> Callable[[str], int]:
    """A whole number (a sign allowed) of at least ``minimum``."""
    def check(tok: str) -> int:
        body = tok[1:] if tok[:1] in "+-" else tok
        if not is_digits(body):
            raise ValueError(f"{what} must be a whole number, got '{tok}'")
        v = int(tok)
        if v < minimum:
            raise ValueError(f"{what} must be " + ("positive (1 or more)" if minimum == 1 else f"{minimum} or more")
                             + f", got {v}")
        return v
    return check


def _known(what: str, index: dict[str, int]) -> Callable[[str], str]:
    def check(tok: str) -> str:
        if tok not in index:
            raise ValueError(f"unknown {what} '{tok}'")
        return tok
    return check


NOTATION = WordNotation("smallworld", {k: shape for k, (shape, _, _) in _WORDS.items()}, kinds={
    "region": _region, "tokens": _whole("the number of tokens", 1), "slot": _whole("the slot"),
    "seat": _whole("the seat"), "face": _whole("the die face"), "race": _known("race", D.RACE_INDEX),
    "power": _known("power", D.POWER_INDEX),
}, labels={k: names for k, (_, names, _) in _WORDS.items()}, usage={k: form for k, (_, _, form) in _WORDS.items()},
    help=NOTATION_HELP)

parse_action = NOTATION.parse
format_action = NOTATION.format
