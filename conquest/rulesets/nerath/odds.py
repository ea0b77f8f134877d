"""Odds for Conquest of Nerath: the battle calculator (``NerathBattle``: a Markov chain over the two sides' hit
counts, ``conquest.core.odds.solve_attrition``), battles read from a position (``battle_from_state``) and
``action_odds`` (declaring a battle, pressing or retreating mid-battle, any other action that leads into dice).

Each side's pieces take hits in a fixed order (the casualty policy), so a side's state is the number of hits it
has taken; what each side rolls at each count comes from the piece table (``pieces.yaml``) and the rules' own
hit distributions (``dice.hit_distribution``), composed as ``rules.battle_dice`` composes them. Allied defenders
(``_Allies``) are two such realms, their state the pair of counts, each roll's hits split between them by the
rules' own ``battle.split_hits``; Dungeon Guardians (``_Guardians``) lose a die a hit, and the Heroes' dice
depend on which of them stand (``dungeons.need_against``); facedown Guardians are weighed over the tiles they
may be (``HiddenGuardians``). The Monte Carlo cross-check through the rules is
``conquest.rulesets.nerath.montecarlo.monte_carlo``. docs/odds.md gives the method, the error bound and the policies.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, State
from conquest.core.kinds import Action
from conquest.core.notation import is_digits
from conquest.core.odds import OddsError, action_odds_report, sample_attrition, solve_attrition
from conquest.rulesets.nerath.base import cargo
from conquest.rulesets.nerath.data import COUNTED, HEROES, N_TYPES, REALMS, R, guardian_tiles
from conquest.rulesets.nerath.dungeons import heroes_need
from conquest.rulesets.nerath.odds_sides import (  # noqa: F401 - the calculator's names, in one place
    FACEDOWN,
    POLICY_ORDERS,
    _Allies,
    _Guardians,
    _Side,
    card_bonuses,
    parse_guardians,
    parse_pieces,
    piece_aliases,
)


@dataclass(frozen=True)
class PressPolicy:
    """When the attacker presses the attack at the end of a round: ``always``, or ``until-below=K`` (retreat
    as soon as fewer than K attacking pieces are left)."""
    below: int = 0

    @staticmethod
    def parse(text: str) -> PressPolicy:
        t = text.strip().lower()
        if t == "always":
            return PressPolicy(0)
        if t.startswith("until-below="):
            v = t.split("=", 1)[1]
            if is_digits(v) and 0 < int(v) < 10_000:
                return PressPolicy(int(v))
        raise OddsError(f"--press '{text}': use 'always' or 'until-below=K' (K a whole number of pieces >= 1)")

    def presses(self, pieces_left: int) -> bool:
        return pieces_left >= self.below

    def __str__(self) -> str:
        return "always" if self.below == 0 else f"until-below={self.below}"


MAX_HIDDEN_DEALS = 5000   # tile deals a facedown-Guardian average may weigh


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


def _survivor_list(acc: dict[tuple[Any, ...], Any], row: Callable[[tuple[Any, ...]], dict[str, Any]]
                   ) -> list[dict[str, Any]]:
    return [{**row(k), "probability": float(v)}
            for k, v in sorted(acc.items(), key=lambda kv: (-float(kv[1]), kv[0])) if v > 0]


class NerathBattle:
    """A Nerath battle in one space between two listed forces, under a casualty order and a press policy: a
    land or sea battle (the defender one realm, or with ``ally`` two allied realms who split the damage), or a
    dungeon battle (``dungeon``: Heroes against the Guardian tiles listed in ``defender``, with the dice they
    have left in ``guardian_dice``; ``fought``: the tiles whose Rewards a win brings, by default those)."""

    def __init__(self, attacker: list[str], defender: list[str], sea: bool = False, order: str = "cheapest",
                 press: PressPolicy | str = "always", attacker_cards: Sequence[str] = (),
                 defender_cards: Sequence[str] = (), hurt_dragon_fights: bool = True,
                 wounded: Sequence[int] = (0, 0), ally: Sequence[str] | None = None,
                 ally_cards: Sequence[str] = (), names: tuple[str, str] = ("defender", "ally"),
                 dungeon: bool = False, guardian_dice: dict[str, list[int]] | None = None,
                 fought: Sequence[str] | None = None, heroes_need_lasts: str = "whole_battle",
                 one_seat: bool = False) -> None:
        if not attacker:
            raise OddsError("attacker: no pieces given (an empty side cannot fight)")
        if not defender:
            raise OddsError("defender: no pieces given (an empty side cannot fight)")
        if sea and "castle" in defender + list(ally or []):
            raise OddsError("defender: a Castle stands in a land space, not at sea")
        self.attacker_pieces, self.defender_pieces = list(attacker), list(defender)
        self.ally_pieces = list(ally) if ally else []
        self.sea, self.order, self.dungeon = sea, order, dungeon
        self.names = names
        self.press = press if isinstance(press, PressPolicy) else PressPolicy.parse(press)
        self.attacker_cards, self.defender_cards = list(attacker_cards), list(defender_cards)
        self.ally_cards = list(ally_cards)
        self.hurt_dragon_fights = hurt_dragon_fights
        self.heroes_need_lasts = heroes_need_lasts
        self.one_seat = bool(ally) and one_seat   # one seat plays both allies: it splits their hits (_Allies)
        wounded = list(wounded) + [0] * (3 - len(wounded))
        self.wounded = tuple(wounded)
        self.a = _Side(attacker, True, sea, order, card_bonuses(attacker_cards, "attacker"), hurt_dragon_fights,
                       wounded[0], dungeon=dungeon)
        self.a.event_bonus = card_bonuses(attacker_cards, "attacker", events_only=True)
        self.d: _Side | _Allies | _Guardians
        self.fought: list[str] = []
        self.guardian_dice: dict[str, list[int]] = {}   # a dungeon's Guardians: the dice each has left
        if dungeon:
            if sea:
                raise OddsError("a dungeon battle is fought in a dungeon entrance, not at sea")
            if ally or ally_cards or defender_cards:
                raise OddsError("defender: Dungeon Guardians have no allies and play no cards")
            tiles = guardian_tiles()
            bad = [t for t in defender if t not in tiles]
            if bad:
                raise OddsError(f"defender: unknown Dungeon Guardian '{bad[0]}' (a tile of guardians.yaml, face "
                                f"up: a facedown one is weighed by dungeon_battle)")
            if len(set(defender)) < len(defender):
                raise OddsError("defender: each Dungeon Guardian tile is unique (the same tile twice)")
            dice = {t: list(tiles[t].dice) for t in defender}
            for t, left in (guardian_dice or {}).items():
                if t not in dice or not left or any(f not in tiles[t].dice for f in left):
                    raise OddsError(f"defender: Guardian '{t}' has no such attack dice left: {left}")
                dice[t] = list(left)
            self.fought = list(fought) if fought is not None else list(defender)
            self.guardian_dice = {t: list(v) for t, v in dice.items()}
            self.d = _Guardians([(t, dice[t]) for t in defender], order)
            if heroes_need_lasts == "whole_battle":   # the Guardians the battle began with, standing or not
                held = heroes_need(defender, self.fought, heroes_need_lasts)
                self.d.variant = [held] * len(self.d.snaps)
            elif heroes_need_lasts != "while_standing":
                raise OddsError(f"heroes_need_lasts '{heroes_need_lasts}': use while_standing or whole_battle")
        elif ally:
            self.d = _Allies([
                _Side(list(defender), False, sea, order, card_bonuses(defender_cards, names[0]), hurt_dragon_fights,
                      wounded[1], who=names[0]),
                _Side(list(ally), False, sea, order, card_bonuses(ally_cards, names[1]), hurt_dragon_fights,
                      wounded[2], who=names[1])], one_seat=one_seat)
            if "castle" in defender and "castle" in ally:
                raise OddsError("defender: only 1 Castle can be built in any land space")
        else:
            self.d = _Side(defender, False, sea, order, card_bonuses(defender_cards, "defender"), hurt_dragon_fights,
                           wounded[1])

    # ---- the transition vectors ----------------------------------------------------------------------
    def _chain(self, exact: bool) -> tuple[list[Any], list[list[Any]], dict[str, Any]]:
        """The chain's tables: ``hits_a[i][fs]`` (the distribution of the hits the attacker scores after taking i
        hits; fs = First Strike stage or not; in a dungeon one such table per "Heroes Need" number, with the one
        that applies at each of the Guardians' states), ``hits_d[j][fs]``, and the defender's moves (allies)."""
        from conquest.rulesets.nerath.dice import hit_distribution
        dist = _exact_hit_distribution if exact else (lambda d: list(hit_distribution(d)))
        A, D = self.a, self.d
        hits_d = [[dist(D.dice(j, bool(fs))) for fs in (0, 1)] for j in range(D.K + 1)]
        kw: dict[str, Any] = {"d_next": D.next_states}
        if D.variant is not None:
            needs = sorted(set(D.variant))
            hits_a: list[Any] = [[[dist(A.dice(i, bool(fs), hn)) for fs in (0, 1)] for i in range(A.K + 1)]
                                 for hn in needs]
            kw["a_variant"] = [needs.index(v) for v in D.variant]
        else:
            hits_a = [[dist(A.dice(i, bool(fs))) for fs in (0, 1)] for i in range(A.K + 1)]
        return hits_a, hits_d, kw

    def solve(self, exact: bool = False) -> BattleOdds:
        """The exact distribution of the battle's results (float64, or Fractions with ``exact``)."""
        t0 = time.perf_counter()
        hits_a, hits_d, kw = self._chain(exact)
        term, rounds = solve_attrition(hits_a, hits_d, self._press(), exact, **kw)
        return self._report(term, rounds, exact, t0)

    def _press(self) -> list[bool]:
        A = self.a
        return [A.pieces_left(i) > 0 and self.press.presses(A.pieces_left(i)) for i in range(A.K + 1)]

    def reward(self) -> int:
        """A won dungeon's extra gold: the Rewards of the Guardians fought."""
        tiles = guardian_tiles()
        return sum(tiles[t].reward for t in self.fought)

    def _report(self, term: dict[tuple[int, int, str], Any], rounds: Any, exact: bool, t0: float,
                method: str | None = None, extra: dict[str, Any] | None = None) -> BattleOdds:
        A, D = self.a, self.d
        wins = holds = both = retreats = 0.0
        sa: dict[tuple[Any, ...], Any] = {}
        sd: dict[tuple[Any, ...], Any] = {}
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
            conquered = how == "attacker" and not self.sea and not self.dungeon
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
        if self.dungeon:
            extra["reward_gold"] = self.reward()
            extra["expected_reward_gold"] = wins * self.reward()
        if exact and max(Fraction(p).denominator.bit_length() for p in term.values()) < 1200:
            extra["exact_fractions"] = {
                "attacker_wins": str(sum((p for (i, j, h), p in term.items() if h == "attacker"), Fraction(0))),
                "both_destroyed": str(sum((p for (i, j, h), p in term.items() if h == "both"), Fraction(0)))}
        return BattleOdds(attacker_wins=wins, defender_holds=holds, both_destroyed=both,
                          attacker_survivors=_survivor_list(sa, A.row),
                          defender_survivors=_survivor_list(sd, D.row),
                          expected_gold_lost={"attacker": gold_a, "defender": gold_d},
                          expected_rounds=float(rounds), retreats=retreats,
                          method=method or ("exact (Markov chain over hit counts, rational arithmetic)" if exact
                                            else "exact (Markov chain over hit counts, float64, error < 1e-9)"),
                          seconds=round(time.perf_counter() - t0, 6), extra=extra)

    # ---- a fast sampler of the same chain (the speed yardstick of a Monte Carlo calculator) --------------
    def sample_chain(self, n: int, seed: int = 0) -> BattleOdds:
        """``n`` battles sampled from the same chain (a Monte Carlo calculator's way): the benchmark's yardstick."""
        t0 = time.perf_counter()
        hits_a, hits_d, kw = self._chain(False)
        term, rounds = sample_attrition(hits_a, hits_d, self._press(), n, seed, **kw)
        return self._report(term, rounds, False, t0, method=f"Monte Carlo of the chain ({n} battles)")


