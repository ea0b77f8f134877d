"""Exact odds, the analysis side: the Monte Carlo cross-check of the Nerath battle calculator through the rules.

The exact machinery lives below the analysis layer (``conquest.core.odds``: enumeration of chance outcomes and
the attrition chain; ``conquest.rulesets.nerath.odds``: the Nerath battle); this module plays battles with the
ruleset itself to check it, and re-exports what the CLI and the benchmark use.

The Monte Carlo builds a real ``NerathState`` through the public contract (a ``conquest-state/1`` document given
to ``state_from_json``, as scenarios do), declares the battle with ``apply`` and plays it with the ruleset's own
``chance_outcomes`` and ``apply``, choosing every casualty by the calculator's order policy (each allied realm
its own, the Guardians' seat theirs) and every press or retreat by its press policy. It reads the pieces of the
battle's space (the Guardians' dice) from the state to map the game's position to the calculator's hit counts,
and checks that the rules end each battle where the chain says.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from conquest.core.game import CHANCE, State
from conquest.core.kinds import Action, ActionArgs
from conquest.core.odds import OddsError
from conquest.rulesets.nerath.base import cargo
from conquest.rulesets.nerath.data import N_TYPES, REALMS, TYPE_INDEX, R, full_strength, guardian_tiles
from conquest.rulesets.nerath.dice import hit_distribution
from conquest.rulesets.nerath.odds import (  # noqa: F401
    Battle,
    BattleOdds,
    HiddenGuardians,
    NerathBattle,
    PressPolicy,
    dungeon_battle,
    mix_odds,
)
from conquest.rulesets.nerath.odds_sides import _Allies, _Guardians, _Side, parse_guardians, parse_pieces  # noqa: F401

ATTACKER, DEFENDER, ALLY = "karkoth", "nerath", "vailin"
LAND_SPACE, SEA_SPACE, DUNGEON_SPACE = "n04", "s1", "d1"
RUNNING = ("fs_a", "fs_d", "roll_a", "roll_d", "assign", "press", "split", "choose", "window")


# ------------------------------------------------------------------------------------- the real battle
def _side_json(side: _Side, realm: str, first_sid: int, space: str) -> tuple[dict[str, int], dict[str, Any],
                                                                             dict[int, int]]:
    """(piece counts, Warship records, unit index -> ship id) of a side placed in ``space``."""
    counts: dict[str, int] = {}
    ships: dict[str, Any] = {}
    sid_of: dict[int, int] = {}
    sid = first_sid
    for u in side.units:
        if u.kind == "warship":
            sid_of[u.index] = sid
            ships[str(sid)] = {"owner": realm, "space": space, "moves": 0, "flags": ["stopped"],
                               "cargo": [side.units[c].kind for c in u.cargo]}
            sid += 1
        elif u.kind != "castle" and u.ship < 0:
            counts[u.kind] = counts.get(u.kind, 0) + 1
    return counts, ships, sid_of


def _defending_realms(battle: NerathBattle) -> list[tuple[str, _Side]]:
    """The realms that defend in the real position, with their calculator sides: Nerath (and Vailin, its ally in
    a 2-player game, for allied defenders); none in a dungeon."""
    D = battle.d
    if isinstance(D, _Allies):
        return [(DEFENDER, D.realms[0]), (ALLY, D.realms[1])]
    if isinstance(D, _Side):
        return [(DEFENDER, D)]
    return []


def battle_position(battle: NerathBattle) -> tuple[State, str, dict[int, int], dict[str, dict[int, int]]]:
    """A real position, Karkoth to fight, its battle declared in ``n04`` (land), ``s1`` (sea) or the dungeon
    entrance ``d1`` with the calculator's forces, Guardians and cards, the battle begun (``battle X``
    applied); returns (state, space, attacker's ship ids, each defending realm's ship ids)."""
    doc, x, sid_a, sid_d = battle_document(battle)
    from conquest.core.registry import get_ruleset
    state = get_ruleset("nerath").state_from_json(doc)
    return state.apply(("battle", x)), x, sid_a, sid_d


def battle_document(battle: NerathBattle) -> tuple[dict[str, Any], str, dict[int, int], dict[str, dict[int, int]]]:
    """The ``conquest-state/1`` document of that position before ``battle X`` (Fight Battles, the battle
    pending)."""
    from conquest.core.registry import get_ruleset
    rs = get_ruleset("nerath")
    base = rs.new_game(2, {"board_setup": "empty", "events": "none",
                           "hurt_dragon_fights": battle.hurt_dragon_fights,
                           "heroes_need_lasts": getattr(battle, "heroes_need_lasts", "whole_battle"),
                           # the 2-player game: one seat plays both allies; it splits as the calculator assumes
                           "ally_split": "choose" if getattr(battle, "one_seat", False) else "half"})
    doc = base.to_json()
    doc.pop("to_move", None)
    x = DUNGEON_SPACE if battle.dungeon else SEA_SPACE if battle.sea else LAND_SPACE
    ca, ships_a, sid_a = _side_json(battle.a, ATTACKER, 1, x)
    pieces: dict[str, dict[str, int]] = {ATTACKER: ca}
    ships = dict(ships_a)
    sid_d: dict[str, dict[int, int]] = {}
    castle_owner = DEFENDER
    effects = [[ATTACKER, "attack_bonus", v, p, "battle"] for p, v in battle.a.bonus.items()]
    for realm, side in _defending_realms(battle):
        cd, ships_r, sid_d[realm] = _side_json(side, realm, 1 + len(ships), x)
        pieces[realm] = cd
        ships.update(ships_r)
        if any(u.kind == "castle" for u in side.units):
            castle_owner = realm
        effects += [[realm, "attack_bonus", v, p, "battle"] for p, v in side.bonus.items()]
    has_castle = "castle" in battle.defender_pieces + battle.ally_pieces
    castles = [c for c in doc["castles"] if c != x] + ([x] if has_castle else [])
    doc.update(phase="fight", realm=ATTACKER, battles=[x], pieces={x: {k: v for k, v in pieces.items() if v}},
               castles=castles, effects=effects, ships=ships, next_ship=1 + len(ships), movable={})
    if isinstance(battle.d, _Guardians):
        placed = [t for t, _d in battle.d.guardians]
        doc["guardians"] = {**{k: [] for k in doc["guardians"]},
                            x: [{"tile": t, "face_up": list(d) != full_strength(t), "dice": list(d)}
                                for t, d in battle.d.guardians]}
        doc["guardian_pile"] = sorted(set(guardian_tiles()) - set(placed))
    elif not battle.sea:
        doc["control"] = {**doc["control"], x: castle_owner}
    return doc, x, sid_a, sid_d


def _composition(state: Any, x: int, realm: int) -> tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]:
    counts = tuple(state.pieces[(x * R + realm) * N_TYPES + t] for t in range(N_TYPES))
    ships = tuple(sorted((sid, tuple(sorted(cargo(sh)))) for sid, sh in state.ships.items()
                         if sh[1] == x and sh[0] == realm))
    return counts, ships


def _side_keys(side: _Side, sid_of: dict[int, int]) -> tuple[dict[Any, int], dict[Any, int]]:
    """For each hit count k of a side: its exact battle signature (pieces, wounded Dragons, Castle inactive)
    and its composition (pieces only, as after the battle, when Dragons heal) -> k."""
    exact: dict[Any, int] = {}
    comp: dict[Any, int] = {}
    for k, snap in enumerate(side.snaps):
        counts = [0] * N_TYPES
        ships = []
        castle_out = 0
        for u in side.units:
            if u.kind == "castle":
                castle_out = 0 if snap.alive[u.index] else 1
            elif u.kind == "warship":
                if snap.alive[u.index]:
                    cargo = tuple(sorted(TYPE_INDEX[side.units[c].kind] for c in u.cargo if snap.alive[c]))
                    ships.append((sid_of[u.index], cargo))
            elif u.ship < 0 and snap.alive[u.index]:
                counts[TYPE_INDEX[u.kind]] += 1
        c = (tuple(counts), tuple(sorted(ships)))
        exact.setdefault((c, sum(snap.wounded), castle_out), k)
        comp.setdefault(c, k)
    return exact, comp


class _Realm:
    """One realm's pieces in the real battle, read as its calculator side's hit count."""

    def __init__(self, side: _Side, realm: int, sid_of: dict[int, int], x: int) -> None:
        self.side, self.realm, self.sid_of, self.x = side, realm, sid_of, x
        self.exact, comp = _side_keys(side, sid_of)
        self.castle = any(u.kind == "castle" for u in side.units)
        self.comp_at = {k: c for c, k in comp.items()}
        for k in range(side.K + 1):   # compositions by hit count (a wounded Dragon looks whole after the battle)
            if k not in self.comp_at:
                self.comp_at[k] = self.comp_at[k - 1]

    def k(self, st: Any) -> int:
        bt = st.battle
        key = (_composition(st, self.x, self.realm), bt.wounded_dragons[self.realm],
               int(bool(bt.castle_inactive)) if self.castle else 0)
        k = self.exact.get(key)
        if k is None:
            raise OddsError(f"the rules reached a position the casualty order cannot (a bug): "
                            f"{REALMS[self.realm]} {key}")
        return k

    def hit(self, k: int) -> Action:
        ui, what = self.side.hit_slot[k]
        u = self.side.units[ui]
        if u.kind == "dragon":
            return ("hit", "dragon" if what == "wound" else "wounded-dragon")
        if u.kind == "warship":
            return ("hit", "ship", self.sid_of[ui])
        if u.ship >= 0:
            return ("hit", u.kind, self.sid_of[u.ship])
        return ("hit", u.kind)

    def check_final(self, st: Any, k: int) -> None:
        """The rules' final position must be the one the hit count says (pieces; Dragons healed)."""
        comp = _composition(st, self.x, self.realm)
        if comp != (self.comp_at[k] if k < self.side.K else ((0,) * N_TYPES, ())):
            raise OddsError(f"the rules ended the battle with {comp} for {REALMS[self.realm]}, the chain with "
                            f"{k} hits taken (a bug)")


