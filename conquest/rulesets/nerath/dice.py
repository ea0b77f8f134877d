"""Battle dice: a side's roll is one chance node whose outcomes are the number of hits, with the published
distribution of the sum of independent dice (each die of ``faces`` sides hits on ``need`` or higher)."""

from __future__ import annotations

from functools import lru_cache


def hit_chance(faces: int, need: int) -> float:
    """A roll of ``need`` or higher on a die numbered 1..faces (a roll of 1 or less never hits)."""
    need = max(need, 2)
    if need > faces:
        return 0.0
    return (faces - need + 1) / faces


@lru_cache(maxsize=4096)
def hit_distribution(dice: tuple[tuple[int, int, int], ...]) -> tuple[float, ...]:
    """``dice``: sorted ``(faces, need, count)`` triples. Returns P(hits = k) for k = 0..total dice."""
    dist = [1.0]
    for faces, need, count in dice:
        p = hit_chance(faces, need)
        q = 1.0 - p
        for _ in range(count):
            new = [0.0] * (len(dist) + 1)
            for k, v in enumerate(dist):
                if v:
                    new[k] += v * q
                    new[k + 1] += v * p
            dist = new
    return tuple(dist)


def expected_hits(dice: tuple[tuple[int, int, int], ...]) -> float:
    return sum(hit_chance(f, n) * c for f, n, c in dice)