class HiddenGuardians:
    """A dungeon battle against Guardians some of which are still face down: the average of the battles against
    every deal of the tiles they may be (``unseen``: the tiles the asking seat cannot rule out), each deal equally
    likely - the model of the seat's knowledge of ``hidden.determinize``, which deals the tiles out of sight at
    random. ``battles``: the concrete battles (a face-up Guardian stays itself)."""

    def __init__(self, attacker: list[str], tiles: list[str], unseen: Sequence[str], **kw: Any) -> None:
        self.attacker_pieces, self.defender_pieces = list(attacker), list(tiles)
        self.order: str = kw.get("order", "cheapest")
        press = kw.get("press", "always")
        self.press = press if isinstance(press, PressPolicy) else PressPolicy.parse(press)
        self.sea, self.dungeon = False, True
        known = [t for t in tiles if t != FACEDOWN]
        pool = sorted(set(unseen) - set(known))
        m = tiles.count(FACEDOWN)
        if len(pool) < m:
            raise OddsError(f"defender: {m} facedown Guardians but only {len(pool)} tiles they may be")
        deal = itertools.permutations if self.order == "listed" else itertools.combinations
        count = (math.perm if self.order == "listed" else math.comb)(len(pool), m)
        if count > MAX_HIDDEN_DEALS:
            raise OddsError(f"defender: {m} facedown Guardians among {len(pool)} tiles make {count} deals to weigh "
                            f"(at most {MAX_HIDDEN_DEALS})")
        self.unseen = pool
        self.battles: list[NerathBattle] = []
        fought = kw.pop("fought", None)
        for chosen in deal(pool, m):
            it = iter(chosen)
            concrete = [t if t != FACEDOWN else next(it) for t in tiles]
            self.battles.append(NerathBattle(attacker, concrete, dungeon=True, fought=fought or concrete, **kw))
        self.a = self.battles[0].a

    def solve(self, exact: bool = False) -> BattleOdds:
        t0 = time.perf_counter()
        results = [b.solve(exact) for b in self.battles]
        return mix_odds(results, t0, f"{results[0].method}, averaged over the {len(results)} deals of the "
                                     f"{len(self.unseen)} tiles the facedown Guardians may be, equally likely")


