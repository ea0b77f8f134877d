"""The 20x20 grid of 1" squares. A square is an int ``(y-1)*20 + (x-1)`` inside the rules and ``"x,y"``
(column, row, each 1-20 as the two d20 read them) in notation and JSON. A 2x2 piece (a dragon, a place of
power) is addressed by its anchor, the square of its footprint with the smallest x and y.

"Adjacent" is 8-neighbourhood by default (squares that touch by a side or a corner) or 4-neighbourhood
(option ``adjacency=4``); two pieces are adjacent when some square of one is a neighbour of some square of
the other and they share no square (docs/rules/narby.md)."""

from __future__ import annotations

from functools import cache

from conquest.core.notation import is_digits

N = 20
SQUARES = N * N


def sq(x: int, y: int) -> int:
    return (y - 1) * N + (x - 1)


def xy(s: int) -> tuple[int, int]:
    return s % N + 1, s // N + 1


def sq_text(s: int) -> str:
    return f"{s % N + 1},{s // N + 1}"


def parse_sq(text: str) -> int:
    """``"3,14"`` -> square; raises ValueError."""
    a, b = text.split(",")
    if not (is_digits(a) and is_digits(b)):
        raise ValueError(f"square {text} is not two numbers x,y")
    x, y = int(a), int(b)
    if not (1 <= x <= N and 1 <= y <= N):
        raise ValueError(f"square {text} is off the 20x20 board")
    return sq(x, y)


def is_anchor(s: int) -> bool:
    x, y = xy(s)
    return x < N and y < N


ANCHORS = [s for s in range(SQUARES) if is_anchor(s)]


def anchor_for(x: int, y: int) -> int:
    """The 2x2 footprint that has the rolled square as one quarter: the rolled square is its top-left unless
    that would leave the board (a roll of 20), then it shifts back one."""
    return sq(min(x, N - 1), min(y, N - 1))


FOOT: dict[int, tuple[int, int, int, int]] = {a: (a, a + 1, a + N, a + N + 1) for a in ANCHORS}


def _nb(s: int, eight: bool) -> tuple[int, ...]:
    x, y = xy(s)
    out = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx == dy == 0 or (not eight and dx and dy):
                continue
            if 1 <= x + dx <= N and 1 <= y + dy <= N:
                out.append(sq(x + dx, y + dy))
    return tuple(out)


NB = {8: [_nb(s, True) for s in range(SQUARES)], 4: [_nb(s, False) for s in range(SQUARES)]}


def _ring(squares: tuple[int, ...], eight: bool) -> tuple[int, ...]:
    own = set(squares)
    out: set[int] = set()
    for s in squares:
        out.update(NB[8 if eight else 4][s])
    return tuple(sorted(out - own))


RING = {8: {a: _ring(FOOT[a], True) for a in ANCHORS}, 4: {a: _ring(FOOT[a], False) for a in ANCHORS}}
RINGSET = {k: {a: frozenset(v) for a, v in r.items()} for k, r in RING.items()}


def dist(a: int, b: int, adjacency: int) -> int:
    ax, ay = xy(a)
    bx, by = xy(b)
    if adjacency == 8:
        return max(abs(ax - bx), abs(ay - by))
    return abs(ax - bx) + abs(ay - by)


@cache
def near_anchors(a: int, d: int, adjacency: int) -> tuple[int, ...]:
    """Anchors within ``d`` steps of anchor ``a`` (one step = one space in the adjacency), ``a`` excluded."""
    return tuple(b for b in ANCHORS if b != a and dist(a, b, adjacency) <= d)


@cache
def near_squares(s: int, d: int, adjacency: int) -> tuple[int, ...]:
    return tuple(t for t in range(SQUARES) if t != s and dist(s, t, adjacency) <= d)


@cache
def anchors_beside(squares: tuple[int, ...], adjacency: int) -> tuple[int, ...]:
    """Anchors of 2x2 footprints adjacent to the piece covering ``squares`` (and not overlapping it)."""
    own = set(squares)
    out = []
    for a in ANCHORS:
        if own.intersection(FOOT[a]):
            continue
        if own.intersection(RINGSET[adjacency][a]):
            out.append(a)
    return tuple(out)
