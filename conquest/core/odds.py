"""Exact odds, the generic machinery: the distribution of what follows a decision that leads into dice.

* ``enumerate_outcomes`` / ``action_odds_report``: the exact method for any ruleset. The action is applied
  through the contract and every chance node that follows is walked (``chance_outcomes`` / ``apply``) until
  control returns to a decision, multiplying the published probabilities; the leaves are grouped by a summary
  the ruleset gives. ``Ruleset.action_odds`` uses it by default.
* ``solve_attrition``: the Markov chain of a battle of attrition over the two sides' hit counts, for rulesets
  whose battles are too long to enumerate (Conquest of Nerath: ``conquest/rulesets/nerath/odds.py``).

docs/odds.md gives the method, the error bound and what each ruleset summarises.
"""

from __future__ import annotations

import bisect
import random
import time
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, State

class OddsError(ConquestError):
    """Bad input to an odds computation (unknown piece, empty side, illegal action...), one line."""


def enumerate_outcomes(state: State, action: Any, summarise: Callable[[State, State, tuple], Any],
                       through: Callable[[State], Any] | None = None,
                       stop: Callable[[State, tuple], bool] | None = None,
                       max_leaves: int = 200_000) -> tuple[list[tuple[Any, float]], int]:
    """Apply ``action`` (checked: an illegal one raises OddsError) and follow every chance node until a
    decision (or the end). ``through(state)`` may name an action to take at a decision on the way (e.g. every
    opponent passes a reaction window), or None to stop there; ``stop(state, chance_path)`` ends the walk early
    (at the next independent roll, say). Returns ``([(summary, probability)], leaves)``,
    most likely first; ``summarise(before, leaf, chance_path)`` must return a hashable value."""
    try:
        first = state.apply(action)
    except ConquestError as e:
        raise OddsError(str(e)) from None
    acc: dict[Any, float] = {}
    order: list[Any] = []
    stack: list[tuple[State, float, tuple]] = [(first, 1.0, ())]
    leaves = 0
    while stack:
        s, p, path = stack.pop()
        if s.to_move == CHANCE and not (stop is not None and stop(s, path)):
            for a, q in s.chance_outcomes():
                if q > 0:
                    stack.append((s.apply_unchecked(a), p * q, path + (a,)))
            continue
        step = (through(s) if through is not None and s.to_move not in (None, CHANCE) and
                not (stop is not None and stop(s, path)) else None)
        if step is not None:
            stack.append((s.apply(step), p, path))
            continue
        leaves += 1
        if leaves > max_leaves:
            raise OddsError(f"more than {max_leaves} chance outcomes follow this action: too many to enumerate")
        key = summarise(state, s, path)
        if key not in acc:
            acc[key] = 0.0
            order.append(key)
        acc[key] += p
    return sorted(((k, acc[k]) for k in order), key=lambda kv: -kv[1]), leaves


def chance_path_summary(ruleset: Any) -> Callable[[State, State, tuple], Any]:
    """The default summary: the chance outcomes that followed the action, in notation (a ruleset that knows
    which of them matter gives a summary of its own)."""
    def summarise(before: State, after: State, path: tuple) -> Any:
        return "; ".join(ruleset.format_action(a) for a in path) or "no chance outcome"
    return summarise