def mix_odds(results: list[BattleOdds], t0: float, method: str, weights: Sequence[float] | None = None
             ) -> BattleOdds:
    """The average of battles' odds (outcomes, survivors, gold, rounds, Rewards), each equally likely or as
    ``weights`` say."""
    ws = list(weights) if weights is not None else [1.0 / len(results)] * len(results)

    def survivors(side: str) -> list[dict[str, Any]]:
        acc: dict[str, dict[str, Any]] = {}
        for r, w in zip(results, ws):
            for row in getattr(r, f"{side}_survivors"):
                key = json.dumps({k: v for k, v in row.items() if k != "probability"}, sort_keys=True)
                if key not in acc:
                    acc[key] = {**row, "probability": 0.0}
                acc[key]["probability"] += w * row["probability"]
        return sorted(acc.values(), key=lambda r: (-r["probability"], r["pieces"]))

    def avg(get: Callable[[BattleOdds], float]) -> float:
        return sum(get(r) * w for r, w in zip(results, ws))
    extra: dict[str, Any] = {"probability_total": avg(lambda r: r.extra["probability_total"])}
    if all("reward_gold" in r.extra for r in results):
        # the Rewards a win brings: on average over the wins (weak Guardians, often of small Rewards, lose more)
        wins = avg(lambda r: r.attacker_wins)
        extra["expected_reward_gold"] = avg(lambda r: r.extra["expected_reward_gold"])
        extra["reward_gold"] = (extra["expected_reward_gold"] / wins if wins > 0 else
                                avg(lambda r: r.extra["reward_gold"]))
    if weights is None and all("exact_fractions" in r.extra for r in results):
        extra["exact_fractions"] = {k: str(sum((Fraction(r.extra["exact_fractions"][k]) for r in results),
                                               Fraction(0)) / len(results))
                                    for k in ("attacker_wins", "both_destroyed")}
    return BattleOdds(attacker_wins=avg(lambda r: r.attacker_wins), defender_holds=avg(lambda r: r.defender_holds),
                      both_destroyed=avg(lambda r: r.both_destroyed), attacker_survivors=survivors("attacker"),
                      defender_survivors=survivors("defender"),
                      expected_gold_lost={s: avg(lambda r: r.expected_gold_lost[s])  # noqa: B023 - called at once
                                          for s in ("attacker", "defender")},
                      expected_rounds=avg(lambda r: r.expected_rounds), retreats=avg(lambda r: r.retreats),
                      method=method, seconds=round(time.perf_counter() - t0, 6), extra=extra)


