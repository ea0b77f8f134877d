"""Moves made in one server process, told to the WebSockets held by the others (``--workers N``, or several
servers on one database).

Every process's ``Hub`` wakes the sockets of its own process. A bus carries the other processes' writes to it:

* on PostgreSQL, ``PgBus``: after every write the process sends ``NOTIFY conquest_games, '<game> <revision>'``
  (``pg_notify``), and a thread of every process holds one connection that ``LISTEN``\\ s on that channel and
  wakes the hub. A notification reaches the other processes in milliseconds. A lost connection is opened again
  after a second; what was sent meanwhile is caught by each socket's own look at the revision every 2 s.
* on SQLite (one machine, no notifications between processes), ``PollBus``: each process asks the database
  every ``poll_seconds`` (0.25 s by default) for the revisions of the games its sockets follow, in one query,
  and wakes the hub for those that moved. So a move reaches another process's sockets within about
  ``poll_seconds`` plus a query; a process with no socket open asks nothing.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from sqlalchemy import select, text
from sqlalchemy.engine import make_url

from conquest.web.live import Hub
from conquest.web.storage import Store, games_table

log = logging.getLogger("conquest.web")

CHANNEL = "conquest_games"
POLL_SECONDS = 0.25


class Bus:
    """No other process to tell (the base: what a bus does)."""

    def announce(self, gid: str, revision: int) -> None:
        """A write of this process (called after its commit, from the writing thread)."""

    async def start(self) -> None:
        """Begin receiving the other processes' writes."""

    async def stop(self) -> None:
        """Stop receiving."""


class PollBus(Bus):
    """SQLite: the revisions of the games with open sockets, looked up every ``poll_seconds``."""

    def __init__(self, store: Store, hub: Hub, poll_seconds: float = POLL_SECONDS) -> None:
        self.store, self.hub, self.poll_seconds = store, hub, poll_seconds
        self.seen: dict[str, int] = {}
        self.task: asyncio.Task[None] | None = None

    def revisions(self, ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        with self.store.engine.connect() as conn:
            for i in range(0, len(ids), 500):
                chunk = ids[i:i + 500]
                for gid, rev in conn.execute(select(games_table.c.id, games_table.c.revision)
                                             .where(games_table.c.id.in_(chunk))).all():
                    out[str(gid)] = int(rev)
        return out

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            ids = sorted(self.hub.subs)
            if not ids:
                self.seen.clear()
                continue
            try:
                now = await asyncio.to_thread(self.revisions, ids)
            except Exception:
                log.exception("looking for other processes' moves failed")
                continue
            for gid, rev in now.items():
                # a game seen for the first time is published too: a move made between the socket's opening
                # and this look would otherwise become the baseline and wait for the socket's own 2 s look (a
                # socket sends nothing when the revision is the one it has)
                if self.seen.get(gid) != rev:
                    self.hub.publish(gid, rev)
            self.seen = now

    async def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


class PgBus(Bus):
    """PostgreSQL: ``NOTIFY`` after every write, a thread that ``LISTEN``\\ s and wakes the hub."""

    def __init__(self, store: Store, hub: Hub) -> None:
        self.store, self.hub = store, hub
        self.conninfo = make_url(store.url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.stopped = threading.Event()
        self.ready = threading.Event()
        self.thread: threading.Thread | None = None
        self.received = 0

    def announce(self, gid: str, revision: int) -> None:
        try:
            with self.store.engine.begin() as conn:
                conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                             {"channel": CHANNEL, "payload": f"{gid} {revision}"})
        except Exception:  # the move is committed; the others see it at their next look
            log.exception("telling the other processes of game %s failed", gid)

    def _listen(self) -> None:
        import psycopg
        while not self.stopped.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    while not self.stopped.is_set():
                        for n in conn.notifies(timeout=0.5):
                            self._received(n.payload)
            except Exception as e:  # noqa: BLE001 - logged; the connection is opened again
                if self.stopped.is_set():
                    return
                log.warning("listening for other processes' moves failed (%s); again in 1 s",
                            str(e).splitlines()[0] if str(e) else type(e).__name__)
                self.stopped.wait(1.0)

    def _received(self, payload: str) -> None:
        parts = payload.split()
        if len(parts) != 2 or not parts[1].isdigit():
            return
        self.received += 1
        self.hub.publish(parts[0], int(parts[1]))

    async def start(self) -> None:
        self.thread = threading.Thread(target=self._listen, name="conquest-listen", daemon=True)
        self.thread.start()
        await asyncio.to_thread(self.ready.wait, 10.0)

    async def stop(self) -> None:
        self.stopped.set()
        if self.thread is not None:
            await asyncio.to_thread(self.thread.join, 2.0)


def make_bus(store: Store, hub: Hub, poll_seconds: float = POLL_SECONDS) -> Bus:
    """The bus for the store's database: ``PgBus`` on PostgreSQL, ``PollBus`` on a SQLite file, none for an
    in-memory database (one process only)."""
    if store.url.startswith("postgresql"):
        return PgBus(store, hub)
    if store.url in ("sqlite://", "sqlite:///:memory:"):
        return Bus()
    return PollBus(store, hub, poll_seconds)