class _Defence:
    """The defending side of the real battle read as the calculator's defender state: one realm, two allies
    (the pair of their hit counts) or the Guardians (the dice they have left)."""

    def __init__(self, battle: NerathBattle, state: Any, x: int, sid_d: dict[str, dict[int, int]]) -> None:
        self.D, self.x = battle.d, x
        self.realms = [_Realm(side, REALMS.index(name), sid_d[name], x) for name, side in _defending_realms(battle)]
        if isinstance(self.D, _Guardians):
            G = self.D
            self.gkeys = {tuple((t, tuple(sorted(d))) for t, d in G.dice_left(k)): k for k in range(G.K + 1)}

    def j(self, st: Any) -> int:
        D = self.D
        if isinstance(D, _Guardians):
            key = tuple((g[0], tuple(sorted(g[2:]))) for g in st.guardians[self.x])
            if key not in self.gkeys:
                raise OddsError(f"the rules reached Guardians the casualty order cannot (a bug): {key}")
            return self.gkeys[key]
        ks = [r.k(st) for r in self.realms]
        return D.index[(ks[0], ks[1])] if isinstance(D, _Allies) else ks[0]

    def hit(self, st: Any, realm: int) -> Action:
        D = self.D
        if isinstance(D, _Guardians):
            g, i = D.hit_slot[self.j(st)]
            tile, dice = D.guardians[g]
            pos = [h[0] for h in st.guardians[self.x]].index(tile)
            return ("hit", "guardian", pos + 1, dice[i])
        r = next(r for r in self.realms if r.realm == realm)
        return r.hit(r.k(st))

    def after(self, pre: Any, j: int, rolled: int, queued: dict[int, int]) -> int:
        """The defender's state after the hits still to come at ``pre``: ``queued`` (realm -> hits, already
        split) and ``rolled`` (scored, not yet split; with a pending split, its extra realm)."""
        D = self.D
        if not isinstance(D, _Allies):
            return min(D.K, j + rolled + sum(queued.values()))
        ka, kb = D.states[j]
        A, B = D.realms
        ra, rb = (r.realm for r in self.realms)
        ka, kb = min(A.K, ka + queued.get(ra, 0)), min(B.K, kb + queued.get(rb, 0))
        j = D.index[(ka, kb)]
        if not rolled or D.next_states is None or j == D.K:
            return j
        moves = D.next_states[j][min(rolled, len(D.next_states[j]) - 1)]
        if len(moves) != 1:
            raise OddsError("a battle ended before the allies' split of an odd hit was drawn (a bug)")
        return moves[0][0]

    def split(self, st: Any) -> Action:
        """The seat's split of the allies' hits at step ``choose``: the calculator's ``_Allies.chosen_split``."""
        D = self.D
        assert isinstance(D, _Allies)
        ka, kb = D.states[self.j(st)]
        sa, sb = D.chosen_split(ka, kb, st.battle.split_hits)
        share = sorted((r.realm, s) for r, s in zip(self.realms, (sa, sb)))
        return ("split", REALMS[share[0][0]], share[0][1], REALMS[share[1][0]], share[1][1])

    def check_final(self, st: Any, j: int) -> None:
        D = self.D
        if isinstance(D, _Guardians):
            if bool(st.guardians[self.x]) != (j < D.K):
                raise OddsError(f"the rules ended the dungeon battle with Guardians {st.guardians[self.x]}, the "
                                f"chain with {j} of {D.K} dice lost (a bug)")
            return
        ks = D.states[j] if isinstance(D, _Allies) else (j,)
        for r, k in zip(self.realms, ks):
            r.check_final(st, k)


