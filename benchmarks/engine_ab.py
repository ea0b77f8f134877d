"""Old code against new code on the figures of ``conquest bench`` (clone and legal_actions at the probe, ISMCTS
iterations per second, random playouts), all in CPU time so that a shared machine gives fair figures: each round
runs the old and the new tree in turn (alternating which goes first), each in its own process; the medians are
printed side by side.

    nice -n 15 .venv/bin/python benchmarks/engine_ab.py OLD_TREE NEW_TREE [--ruleset nerath] [--rounds 5]

A tree is a checkout's root (its ``conquest`` package is imported from there). The probe is ``conquest bench``'s
(``analysis.simulate.mid_game`` from seed 0); the playouts are a fixed set of seeded games (the same games in
both trees when their behaviour is the same, as the fingerprint checks).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def worker(ruleset: str, players: int | None, games: int, search_seconds: float) -> dict[str, float]:
    import random

    from conquest.analysis.simulate import mid_game, search_speed
    from conquest.core.chance import random_playout
    from conquest.core.registry import get_ruleset
    rs = get_ruleset(ruleset)
    start = rs.new_game(players, {}, 0)
    probe = mid_game(start, random.Random(0))
    reps = 2000
    t0 = time.process_time()
    for _ in range(reps):
        probe.clone()
    clone_us = (time.process_time() - t0) / reps * 1e6
    copies = [probe.clone() for _ in range(reps)]
    t0 = time.process_time()
    for c in copies:
        c.legal_actions()
    legal_us = (time.process_time() - t0) / reps * 1e6
    rng = random.Random(1)
    actions = 0
    t0 = time.process_time()
    for _ in range(games):
        actions += random_playout(start, rng)[1]
    playout = actions / (time.process_time() - t0)
    search = search_speed(probe, search_seconds, 0)
    return {"clone_us": clone_us, "legal_actions_us": legal_us, "legal_actions_at_probe": len(probe.legal_actions()),
            "ismcts_iterations_per_second": search.get("ismcts_iterations_per_second", 0.0),
            "playout_actions_per_second": playout, "playout_actions": actions}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--ruleset", default="nerath")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=3, help="random playouts per run")
    ap.add_argument("--search-seconds", type=float, default=2.0, help="ISMCTS CPU budget per run")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.ruleset, args.players, args.games, args.search_seconds)))
        return
    trees = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    got: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for i in range(args.rounds):
        for name in (("old", "new") if i % 2 == 0 else ("new", "old")):
            cmd = [sys.executable, os.path.abspath(__file__), "x", "x", "--worker", "--ruleset", args.ruleset,
                   "--games", str(args.games), "--search-seconds", str(args.search_seconds)]
            if args.players:
                cmd += ["--players", str(args.players)]
            env = {**os.environ, "PYTHONPATH": trees[name]}
            out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd=trees[name])
            got[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(i, name, got[name][-1], flush=True)
    print(f"{args.ruleset}: medians of {args.rounds} runs each, CPU time, old -> new")
    for key in got["old"][0]:
        old = statistics.median(r[key] for r in got["old"])
        new = statistics.median(r[key] for r in got["new"])
        print(f"  {key:32} {old:12,.2f} -> {new:12,.2f}  ({new / old if old else 0:.2f}x)")


if __name__ == "__main__":
    main()
