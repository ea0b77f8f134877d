"""Random-playout throughput of every ruleset on one core (figures, not pass/fail).

    .venv/bin/python benchmarks/throughput.py [--seconds 5] [ruleset ...]

The same measurement as `conquest bench RULESET --json`.
"""

from __future__ import annotations

import argparse
import json

from conquest.analysis.simulate import bench
from conquest.core.registry import rulesets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    for rid in args.rulesets or sorted(rulesets()):
        print(json.dumps(bench(rid, args.seconds)))


if __name__ == "__main__":
    main()
