"""Exact odds, the analysis side: the Monte Carlo cross-check of the Nerath battle calculator through the rules.

The exact machinery lives below the analysis layer (``conquest.core.odds``: enumeration of chance outcomes and
the attrition chain; ``conquest.rulesets.nerath.odds``: the Nerath battle); this module plays battles with the
ruleset itself to check it, and re-exports what the CLI and the benchmark use.

The Monte Carlo builds a real ``NerathState`` through the public contract (a ``conquest-state/1`` document given
to ``state_from_json``, as scenarios do), declares the battle with ``apply`` and plays it with the ruleset's own
``chance_outcomes`` and ``apply``, choosing every casualty by the calculator's order policy and every press or
retreat by its press policy. It reads the pieces of the battle's space from the state to map the game's
position to the calculator's hit counts, and checks that the rules end each battle where the chain says.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from conquest.core.game import CHANCE, State
from conquest.core.odds import OddsError
from conquest.rulesets.nerath.base import cargo
from conquest.rulesets.nerath.data import R, REALMS, T, TYPE_INDEX
from conquest.rulesets.nerath.odds import (  # noqa: F401
    BattleOdds, NerathBattle, PressPolicy, _Side, parse_pieces,
)

ATTACKER, DEFENDER = "karkoth", "nerath"
LAND_SPACE, SEA_SPACE = "n04", "s1"
RUNNING = ("fs_a", "fs_d", "roll_a", "roll_d", "assign", "press", "split", "window")


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


def battle_position(battle: NerathBattle) -> tuple[State, str, dict[int, int], dict[int, int]]:
    """A real position, Karkoth to fight, its battle against Nerath declared in ``n04`` (land) or ``s1`` (sea)
    with the calculator's forces and cards, the battle begun (``battle X`` applied); returns (state, space,
    attacker's ship ids, defender's ship ids)."""
    doc, x, sid_a, sid_d = battle_document(battle)
    from conquest.core.registry import get_ruleset
    state = get_ruleset("nerath").state_from_json(doc)
    return state.apply(("battle", x)), x, sid_a, sid_d


def battle_document(battle: NerathBattle) -> tuple[dict[str, Any], str, dict[int, int], dict[int, int]]:
    """The ``conquest-state/1`` document of that position before ``battle X`` (Fight Battles, the battle
    pending)."""
    from conquest.core.registry import get_ruleset
    rs = get_ruleset("nerath")
    base = rs.new_game(2, {"board_setup": "empty", "events": "none",
                           "hurt_dragon_fights": battle.hurt_dragon_fights})
    doc = base.to_json()
    doc.pop("to_move", None)
    x = SEA_SPACE if battle.sea else LAND_SPACE
    ca, ships_a, sid_a = _side_json(battle.a, ATTACKER, 1, x)
    cd, ships_d, sid_d = _side_json(battle.d, DEFENDER, 1 + len(ships_a), x)
    pieces = {x: {k: v for k, v in ((ATTACKER, ca), (DEFENDER, cd)) if v}}
    castles = [c for c in doc["castles"] if c != x] + ([x] if "castle" in battle.defender_pieces else [])
    effects = []
    for realm, side in ((ATTACKER, battle.a), (DEFENDER, battle.d)):
        for piece, value in side.bonus.items():
            effects.append([realm, "attack_bonus", value, piece, "battle"])
    doc.update(phase="fight", realm=ATTACKER, battles=[x], pieces=pieces, castles=castles, effects=effects,
               ships={**ships_a, **ships_d}, next_ship=1 + len(ships_a) + len(ships_d), movable={})
    if not battle.sea:
        doc["control"] = {**doc["control"], x: DEFENDER}
    return doc, x, sid_a, sid_d


def _composition(state: Any, x: int, realm: int) -> tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]:
    counts = tuple(state.n[(x * R + realm) * T + t] for t in range(T))
    ships = tuple(sorted((sid, tuple(sorted(cargo(sh)))) for sid, sh in state.ships.items()
                         if sh[1] == x and sh[0] == realm))
    return counts, ships


def _side_keys(side: _Side, sid_of: dict[int, int]) -> tuple[dict[Any, int], dict[Any, int]]:
    """For each hit count k of a side: its exact battle signature (pieces, wounded Dragons, Castle inactive)
    and its composition (pieces only, as after the battle, when Dragons heal) -> k."""
    exact: dict[Any, int] = {}
    comp: dict[Any, int] = {}
    for k, snap in enumerate(side.snaps):
        counts = [0] * T
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


def monte_carlo(battle: NerathBattle, n: int, seed: int = 0) -> BattleOdds:
    """``n`` battles played by the ruleset's own rules (see the module's docstring)."""
    if n < 1:
        raise OddsError("--monte-carlo N: N must be at least 1")
    t0 = time.perf_counter()
    start, xid, sid_a, sid_d = battle_position(battle)
    x = start.bt["space"]  # type: ignore[attr-defined]
    ra, rd = REALMS.index(ATTACKER), REALMS.index(DEFENDER)
    keys = {"a": _side_keys(battle.a, sid_a), "d": _side_keys(battle.d, sid_d)}
    sides = {"a": battle.a, "d": battle.d}
    sid_of = {"a": sid_a, "d": sid_d}
    rng = random.Random(seed)
    term: dict[tuple[int, int, str], float] = {}
    rounds_total = 0

    def k_of(st: Any, side: str) -> int:
        realm = ra if side == "a" else rd
        c = _composition(st, x, realm)
        bt = st.bt
        castle_out = int(bool(bt["castle_out"])) if side == "d" and "castle" in battle.defender_pieces else 0
        key = (c, bt["hurt"][realm], castle_out)
        k = keys[side][0].get(key)
        if k is None:
            raise OddsError(f"the rules reached a position the casualty order cannot (a bug): {side} {key}")
        return k

    def pending(pre: Any, act: tuple) -> tuple[int, int]:
        """Hits rolled or queued but not yet taken at ``pre``, after ``act``: (on the attacker, on the
        defender). The step that ends a battle resets wounded Dragons and the Castle, so a battle's last
        position is read from the one before it and the hits still to come."""
        bt = pre.bt
        on_a, on_d = bt["ha"], bt["hd"]
        if act[0] == "hits":
            if bt["step"] in ("fs_a", "roll_a"):
                on_d += act[1]
            else:
                on_a += act[1]
        for realm, h in bt["queue"]:
            if realm == ra:
                on_a += h
            else:
                on_d += h
        return on_a, on_d

    comp_at = {side: {k: c for c, k in keys[side][1].items()} for side in ("a", "d")}
    for side in ("a", "d"):   # compositions by hit count (a wounded Dragon looks whole after the battle)
        for k in range(sides[side].K + 1):
            if k not in comp_at[side]:
                comp_at[side][k] = comp_at[side][k - 1]

    for _ in range(n):
        st: Any = start.clone()
        rounds = 1
        how = ""
        pre: Any = None
        act: tuple = ()
        while True:
            bt = st.bt
            if bt is None or bt["step"] not in RUNNING:
                break
            rounds = bt["round"]
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
            step = bt["step"]
            if step == "press":
                ka, kd = k_of(st, "a"), k_of(st, "d")
                # as the chain: a round in which no die of either side can hit would repeat for ever: retreat
                stuck = not any(side.dice(k, fs) for side, k in ((battle.a, ka), (battle.d, kd))
                                for fs in (False, True))
                if battle.press.presses(battle.a.pieces_left(ka)) and not stuck:
                    act = ("press",)
                    st = st.apply_unchecked(act)
                    continue
                term_key = (ka, kd, "retreat")
                term[term_key] = term.get(term_key, 0.0) + 1.0 / n
                how = "retreat"
                break
            if step == "assign":
                realm = bt["queue"][0][0]
                side = "a" if realm == ra else "d"
                k = k_of(st, side)
                ui, what = sides[side].hit_slot[k]
                u = sides[side].units[ui]
                if u.kind == "dragon":
                    act = ("hit", "dragon" if what == "wound" else "wounded-dragon")
                elif u.kind == "warship":
                    act = ("hit", "ship", sid_of[side][ui])
                elif u.ship >= 0:
                    act = ("hit", u.kind, sid_of[side][u.ship])
                else:
                    act = ("hit", u.kind)
                if act not in st.legal_actions():
                    raise OddsError(f"the casualty order chose {act}, which the rules do not allow here (a bug)")
                st = st.apply_unchecked(act)
                continue
            raise OddsError(f"the battle stopped at an unexpected step '{step}'")
        rounds_total += rounds
        if how:
            continue
        on_a, on_d = pending(pre, act)
        ka = min(battle.a.K, k_of(pre, "a") + on_a)
        kd = min(battle.d.K, k_of(pre, "d") + on_d)
        # the rules' final position must be the one the hit counts say (pieces; Dragons healed)
        for side, realm, k in (("a", ra, ka), ("d", rd, kd)):
            comp = _composition(st, x, realm)
            if comp != (comp_at[side][k] if k < sides[side].K else ((0,) * T, ())):
                raise OddsError(f"the rules ended the battle with {comp} on the {side} side, the chain with "
                                f"{k} hits taken (a bug)")
        how = "both" if ka == battle.a.K and kd == battle.d.K else "attacker" if kd == battle.d.K else "defender"
        term[(ka, kd, how)] = term.get((ka, kd, how), 0.0) + 1.0 / n
    return battle._report(term, rounds_total / n, False, t0,
                          method=f"Monte Carlo through the nerath rules ({n} battles)")


def mc_standard_errors(odds: BattleOdds, n: int) -> dict[str, float]:
    """Binomial standard errors of a Monte Carlo estimate's three outcome probabilities."""
    return {k: math.sqrt(max(p * (1 - p), 1e-12) / n) for k, p in
            (("attacker_wins", odds.attacker_wins), ("defender_holds", odds.defender_holds),
             ("both_destroyed", odds.both_destroyed))}
