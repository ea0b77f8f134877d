"""How long the web levels take to answer (figures, not pass/fail): wall-clock seconds per decision of each
level's agent spec at decisions met in random games of every ruleset, through ``decide`` as the web app calls it.

    PYTHONPATH=. python benchmarks/agent_latency.py [--decisions 6] [--level hard] [ruleset ...]

The documented budget of each level is in conquest/agents/base.py (LEVELS) and docs/agents.md.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from conquest.agents import LEVELS, decide, get_agent
from conquest.core.chance import random_playout
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset, rulesets

PLAYERS = {"nerath": 4}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--decisions", type=int, default=6)
    ap.add_argument("--level", default="hard", choices=sorted(LEVELS))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for rid in args.rulesets or sorted(rulesets()):
        rs = get_ruleset(rid)
        rng = random.Random(args.seed)
        start = rs.new_game(PLAYERS.get(rid), {}, args.seed)
        _, length = random_playout(start, rng)
        times = []
        for k in range(args.decisions):
            s, _ = random_playout(start, rng, max_steps=length * (k + 1) // (args.decisions + 1))
            while s.to_move is not None and (s.to_move == CHANCE or len(s.legal_actions()) < 2):
                s, _ = random_playout(s, rng, max_steps=1)
            if s.to_move is None:
                continue
            t0 = time.perf_counter()
            decide(get_agent(args.level), s, rng)
            times.append(time.perf_counter() - t0)
        print(json.dumps({"ruleset": rid, "level": args.level, "spec": LEVELS[args.level][0],
                          "decisions": len(times), "max_seconds": round(max(times), 3),
                          "mean_seconds": round(sum(times) / len(times), 3)}), flush=True)


if __name__ == "__main__":
    main()
