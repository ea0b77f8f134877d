"""The trust-boundary fuzzer at scale: random legal play with every contract check at every step, and hostile
inputs (notation, non-actions, mutated state documents) every few steps, per ruleset. Prints one JSON line per
ruleset: steps checked, hostile inputs tried, violations (and the first few).

    .venv/bin/python benchmarks/fuzz.py [--actions 1000000] [--seed 0] [ruleset ...]

The same checks as tests/test_boundaries.py (conquest/analysis/fuzz.py), at 10^6 actions per ruleset by
default; pass a smaller --actions to fit the time you have.
"""

from __future__ import annotations

import argparse
import json
import time

from conquest.analysis.fuzz import run
from conquest.core.registry import rulesets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--actions", type=int, default=1_000_000, help="checked steps per ruleset")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hostile-every", type=int, default=10, help="hostile inputs every N steps")
    ap.add_argument("--hostile-count", type=int, default=3, help="of each kind, each time")
    args = ap.parse_args()
    known = rulesets()
    for rid in args.rulesets or sorted(known):
        if rid not in known:
            ap.error(f"unknown ruleset '{rid}' (known: {', '.join(sorted(known))})")
        t0 = time.perf_counter()
        tally = run(known[rid], args.actions, args.seed, args.hostile_every, args.hostile_count)
        print(json.dumps({"ruleset": rid, **tally.as_dict(), "seconds": round(time.perf_counter() - t0, 1),
                          "first_violations": tally.violations[:5]}), flush=True)


if __name__ == "__main__":
    main()
