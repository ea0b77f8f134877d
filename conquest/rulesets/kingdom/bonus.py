"""BONUS EFFECTS (rules document ``002``): "When you have armies in a territory, you can divide them up among
bonus locations in the territory in order to take advantage of their bonuses", and "If you remove an army from
a bonus location, or this army is returned to your castle, you immediately lose the bonus effect". A player has
an effect while one of their Army pawns stands on a location of that kind: Additional Trap token, Spy token,
Card destruction and Krystallium production act in the base game (they are counted here, and Krystallium is
produced by ``phases``); Double move changes the Move Armies action (``move.move_sources_for``)."""

from __future__ import annotations

from conquest.rulesets.kingdom.board import BONUS_EFFECTS
from conquest.rulesets.kingdom.state import KingdomData


def has_effect(s: KingdomData, seat: int, kind: str) -> bool:
    loc = s.loc
    return any(loc[i] == seat for i in s.board.locs_of_kind.get(kind, ()))


def count_locations(s: KingdomData, seat: int, kind: str) -> int:
    loc = s.loc
    return sum(1 for i in s.board.locs_of_kind.get(kind, ()) if loc[i] == seat)


def tokens(s: KingdomData, seat: int) -> dict[str, int]:
    """The effects a player has now: one per bonus location of that kind that holds their pawn."""
    return {k: count_locations(s, seat, k) for k in BONUS_EFFECTS}
