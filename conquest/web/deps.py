"""What the routers share: the app's services (kept in ``app.state.services``) and the dependencies that
look up a game and the seat (or spectator) a token belongs to."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Annotated, Any, Callable, TypeVar

import anyio
import anyio.to_thread

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from conquest.web.games import Actor, Games, Live, WebError
from conquest.web.live import Advancer, Hub
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
    heavy: "Heavy" = field(default_factory=lambda: Heavy())  # record imports
    replays: "Lane" = field(default_factory=lambda: Lane())


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


def game(gid: str, svc: Svc) -> Live:
    """The game of the path (404 when there is none), its cache checked against the database."""
    return svc.games.load(gid)


Game = Annotated[Live, Depends(game)]


async def actor(live: Game, token: Token, svc: Svc) -> Actor:
    """Who holds the token in this game (401 without one, 403 with another game's)."""
    return svc.games.actor(live, token)


Who = Annotated[Actor, Depends(actor)]


def client_of(conn: HTTPConnection) -> str:
    """Who sends the request, for per-client limits: the peer's address (a proxy in front is one client)."""
    return conn.client.host if conn.client is not None else "?"


class Heavy:
    """Heavy work (checking an imported record step by step) runs in its own worker threads, ``concurrency``
    at a time, at most ``per_client`` running or waiting per client and ``queue`` waiting in all; beyond
    that the request is refused at once (429 or 503) instead of holding the server. Ordinary requests keep
    the default thread pool to themselves."""

    def __init__(self, concurrency: int = 1, per_client: int = 1, queue: int = 8) -> None:
        self.concurrency, self.per_client, self.queue = concurrency, per_client, queue
        self._limiter: anyio.CapacityLimiter | None = None
        self.clients: dict[str, int] = {}

    async def run(self, client: str, fn: Callable[..., T], *args: Any) -> T:
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.concurrency)
        if self.clients.get(client, 0) >= self.per_client:
            raise WebError(429, "your previous record is still being checked: wait for it before sending another")
        if sum(self.clients.values()) >= self.concurrency + self.queue:
            raise WebError(503, "the server is busy checking other records: try again in a minute")
        self.clients[client] = self.clients.get(client, 0) + 1
        try:
            return await anyio.to_thread.run_sync(functools.partial(fn, *args), limiter=self._limiter)
        finally:
            self.clients[client] -= 1
            if not self.clients[client]:
                del self.clients[client]


class Lane:
    """Work that may be long (a replay of a long game) in worker threads of its own, ``concurrency`` at a
    time; the others wait their turn without holding a thread, so ordinary requests are not queued behind
    them and fewer threads compete for the interpreter."""

    def __init__(self, concurrency: int = 2) -> None:
        self.concurrency = concurrency
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.concurrency)
        return await anyio.to_thread.run_sync(functools.partial(fn, *args), limiter=self._limiter)
