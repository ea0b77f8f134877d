"""Reinforcement-learning environments: steps per second with random masked actions, beside the raw engine's
random-playout actions per second (figures, not pass/fail; target: the environment at >= 50% of the engine).

    .venv/bin/python benchmarks/rl_throughput.py [--seconds 5] [ruleset ...]

The same measurement as `conquest bench RULESET --rl --json`. Needs the `rl` extra.
"""

from __future__ import annotations

import argparse
import json

from conquest.core.registry import rulesets
from conquest.rl.bench import bench_both


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    for rid in args.rulesets or sorted(rulesets()):
        data = bench_both(rid, args.seconds)
        print(json.dumps({"ruleset": rid, "engine_actions_per_second": data["actions_per_second"],
                          "env_steps_per_second": data["env"]["env_steps_per_second"],
                          "engine_actions_per_cpu_second": data["engine_actions_per_cpu_second"],
                          "ratio": data["env_steps_vs_engine_actions"],
                          "engine_ratio": data["engine_actions_in_env_vs_engine"],
                          "same_games_ratio": data["env_vs_engine_on_the_same_games"],
                          "api_floor_us_per_step": data["api_floor_us_per_step"],
                          "ratio_ceiling": data["ratio_ceiling"], "env": data["env"]}))


if __name__ == "__main__":
    main()
