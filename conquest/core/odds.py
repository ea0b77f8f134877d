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
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from conquest.core.errors import ConquestError
from conquest.core.kinds import CHANCE, Action

if TYPE_CHECKING:  # a type only: conquest.core.game imports this module for its default action_odds
    from conquest.core.game import State

class OddsError(ConquestError):
    """Bad input to an odds computation (unknown piece, empty side, illegal action...), one line."""


def enumerate_outcomes(state: State, action: Any, summarise: Callable[[State, State, tuple[Action, ...]], Any],
                       through: Callable[[State], Any] | None = None,
                       stop: Callable[[State, tuple[Action, ...]], bool] | None = None,
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
    stack: list[tuple[State, float, tuple[Action, ...]]] = [(first, 1.0, ())]
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


def chance_path_summary(ruleset: Any) -> Callable[[State, State, tuple[Action, ...]], Any]:
    """The default summary: the chance outcomes that followed the action, in notation (a ruleset that knows
    which of them matter gives a summary of its own)."""
    def summarise(before: State, after: State, path: tuple[Action, ...]) -> Any:
        return "; ".join(ruleset.format_action(a) for a in path) or "no chance outcome"
    return summarise


def action_odds_report(ruleset: Any, state: State, action: Any,
                       summarise: Callable[[State, State, tuple[Action, ...]], Any],
                       describe: Callable[[Any], Any] = str,
                       through: Callable[[State], Any] | None = None,
                       stop: Callable[[State, tuple[Action, ...]], bool] | None = None,
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
# Two sides fight in rounds of two stages (a First Strike stage, then the other attacks). The attacker takes hits
# on a track 0..KA in a fixed casualty order, so its state is the number of hits taken. The defender's state is
# an index 0..KD: by default the same kind of track (j hits taken); in general (allied defenders who split the
# damage, ``d_next``) any set of states in an order in which hits only ever move forward, KD the destroyed one.
# ``hits_a[i][fs]`` is the distribution of the hits the attacker scores after taking i hits (``fs``: 1 in the
# First Strike stage, 0 in the other) - or, when the attacker's dice depend on the defender's state (Heroes
# against Guardians who make them need 7+/8+), ``hits_a[v][i][fs]`` with ``a_variant[j]`` = v the table that
# applies against defender state j; ``hits_d[j][fs]`` the defender's; ``press[i]`` whether the attacker presses on
# at the end of a round with i hits taken. Terminal outcomes are keyed (i, j, how) with how one of attacker (the
# defender destroyed), defender (the attacker destroyed), both, retreat.
Term = dict[tuple[int, int, str], Any]
# d_next[j][h]: [(j', weight)] - where the defender at j goes when it takes h hits (weights add up to 1; several
# entries: a chance node of the rules, e.g. which ally takes an odd hit); h beyond the list: its last entry.
Moves = list[list[list[tuple[int, Any]]]]


def _moves(dist: list[Any], k: int, K: int, zero: Any) -> list[Any]:
    """The distribution of the new hit count k' (k..K) of a side at k that receives ``dist`` hits; as a vector
    indexed k' - k. More hits than the side can take destroy it (k' = K)."""
    n = K - k
    m = min(len(dist) - 1, n)
    out = [zero] * (m + 1)
    for h, p in enumerate(dist):
        out[h if h < n else n] += p
    return out


def _d_moves(dist: list[Any], j: int, KD: int, d_next: Moves | None, zero: Any) -> dict[int, Any]:
    """The defender's new state (j' -> probability) when it is at j and receives ``dist`` hits."""
    out: dict[int, Any] = {}
    if d_next is None:
        for h, p in enumerate(dist):
            t = min(j + h, KD)
            out[t] = out.get(t, zero) + p
        return out
    row = d_next[j]
    last = len(row) - 1
    for h, p in enumerate(dist):
        if p:
            for t, w in row[min(h, last)]:
                out[t] = out.get(t, zero) + p * w
    return out


def _tables(hits_a: list[Any], KD: int, a_variant: list[int] | None) -> tuple[list[Any], list[int]]:
    """(the attacker's tables by variant, the variant at each defender state)."""
    if a_variant is None:
        return [hits_a], [0] * (KD + 1)
    if len(a_variant) != KD + 1:
        raise ValueError("a_variant: one table index per defender state")
    return hits_a, list(a_variant)


def solve_attrition(hits_a: list[Any], hits_d: list[list[Any]], press: list[bool], exact: bool = False,
                    d_next: Moves | None = None, a_variant: list[int] | None = None) -> tuple[Term, Any]:
    """The exact terminal distribution and the expected number of rounds of an attrition chain: one forward
    sweep over the (i, j) grid in lexicographic order (hits only move a side forward), the one self-loop (a round
    with no hit) summed as a geometric series. ``exact``: Fractions in, Fractions out; else float64 (numpy).
    ``d_next``/``a_variant``: the general defender and the attacker's dice by defender state (above).
    docs/odds.md gives the method and the error bound."""
    KD = len(hits_d) - 1
    tables, var = _tables(hits_a, KD, a_variant)
    if not exact:
        with _one_blas_thread():
            return _solve_attrition_float(tables, var, hits_d, press, d_next)
    KA = len(tables[0]) - 1
    zero: Any = Fraction(0)
    one: Any = Fraction(1)
    mid: Any = [[zero] * (KD + 1) for _ in range(KA + 1)]
    end: Any = [[zero] * (KD + 1) for _ in range(KA + 1)]
    term: Term = {}
    rounds: Any = zero

    def add_term(i: int, j: int, how: str, p: Any) -> None:
        if p:
            term[(i, j, how)] = term.get((i, j, how), zero) + p

    for i in range(KA):
        for j in range(KD):
            ha = tables[var[j]][i]
            fa = _moves(hits_d[j][1], i, KA, zero)              # First Strike stage
            fd = _d_moves(ha[1], j, KD, d_next, zero)
            f0 = fa[0] * fd.get(j, zero)
            na = _moves(hits_d[j][0], i, KA, zero)              # the other attacks
            nd = _d_moves(ha[0], j, KD, d_next, zero)
            n0 = na[0] * nd.get(j, zero)
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
                    for t, py in fd.items():
                        if py and (x or t != j):
                            mid[i + x][t] += start * px * py
            # the other attacks: mid(i, j) -> end(i', j'), except (i, j) itself
            for x, px in enumerate(na):
                if px:
                    for t, py in nd.items():
                        if py and (x or t != j):
                            end[i + x][t] += m_here * px * py
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


def sample_attrition(hits_a: list[Any], hits_d: list[list[Any]], press: list[bool], n: int, seed: int = 0,
                     d_next: Moves | None = None, a_variant: list[int] | None = None) -> tuple[Term, float]:
    """``n`` battles of the chain sampled round by round (what a Monte Carlo calculator does): the speed
    yardstick of the benchmark. Returns the observed frequencies and the mean number of rounds."""
    rng = random.Random(seed)
    KD = len(hits_d) - 1
    tables, var = _tables(hits_a, KD, a_variant)
    KA = len(tables[0]) - 1

    def cum(dist: list[Any]) -> list[float]:
        out, s = [], 0.0
        for p in dist:
            s += float(p)
            out.append(s)
        out[-1] = 1.0
        return out
    ca = [[[cum(v) for v in row] for row in tab] for tab in tables]
    cd = [[cum(v) for v in row] for row in hits_d]

    def hit_d(j: int, x: int) -> int:
        if d_next is None:
            return min(KD, j + x)
        row = d_next[j]
        opts = row[min(x, len(row) - 1)]
        if len(opts) == 1:
            return opts[0][0]
        r, acc = rng.random(), 0.0
        for t, w in opts:
            acc += float(w)
            if r < acc:
                return t
        return opts[-1][0]

    def silent(i: int, j: int) -> bool:
        ha = tables[var[j]][i]
        return len(ha[0]) == len(ha[1]) == len(hits_d[j][0]) == len(hits_d[j][1]) == 1

    term: dict[tuple[int, int, str], Any] = {}
    rounds = 0
    for _ in range(n):
        i = j = 0
        while True:
            rounds += 1
            x = bisect.bisect_right(ca[var[j]][i][1], rng.random())
            y = bisect.bisect_right(cd[j][1], rng.random())
            i, j = min(KA, i + y), hit_d(j, x)
            if i < KA and j < KD:
                x = bisect.bisect_right(ca[var[j]][i][0], rng.random())
                y = bisect.bisect_right(cd[j][0], rng.random())
                i, j = min(KA, i + y), hit_d(j, x)
            if i >= KA or j >= KD:
                how = "both" if i >= KA and j >= KD else "attacker" if j >= KD else "defender"
                break
            if not press[i] or silent(i, j):
                how = "retreat"   # (as the exact sweep: a round in which no die can hit is not repeated)
                break
        term[(i, j, how)] = term.get((i, j, how), 0) + 1.0 / n
    return term, rounds / n


_BLAS: Any = None


def _one_blas_thread() -> Any:
    """The float sweep's matrix products are small (a few hundred rows at most): on several BLAS threads they
    only wait for each other (five times slower on a busy two-core machine), so they run on one."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController
        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def _d_arrays(KD: int, W: int, d_next: Moves | None) -> tuple[Any, Any]:
    """The defender's moves as arrays: ``TG[j, h, b]`` the state it goes to from j with h hits (branch b),
    ``WT`` the branch's weight (None: one branch of weight 1)."""
    if d_next is None:
        return np.minimum(np.arange(KD)[:, None] + np.arange(W)[None, :], KD)[:, :, None], None
    B = max(len(o) for row in d_next[:KD] for o in row)
    TG = np.zeros((KD, W, B), dtype=np.intp)
    WT = np.zeros((KD, W, B))
    for j in range(KD):
        row = d_next[j]
        last = len(row) - 1
        for h in range(min(W, last + 1)):
            opts = row[h]
            for b, (t, w) in enumerate(opts):
                TG[j, h, b] = t
                WT[j, h, b] = float(w)
            for b in range(len(opts), B):
                TG[j, h, b] = opts[0][0]
        if last + 1 < W:   # more hits than the entry list: its last entry
            TG[j, last + 1:, :] = TG[j, last, :]
            WT[j, last + 1:, :] = WT[j, last, :]
    return TG, WT


def _solve_attrition_float(tables: list[Any], var: list[int], hits_d: list[list[Any]], press: list[bool],
                           d_next: Moves | None) -> tuple[Term, Any]:
    """``solve_attrition`` in float64, a row of the grid at a time: within row i (the attacker takes no hit) the
    sweep goes cell by cell; what flows to the rows below is added for the whole row at once, as a matrix
    product (``Q.T @ P``: the defender's move distributions at each state, weighted by the attacker-side
    ones). ``P`` is built with one ``bincount`` over the defender's moves (``TG``/``WT``)."""
    # Long because: the numeric sweep of the grid, row by row and cell by cell; its arrays and index tables are
    # locals of one loop nest that every odds request runs.
    V = len(tables)
    KA, KD = len(tables[0]) - 1, len(hits_d) - 1
    ND = KD + 1
    W = max(len(v) for tab in tables for row in tab for v in row)
    DA = [np.zeros((V, KA + 1, W)) for _ in (0, 1)]   # the attacker's hits at its count i, by variant
    for v, tab in enumerate(tables):
        for i, row in enumerate(tab):
            for st in (0, 1):
                DA[st][v, i, :len(row[st])] = row[st]
    width = max(len(v) for row in hits_d for v in row) + KA + 2

    def padded(rows: list[list[Any]], stage: int) -> tuple[Any, Any]:
        m = np.zeros((len(rows), width))
        for k, row in enumerate(rows):
            m[k, :len(row[stage])] = row[stage]
        tail = m[:, ::-1].cumsum(axis=1)[:, ::-1]   # tail[k, n] = P(n or more hits)
        return m, tail
    dd = [padded(hits_d, st) for st in (0, 1)]   # the defender's hits at its state j
    TG, WT = _d_arrays(KD, W, d_next)
    flat = (np.arange(KD)[:, None, None] * ND + TG).ravel()
    varr = np.asarray(var[:KD], dtype=np.intp)
    fs_any_a = [any(len(tab[i][1]) > 1 for tab in tables) for i in range(KA + 1)]
    fs_any_d = [len(row[1]) > 1 for row in hits_d]
    zd = [[float(row[st][0]) for st in (0, 1)] for row in hits_d]
    mid = np.zeros((KA + 1, ND))
    end = np.zeros((KA + 1, ND))
    term: Term = {}
    rounds = 0.0
    for i in range(KA):
        n = KA - i
        # P[st][j]: the defender's new state (as a row) when the attacker at i hits the defender at j
        P = []
        za = []
        for st in (0, 1):
            dm = DA[st][varr, i, :]                   # (KD, W): the attacker's hits against each state j
            w = dm[:, :, None] if WT is None else dm[:, :, None] * WT
            P.append(np.bincount(flat, weights=np.broadcast_to(w, TG.shape).ravel(),
                                 minlength=KD * ND).reshape(KD, ND))
            za.append(dm[:, 0].tolist())              # the attacker scores no hit
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
        pr = press[i]
        fsa = fs_any_a[i]
        za0, za1 = za
        for j in range(KD):
            f0 = zd[j][1] * za1[j]
            n0 = zd[j][0] * za0[j]
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