def action_odds_report(ruleset: Any, state: State, action: Any,
                       summarise: Callable[[State, State, tuple], Any], describe: Callable[[Any], Any] = str,
                       through: Callable[[State], Any] | None = None,
                       stop: Callable[[State, tuple], bool] | None = None,
                       extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready report of ``action_odds``: ``{ruleset, action, outcomes: [{outcome, probability}],
    method, leaves, seconds}``."""
    t0 = time.perf_counter()
    if isinstance(action, str):
        try:
            action = ruleset.parse_action(action)
        except ConquestError as e:
            raise OddsError(str(e)) from None
    if state.to_move is None:
        raise OddsError("the game is over: no action to weigh")
    if state.to_move == CHANCE:
        raise OddsError("the position is at a chance node (dice to roll): the next step is not a decision")
    outcomes, leaves = enumerate_outcomes(state, action, summarise, through, stop)
    out = {"ruleset": ruleset.id, "action": ruleset.format_action(action),
           "outcomes": [{"outcome": describe(k), "probability": p} for k, p in outcomes],
           "method": "exact: every chance outcome after the action enumerated through the rules",
           "leaves": leaves}
    out.update(extra or {})
    out["seconds"] = round(time.perf_counter() - t0, 6)
    return out


# ============================================================================================ attrition chains
# Two sides fight in rounds of two stages (a First Strike stage, then the other attacks); each side takes hits on
# a track 0..K in a fixed casualty order, so its state is the number of hits taken. ``hits_a[i][fs]`` is the
# distribution of the hits the attacker scores after taking i hits (``fs``: 1 in the First Strike stage, 0 in
# the other), ``hits_d[j][fs]`` the defender's; ``press[i]`` whether the attacker presses on at the end of a
# round with i hits taken. A side at K is destroyed. Terminal outcomes are keyed (i, j, how) with how one of
# attacker (the defender destroyed), defender (the attacker destroyed), both, retreat.
Term = dict[tuple[int, int, str], Any]


def _moves(dist: list[Any], k: int, K: int, zero: Any) -> list[Any]:
    """The distribution of the new hit count k' (k..K) of a side at k that receives ``dist`` hits; as a vector
    indexed k' - k. More hits than the side can take destroy it (k' = K)."""
    n = K - k
    m = min(len(dist) - 1, n)
    out = [zero] * (m + 1)
    for h, p in enumerate(dist):
        out[h if h < n else n] += p
    return out


def solve_attrition(hits_a: list[list[Any]], hits_d: list[list[Any]], press: list[bool],
                    exact: bool = False) -> tuple[Term, Any]:
    """The exact terminal distribution and the expected number of rounds of an attrition chain: one forward
    sweep over the (i, j) grid in lexicographic order (hit counts never decrease), the one self-loop (a round
    with no hit) summed as a geometric series. ``exact``: Fractions in, Fractions out; else float64 (numpy).
    docs/odds.md gives the method and the error bound."""
    if not exact:
        return _solve_attrition_float(hits_a, hits_d, press)
    KA, KD = len(hits_a) - 1, len(hits_d) - 1
    zero: Any = Fraction(0)
    one: Any = Fraction(1)
    mid: Any = [[zero] * (KD + 1) for _ in range(KA + 1)]
    end: Any = [[zero] * (KD + 1) for _ in range(KA + 1)]
    term: Term = {}
    rounds: Any = zero

    def add_term(i: int, j: int, how: str, p: Any) -> None:
        if p:
            term[(i, j, how)] = term.get((i, j, how), zero) + p

    def vec(side: str, k: int, other: int, fs: int) -> Any:
        if side == "a":
            return _moves(hits_d[other][fs], k, KA, zero)
        return _moves(hits_a[other][fs], k, KD, zero)

    for i in range(KA):
        for j in range(KD):
            fa, fd = vec("a", i, j, 1), vec("d", j, i, 1)     # First Strike stage
            f0 = fa[0] * fd[0]
            na, nd = vec("a", i, j, 0), vec("d", j, i, 0)     # the other attacks
            n0 = na[0] * nd[0]
            # no die can hit on either side: pressing would repeat the round for ever, so the attacker retreats
            # instead (docs/odds.md)
            presses = press[i] and n0 * f0 != one
            s_in = (end[i][j] if presses else zero) + (one if (i, j) == (0, 0) else zero)
            m_in = mid[i][j]
            if not s_in and not m_in and not end[i][j]:
                continue
            loop = n0 * f0 if presses else zero
            start = (s_in + (n0 * m_in if presses else zero)) / (one - loop)
            rounds += start
            m_here = m_in + f0 * start
            # First Strike: start(i, j) -> mid(i', j'), except (i, j) itself
            for x, px in enumerate(fa):
                if px:
                    for y, py in enumerate(fd):
                        if py and (x or y):
                            mid[i + x][j + y] += start * px * py
            # the other attacks: mid(i, j) -> end(i', j'), except (i, j) itself
            for x, px in enumerate(na):
                if px:
                    for y, py in enumerate(nd):
                        if py and (x or y):
                            end[i + x][j + y] += m_here * px * py
            if not presses:
                # the attacker retreats at the end of a round that ends here
                add_term(i, j, "retreat", end[i][j] + n0 * m_here)
    # sides destroyed: after First Strike (the round ends there) or after the other attacks
    for i in range(KA + 1):
        for j in range(KD + 1):
            if i < KA and j < KD:
                continue
            how = "both" if i == KA and j == KD else "attacker" if j == KD else "defender"
            add_term(i, j, how, mid[i][j] + end[i][j])
    return term, rounds


def sample_attrition(hits_a: list[list[Any]], hits_d: list[list[Any]], press: list[bool], n: int,
                 seed: int = 0) -> tuple[Term, float]:
    """``n`` battles of the chain sampled round by round (what a Monte Carlo calculator does): the speed
    yardstick of the benchmark. Returns the observed frequencies and the mean number of rounds."""
    rng = random.Random(seed)
    KA, KD = len(hits_a) - 1, len(hits_d) - 1

    def cum(dist: list[float]) -> list[float]:
        out, s = [], 0.0
        for p in dist:
            s += p
            out.append(s)
        out[-1] = 1.0
        return out
    ca = [[cum(v) for v in row] for row in hits_a]
    cd = [[cum(v) for v in row] for row in hits_d]
    term: dict[tuple[int, int, str], Any] = {}
    rounds = 0
    for _ in range(n):
        i = j = 0
        while True:
            rounds += 1
            x = bisect.bisect_right(ca[i][1], rng.random())
            y = bisect.bisect_right(cd[j][1], rng.random())
            i, j = min(KA, i + y), min(KD, j + x)
            if i < KA and j < KD:
                x = bisect.bisect_right(ca[i][0], rng.random())
                y = bisect.bisect_right(cd[j][0], rng.random())
                i, j = min(KA, i + y), min(KD, j + x)
            if i >= KA or j >= KD:
                how = "both" if i >= KA and j >= KD else "attacker" if j >= KD else "defender"
                break
            if not press[i] or (len(hits_a[i][0]) == len(hits_a[i][1]) == len(hits_d[j][0]) ==
                                len(hits_d[j][1]) == 1):
                how = "retreat"   # (as the exact sweep: a round in which no die can hit is not repeated)
                break
        term[(i, j, how)] = term.get((i, j, how), 0) + 1.0 / n
    return term, rounds / n


def _solve_attrition_float(hits_a: list[list[Any]], hits_d: list[list[Any]], press: list[bool]
                          ) -> tuple[Term, Any]:
    """``solve_attrition`` in float64, a row of the grid at a time: within row i (the attacker takes no hit) the
    sweep goes cell by cell; what flows to the rows below is added for the whole row at once, as a matrix
    product (``Q.T @ P``: the defender-side move vectors of each cell, shifted to its column, weighted by the
    attacker-side ones)."""
    KA, KD = len(hits_a) - 1, len(hits_d) - 1
    width = max(len(v) for row in hits_a + hits_d for v in row) + KA + KD + 2

    def padded(rows: list[list[Any]], stage: int) -> tuple[Any, Any]:
        m = np.zeros((len(rows), width))
        for k, row in enumerate(rows):
            m[k, :len(row[stage])] = row[stage]
        tail = m[:, ::-1].cumsum(axis=1)[:, ::-1]   # tail[k, n] = P(n or more hits)
        return m, tail
    da = [padded(hits_a, st) for st in (0, 1)]   # the attacker's hits at its count i
    dd = [padded(hits_d, st) for st in (0, 1)]   # the defender's hits at its count j
    fs_any_a = [len(row[1]) > 1 for row in hits_a]
    fs_any_d = [len(row[1]) > 1 for row in hits_d]
    za = [[float(row[st][0]) for st in (0, 1)] for row in hits_a]
    zd = [[float(row[st][0]) for st in (0, 1)] for row in hits_d]
    mid = np.zeros((KA + 1, KD + 1))
    end = np.zeros((KA + 1, KD + 1))
    term: Term = {}
    rounds = 0.0
    cols = np.arange(KD)
    for i in range(KA):
        n = KA - i
        # P[st][j]: the defender's new count (as a column) when the attacker at i hits the defender at j
        P = []
        for st in (0, 1):
            m, tail = da[st]
            dist = m[i]
            p = np.zeros((KD, KD + 1))
            for y in range(min(KD, len(hits_a[i][st]))):
                if dist[y]:
                    p[cols[:KD - y], cols[:KD - y] + y] = dist[y]   # j + y < KD: the defender stands
            p[:, KD] = tail[i, KD - cols]
            P.append(p)
        # A[st][j]: the attacker's new count from the defender at j, hits 1..n (n: destroyed)
        A = []
        for st in (0, 1):
            m, tail = dd[st]
            a = m[:KD, 1:n + 1].copy()
            a[:, n - 1] = tail[:KD, n]
            A.append(a)
        starts = np.zeros(KD)
        mids = np.zeros(KD)
        mid_i, end_i = mid[i], end[i]
        za_i = za[i]
        pr = press[i]
        fsa = fs_any_a[i]
        for j in range(KD):
            f0 = zd[j][1] * za_i[1]
            n0 = zd[j][0] * za_i[0]
            presses = pr and n0 * f0 != 1.0
            e_in = float(end_i[j])
            m_in = float(mid_i[j])
            if i == 0 and j == 0:
                s_in = 1.0 + (e_in if presses else 0.0)
            elif not m_in and not e_in:
                continue
            else:
                s_in = e_in if presses else 0.0
            start = (s_in + n0 * m_in) / (1.0 - n0 * f0) if presses else s_in
            rounds += start
            m_here = m_in + f0 * start
            if start and (fsa or fs_any_d[j]):
                starts[j] = start
                mid_i += (start * zd[j][1]) * P[1][j]      # the attacker takes no First Strike hit
            mids[j] = m_here
            if m_here:
                end_i += (m_here * zd[j][0]) * P[0][j]
            if not presses:
                back = e_in + n0 * m_here
                if back:
                    term[(i, j, "retreat")] = back
        # the rows below: the attacker takes x >= 1 hits
        if starts.any():
            mid[i + 1:i + 1 + n, :] += (A[1] * starts[:, None]).T @ P[1]
        end[i + 1:i + 1 + n, :] += (A[0] * mids[:, None]).T @ P[0]
    fin = mid + end
    for i in range(KA + 1):
        for j in range(KD + 1):
            if (i == KA or j == KD) and fin[i, j]:
                how = "both" if i == KA and j == KD else "attacker" if j == KD else "defender"
                term[(i, j, how)] = float(fin[i, j])
    return term, rounds