Battle = NerathBattle | HiddenGuardians


def dungeon_battle(attacker: list[str], tiles: list[str], unseen: Sequence[str] | None = None,
                   **kw: Any) -> Battle:
    """Heroes against the Guardians ``tiles`` (``facedown`` for one not seen yet: the average over the tiles
    ``unseen`` - by default every tile not listed face up); ``kw`` as ``NerathBattle``'s."""
    if FACEDOWN in tiles:
        return HiddenGuardians(attacker, tiles, sorted(guardian_tiles()) if unseen is None else unseen, **kw)
    return NerathBattle(attacker, tiles, dungeon=True, **kw)


# ------------------------------------------------------------------------------------- from a position
def _forces(state: Any, x: int, realm: int, kind: str) -> tuple[list[str], int]:
    """The pieces a realm fights with in space x (Heroes aboard its Warships at sea), wounded Dragons."""
    base = (x * R + realm) * N_TYPES
    out: list[str] = []
    sea = kind == "sea"
    for t in range(N_TYPES):
        if sea and COUNTED[t] not in ("storm", "dragon"):
            continue
        out += [COUNTED[t]] * state.pieces[base + t]
    if sea:
        for sid in sorted(state.ships):
            sh = state.ships[sid]
            if sh[1] == x and sh[0] == realm:
                out.append("warship")
                out += [COUNTED[c] for c in cargo(sh) if c in HEROES]
    wounded = state.battle.wounded_dragons[realm] if state.battle is not None else 0
    return out, wounded


