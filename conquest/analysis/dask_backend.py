"""Where a balance run's games are played: this process, a local process pool, or a Dask cluster.

A backend takes the games still to play and yields their rows batch by batch, in any order; the caller keys
rows by game, so a batch that is played twice (a Dask worker lost mid-batch, its batch run again elsewhere)
counts once. Every game is fixed by its spec, so the rows do not depend on the backend.
"""

from __future__ import annotations

import json
import logging
import os
import zlib
from collections.abc import Iterator, Sequence
from typing import Any

from conquest.analysis.plan import GameSpec, LocalBackend, batches, play_batch
from conquest.core.errors import ConquestError


class DaskBackend:
    """Batches sent to a Dask cluster: the scheduler at ``scheduler`` (tcp://HOST:PORT), or a LocalCluster of
    ``workers`` single-threaded processes on 127.0.0.1 when none is given, or an existing ``client``.

    Dask runs a task again on another worker when its worker dies (the scheduler's ``allowed-failures``);
    ``retries`` also covers a task that raised, e.g. a worker shutting down under it."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int = 2, client: Any = None,
                 timeout: float = 10.0, retries: int = 3) -> None:
        self.scheduler = scheduler
        self.workers = workers
        self.client = client
        self.timeout = timeout
        self.retries = retries
        self._cluster: Any = None
        self._own_client = False

    def connect(self) -> Any:
        """The client (connecting or starting the LocalCluster); ConquestError when that fails."""
        if self.client is not None:
            return self.client
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ConquestError("--backend dask needs Dask: pip install 'conquest[dask]'") from None
        if self.scheduler:
            if not self.scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://", "ws://", "wss://")):
                raise ConquestError(f"--scheduler {self.scheduler!r} is not an address like tcp://HOST:PORT")
            try:
                self.client = Client(self.scheduler, timeout=f"{self.timeout}s")
            except (OSError, TimeoutError, ValueError) as e:
                raise ConquestError(f"cannot reach the Dask scheduler at {self.scheduler}: "
                                    f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        else:
            self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                         host="127.0.0.1", dashboard_address=None,
                                         silence_logs=logging.ERROR)
            self.client = Client(self._cluster)
        self._own_client = True
        return self.client

    def close(self) -> None:
        if self._own_client and self.client is not None:
            self.client.close()
            self.client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def run(self, specs: Sequence[GameSpec]) -> Iterator[list[dict[str, Any]]]:
        from distributed import as_completed as dask_completed
        client = self.connect()
        try:
            n = max(1, len(client.scheduler_info().get("workers", {})) or self.workers)
            parts = batches(specs, n)
            # the key names the options too: a sweep's arms play the same seeds under other options
            opts = zlib.crc32(json.dumps(specs[0].options, sort_keys=True).encode()) if specs else 0
            futures = [client.submit(play_batch, b, pure=False, retries=self.retries,
                                     key=f"conquest-balance-{b[0].ruleset}-{opts:08x}-{b[0].seed}-{b[0].index}-"
                                         f"{os.getpid()}")
                       for b in parts]
            try:
                for f in dask_completed(futures):
                    yield f.result()
            finally:
                for f in futures:
                    f.cancel()
        finally:
            self.close()


def make_backend(name: str, jobs: int = 1, scheduler: str | None = None) -> Any:
    if name == "local":
        if scheduler:
            raise ConquestError("--scheduler is for --backend dask")
        return LocalBackend(jobs)
    if name == "dask":
        return DaskBackend(scheduler, workers=jobs)
    raise ConquestError(f"unknown backend '{name}' (local or dask)")
