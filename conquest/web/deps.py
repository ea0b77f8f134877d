"""What the routers share: the app's services (kept in ``app.state.services``) and the dependencies that
look up a game and the seat (or spectator) a token belongs to."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from conquest.web.games import Actor, Games, Live, WebError
from conquest.web.limits import CreationLimit
from conquest.web.live import Advancer, Hub
from conquest.web.odds import OddsCache
from conquest.web.storage import Store

TOKEN_HEADER = "X-Conquest-Token"
T = TypeVar("T")


@dataclass
class Services:
    """One app's database, games in play, agents' player and live-update hub."""
    store: Store
    games: Games
    advancer: Advancer
    hub: Hub
    heavy: Heavy = field(default_factory=lambda: Heavy())  # record imports
    # a game that is not in memory (after a restart, or dropped from the cache) replayed from its log: after its
    # token is checked, in threads of their own, a share of the time, two per client and 32 waiting at most
    loads: Heavy = field(default_factory=lambda: Heavy(
        concurrency=2, per_client=2, queue=32, share=0.5,
        busy_client="your other games are still being loaded: try again in a moment",
        busy_all="the server is busy loading other games: try again in a moment"))
    loading: dict[str, asyncio.Future[Live]] = field(default_factory=dict)  # game -> its load under way
    replays: Lane = field(default_factory=lambda: Lane())
    odds_lane: Lane = field(default_factory=lambda: Lane(concurrency=2, share=0.5))  # exact odds
    odds_cache: OddsCache = field(default_factory=lambda: OddsCache())
    odds_pending: int = 0   # odds computing or waiting in odds_lane
    creations: CreationLimit = field(default_factory=lambda: CreationLimit(0, 1.0))  # games per client


def services(conn: HTTPConnection) -> Services:
    s: Services = conn.app.state.services
    return s


Svc = Annotated[Services, Depends(services)]


async def seat_token(x_conquest_token: Annotated[str | None, Header()] = None,
                     authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The token of the request: ``X-Conquest-Token``, else ``Authorization: Bearer``."""
    if x_conquest_token:
        return x_conquest_token
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


Token = Annotated[str | None, Depends(seat_token)]


async def load(svc: Services, gid: str, client: str) -> Live:
    """The game as the database has it: from the cache when it is current, else replayed in the ``loads`` lane
    (never in the request pool); requests for a game being loaded wait for that one load. Only for a game
    whose token was checked (``Games.authorize``)."""
    live = await anyio.to_thread.run_sync(svc.games.current, gid)
    if live is not None:
        return live
    pending = svc.loading.get(gid)
    if pending is None:
        pending = asyncio.ensure_future(svc.loads.run_for(client, svc.games.load, gid))
        svc.loading[gid] = pending

        def done(f: asyncio.Future[Live]) -> None:
            svc.loading.pop(gid, None)
            if not f.cancelled():
                f.exception()  # retrieved: the waiters have it, if any are left
        pending.add_done_callback(done)
    return await asyncio.shield(pending)


async def game(gid: str, token: Token, conn: HTTPConnection, svc: Svc) -> Live:
    """The game of the path (404 when there is none) for the holder of the request's token (401 without one,
    403 with another): the token is checked against the game's row first, then the game is loaded."""
    await anyio.to_thread.run_sync(svc.games.authorize, gid, token)
    return await load(svc, gid, client_of(conn))


Game = Annotated[Live, Depends(game)]


async def actor(live: Game, token: Token, svc: Svc) -> Actor:
    """Who holds the token in this game (401 without one, 403 with another game's)."""
    return svc.games.actor(live, token)


Who = Annotated[Actor, Depends(actor)]


def client_of(conn: HTTPConnection) -> str:
    """Who sends the request, for per-client limits: the peer's address (a proxy in front is one client)."""
    return conn.client.host if conn.client is not None else "?"


class Lane:
    """Work that may be long (a replay of a long game) in worker threads of its own, ``concurrency`` at a
    time; the others wait their turn without holding a thread, so ordinary requests are not queued behind
    them. And a **share** of the time: after a piece of work that took ``c`` seconds of CPU, its slot rests
    ``c * (1 / share - 1)`` seconds before the next piece may start in it, so a client replaying or
    importing without pause gets at most ``concurrency * share`` of a processor and ordinary players the
    rest. (One request's answer is not delayed by its own rest.)"""

    def __init__(self, concurrency: int = 2, share: float = 0.2) -> None:
        self.concurrency, self.share = concurrency, share
        self._slots: asyncio.Semaphore | None = None
        self._threads: anyio.CapacityLimiter | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._slots is None or self._threads is None:
            self._slots = asyncio.Semaphore(self.concurrency)
            self._threads = anyio.CapacityLimiter(self.concurrency)
        slots = self._slots
        await slots.acquire()
        cpu = 0.0
        try:
            def timed() -> T:
                nonlocal cpu
                t0 = time.thread_time()
                try:
                    return fn(*args)
                finally:
                    cpu = time.thread_time() - t0
            return await anyio.to_thread.run_sync(timed, limiter=self._threads)
        finally:
            rest = cpu * (1 / self.share - 1) if 0 < self.share < 1 else 0.0
            if rest > 0.001:
                asyncio.get_running_loop().call_later(rest, slots.release)
            else:
                slots.release()


class Heavy(Lane):
    """Heavy work (checking an imported record step by step): a ``Lane`` of ``concurrency`` threads, with at
    most ``per_client`` pieces running or waiting per client and ``queue`` waiting in all; beyond that the
    request is refused at once (429 or 503) instead of holding the server. A long piece (an import) is
    asked to pause within itself too (``share`` is passed to ``Games.import_record``)."""

    def __init__(self, concurrency: int = 1, per_client: int = 1, queue: int = 8, share: float = 0.5,
                 busy_client: str = "your previous record is still being checked: wait for it before sending "
                                    "another",
                 busy_all: str = "the server is busy checking other records: try again in a minute") -> None:
        super().__init__(concurrency, share)
        self.per_client, self.queue = per_client, queue
        self.busy_client, self.busy_all = busy_client, busy_all
        self.clients: dict[str, int] = {}

    async def run_for(self, client: str, fn: Callable[..., T], *args: Any) -> T:
        if self.clients.get(client, 0) >= self.per_client:
            raise WebError(429, self.busy_client)
        if sum(self.clients.values()) >= self.concurrency + self.queue:
            raise WebError(503, self.busy_all)
        self.clients[client] = self.clients.get(client, 0) + 1
        try:
            return await self.run(fn, *args)
        finally:
            self.clients[client] -= 1
            if not self.clients[client]:
                del self.clients[client]
