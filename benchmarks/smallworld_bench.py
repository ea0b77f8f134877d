"""Small World throughput: random playouts per player count (actions per second, chance outcomes included),
the cost of legal_actions / apply / clone, and the ability coverage over many random games.

    .venv/bin/python benchmarks/smallworld_bench.py [--seconds 3] [--coverage-games 2000] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from conquest.analysis.runner import random_playout
from conquest.rulesets.smallworld import RULESET
from conquest.rulesets.smallworld.coverage import coverage


def playouts(players: int, seconds: float, options: dict | None = None) -> dict:
    rng = random.Random(players)
    start = RULESET.new_game(players, options or {}, players)
    actions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, n = random_playout(start, rng)
        actions += n
        games += 1
    dt = time.perf_counter() - t0
    return {"players": players, "options": options or {}, "games": games, "actions": actions,
            "actions_per_second": round(actions / dt), "mean_actions_per_game": round(actions / games, 1)}


def pieces(players: int = 5, samples: int = 3000) -> dict:
    """Microseconds per call of legal_actions, apply_unchecked and clone on states met in random play."""
    rng = random.Random(0)
    st = RULESET.new_game(players, {}, 0)
    states = []
    while len(states) < samples:
        if st.to_move is None:
            st = RULESET.new_game(players, {}, len(states))
        states.append(st)
        acts = st.legal_actions()
        st = st.apply_unchecked(acts[rng.randrange(len(acts))])
    out = {}
    t0 = time.perf_counter()
    legal = [s.legal_actions() for s in states]
    out["legal_actions_us"] = round((time.perf_counter() - t0) / samples * 1e6, 1)
    t0 = time.perf_counter()
    for s, acts in zip(states, legal):
        s.apply_unchecked(acts[0])
    out["apply_us"] = round((time.perf_counter() - t0) / samples * 1e6, 1)
    t0 = time.perf_counter()
    for s in states:
        s.clone()
    out["clone_us"] = round((time.perf_counter() - t0) / samples * 1e6, 1)
    out["mean_legal_actions"] = round(sum(len(a) for a in legal) / samples, 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--coverage-games", type=int, default=2000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    report = {"playouts": [playouts(p, args.seconds) for p in (2, 3, 4, 5)]
              + [playouts(5, args.seconds, {"map": "generated"})],
              "pieces": pieces()}
    if args.coverage_games:
        t0 = time.perf_counter()
        cov = coverage(args.coverage_games)
        cov["seconds"] = round(time.perf_counter() - t0, 1)
        cov["least_used"] = sorted(cov["used"].items(), key=lambda kv: kv[1])[:5]
        report["coverage"] = cov
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for r in report["playouts"]:
        print(f"{r['players']} players {r['options'] or ''}: {r['actions_per_second']:>7} actions/s, "
              f"{r['mean_actions_per_game']} actions/game ({r['games']} games)")
    print("pieces:", report["pieces"])
    if "coverage" in report:
        c = report["coverage"]
        print(f"coverage over {c['games']} random games ({c['seconds']} s): never bought {c['never_bought']}, "
              f"never used {c['never_used']}; least used {c['least_used']}")


if __name__ == "__main__":
    main()
