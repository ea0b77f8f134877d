"""The trust-boundary fuzzer at scale: random legal play with every contract check at every step, and hostile
inputs (notation, non-actions, mutated state documents) every few steps, per ruleset.

    .venv/bin/python benchmarks/fuzz.py [--actions 1000000] [--chunk 5000] [--seed 0]
                                         [--checkpoint FILE] [--shard K/N] [ruleset ...]
    .venv/bin/python benchmarks/fuzz.py --summary --checkpoint FILE

The same checks as tests/test_boundaries.py (conquest/analysis/fuzz.py), at 10^6 actions per ruleset by
default. The run is cut into chunks of --chunk actions; chunk i of a ruleset is ``run(ruleset, chunk, seed + i)``
(reproducible alone). Chunks go round the rulesets in turn, so a run stopped early has figures for each.

Resumable: with --checkpoint FILE every finished chunk (seed, size, steps, inputs, violations, CPU seconds) is
added to FILE, and a run given the same FILE skips the chunks already there; killing it loses at most the chunks
under way. Splittable: --shard K/N runs only the chunks whose index is K modulo N, so N processes (or machines,
merging their files) share one run; processes on one machine may share one checkpoint (it is locked).
Prints one JSON line per chunk, and with --summary the totals per ruleset.
"""

from __future__ import annotations

import argparse
import json
import sys

from conquest.analysis import fuzz
from conquest.core.registry import rulesets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--actions", type=int, default=1_000_000, help="checked steps per ruleset")
    ap.add_argument("--chunk", type=int, default=5_000, help="checked steps per chunk (one seed each)")
    ap.add_argument("--seed", type=int, default=0, help="seed of chunk 0; chunk i uses seed + i")
    ap.add_argument("--hostile-every", type=int, default=10, help="hostile inputs every N steps")
    ap.add_argument("--hostile-count", type=int, default=3, help="of each kind, each time")
    ap.add_argument("--checkpoint", help="JSON file of the chunks done (created; resumed when it exists)")
    ap.add_argument("--shard", default="0/1", help="K/N: run the chunks whose index is K modulo N")
    ap.add_argument("--summary", action="store_true", help="print the totals of --checkpoint and stop")
    args = ap.parse_args()
    if args.actions < 1 or args.chunk < 1 or args.hostile_every < 1 or args.hostile_count < 0:
        ap.error("--actions, --chunk and --hostile-every must be at least 1, --hostile-count at least 0")
    try:
        shard, shards = (int(x) for x in args.shard.split("/"))
        if not 0 <= shard < shards:
            raise ValueError
    except ValueError:
        ap.error(f"--shard must be K/N with 0 <= K < N, not {args.shard!r}")
    try:
        done = fuzz.load_checkpoint(args.checkpoint)["chunks"] if args.checkpoint else {}
    except (OSError, ValueError) as e:
        ap.error(str(e))
    if args.summary:
        if not args.checkpoint:
            ap.error("--summary needs --checkpoint")
        print(json.dumps(fuzz.summarise({"chunks": done}), indent=1))
        return
    known = rulesets()
    ids = args.rulesets or sorted(known)
    for rid in ids:
        if rid not in known:
            ap.error(f"unknown ruleset '{rid}' (known: {', '.join(sorted(known))})")
    for chunk in fuzz.plan_chunks(ids, args.actions, args.chunk, args.seed, shard, shards):
        if chunk.key in done:
            continue
        result = fuzz.run_chunk(known[chunk.ruleset], chunk, args.hostile_every, args.hostile_count)
        if args.checkpoint:
            fuzz.record_chunk(args.checkpoint, chunk, result)
        print(json.dumps({"ruleset": chunk.ruleset, "index": chunk.index, "seed": chunk.seed, **result}),
              flush=True)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
