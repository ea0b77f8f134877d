"""Conquest of Nerath throughput: random playouts per mode (actions per second, chance outcomes included),
how the games end (victory or the round limit), the checked path (``apply`` with its legality check), the
cost of legal_actions / clone in a Move step, and the time of a greedy game.

    .venv/bin/python benchmarks/nerath_bench.py [--seconds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

from conquest.analysis.runner import play_game, random_playout, sample_chance
from conquest.analysis.simulate import pieces_cost as pieces_at
from conquest.core.game import CHANCE
from conquest.rulesets.nerath import RULESET

MODES = {
    "2p-alliance-short": (2, {}),
    "3p-medium": (3, {"length": "medium"}),
    "4p-alliance-short": (4, {}),
    "4p-free-for-all-short": (4, {"mode": "free-for-all"}),
    "4p-alliance-long": (4, {"length": "long"}),
}


def playouts(players: int, options: dict, seconds: float, checked: bool = False) -> dict:
    rng = random.Random(players)
    actions = games = rounds = 0
    ends: Counter[str] = Counter()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        st = RULESET.new_game(players, options, games)
        st, n = random_playout(st, rng, checked=checked)
        actions += n
        games += 1
        rounds += st.round
        ends[st.end_reason] += 1
    dt = time.perf_counter() - t0
    return {"actions_per_second": round(actions / dt), "games": games, "mean_rounds": round(rounds / games, 1),
            "mean_actions": round(actions / games), "ends": dict(ends)}


def pieces_cost(reps: int = 300) -> dict:
    """legal_actions and clone at the first Move step."""
    st = RULESET.new_game(4, {}, 0)
    rng = random.Random(0)
    while st.to_move == CHANCE:          # the set-up draws (Guardians) come first
        st = st.apply(sample_chance(st, rng))
    return pieces_at(st, reps)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out: dict = {"playouts": {k: playouts(p, o, args.seconds) for k, (p, o) in MODES.items()}}
    out["checked_4p"] = playouts(4, {}, args.seconds, checked=True)
    out["pieces"] = pieces_cost()
    t0 = time.perf_counter()
    rec, end = play_game(RULESET, ["greedy", "random"], players=2, seed=1)
    out["greedy_vs_random_game"] = {"seconds": round(time.perf_counter() - t0, 2), "actions": len(rec.actions),
                                    "result": end.result(), "rounds": end.round}
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(k, v)


if __name__ == "__main__":
    main()
