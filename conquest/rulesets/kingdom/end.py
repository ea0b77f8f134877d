"""END OF THE GAME (rules document ``002``): "At the end of the game, the territories you control earn you
additional victory points. In each territory, the number in your color indicates the number of gross victory
points it earns you if you control it." The score adds the points of the standalone stand-in's production
(``phases.production_points``); the higher score wins, equal scores share the game."""

from __future__ import annotations

from conquest.rulesets.kingdom.base import OVER
from conquest.rulesets.kingdom.state import KingdomData


def territory_vp(s: KingdomData, seat: int) -> int:
    """"In each territory, the number in your color indicates the number of gross victory points it earns
    you if you control it." """
    b = s.board
    total = 0
    for t in range(b.territories):
        if t not in b.castles and s.controller(t) == seat:
            total += b.vp[t][seat]
    return total


def final_scores(s: KingdomData) -> list[int]:
    return [s.points[p] + territory_vp(s, p) for p in (0, 1)]


def scores(s: KingdomData) -> tuple[float, ...]:
    return tuple(float(x) for x in final_scores(s))


def result(s: KingdomData) -> tuple[float, ...] | None:
    if s.phase != OVER:
        return None
    a, b = final_scores(s)
    if a > b:
        return (1.0, 0.0)
    if b > a:
        return (0.0, 1.0)
    return (0.5, 0.5)
