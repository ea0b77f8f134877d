"""Playing strength of ``ismcts`` (figures, not pass/fail): tournaments against ``greedy`` and ``random``.

    PYTHONPATH=. python benchmarks/strength.py [--time 1.0] [--games 20] [--random-games 10]
        [--nerath-games 40] [--nerath-time 0.5] [--nerath-params prior=2] [--jobs 1] [--out results.json]
        [ruleset ...]

Kingdom, Narby and Small World are played by 2 (seats swapped every game); Nerath by 4 in free-for-all
(``--nerath-mode``), one ismcts seat against three greedy seats, its seat going round the table; its extra
parameters are ``--nerath-params`` (by default ``prior=2``: every node ranked by its mover's one-ply evaluation). The
budget is CPU time (``cpu=1``) so that a busy machine does not starve the search: ``time`` seconds of one core per
decision. Each line printed is one tournament's JSON (conquest/analysis/tournament.py) with the wall-clock seconds per
game; the figures quoted in docs/agents.md come from this script.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from conquest.analysis.tournament import tournament


def run(ruleset: str, agents: list[str], games: int, players: int, jobs: int, seed: int,
        options: dict | None = None) -> dict:
    t0 = time.perf_counter()
    done = [0]

    def progress() -> None:
        done[0] += 1
        print(f"{ruleset}: {done[0]}/{games} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    data = tournament(ruleset, agents, games, players=players, jobs=jobs, seed=seed, first_only=True,
                      options=options, progress=progress)
    data["options"] = options or {}
    data["seconds_per_game"] = round((time.perf_counter() - t0) / max(data["games"], 1) * max(jobs, 1), 1)
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", default=["kingdom", "narby", "smallworld", "nerath"])
    ap.add_argument("--time", type=float, default=1.0, help="seconds of CPU per ismcts decision (2 players)")
    ap.add_argument("--games", type=int, default=20, help="games against greedy (2 players)")
    ap.add_argument("--random-games", type=int, default=10, help="games against random (2 players)")
    ap.add_argument("--nerath-games", type=int, default=40, help="4-player Nerath games, one ismcts seat")
    ap.add_argument("--nerath-time", type=float, default=0.5, help="seconds of CPU per decision in Nerath")
    ap.add_argument("--nerath-params", default="prior=2",
                    help="extra ismcts parameters in Nerath, ':'-separated ('' for the defaults)")
    ap.add_argument("--nerath-mode", default="free-for-all", choices=["free-for-all", "alliance"],
                    help="Nerath's mode: free-for-all (par 1/4) or alliance (two sides of two)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--out", help="also append the JSON lines to this file")
    args = ap.parse_args()
    lines = []
    for rid in args.rulesets:
        if rid == "nerath":
            spec = f"ismcts:time={args.nerath_time}:cpu=1" + (f":{args.nerath_params}" if args.nerath_params else "")
            plan = [([spec, "greedy"], args.nerath_games, 4, {"mode": args.nerath_mode})]
        else:
            spec = f"ismcts:time={args.time}:cpu=1"
            plan = [([spec, "greedy"], args.games, 2, {}), ([spec, "random"], args.random_games, 2, {})]
        for agents, games, players, options in plan:
            if games <= 0:
                continue
            data = run(rid, agents, games, players, args.jobs, args.seed, options)
            line = json.dumps(data)
            print(line, flush=True)
            lines.append(line)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(line + "\n")


if __name__ == "__main__":
    main()
