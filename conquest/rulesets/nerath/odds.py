"""Odds for Conquest of Nerath: the battle calculator (``NerathBattle``: a Markov chain over the two sides' hit
counts, ``conquest.core.odds.solve_attrition``), battles read from a position (``battle_from_state``) and
``action_odds`` (declaring a battle, pressing or retreating mid-battle, any other action that leads into dice).

Each side's pieces take hits in a fixed order (the casualty policy), so a side's state is the number of hits it
has taken; what each side rolls at each count comes from the piece table (``pieces.yaml``) and the rules' own
hit distributions (``dice.hit_distribution``), composed as ``rules.battle_dice`` composes them. The Monte Carlo
cross-check through the rules is ``conquest.analysis.odds.monte_carlo``. docs/odds.md gives the method, the
error bound and the policies.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, State
from conquest.core.notation import is_digits
from conquest.core.odds import OddsError, action_odds_report, sample_attrition, solve_attrition
from conquest.rulesets.nerath import data as nerath_data
from conquest.rulesets.nerath.base import cargo
from conquest.rulesets.nerath.data import COUNTED, HEROES, R, REALMS, T

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
            if is_digits(v) and 0 < int(v) < 10_000:
                return PressPolicy(int(v))
        raise OddsError(f"--press '{text}': use 'always' or 'until-below=K' (K a whole number of pieces >= 1)")

    def presses(self, pieces_left: int) -> bool:
        return pieces_left >= self.below

    def __str__(self) -> str:
        return "always" if self.below == 0 else f"until-below={self.below}"


def piece_aliases() -> dict[str, str]:
    d = nerath_data
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
        if is_digits(head) and rest:
            k, item = int(head), rest
            if k > 500:
                raise OddsError(f"{who}: {k} {item} is more than a battle can hold (at most 500 of a kind)")
        elif head.endswith("x") and is_digits(head[:-1]) and rest:
            k, item = int(head[:-1]), rest
        if item not in names:
            raise OddsError(f"{who}: unknown piece '{item}' (one of {', '.join(nerath_data.PIECE_NAMES)})")
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
    from conquest.rulesets.nerath.cards import event_cards, treasure_cards
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
        d = nerath_data
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
            # a Hero is aboard the last Warship listed before it that has room, else the first with room
            for h in heroes:
                before = [w for w in ships if w < h.index and len(units[w].cargo) < 2]
                h.ship = before[-1] if before else next(w for w in ships if len(units[w].cargo) < 2)
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
        hit_on = nerath_data.tables().hit_on
        return hit_on - self.bonus.get(kind, 0) - self.bonus.get("*", 0)

    def dice(self, k: int, first_strike: bool) -> tuple[tuple[int, int, int], ...]:
        tb = nerath_data.tables()
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
    def _tables(self, exact: bool) -> tuple[list[list[Any]], list[list[Any]]]:
        """``hitsA[i][fs]``: distribution of the hits the attacker scores after taking i hits (fs = First
        Strike stage or not); likewise ``hitsD[j][fs]``."""
        from conquest.rulesets.nerath.dice import hit_distribution
        dist = _exact_hit_distribution if exact else (lambda d: list(hit_distribution(d)))
        hits_a = [[dist(self.a.dice(i, bool(fs))) for fs in (0, 1)] for i in range(self.a.K + 1)]
        hits_d = [[dist(self.d.dice(j, bool(fs))) for fs in (0, 1)] for j in range(self.d.K + 1)]
        return hits_a, hits_d

    def solve(self, exact: bool = False) -> BattleOdds:
        """The exact distribution of the battle's results (float64, or Fractions with ``exact``)."""
        t0 = time.perf_counter()
        hits_a, hits_d = self._tables(exact)
        term, rounds = solve_attrition(hits_a, hits_d, self._press(), exact)
        return self._report(term, rounds, exact, t0)

    def _press(self) -> list[bool]:
        A = self.a
        return [A.pieces_left(i) > 0 and self.press.presses(A.pieces_left(i)) for i in range(A.K + 1)]

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
        """``n`` battles sampled from the same chain (a Monte Carlo calculator's way): the benchmark's yardstick."""
        t0 = time.perf_counter()
        hits_a, hits_d = self._tables(False)
        term, rounds = sample_attrition(hits_a, hits_d, self._press(), n, seed)
        return self._report(term, rounds, False, t0, method=f"Monte Carlo of the chain ({n} battles)")


# ------------------------------------------------------------------------------------- from a position
def _forces(state: Any, x: int, realm: int, kind: str) -> tuple[list[str], int]:
    """The pieces a realm fights with in space x (Heroes aboard its Warships at sea), wounded Dragons."""
    base = (x * R + realm) * T
    out: list[str] = []
    sea = kind == "sea"
    for t in range(T):
        if sea and COUNTED[t] not in ("storm", "dragon"):
            continue
        out += [COUNTED[t]] * state.n[base + t]
    if sea:
        for sid in sorted(state.ships):
            sh = state.ships[sid]
            if sh[1] == x and sh[0] == realm:
                out.append("warship")
                out += [COUNTED[c] for c in cargo(sh) if c in HEROES]
    wounded = state.bt["hurt"][realm] if state.bt is not None else 0
    return out, wounded


