"""Narby Conquest throughput: random playouts per player count (actions per second, chance outcomes
included, and decisions alone), the checked path (``apply`` with its legality check), the cost of
legal_actions / clone at a typical action-phase state, and the time of a greedy game.

    .venv/bin/python benchmarks/narby_bench.py [--seconds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from conquest.analysis.runner import play_game, random_playout, sample_chance
from conquest.analysis.simulate import pieces_cost
from conquest.core.game import CHANCE
from conquest.rulesets.narby import RULESET


def playouts(players: int, seconds: float, checked: bool = False) -> dict:
    rng = random.Random(players)
    start = RULESET.new_game(players, {}, players)
    actions = decisions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if not checked:
            end, n = random_playout(start, rng)
            actions += n
        else:
            st = start
            while st.to_move is not None:
                if st.to_move == CHANCE:
                    a = sample_chance(st, rng)
                else:
                    acts = st.legal_actions()
                    a = acts[rng.randrange(len(acts))]
                    decisions += 1
                st = st.apply(a)
                actions += 1
        games += 1
    dt = time.perf_counter() - t0
    out = {"players": players, "checked_apply": checked, "games": games, "actions": actions,
           "actions_per_second": round(actions / dt), "mean_actions_per_game": round(actions / games, 1)}
    if checked:
        out["decisions_per_second"] = round(decisions / dt)
    return out


def pieces(n: int = 2000) -> dict:
    rng = random.Random(5)
    st = RULESET.new_game(4, {}, 5)
    while not (st.to_move is not None and st.to_move >= 0 and st.node == "act" and st.round >= 3):
        st = st.apply_unchecked(sample_chance(st, rng) if st.to_move == CHANCE
                                else rng.choice(st.legal_actions()))
    return pieces_cost(st, n)


def greedy_game() -> dict:
    t0 = time.perf_counter()
    rec, end = play_game(RULESET, ["random", "greedy", "random", "greedy"], players=4, seed=1)
    return {"greedy_game_seconds": round(time.perf_counter() - t0, 2), "actions": len(rec.actions),
            "rounds": end.round}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [playouts(p, args.seconds) for p in (2, 4, 10)] + [playouts(4, args.seconds, checked=True)]
    data = {"ruleset": "narby", "playouts": rows, "pieces": pieces(), "greedy": greedy_game()}
    if args.json:
        print(json.dumps(data))
        return
    for r in rows:
        extra = f", {r['decisions_per_second']:,} decisions/s" if "decisions_per_second" in r else ""
        print(f"{r['players']:>2} players{' (checked apply)' if r['checked_apply'] else ''}: "
              f"{r['actions_per_second']:,} actions/s{extra}, {r['mean_actions_per_game']} actions a game")
    print(f"legal_actions {data['pieces']['legal_actions_us']} us ({data['pieces']['legal_actions_at_probe']} "
          f"actions), clone {data['pieces']['clone_us']} us")
    g = data["greedy"]
    print(f"a 4-player random/greedy game: {g['greedy_game_seconds']} s, {g['actions']} actions, "
          f"{g['rounds']} rounds")


if __name__ == "__main__":
    main()