def _bonus_cards(state: Any, realm: int, events_only: bool = False) -> dict[str, int]:
    """The realm's attack bonuses in force, per piece kind (``events_only``: those Event cards gave)."""
    bonus: dict[str, int] = {}
    for e in state.effects:
        if e[0] == realm and e[1] == "attack_bonus" and not (events_only and len(e) > 5):
            bonus[e[3]] = bonus.get(e[3], 0) + int(e[2])
    return bonus


def battle_from_state(state: Any, x: int, order: str = "cheapest", press: str | PressPolicy = "always"
                      ) -> Battle:
    """The calculator's battle for the fight in space x of this position (declared, or in progress), from what
    every seat sees: the pieces there, the Castle, the battle's round (wounded Dragons, an inactive Castle), the
    attack-bonus effects in force, the face-up Guardians (a facedown one is weighed over the tiles no seat has
    in sight: ``HiddenGuardians``)."""
    from conquest.rulesets.nerath.data import DUNGEON, LAND, SEA
    from conquest.rulesets.nerath.state import KIND
    kind = {LAND: "land", SEA: "sea", DUNGEON: "dungeon"}[KIND[x]]
    bt = state.battle
    att = bt.attacker if bt is not None else state.realm
    attackers, wa = _forces(state, x, att, kind)
    if kind == "dungeon":
        return _dungeon_from_state(state, x, att, attackers, order, press)
    defs = ([d for d in bt.defenders] if bt is not None else
            [e for e in range(R) if state.team[e] != state.team[att] and
             (any(state.pieces[(x * R + e) * N_TYPES:(x * R + e) * N_TYPES + N_TYPES]) or
              any(sh[1] == x and sh[0] == e for sh in state.ships.values()))])
    if kind == "land" and bt is None and state.ctrl[x] not in defs and state.castle[x]:
        defs.insert(0, state.ctrl[x])
    castle_active = (kind == "land" and state.castle[x] and not (bt is not None and bt.castle_inactive))
    sides: list[tuple[int, list[str], int]] = []
    for d in defs:
        f, w = _forces(state, x, d, kind)
        if castle_active and d == state.ctrl[x]:
            f.append("castle")   # "A Castle belongs to whoever controls its space" and defends with that realm
        if f:
            sides.append((d, f, w))
    if not sides:
        raise OddsError("no defending pieces in that space: the attacker takes it without a battle")
    if len(sides) > 2:
        raise OddsError("more than two realms defend that space: the rules split the damage between two allies")
    common = dict(sea=kind == "sea", order=order, press=press,
                  hurt_dragon_fights=bool(state.options["hurt_dragon_fights"]))
    if len(sides) == 2:
        (d1, f1, w1), (d2, f2, w2) = sides
        from conquest.rulesets.nerath.battle import one_seat_allies
        battle = NerathBattle(attackers, f1, ally=f2, names=(REALMS[d1], REALMS[d2]), wounded=(wa, w1, w2),
                              one_seat=one_seat_allies(state, d1, d2), **common)  # type: ignore[arg-type]
    else:
        battle = NerathBattle(attackers, sides[0][1], wounded=(wa, sides[0][2]), **common)  # type: ignore[arg-type]
    # the position's attack bonuses (cards already played, Treasures' properties), each realm's for its pieces
    battle.a.bonus = _bonus_cards(state, att)
    realms = battle.d.realms if isinstance(battle.d, _Allies) else [battle.d]
    for (d, _f, _w), side in zip(sides, realms):
        assert isinstance(side, _Side)
        side.bonus = _bonus_cards(state, d)
    return battle


