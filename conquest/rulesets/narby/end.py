"""The end of the game (rules document 001: "Game plays until a player exceeds 50, 75, or 100 coins" in
"Setup", and "Treasure tokens are redeemed as coins at the end of the game but are not counted towards the
game end condition for coins collected" in "Tribute Phase"): the check at the end of each round, the
winners and the scores. Readings R25, R27 in docs/rules/narby.md.
"""

from __future__ import annotations

from conquest.rulesets.narby.base import NEW_ROUND
from conquest.rulesets.narby.state import NarbyData


def end_of_round(s: NarbyData) -> None:
    """"Game plays until a player exceeds 50, 75, or 100 coins": checked when the round's tribute is
    done; the round limit (option ``max_rounds``) ends the game the same way. Otherwise a new round begins
    (``turn`` starts it: ``base.NEW_ROUND``)."""
    limit = s.options["max_rounds"]
    if max(s.coins) > s.options["win"] or (limit and s.round >= limit):
        end_game(s)
        return
    s.node = NEW_ROUND


def check_win_at_once(s: NarbyData) -> None:
    """Option ``win_check`` = ``at_once``: "until a player exceeds" the win amount read literally — the game
    ends after the action, roll or token that takes a dragon's coins past it, wherever in the round. The
    treasure tokens the same roll earned are drawn first (node ``token``): they are part of that roll's
    result ("Destroyed, gain 1 treasure token"; the Tribute Chart's tokens), and "Treasure tokens are redeemed
    as coins at the end of the game"."""
    if (s.options["win_check"] == "at_once" and s.node not in ("over", "token")
            and max(s.coins) > s.options["win"]):
        end_game(s)


def end_game(s: NarbyData) -> None:
    s.phase = "over"
    s.node, s.who = "over", -1
    s.ev = None


def winners(s: NarbyData) -> list[int]:
    """Most coins after the treasure tokens are redeemed. Option ``ties``: ``shared`` (default) — every dragon
    with the top total shares the win; ``coins`` — a tie goes to more coins (without tokens), a tie on both is
    shared."""
    def rank(t: int) -> tuple[int, int]:
        return (s.total(t), s.coins[t] if s.options["ties"] == "coins" else 0)
    best = max(rank(t) for t in range(s.players))
    return [t for t in range(s.players) if rank(t) == best]


def result(s: NarbyData) -> tuple[float, ...] | None:
    if s.node != "over":
        return None
    w = winners(s)
    return tuple(1.0 / len(w) if t in w else 0.0 for t in range(s.players))


def scores(s: NarbyData) -> tuple[float, ...]:
    return tuple(float(s.total(t)) for t in range(s.players))
