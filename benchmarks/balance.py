"""Balance-run throughput: games per second on 1 and 2 local processes and on a 2-worker Dask LocalCluster
(127.0.0.1), and the scaling efficiency from 1 to 2 workers (figures, not pass/fail; target >= 80%).

    .venv/bin/python benchmarks/balance.py [--agents greedy] [--games narby=40 nerath=8] [ruleset ...]

Only the playing is timed (the games of ``conquest balance``'s plan, batched as it batches them); starting the
LocalCluster is reported apart, and writing the report is left out. Efficiency = (games/s with 2) / (2 x games/s
with 1). The machine's other load counts: run it on an idle machine with at least 2 cores.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from typing import Any

from conquest.analysis.balance import Plan
from conquest.analysis.dask_backend import DaskBackend, LocalBackend

DEFAULT_GAMES = {"narby": 40, "nerath": 8, "kingdom": 60, "smallworld": 20}


def timed(backend: Any, plan: Plan, games: int) -> float:
    specs = [plan.game(i) for i in range(games)]
    t0 = time.perf_counter()
    n = sum(len(rows) for rows in backend.run(specs))
    assert n == games
    return games / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", default=["narby", "nerath"])
    ap.add_argument("--agents", default="greedy")
    ap.add_argument("--games", nargs="*", default=[], help="RULESET=N")
    args = ap.parse_args()
    games = dict(DEFAULT_GAMES)
    for g in args.games:
        k, v = g.split("=")
        games[k] = int(v)
    from distributed import Client, LocalCluster
    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster)
    startup = time.perf_counter() - t0
    try:
        for rid in args.rulesets:
            plan = Plan.make(rid, args.agents.split(","))
            n = games.get(rid, 20)
            one = timed(LocalBackend(1), plan, n)
            two = timed(LocalBackend(2), plan, n)
            dask = timed(DaskBackend(client=client), plan, n)
            print(json.dumps({
                "ruleset": rid, "agents": args.agents, "games": n, "cpus": os.cpu_count(),
                "games_per_second": {"1_process": round(one, 3), "2_processes": round(two, 3),
                                     "dask_2_workers": round(dask, 3)},
                "efficiency_1_to_2": {"processes": round(two / (2 * one), 3),
                                      "dask": round(dask / (2 * one), 3)},
                "dask_cluster_start_seconds": round(startup, 2),
                "load_average_after": [round(x, 2) for x in os.getloadavg()]}))
    finally:
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
