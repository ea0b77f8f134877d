"""The exact Nerath battle calculator against Monte Carlo, in one run on one core.

Battles: 30 against 30 mixed pieces (every kind of land-battle piece on both sides, a Castle defending), a few
smaller ones, allied defenders (two realms who split the damage: 20 against 11 + 10, 30 against 16 + 14) and
dungeon battles (4 Heroes against the Lich and the Troll; against two facedown Guardians, the average over the
153 deals of the tiles). For each: the exact solve (best of several runs, and the first run with its tables built), a
10,000-battle Monte Carlo of the same chain (what a Monte Carlo calculator does), the ratio of the two, and a
Monte Carlo through the ruleset's own rules (``--rules-battles``, 1,000 by default: a real game position per
battle, much slower) with the largest gap to the exact odds in standard errors.

    .venv/bin/python benchmarks/odds.py [--json] [--rules-battles 1000] [--samples 10000]
"""

from __future__ import annotations

import argparse
import json
import time

from conquest.rulesets.nerath.montecarlo import (
    Battle,
    HiddenGuardians,
    NerathBattle,
    dungeon_battle,
    monte_carlo,
    parse_guardians,
    parse_pieces,
)

# name: (attacker, defender[, ally]); "sea ..." at sea, "dungeon ..." the defender's Guardian tiles
BATTLES: dict[str, tuple[str, ...]] = {
    "30v30 mixed, castle": ("8 footsoldier, 5 siege, 4 fighter, 4 wizard, 4 monster, 3 storm, 2 dragon",
                            "9 footsoldier, 4 siege, 4 fighter, 4 wizard, 4 monster, 2 storm, 2 dragon, castle"),
    "10v8 mixed, castle": ("4 footsoldier, 2 siege, wizard, monster, storm, dragon",
                           "3 footsoldier, siege, fighter, wizard, monster, dragon, castle"),
    "4v3 (the issue's example)": ("footsoldier, footsoldier, siege, dragon", "footsoldier, wizard, castle"),
    "sea 6v6": ("2 warship, 2 storm, dragon, wizard", "3 warship, storm, 2 fighter"),
    "allied 20v11+10, castle": ("6 footsoldier, 4 siege, 3 fighter, 3 wizard, 2 monster, storm, dragon",
                                "4 footsoldier, siege, fighter, wizard, monster, storm, dragon, castle",
                                "4 footsoldier, 2 siege, fighter, wizard, monster, dragon"),
    "allied 30v16+14, castle": ("8 footsoldier, 5 siege, 4 fighter, 4 wizard, 4 monster, 3 storm, 2 dragon",
                                "5 footsoldier, 2 siege, 2 fighter, 2 wizard, 2 monster, storm, dragon, castle",
                                "4 footsoldier, 2 siege, 2 fighter, 2 wizard, 2 monster, storm, dragon"),
    "dungeon 4 Heroes v lich, troll": ("2 fighter, 2 wizard", "lich, troll"),
    "dungeon 4 Heroes v 2 facedown": ("2 fighter, 2 wizard", "2 facedown"),
}


def make(spec: tuple[str, ...], name: str) -> Battle:
    pa = parse_pieces(spec[0], "attacker")
    if name.startswith("dungeon"):
        return dungeon_battle(pa, parse_guardians(spec[1]))
    return NerathBattle(pa, parse_pieces(spec[1], "defender"), sea=name.startswith("sea"),
                        ally=parse_pieces(spec[2], "ally") if len(spec) > 2 else None)


def states(b: Battle) -> int:
    """The chain's states (summed over the deals of facedown Guardians)."""
    return sum((c.a.K + 1) * (c.d.K + 1) for c in (b.battles if isinstance(b, HiddenGuardians) else [b]))


def run(samples: int, rules_battles: int) -> dict:
    out = {}
    for name, spec in BATTLES.items():
        t0 = time.perf_counter()
        b = make(spec, name)
        ex = b.solve()
        first = time.perf_counter() - t0
        best = first
        for _ in range(7):
            t0 = time.perf_counter()
            make(spec, name).solve()
            best = min(best, time.perf_counter() - t0)
        if isinstance(b, HiddenGuardians):   # the yardstick: the same number of battles, each deal in turn
            t0 = time.perf_counter()
            per = max(1, samples // len(b.battles))
            mc_wins = sum(c.sample_chain(per, seed=1).attacker_wins for c in b.battles) / len(b.battles)
            mc_s = time.perf_counter() - t0
        else:
            t0 = time.perf_counter()
            mc_wins = b.sample_chain(samples, seed=1).attacker_wins
            mc_s = time.perf_counter() - t0
        row = {"attacker_pieces": len(b.attacker_pieces),
               "defender_pieces": len(b.defender_pieces) + len(getattr(b, "ally_pieces", [])),
               "states": states(b), "attacker_wins": ex.attacker_wins,
               "exact_ms_best": round(best * 1000, 2), "exact_ms_first": round(first * 1000, 2),
               "mc_samples": samples, "mc_ms": round(mc_s * 1000, 1),
               "mc_over_exact": round(mc_s / best, 1),
               "mc_attacker_wins": mc_wins}
        if rules_battles:
            t0 = time.perf_counter()
            rmc = monte_carlo(b, rules_battles, seed=2)
            row["rules_mc_battles"] = rules_battles
            row["rules_mc_ms"] = round((time.perf_counter() - t0) * 1000, 1)
            gaps = []
            for k in ("attacker_wins", "defender_holds", "both_destroyed"):
                p = getattr(ex, k)
                se = max((p * (1 - p) / rules_battles) ** 0.5, 1 / rules_battles)
                gaps.append(abs(getattr(rmc, k) - p) / se)
            row["rules_mc_max_gap_in_se"] = round(max(gaps), 2)
        out[name] = row
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--rules-battles", type=int, default=1000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    data = run(args.samples, args.rules_battles)
    if args.json:
        print(json.dumps(data, indent=1))
        return
    for name, r in data.items():
        line = (f"{name:<31} {r['attacker_pieces']:>2}v{r['defender_pieces']:<2} {r['states']:>6} states  "
                f"exact {r['exact_ms_best']:>7.2f} ms (first {r['exact_ms_first']:.1f})  "
                f"MC {r['mc_samples']} {r['mc_ms']:>8.1f} ms  ratio {r['mc_over_exact']:>6.1f}x  "
                f"P(win) {r['attacker_wins']:.4f} vs MC {r['mc_attacker_wins']:.4f}")
        if "rules_mc_ms" in r:
            line += (f"  rules MC {r['rules_mc_battles']}: {r['rules_mc_ms']:.0f} ms, "
                     f"max gap {r['rules_mc_max_gap_in_se']} SE")
        print(line)


if __name__ == "__main__":
    main()
