"""Exact odds: the distribution of what follows a decision that leads into dice.

Two tools live here.

* ``enumerate_outcomes``: the generic, exact method for any ruleset. It applies the action through the public
  contract and walks every chance node that follows (``chance_outcomes`` / ``apply``) until control returns to
  a decision, multiplying the published probabilities, and groups the leaves by a summary the ruleset gives.
* ``NerathBattle``: the Conquest of Nerath battle calculator, a Markov chain over the two sides' hit counts.
  Each side's pieces take hits in a fixed order (the casualty policy), so a side's state is the number of hits
  it has taken, ``0..K``; the dice each side rolls at each count come from the same piece table and the same
  hit distributions (``dice.hit_distribution``) as the rules. A battle round is two stages (First Strike, then
  the other attacks) and the attacker's press/retreat decision; the chain is solved forward in one sweep over
  the (attacker, defender) grid, with the one self-loop (a round with no hits) summed as a geometric series.
  docs/odds.md gives the method, the error bound and the policies.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, State


class OddsError(ConquestError):
    """Bad input to an odds computation (unknown piece, empty side, illegal action...), one line."""


# ============================================================================================ generic
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


# ============================================================================================ Nerath
POLICY_ORDERS = ("cheapest", "listed")


@dataclass(frozen=True)
class PressPolicy:
    """When the attacker presses the attack at the end of a round: ``always``, or ``until-below=K`` (retreat
    as soon as fewer than K attacking pieces are left)."""
    below: int = 0

    @staticmethod
    def parse(text: str) -> "PressPolicy":
        t = text.strip().lower()
        if t == "always":
            return PressPolicy(0)
        if t.startswith("until-below="):
            v = t.split("=", 1)[1]
            if v.isdigit() and 0 < int(v) < 10_000:
                return PressPolicy(int(v))
        raise OddsError(f"--press '{text}': use 'always' or 'until-below=K' (K a whole number of pieces >= 1)")

    def presses(self, pieces_left: int) -> bool:
        return pieces_left >= self.below

    def __str__(self) -> str:
        return "always" if self.below == 0 else f"until-below={self.below}"


def _nerath() -> Any:
    from conquest.rulesets.nerath import data
    return data


def piece_aliases() -> dict[str, str]:
    d = _nerath()
    tb = d.tables()
    out = {p: p for p in d.PIECE_NAMES}
    for p in d.PIECE_NAMES:
        out[tb.pieces[p].name.lower()] = p
        out[tb.pieces[p].name.lower() + "s"] = p
        out[p + "s"] = p
    out["siege engine"] = "siege"
    out["storm elemental"] = "storm"
    return out


def parse_pieces(text: str, who: str) -> list[str]:
    """``"footsoldier,footsoldier,siege,dragon"`` or ``"2 footsoldier, siege"`` -> piece ids in that order."""
    names = piece_aliases()
    out: list[str] = []
    for item in text.split(","):
        item = " ".join(item.strip().lower().split())
        if not item:
            continue
        k = 1
        head, _, rest = item.partition(" ")
        if head.isdigit() and rest:
            k, item = int(head), rest
            if k > 500:
                raise OddsError(f"{who}: {k} {item} is more than a battle can hold (at most 500 of a kind)")
        elif head.endswith("x") and head[:-1].isdigit() and rest:
            k, item = int(head[:-1]), rest
        if item not in names:
            raise OddsError(f"{who}: unknown piece '{item}' (one of {', '.join(_nerath().PIECE_NAMES)})")
        out.extend([names[item]] * k)
    if not out:
        raise OddsError(f"{who}: no pieces given (an empty side cannot fight)")
    return out


def card_bonuses(cards: Sequence[str], who: str) -> dict[str, int]:
    """The attack bonus per piece kind (``*`` for all) that Event and Treasure cards give in a battle. Only
    cards whose every effect is ``attack_bonus`` are simple modifiers; others (reroll, cancel hits, removing
    pieces...) change the course of the battle and are refused."""
    if not cards:
        return {}
    from conquest.rulesets.nerath.dungeons import treasure_cards
    from conquest.rulesets.nerath.effects import event_cards
    events, treasures = event_cards(), treasure_cards()
    bonus: dict[str, int] = {}
    for cid in cards:
        if cid in events:
            effects = list(events[cid].get("effects", []))
        elif cid in treasures:
            effects = list(treasures[cid].get("power", [])) + list(treasures[cid].get("property", []))
        else:
            raise OddsError(f"{who}: unknown card '{cid}' (an Event card or Treasure id of the nerath decks)")
        if not effects or any(e[0] != "attack_bonus" for e in effects):
            verbs = ", ".join(sorted({e[0] for e in effects})) or "no battle effect"
            raise OddsError(f"{who}: card '{cid}' is not a simple battle modifier ({verbs}); only attack-bonus "
                            f"cards are supported")
        for _verb, value, piece in effects:
            bonus[piece] = bonus.get(piece, 0) + int(value)
    return bonus


@dataclass
class _Unit:
    kind: str             # piece id
    cost: int
    index: int            # position in the listing
    ship: int = -1        # at sea: the unit index of the Warship a Hero is aboard
    cargo: list[int] = field(default_factory=list)


@dataclass
class _Snapshot:
    """A side after k hits: the units still in the battle, wounded Dragons, the Castle's state."""
    alive: list[bool]
    wounded: list[bool]


