"""The Dask backend on a LocalCluster bound to 127.0.0.1 only."""

from __future__ import annotations

import logging
import os
import signal
import time

import pytest

from conquest.analysis.balance import Plan, read_games, run
from conquest.core.errors import ConquestError

distributed = pytest.importorskip("distributed")
from conquest.analysis.dask_backend import DaskBackend  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=logging.ERROR) as c, Client(c) as client:
        yield c, client


def test_a_worker_killed_mid_batch_loses_no_game_and_counts_none_twice(cluster, tmp_path):
    c, client = cluster
    plan = Plan.make("narby", ["random", "greedy"], seed=11)
    killed: list[int] = []

    def kill_a_busy_worker(done: int, total: int) -> None:
        if killed or done == 0:
            return
        # a worker that is running a batch right now
        for _ in range(200):
            busy = [w for w, keys in client.processing().items() if keys]
            if busy:
                break
            time.sleep(0.01)
        pids = client.run(os.getpid, workers=busy[:1])
        pid = next(iter(pids.values()))
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    res = run(plan, 12, tmp_path / "dask", backend=DaskBackend(client=client), progress=kill_a_busy_worker)
    assert killed, "a worker was killed during the run"
    rows = read_games(tmp_path / "dask")[1]
    assert [r["game"] for r in rows] == list(range(12)) and res.played == 12
    run(plan, 12, tmp_path / "local", jobs=1)
    assert read_games(tmp_path / "local")[1] == rows
    assert (tmp_path / "dask" / "summary.json").read_text() == (tmp_path / "local" / "summary.json").read_text()


def test_an_unreachable_scheduler_is_one_clear_error(tmp_path):
    plan = Plan.make("kingdom", ["random"], options={"rounds": 2})
    run(plan, 2, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(ConquestError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run(plan, 4, tmp_path, backend=DaskBackend("tcp://127.0.0.1:9", timeout=1), resume=True)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