def monte_carlo(battle: Battle, n: int, seed: int = 0) -> BattleOdds:
    """``n`` battles played by the ruleset's own rules (see the module's docstring). Against facedown Guardians,
    each battle's tiles are drawn at random among the deals the calculator averages."""
    # Long because: battles played step by step through the rules' own transitions, with the two questions asked of
    # a position (the hits still pending, dice that cannot hit) as closures over the battle's sides; it reads the
    # battle in progress by its dict keys, which the state declaration (issue 29) turns into a typed record, and is
    # split best with that change.
    if n < 1:
        raise OddsError("--monte-carlo N: N must be at least 1")
    if isinstance(battle, HiddenGuardians):
        t0 = time.perf_counter()
        rng = random.Random(seed)
        counts: dict[int, int] = {}
        for _ in range(n):
            b = rng.randrange(len(battle.battles))
            counts[b] = counts.get(b, 0) + 1
        results = [monte_carlo(battle.battles[b], k, seed + b) for b, k in sorted(counts.items())]
        return mix_odds(results, t0, f"Monte Carlo through the nerath rules ({n} battles, the facedown Guardians "
                                     f"drawn at random)", weights=[k / n for _b, k in sorted(counts.items())])
    t0 = time.perf_counter()
    start, xid, sid_a, sid_d = battle_position(battle)
    x = start.battle.space  # type: ignore[attr-defined]
    ra = REALMS.index(ATTACKER)
    att = _Realm(battle.a, ra, sid_a, x)
    dfn = _Defence(battle, start, x, sid_d)
    D = battle.d
    rng = random.Random(seed)
    term: dict[tuple[int, int, str], float] = {}
    rounds_total = 0

    def pending(pre: Any, act: ActionArgs) -> tuple[int, int, dict[int, int]]:
        """Hits rolled or queued but not yet taken at ``pre``, after ``act``: (on the attacker, rolled on the
        defender and not yet split, queued on each defending realm). The step that ends a battle resets
        wounded Dragons and the Castle, so a battle's last position is read from the one before it and the hits
        still to come."""
        bt = pre.battle
        on_a, on_d = bt.hits_on_attacker, bt.hits_on_defenders
        if act[0] == "hits":
            if bt.step in ("fs_a", "roll_a"):
                on_d += act[1]
            else:
                on_a += act[1]
        queued: dict[int, int] = {}
        for realm, h in bt.queue:
            if realm == ra:
                on_a += h
            else:
                queued[realm] = queued.get(realm, 0) + h
        if act[0] == "split":   # the seat's split of the allies' hits
            for i in (1, 3):
                queued[REALMS.index(act[i])] = queued.get(REALMS.index(act[i]), 0) + act[i + 1]
        if act[0] == "extra":   # the allies' odd hit drawn: the split is known
            from conquest.rulesets.nerath.battle import split_hits
            assert isinstance(D, _Allies)
            first = REALMS.index(act[1]) == dfn.realms[0].realm
            ka, kb = D.states[dfn.j(pre)]
            (ca, _pa), (cb, _pb) = D.realms[0].standing(ka), D.realms[1].standing(kb)
            sa, sb = split_hits(bt.split_hits, ca, cb, first)
            for r, s in zip(dfn.realms, (sa, sb)):
                queued[r.realm] = queued.get(r.realm, 0) + s
        return on_a, on_d, queued

    def silent(ka: int, kd: int) -> bool:
        """No die of either side can hit (the chain then retreats rather than repeat the round for ever)."""
        hn = D.variant[kd] if D.variant is not None else None
        rolls = [battle.a.dice(ka, fs, hn) for fs in (False, True)] + [D.dice(kd, fs) for fs in (False, True)]
        return all(hit_distribution(r)[0] == 1.0 for r in rolls)

    for _ in range(n):
        st: Any = start.clone()
        rounds = 1
        how = ""
        pre: Any = None
        act: Action = ()
        while True:
            bt = st.battle
            if bt is None or bt.step not in RUNNING:
                break
            rounds = bt.round
            pre = st
            if st.to_move == CHANCE:
                outs = st.chance_outcomes()
                r = rng.random()
                acc = 0.0
                act = outs[-1][0]
                for a, p in outs:
                    acc += p
                    if r < acc:
                        act = a
                        break
                st = st.apply_unchecked(act)
                continue
            step = bt.step
            if step == "press":
                ka, kd = att.k(st), dfn.j(st)
                if battle.press.presses(battle.a.pieces_left(ka)) and not silent(ka, kd):
                    act = ("press",)
                    st = st.apply_unchecked(act)
                    continue
                term_key = (ka, kd, "retreat")
                term[term_key] = term.get(term_key, 0.0) + 1.0 / n
                how = "retreat"
                break
            if step == "assign":
                realm = bt.queue[0][0]
                act = att.hit(att.k(st)) if realm == ra else dfn.hit(st, realm)
                if act not in st.legal_actions():
                    raise OddsError(f"the casualty order chose {act}, which the rules do not allow here (a bug)")
                st = st.apply_unchecked(act)
                continue
            if step == "choose":
                act = dfn.split(st)
                st = st.apply_unchecked(act)
                continue
            raise OddsError(f"the battle stopped at an unexpected step '{step}'")
        rounds_total += rounds
        if how:
            continue
        on_a, rolled, queued = pending(pre, act)
        ka = min(battle.a.K, att.k(pre) + on_a)
        kd = dfn.after(pre, dfn.j(pre), rolled, queued)
        att.check_final(st, ka)
        dfn.check_final(st, kd)
        how = "both" if ka == battle.a.K and kd == D.K else "attacker" if kd == D.K else "defender"
        term[(ka, kd, how)] = term.get((ka, kd, how), 0.0) + 1.0 / n
    return battle._report(term, rounds_total / n, False, t0,
                          method=f"Monte Carlo through the nerath rules ({n} battles)")


def mc_standard_errors(odds: BattleOdds, n: int) -> dict[str, float]:
    """Binomial standard errors of a Monte Carlo estimate's three outcome probabilities."""
    return {k: math.sqrt(max(p * (1 - p), 1e-12) / n) for k, p in
            (("attacker_wins", odds.attacker_wins), ("defender_holds", odds.defender_holds),
             ("both_destroyed", odds.both_destroyed))}