def _dungeon_from_state(state: Any, x: int, att: int, heroes: list[str], order: str,
                        press: str | PressPolicy) -> Battle:
    """Heroes against an entrance's Guardians: a face-up Guardian with the dice it has left, a facedown one as
    any tile not face up on the board (the facedown pile and the facedown tiles are never read)."""
    gs = state.guardians[x]
    if not gs:
        raise OddsError("no Dungeon Guardians in that entrance: the Heroes plunder it without a battle")
    tiles = [g[0] if g[1] else FACEDOWN for g in gs]
    dice = {g[0]: list(g[2:]) for g in gs if g[1]}
    seen = {g[0] for entrance in state.guardians.values() for g in entrance if g[1]}
    unseen = sorted(set(guardian_tiles()) - seen)
    fought = list(state.battle.guardian_tiles) if state.battle is not None else None
    battle = dungeon_battle(heroes, tiles, unseen, order=order, press=press, guardian_dice=dice, fought=fought,
                            heroes_need_lasts=state.options.get("heroes_need_lasts", "whole_battle"))
    bonus, event_bonus = _bonus_cards(state, att), _bonus_cards(state, att, events_only=True)
    for b in (battle.battles if isinstance(battle, HiddenGuardians) else [battle]):
        b.a.bonus = bonus
        b.a.event_bonus = event_bonus
    return battle


OUTCOME_WORDS = {"land": ("attacker wins", "defender holds", "both destroyed"),
                 "sea": ("attacker wins", "defender holds", "both destroyed"),
                 "dungeon": ("attacker wins (plunders the dungeon)", "defender holds (the Guardians hold)",
                             "both destroyed (no plunder)")}


def battle_summary(battle: Battle, space: str) -> dict[str, Any]:
    """The ``battle`` record of ``action_odds``: the space, the two sides, the policies; with allies, each
    realm's pieces; in a dungeon, the Guardians (``facedown`` for a tile not seen)."""
    kind = "dungeon" if battle.dungeon else "sea" if battle.sea else "land"
    out: dict[str, Any] = {"space": space, "kind": kind, "attacker": battle.attacker_pieces,
                           "defender": battle.defender_pieces, "sea": battle.sea, "order": battle.order,
                           "press": str(battle.press)}
    if isinstance(battle, NerathBattle) and battle.ally_pieces:
        out["defender"] = battle.defender_pieces + battle.ally_pieces
        out["allies"] = {battle.names[0]: battle.defender_pieces, battle.names[1]: battle.ally_pieces}
        out["ally_split"] = "choose" if battle.one_seat else "half"   # docs/odds.md, "Allies"
    if battle.dungeon:
        out["guardians"] = battle.defender_pieces
    out["beyond_calculator"] = beyond_calculator(battle)
    return out


def beyond_calculator(battle: Battle) -> list[str]:
    """What of a position's battle the calculator's input (``conquest odds nerath``, ``POST /api/odds/nerath``:
    pieces, Guardian tiles, cards by id) cannot state, in words: a link to the calculator page opens the
    battle without these (empty: the same battle, the same odds)."""
    first = battle.battles[0] if isinstance(battle, HiddenGuardians) else battle
    out: list[str] = []
    if any(first.wounded):
        out.append("wounded Dragons")
    realms = first.d.realms if isinstance(first.d, _Allies) else [first.d] if isinstance(first.d, _Side) else []
    if any(side.bonus for side in [first.a, *realms]):
        out.append("the attack bonuses in force")
    if not first.hurt_dragon_fights:
        out.append("wounded Dragons that stop rolling (hurt_dragon_fights off)")
    if getattr(first, "one_seat", False):
        out.append("allies played by one seat, who split the hits themselves (the calculator splits them half "
                   "each)")
    if first.dungeon:
        tiles = guardian_tiles()
        if any(left != list(tiles[t].dice) for t, left in first.guardian_dice.items()):
            out.append("the dice the Guardians have lost")
        if isinstance(battle, NerathBattle) and battle.fought != battle.defender_pieces:
            out.append("the Rewards of the Guardians already destroyed")
        if first.heroes_need_lasts != "whole_battle":
            out.append("\"Heroes Need\" held only while a Guardian with it stands (option heroes_need_lasts)")
    if isinstance(battle, HiddenGuardians):
        known = {t for t in battle.defender_pieces if t != FACEDOWN}
        if battle.unseen != sorted(set(guardian_tiles()) - known):
            out.append("the tiles face up elsewhere (a face-down tile there is any tile not listed)")
    return out


