"""Playing strength of ``ismcts`` (figures, not pass/fail): tournaments against ``greedy`` and ``random``.

    PYTHONPATH=. python benchmarks/strength.py [--time 1.0] [--games 20] [--random-games 10]
        [--nerath-games 40] [--nerath-time 0.5] [--nerath-params prior=2] [--jobs 1] [--out results.json]
        [ruleset ...]
    PYTHONPATH=. python benchmarks/strength.py --sides hard,greedy [--players 4] [--games 12] [--seed S]
        [--jobs 1] [--out results.json] [ruleset]

``--sides A,B``: Nerath's two alliances (or, with ``--players 2``, its two seats), A's realms played by A and
B's by B, the sides swapped every game (A is Karkoth and the Iron Circle in even games, Vailin and Nerath in odd
ones); with another ruleset named (``--sides normal,greedy --players 2 kingdom``), its two seats, A in seat 0 in
even games. A side named by a level (``normal``, ``hard``) plays within the level's budgets per decision and per
whole turn (``conquest.agents.budget.TurnBudget``, as the web app plays it) counted in CPU time of one core,
with any parameters after it given to its agent (``hard:rollout=0``); any other spec plays as given. A's score
is its wins (+ half a shared win) over the games, with Wilson's 95% interval.

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

from conquest.analysis.tournament import tournament, wilson


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


def _side_game(args: tuple[str, str, str, int, int, int]) -> dict:
    """One game of side A against side B (A first in even games): who won, CPU seconds of the longest turn of a
    levelled side."""
    import random

    import conquest.agents.base as base
    from conquest.agents import decide, get_agent
    from conquest.agents.base import LEVEL_SETTINGS
    from conquest.agents.budget import TurnBudget, decide_within
    from conquest.core.chance import sample_chance
    from conquest.core.game import CHANCE
    from conquest.core.registry import get_ruleset
    rid, a_spec, b_spec, players, seed, game = args
    base.DEADLINE_CLOCK = time.thread_time   # budgets in CPU seconds of the thinking thread (one idle core)
    rs = get_ruleset(rid)
    st = rs.new_game(players, {"mode": "alliance"} if rid == "nerath" else None, seed + game)
    a_first = game % 2 == 0
    specs = [(a_spec if (seat % 2 == 0) == a_first else b_spec) for seat in range(players)]
    # a level's own time per decision counted in CPU time too (cpu=1), as its budgets are
    # a level may carry parameters for its agent (``hard:rollout=0``: the level's budgets, its spec plus these)
    levels = [LEVEL_SETTINGS.get(s.partition(":")[0]) for s in specs]
    agents = [get_agent(lv.spec + ":cpu=1" + (":" + s.partition(":")[2] if ":" in s else "")) if lv is not None
              else get_agent(s) for s, lv in zip(specs, levels)]
    rng = random.Random(seed + game)
    budget: TurnBudget | None = None
    turn_seat, turn_start, longest = -1, 0.0, 0.0
    while not st.is_terminal():
        seat = st.to_move
        if seat == CHANCE:
            st = st.apply_unchecked(sample_chance(st, rng))
            continue
        assert seat is not None
        level = levels[seat]
        if seat != turn_seat:
            if turn_seat >= 0 and budget is not None:
                longest = max(longest, budget.spent)
            turn_seat = seat
            budget = TurnBudget(level.decision, level.turn) if level is not None else None
            turn_start = time.thread_time()
        if budget is not None:
            action = decide_within(agents[seat], st, rng, budget)
        else:
            action = decide(agents[seat], st, rng)
        st = st.apply_unchecked(action)
    if budget is not None:
        longest = max(longest, budget.spent)
    del turn_start
    res = st.result()
    assert res is not None
    a_seats = [seat for seat in range(players) if (seat % 2 == 0) == a_first]
    a_share = sum(res[seat] for seat in a_seats)
    return {"game": game, "seed": seed + game, "a_first": a_first, "a_score": a_share,
            "rounds": getattr(st, "round", 0), "longest_turn_cpu": round(longest, 2)}


def sides(a_spec: str, b_spec: str, players: int, games: int, seed: int, jobs: int, rid: str = "nerath") -> dict:
    """Side A against side B over ``games`` games of ``rid``, the sides swapped every game."""
    from multiprocessing import Pool
    t0 = time.perf_counter()
    work = [(rid, a_spec, b_spec, players, seed, g) for g in range(games)]
    out = []
    with Pool(max(jobs, 1)) as pool:
        for r in pool.imap_unordered(_side_game, work):
            out.append(r)
            print(f"sides {a_spec} vs {b_spec}: {len(out)}/{games} games, {time.perf_counter() - t0:.0f} s "
                  f"({r})", file=sys.stderr, flush=True)
    score = sum(r["a_score"] for r in out)
    wins = sum(1 for r in out if r["a_score"] == 1.0)
    losses = sum(1 for r in out if r["a_score"] == 0.0)
    lo, hi = wilson(score / max(len(out), 1), len(out))
    return {"ruleset": rid, "players": players, "mode": "alliance" if rid == "nerath" else "",
            "a": a_spec, "b": b_spec, "games": len(out),
            "a_wins": wins, "b_wins": losses, "draws": len(out) - wins - losses, "a_score": round(score / len(out), 3),
            "ci_low": round(lo, 3), "ci_high": round(hi, 3), "seeds": f"{seed}-{seed + games - 1}",
            "longest_turn_cpu": max(r["longest_turn_cpu"] for r in out),
            "mean_rounds": round(sum(r["rounds"] for r in out) / len(out), 2),
            "seconds_per_game": round((time.perf_counter() - t0) / len(out) * max(jobs, 1), 1)}


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
    ap.add_argument("--sides", help="side A against side B (e.g. hard,greedy), the sides swapped each game "
                    "(Nerath unless a ruleset is named)")
    ap.add_argument("--players", type=int, default=4, help="with --sides: 4 (two alliances of two) or 2")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--out", help="also append the JSON lines to this file")
    args = ap.parse_args()
    if args.sides:
        a_spec, b_spec = args.sides.split(",")
        if len(args.rulesets) > 1 and args.rulesets != ap.get_default("rulesets"):
            ap.error("--sides plays one ruleset")
        rid = args.rulesets[0] if args.rulesets != ap.get_default("rulesets") else "nerath"
        line = json.dumps(sides(a_spec, b_spec, args.players, args.games, args.seed, args.jobs, rid))
        print(line, flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(line + "\n")
        return
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