class _Side:
    """One side's hit track: the order its pieces take hits, and what it rolls after k hits."""

    def __init__(self, pieces: list[str], attacking: bool, sea: bool, order: str, bonus: dict[str, int],
                 hurt_fights: bool, wounded_at_start: int = 0) -> None:
        d = _nerath()
        tb = d.tables()
        who = "attacker" if attacking else "defender"
        self.attacking, self.sea = attacking, sea
        if order not in POLICY_ORDERS:
            raise OddsError(f"--order '{order}': use one of {', '.join(POLICY_ORDERS)}")
        if attacking and "castle" in pieces:
            raise OddsError("attacker: a Castle cannot attack (Castles cannot move and can only defend in battle)")
        if pieces.count("castle") > 1:
            raise OddsError(f"{who}: only 1 Castle can be built in any land space")
        units = [_Unit(p, tb.pieces[p].cost, i) for i, p in enumerate(pieces)]
        if sea:
            bad = sorted({p for p in pieces if p not in ("storm", "dragon", "warship", "fighter", "wizard")})
            if bad:
                raise OddsError(f"{who}: {', '.join(bad)} cannot fight at sea (only flying pieces, Warships and "
                                f"Heroes carried on Warships fight in sea battles)")
            ships = [u.index for u in units if u.kind == "warship"]
            heroes = [u for u in units if u.kind in ("fighter", "wizard")]
            if len(heroes) > 2 * len(ships):
                raise OddsError(f"{who}: {len(heroes)} Heroes at sea need {(len(heroes) + 1) // 2} Warships to "
                                f"carry them (a Warship carries up to 2 land pieces)")
            for k, h in enumerate(heroes):
                h.ship = ships[k // 2]
                units[h.ship].cargo.append(h.index)
        else:
            if "warship" in pieces:
                raise OddsError(f"{who}: a Warship fights only in sea battles (use --sea)")
        self.units = units
        self.bonus = bonus
        self.hurt_fights = hurt_fights
        # the hit slots, in order: (unit, "wound" | "kill")
        if order == "cheapest":
            def eff_cost(u: _Unit) -> int:
                return u.cost + sum(units[c].cost for c in u.cargo)
            ranked = sorted(units, key=lambda u: (eff_cost(u), d.PIECE_NAMES.index(u.kind), u.index))
        else:
            ranked = list(units)
        slots = [(u.index, "wound" if u.kind == "dragon" else "kill") for u in ranked]
        slots += [(u.index, "kill") for u in ranked if u.kind == "dragon"]
        # walk the slots: each hit takes the next slot whose unit is still in the battle
        alive = [True] * len(units)
        wounded = [False] * len(units)
        # Dragons already wounded in this battle (a position mid-battle): the first ones listed
        dragons = [u.index for u in units if u.kind == "dragon"]
        if wounded_count := min(wounded_at_start, len(dragons)):
            for ui in dragons[:wounded_count]:
                wounded[ui] = True
        self.snaps: list[_Snapshot] = [_Snapshot(alive[:], wounded[:])]
        self.hit_slot: list[tuple[int, str]] = []
        for ui, what in slots:
            if not alive[ui] or (what == "wound" and wounded[ui]):
                continue   # a Hero lost with the Warship that carried it; a Dragon already wounded
            self.hit_slot.append((ui, what))
            if what == "wound":
                wounded[ui] = True
            else:
                alive[ui] = False
                wounded[ui] = False
                for c in units[ui].cargo:
                    alive[c] = False
            self.snaps.append(_Snapshot(alive[:], wounded[:]))
        self.K = len(self.hit_slot)   # hits that destroy the side (all its pieces, the Castle inactive)

    # ---- what a side rolls after k hits (as rules.battle_dice) -------------------------------------
    def need(self, kind: str) -> int:
        hit_on = _nerath().tables().hit_on
        return hit_on - self.bonus.get(kind, 0) - self.bonus.get("*", 0)

    def dice(self, k: int, first_strike: bool) -> tuple[tuple[int, int, int], ...]:
        tb = _nerath().tables()
        snap = self.snaps[k]
        dice: dict[tuple[int, int], int] = {}
        for u, a, w in zip(self.units, snap.alive, snap.wounded):
            if not a:
                continue
            kind = u.kind
            if kind == "castle":
                if first_strike:
                    continue
            elif (kind == "wizard") != first_strike:
                continue
            if kind == "dragon" and w and not self.hurt_fights:
                continue
            per = 2 if (kind == "siege" and self.attacking) or (kind == "storm" and self.sea) else 1
            key = (tb.pieces[kind].die, self.need(kind))
            dice[key] = dice.get(key, 0) + per
        return tuple(sorted((f, n, c) for (f, n), c in dice.items()))

    def survivors(self, k: int, keeps_castle: bool) -> tuple[str, ...]:
        snap = self.snaps[k]
        out = []
        for u in self.units:
            if u.kind == "castle":
                if keeps_castle:
                    out.append("castle")
            elif snap.alive[u.index]:
                out.append(u.kind)
        return tuple(out)

    def pieces_left(self, k: int) -> int:
        return sum(1 for u, a in zip(self.units, self.snaps[k].alive) if a and u.kind != "castle")

    def gold_lost(self, k: int, castle_lost: bool) -> int:
        snap = self.snaps[k]
        return sum(u.cost for u in self.units if (u.kind == "castle" and castle_lost) or
                   (u.kind != "castle" and not snap.alive[u.index]))


def _exact_hit_distribution(dice: tuple[tuple[int, int, int], ...]) -> list[Fraction]:
    """As ``dice.hit_distribution``, in rational arithmetic."""
    dist = [Fraction(1)]
    for faces, need, count in dice:
        need = max(need, 2)
        p = Fraction(max(0, faces - need + 1), faces)
        for _ in range(count):
            new = [Fraction(0)] * (len(dist) + 1)
            for k, v in enumerate(dist):
                new[k] += v * (1 - p)
                new[k + 1] += v * p
            dist = new
    return dist


@dataclass
class BattleOdds:
    attacker_wins: float
    defender_holds: float
    both_destroyed: float
    attacker_survivors: list[dict[str, Any]]
    defender_survivors: list[dict[str, Any]]
    expected_gold_lost: dict[str, float]
    expected_rounds: float
    method: str
    seconds: float
    retreats: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {"attacker_wins": self.attacker_wins, "defender_holds": self.defender_holds,
               "both_destroyed": self.both_destroyed, "attacker_retreats": self.retreats,
               "attacker_survivors": self.attacker_survivors, "defender_survivors": self.defender_survivors,
               "expected_gold_lost": self.expected_gold_lost, "expected_rounds": self.expected_rounds,
               "method": self.method, "seconds": self.seconds}
        out.update(self.extra)
        return out


def _survivor_list(acc: dict[tuple[str, ...], Any]) -> list[dict[str, Any]]:
    return [{"pieces": list(k), "probability": float(v)}
            for k, v in sorted(acc.items(), key=lambda kv: (-float(kv[1]), kv[0])) if v > 0]


class NerathBattle:
    """A Nerath battle between two listed forces in one space, under a casualty order and a press policy."""

    def __init__(self, attacker: list[str], defender: list[str], sea: bool = False, order: str = "cheapest",
                 press: PressPolicy | str = "always", attacker_cards: Sequence[str] = (),
                 defender_cards: Sequence[str] = (), hurt_dragon_fights: bool = True,
                 wounded: tuple[int, int] = (0, 0)) -> None:
        if not attacker:
            raise OddsError("attacker: no pieces given (an empty side cannot fight)")
        if not defender:
            raise OddsError("defender: no pieces given (an empty side cannot fight)")
        if sea and "castle" in defender:
            raise OddsError("defender: a Castle stands in a land space, not at sea")
        self.attacker_pieces, self.defender_pieces = list(attacker), list(defender)
        self.sea, self.order = sea, order
        self.press = press if isinstance(press, PressPolicy) else PressPolicy.parse(press)
        self.attacker_cards, self.defender_cards = list(attacker_cards), list(defender_cards)
        self.hurt_dragon_fights = hurt_dragon_fights
        self.a = _Side(attacker, True, sea, order, card_bonuses(attacker_cards, "attacker"), hurt_dragon_fights,
                       wounded[0])
        self.d = _Side(defender, False, sea, order, card_bonuses(defender_cards, "defender"), hurt_dragon_fights,
                       wounded[1])

    # ---- the transition vectors ----------------------------------------------------------------------
    def _tables(self, exact: bool) -> tuple[list[list[Any]], ...]:
        """``hitsA[i][fs]``: distribution of the hits the attacker scores after taking i hits (fs = First
        Strike stage or not); likewise ``hitsD[j][fs]``."""
        from conquest.rulesets.nerath.dice import hit_distribution
        dist = _exact_hit_distribution if exact else (lambda d: list(hit_distribution(d)))
        hits_a = [[dist(self.a.dice(i, fs)) for fs in (False, True)] for i in range(self.a.K + 1)]
        hits_d = [[dist(self.d.dice(j, fs)) for fs in (False, True)] for j in range(self.d.K + 1)]
        return hits_a, hits_d

    @staticmethod
    def _moves(dist: list[Any], k: int, K: int, zero: Any) -> list[Any]:
        """The distribution of the new hit count k' (k..K) of a side at k that receives ``dist`` hits; as a
        vector indexed k' - k. More hits than the side can take destroy it (k' = K)."""
        n = K - k
        m = min(len(dist) - 1, n)
        out = [zero] * (m + 1)
        for h, p in enumerate(dist):
            out[h if h < n else n] += p
        return out

    def solve(self, exact: bool = False) -> BattleOdds:
        """The exact distribution of the battle's results (float64, or Fractions with ``exact``)."""
        if not exact:
            return self._solve_float()
        t0 = time.perf_counter()
        A, D = self.a, self.d
        KA, KD = A.K, D.K
        hits_a, hits_d = self._tables(exact)
        zero: Any = Fraction(0) if exact else 0.0
        one: Any = Fraction(1) if exact else 1.0
        press = [A.pieces_left(i) > 0 and self.press.presses(A.pieces_left(i)) for i in range(KA + 1)]
        if exact:
            mid: Any = [[zero] * (KD + 1) for _ in range(KA + 1)]
            end: Any = [[zero] * (KD + 1) for _ in range(KA + 1)]
        else:
            mid = np.zeros((KA + 1, KD + 1))
            end = np.zeros((KA + 1, KD + 1))
        term: dict[tuple[int, int, str], Any] = {}   # (i, j, how) -> probability
        rounds: Any = zero

        def add_term(i: int, j: int, how: str, p: Any) -> None:
            if p:
                term[(i, j, how)] = term.get((i, j, how), zero) + p

        # vectors: attacker at i takes hits from the defender at j (and vice versa)
        cache: dict[tuple[str, int, int, bool], Any] = {}

        def vec(side: str, k: int, other: int, fs: bool) -> Any:
            key = (side, k, other, fs)
            v = cache.get(key)
            if v is None:
                if side == "a":
                    v = self._moves(hits_d[other][fs], k, KA, zero)
                else:
                    v = self._moves(hits_a[other][fs], k, KD, zero)
                if not exact:
                    v = np.asarray(v)
                cache[key] = v
            return v

        for i in range(KA):
            for j in range(KD):
                fa, fd = vec("a", i, j, True), vec("d", j, i, True)     # First Strike stage
                f0 = fa[0] * fd[0]
                na, nd = vec("a", i, j, False), vec("d", j, i, False)   # the other attacks
                n0 = na[0] * nd[0]
                # no die can hit on either side: pressing would repeat the round for ever, so the calculator
                # retreats instead (documented in docs/odds.md)
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
                if exact:
                    for x, px in enumerate(fa):
                        if px:
                            for y, py in enumerate(fd):
                                if py and (x or y):
                                    mid[i + x][j + y] += start * px * py
                else:
                    if len(fa) > 1 or len(fd) > 1:
                        blk = start * np.outer(fa, fd)
                        blk[0, 0] = 0.0
                        mid[i:i + len(fa), j:j + len(fd)] += blk
                # the other attacks: mid(i, j) -> end(i', j'), except (i, j) itself
                if exact:
                    for x, px in enumerate(na):
                        if px:
                            for y, py in enumerate(nd):
                                if py and (x or y):
                                    end[i + x][j + y] += m_here * px * py
                else:
                    blk = m_here * np.outer(na, nd)
                    blk[0, 0] = 0.0
                    end[i:i + len(na), j:j + len(nd)] += blk
                if not presses:
                    # the attacker retreats at the end of a round that ends here
                    back = end[i][j] + n0 * m_here
                    add_term(i, j, "retreat", back)
        # sides destroyed: after First Strike (the round ends there) or after the other attacks
        for i in range(KA + 1):
            for j in range(KD + 1):
                if i < KA and j < KD:
                    continue
                p = mid[i][j] + end[i][j]
                how = "both" if i == KA and j == KD else "attacker" if j == KD else "defender"
                add_term(i, j, how, p)
        return self._report(term, rounds, exact, t0)

    def _solve_float(self) -> BattleOdds:
        """``solve`` in float64 with numpy: the same sweep, with each side's received-hit vectors cut from
        the hit distributions (the hits beyond what a side can take summed into its last entry)."""
        t0 = time.perf_counter()
        A, D = self.a, self.d
        KA, KD = A.K, D.K
        hits_a, hits_d = self._tables(False)
        press = [A.pieces_left(i) > 0 and self.press.presses(A.pieces_left(i)) for i in range(KA + 1)]
        # per hitter's count and stage: the distribution (numpy) and its tail sums
        da = [[np.asarray(v) for v in row] for row in hits_a]
        dd = [[np.asarray(v) for v in row] for row in hits_d]
        ta = [[v[::-1].cumsum()[::-1] for v in row] for row in da]
        td = [[v[::-1].cumsum()[::-1] for v in row] for row in dd]

        def cut(dist: Any, tail: Any, n: int) -> Any:
            if len(dist) <= n + 1:
                return dist
            out = dist[:n + 1].copy()
            out[n] = tail[n]
            return out
        mid = np.zeros((KA + 1, KD + 1))
        end = np.zeros((KA + 1, KD + 1))
        term: dict[tuple[int, int, str], Any] = {}
        rounds = 0.0
        # P(no hit) of each side's roll, as Python floats: [k][stage]
        za = [[float(v[0]) for v in row] for row in da]
        zd = [[float(v[0]) for v in row] for row in dd]
        fs_any_a = [len(row[1]) > 1 for row in da]
        fs_any_d = [len(row[1]) > 1 for row in dd]
        outer = np.outer
        for i in range(KA):
            na_i = KA - i
            za_i, da_i, ta_i, fsa = za[i], da[i], ta[i], fs_any_a[i]
            pr = press[i]
            for j in range(KD):
                # the attacker at i receives the defender's hits (defender at j), and vice versa; an entry
                # (i, j) of ``mid``/``end`` is read once, before the sweep scatters into it from (i, j) itself
                f0 = zd[j][1] * za_i[1]
                n0 = zd[j][0] * za_i[0]
                presses = pr and n0 * f0 != 1.0
                e_in = float(end[i, j])
                m_in = float(mid[i, j])
                if i == 0 and j == 0:
                    s_in = 1.0 + (e_in if presses else 0.0)
                elif not m_in and not e_in:
                    continue
                else:
                    s_in = e_in if presses else 0.0
                start = (s_in + n0 * m_in) / (1.0 - n0 * f0) if presses else s_in
                rounds += start
                m_here = m_in + f0 * start
                nd_j = KD - j
                if start and (fsa or fs_any_d[j]):
                    va = cut(dd[j][1], td[j][1], na_i)
                    vd = cut(da_i[1], ta_i[1], nd_j)
                    mid[i:i + len(va), j:j + len(vd)] += outer(va * start, vd)
                if m_here:
                    va = cut(dd[j][0], td[j][0], na_i)
                    vd = cut(da_i[0], ta_i[0], nd_j)
                    end[i:i + len(va), j:j + len(vd)] += outer(va * m_here, vd)
                if not presses:
                    back = e_in + n0 * m_here
                    if back:
                        term[(i, j, "retreat")] = back
        fin = mid + end
        for i in range(KA + 1):
            for j in range(KD + 1):
                if (i == KA or j == KD) and fin[i, j]:
                    how = "both" if i == KA and j == KD else "attacker" if j == KD else "defender"
                    term[(i, j, how)] = float(fin[i, j])
        return self._report(term, rounds, False, t0)

    def _report(self, term: dict[tuple[int, int, str], Any], rounds: Any, exact: bool, t0: float,
                method: str | None = None, extra: dict[str, Any] | None = None) -> BattleOdds:
        A, D = self.a, self.d
        wins = holds = both = retreats = 0.0
        sa: dict[tuple[str, ...], Any] = {}
        sd: dict[tuple[str, ...], Any] = {}
        gold_a = gold_d = 0.0
        total = 0.0
        memo_a: dict[int, Any] = {}
        memo_d: dict[tuple[int, bool], Any] = {}
        for (i, j, how), p in term.items():
            pf = float(p)
            total += pf
            if how == "attacker":
                wins += pf
            elif how == "both":
                both += pf
            else:
                holds += pf
                if how == "retreat":
                    retreats += pf
            conquered = how == "attacker" and not self.sea
            ka = memo_a.get(i)
            if ka is None:
                ka = memo_a[i] = (A.survivors(i, False), A.gold_lost(i, False))
            kd = memo_d.get((j, conquered))
            if kd is None:
                kd = memo_d[(j, conquered)] = (D.survivors(j, keeps_castle=not conquered),
                                               D.gold_lost(j, castle_lost=conquered))
            sa[ka[0]] = sa.get(ka[0], 0.0) + pf
            sd[kd[0]] = sd.get(kd[0], 0.0) + pf
            gold_a += pf * ka[1]
            gold_d += pf * kd[1]
        extra = dict(extra or {})
        extra.setdefault("probability_total", float(sum(term.values())) if exact else total)
        if exact and max(Fraction(p).denominator.bit_length() for p in term.values()) < 1200:
            extra["exact_fractions"] = {
                "attacker_wins": str(sum((p for (i, j, h), p in term.items() if h == "attacker"), Fraction(0))),
                "both_destroyed": str(sum((p for (i, j, h), p in term.items() if h == "both"), Fraction(0)))}
        return BattleOdds(attacker_wins=wins, defender_holds=holds, both_destroyed=both,
                          attacker_survivors=_survivor_list(sa), defender_survivors=_survivor_list(sd),
                          expected_gold_lost={"attacker": gold_a, "defender": gold_d},
                          expected_rounds=float(rounds), retreats=retreats,
                          method=method or ("exact (Markov chain over hit counts, rational arithmetic)" if exact
                                            else "exact (Markov chain over hit counts, float64, error < 1e-9)"),
                          seconds=round(time.perf_counter() - t0, 6), extra=extra)

    # ---- a fast sampler of the same chain (the speed yardstick of a Monte Carlo calculator) --------------
    def sample_chain(self, n: int, seed: int = 0) -> BattleOdds:
        """``n`` battles sampled round by round from the same per-count hit distributions (what a Monte Carlo
        calculator does); used by the benchmark as the speed yardstick."""
        t0 = time.perf_counter()
        rng = random.Random(seed)
        hits_a, hits_d = self._tables(False)
        A, D = self.a, self.d

        def cum(dist: list[float]) -> list[float]:
            out, s = [], 0.0
            for p in dist:
                s += p
                out.append(s)
            out[-1] = 1.0
            return out
        import bisect
        ca = [[cum(v) for v in row] for row in hits_a]
        cd = [[cum(v) for v in row] for row in hits_d]
        term: dict[tuple[int, int, str], Any] = {}
        rounds = 0
        for _ in range(n):
            i = j = 0
            while True:
                rounds += 1
                x = bisect.bisect_right(ca[i][True], rng.random())
                y = bisect.bisect_right(cd[j][True], rng.random())
                i, j = min(A.K, i + y), min(D.K, j + x)
                if i < A.K and j < D.K:
                    x = bisect.bisect_right(ca[i][False], rng.random())
                    y = bisect.bisect_right(cd[j][False], rng.random())
                    i, j = min(A.K, i + y), min(D.K, j + x)
                if i >= A.K or j >= D.K:
                    how = "both" if i >= A.K and j >= D.K else "attacker" if j >= D.K else "defender"
                    break
                if not self.press.presses(A.pieces_left(i)):
                    how = "retreat"
                    break
                if rounds > 1000 * n:
                    raise OddsError("the sampled battle does not end (no die can hit)")
            term[(i, j, how)] = term.get((i, j, how), 0) + 1.0 / n
        return self._report(term, rounds / n, False, t0, method=f"Monte Carlo of the chain ({n} battles)")


def mc_standard_errors(odds: BattleOdds, n: int) -> dict[str, float]:
    """Binomial standard errors of a Monte Carlo estimate's three outcome probabilities."""
    return {k: math.sqrt(max(p * (1 - p), 1e-12) / n) for k, p in
            (("attacker_wins", odds.attacker_wins), ("defender_holds", odds.defender_holds),
             ("both_destroyed", odds.both_destroyed))}


def iter_survivors(items: Iterable[dict[str, Any]]) -> dict[tuple[str, ...], float]:
    return {tuple(x["pieces"]): float(x["probability"]) for x in items}
