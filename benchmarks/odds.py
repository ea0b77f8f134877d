"""The exact Nerath battle calculator against Monte Carlo, in one run on one core.

Battles: 30 against 30 mixed pieces (every kind of land-battle piece on both sides, a Castle defending), and a
few smaller ones. For each: the exact solve (best of several runs, and the first run with its tables built), a
10,000-battle Monte Carlo of the same chain (what a Monte Carlo calculator does), the ratio of the two, and a
Monte Carlo through the ruleset's own rules (``--rules-battles``, 1,000 by default: a real game position per
battle, much slower) with the largest gap to the exact odds in standard errors.

    .venv/bin/python benchmarks/odds.py [--json] [--rules-battles 1000] [--samples 10000]
"""

from __future__ import annotations

import argparse
import json
import time

from conquest.analysis.odds import NerathBattle, monte_carlo, parse_pieces

BATTLES = {
    "30v30 mixed, castle": ("8 footsoldier, 5 siege, 4 fighter, 4 wizard, 4 monster, 3 storm, 2 dragon",
                            "9 footsoldier, 4 siege, 4 fighter, 4 wizard, 4 monster, 2 storm, 2 dragon, castle"),
    "10v8 mixed, castle": ("4 footsoldier, 2 siege, wizard, monster, storm, dragon",
                           "3 footsoldier, siege, fighter, wizard, monster, dragon, castle"),
    "4v3 (the issue's example)": ("footsoldier, footsoldier, siege, dragon", "footsoldier, wizard, castle"),
    "sea 6v6": ("2 warship, 2 storm, dragon, wizard", "3 warship, storm, 2 fighter"),
}


def run(samples: int, rules_battles: int) -> dict:
    out = {}
    for name, (a, d) in BATTLES.items():
        sea = name.startswith("sea")
        pa, pd = parse_pieces(a, "attacker"), parse_pieces(d, "defender")
        t0 = time.perf_counter()
        b = NerathBattle(pa, pd, sea=sea)
        ex = b.solve()
        first = time.perf_counter() - t0
        best = first
        for _ in range(7):
            t0 = time.perf_counter()
            NerathBattle(pa, pd, sea=sea).solve()
            best = min(best, time.perf_counter() - t0)
        t0 = time.perf_counter()
        mc = b.sample_chain(samples, seed=1)
        mc_s = time.perf_counter() - t0
        row = {"attacker_pieces": len(pa), "defender_pieces": len(pd),
               "states": (b.a.K + 1) * (b.d.K + 1), "attacker_wins": ex.attacker_wins,
               "exact_ms_best": round(best * 1000, 2), "exact_ms_first": round(first * 1000, 2),
               "mc_samples": samples, "mc_ms": round(mc_s * 1000, 1),
               "mc_over_exact": round(mc_s / best, 1),
               "mc_attacker_wins": mc.attacker_wins}
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
        line = (f"{name:<28} {r['attacker_pieces']:>2}v{r['defender_pieces']:<2} {r['states']:>5} states  "
                f"exact {r['exact_ms_best']:>7.2f} ms (first {r['exact_ms_first']:.1f})  "
                f"MC {r['mc_samples']} {r['mc_ms']:>8.1f} ms  ratio {r['mc_over_exact']:>6.1f}x  "
                f"P(win) {r['attacker_wins']:.4f} vs MC {r['mc_attacker_wins']:.4f}")
        if "rules_mc_ms" in r:
            line += (f"  rules MC {r['rules_mc_battles']}: {r['rules_mc_ms']:.0f} ms, "
                     f"max gap {r['rules_mc_max_gap_in_se']} SE")
        print(line)


if __name__ == "__main__":
    main()