def _bonus_cards(state: Any, realm: int) -> dict[str, int]:
    bonus: dict[str, int] = {}
    for e in state.effects:
        if e[0] == realm and e[1] == "attack_bonus":
            bonus[e[3]] = bonus.get(e[3], 0) + int(e[2])
    return bonus


def battle_from_state(state: Any, x: int, order: str = "cheapest", press: str | PressPolicy = "always"
                      ) -> NerathBattle:
    """The calculator's battle for the fight in space x of this position (declared, or in progress)."""
    from conquest.rulesets.nerath.data import DUNGEON, LAND, SEA
    from conquest.rulesets.nerath.state import KIND
    kind = {LAND: "land", SEA: "sea", DUNGEON: "dungeon"}[KIND[x]]
    if kind == "dungeon":
        raise OddsError("a dungeon battle against Guardians is not covered by the battle calculator")
    bt = state.bt
    att = bt["att"] if bt is not None else state.realm
    defs = ([d for d in bt["defs"]] if bt is not None else
            [e for e in range(R) if state.team[e] != state.team[att] and
             (any(state.n[(x * R + e) * T:(x * R + e) * T + T]) or
              any(sh[1] == x and sh[0] == e for sh in state.ships.values()))])
    if kind == "land" and bt is None and state.ctrl[x] not in defs and state.castle[x]:
        defs.insert(0, state.ctrl[x])
    attackers, wa = _forces(state, x, att, kind)
    defenders: list[str] = []
    wd = 0
    fighting = []
    for d in defs:
        f, w = _forces(state, x, d, kind)
        if f:
            fighting.append(d)
        defenders += f
        wd += w
    castle_active = (kind == "land" and state.castle[x] and not (bt is not None and bt["castle_out"]))
    if castle_active:
        owner = state.ctrl[x]
        if owner not in fighting:
            fighting.append(owner)
        defenders.append("castle")
    if len(fighting) > 1:
        raise OddsError("allied defenders split the damage between them: the calculator handles one defending "
                        "realm")
    if not defenders:
        raise OddsError("no defending pieces in that space: the attacker takes it without a battle")
    a_cards = _bonus_cards(state, att)
    d_cards = _bonus_cards(state, fighting[0]) if fighting else {}
    battle = NerathBattle(attackers, defenders, sea=kind == "sea", order=order, press=press,
                          hurt_dragon_fights=bool(state.options["hurt_dragon_fights"]), wounded=(wa, wd))
    # the position's attack bonuses (cards already played, Treasures' properties) as the sides' bonuses
    battle.a.bonus, battle.d.bonus = a_cards, d_cards
    return battle


def action_odds(ruleset: Any, state: State, action: Any) -> dict[str, Any]:
    """``battle X`` (declaring a battle) and ``press`` (mid-battle): the exact battle odds from this position;
    ``retreat``: certain; any other action: the chance outcomes that follow it, enumerated."""
    from conquest.rulesets.nerath.data import DUNGEON
    from conquest.rulesets.nerath.state import IDS, IX, KIND
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
    battle = None
    if verb == "battle" and st.bt is None and KIND[IX[action[1]]] != DUNGEON:
        battle = battle_from_state(st, IX[action[1]])
    elif verb == "press" and st.bt is not None:
        battle = battle_from_state(st, st.bt["space"])
    elif verb == "retreat" and st.bt is not None:
        forces, _w = _forces(st, st.bt["space"], st.bt["att"], st.bt["kind"])
        return {"ruleset": ruleset.id, "action": "retreat",
                "outcomes": [{"outcome": {"result": "attacker retreats, the defender holds",
                                          "attacker_keeps": forces}, "probability": 1.0}],
                "method": "certain (no dice)", "seconds": round(time.perf_counter() - t0, 6)}
    if battle is not None:
        odds = battle.solve()
        out = {"ruleset": ruleset.id, "action": ruleset.format_action(action),
               "battle": {"space": IDS[st.bt["space"]] if st.bt is not None else action[1],
                          "attacker": battle.attacker_pieces, "defender": battle.defender_pieces,
                          "sea": battle.sea, "order": battle.order, "press": str(battle.press)},
               "outcomes": [{"outcome": "attacker wins", "probability": odds.attacker_wins},
                            {"outcome": "defender holds", "probability": odds.defender_holds},
                            {"outcome": "both destroyed", "probability": odds.both_destroyed}],
               **{k: v for k, v in odds.to_json().items() if k not in ("method", "seconds")},
               "method": odds.method}
        out["seconds"] = round(time.perf_counter() - t0, 6)
        return out
    return action_odds_report(ruleset, state, action, _summary, describe=lambda k: k)


def _summary(before: State, after: State, path: tuple) -> Any:
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
        return sum(s.n[i] for i in range(len(s.n)) if (i // T) % R == r) + sum(
            1 + len(cargo(sh)) for sh in s.ships.values() if sh[0] == r)
    lost = [pieces(b, r) - pieces(a, r) for r in range(R)]
    for r in range(R):
        if lost[r] > 0:
            parts.append(f"{REALMS[r]} loses {lost[r]} pieces")
    bt = a.bt
    if bt is not None:
        parts.append(f"battle step {bt['step']}")
    return "; ".join(parts) or "no change"