def action_odds(ruleset: Any, state: State, action: Any) -> dict[str, Any]:
    """``battle X`` (declaring a battle, a dungeon's too) and ``press`` (mid-battle): the exact battle odds from
    this position; ``retreat``: certain; any other action: the chance outcomes that follow it, enumerated."""
    from conquest.rulesets.nerath.state import IDS, IX
    st: Any = state
    if isinstance(action, str):
        try:
            action = ruleset.parse_action(action)
        except ConquestError as e:
            raise OddsError(str(e)) from None
    if state.to_move is None or state.to_move == CHANCE or not state.is_legal(action):
        try:
            state.check(action)
        except ConquestError as e:
            raise OddsError(str(e)) from None
        raise OddsError("the position is at a chance node (dice to roll): the next step is not a decision")
    verb = action[0]
    t0 = time.perf_counter()
    battle: Battle | None = None
    if verb == "battle" and st.battle is None:
        battle = battle_from_state(st, IX[action[1]])
    elif verb == "press" and st.battle is not None:
        battle = battle_from_state(st, st.battle.space)
    elif verb == "retreat" and st.battle is not None:
        forces, _w = _forces(st, st.battle.space, st.battle.attacker, st.battle.kind)
        return {"ruleset": ruleset.id, "action": "retreat",
                "outcomes": [{"outcome": {"result": "attacker retreats, the defender holds",
                                          "attacker_keeps": forces}, "probability": 1.0}],
                "method": "certain (no dice)", "seconds": round(time.perf_counter() - t0, 6)}
    if battle is not None:
        odds = battle.solve()
        summary = battle_summary(battle, IDS[st.battle.space] if st.battle is not None else action[1])
        words = OUTCOME_WORDS[summary["kind"]]
        out = {"ruleset": ruleset.id, "action": ruleset.format_action(action), "battle": summary,
               "outcomes": [{"outcome": words[0], "probability": odds.attacker_wins},
                            {"outcome": words[1], "probability": odds.defender_holds},
                            {"outcome": words[2], "probability": odds.both_destroyed}],
               **{k: v for k, v in odds.to_json().items() if k not in ("method", "seconds")},
               "method": odds.method}
        out["seconds"] = round(time.perf_counter() - t0, 6)
        return out
    return action_odds_report(ruleset, state, action, _summary, describe=lambda k: k)


def _summary(before: State, after: State, path: tuple[Action, ...]) -> Any:
    """Outcomes of a Nerath action: the position's changes that matter (pieces, control, gold, VP, cards)."""
    a: Any = after
    b: Any = before
    parts = []
    for r in range(R):
        if a.gold[r] != b.gold[r]:
            parts.append(f"{REALMS[r]} gold {a.gold[r] - b.gold[r]:+d}")
        if a.vp[r] != b.vp[r]:
            parts.append(f"{REALMS[r]} VP {a.vp[r] - b.vp[r]:+d}")
        if len(a.treasures[r]) != len(b.treasures[r]):
            parts.append(f"{REALMS[r]} Treasures {len(a.treasures[r]) - len(b.treasures[r]):+d}")
    def pieces(s: Any, r: int) -> int:
        n: int = sum(s.pieces[i] for i in range(len(s.pieces)) if (i // N_TYPES) % R == r) + sum(
            1 + len(cargo(sh)) for sh in s.ships.values() if sh[0] == r)
        return n
    lost = [pieces(b, r) - pieces(a, r) for r in range(R)]
    for r in range(R):
        if lost[r] > 0:
            parts.append(f"{REALMS[r]} loses {lost[r]} pieces")
    bt = a.battle
    if bt is not None:
        parts.append(f"battle step {bt.step}")
    return "; ".join(parts) or "no change"
