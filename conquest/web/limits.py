"""What one client may hold of the server: connections, the time to send a request's headers, the games it may
create, and how many games the server keeps in memory. The settings are ``Limits`` (``Limits.from_env()`` under
``conquest serve``); see "Serving: limits" in docs/web.md.

uvicorn's h11 protocol waits for a request's headers for ever, and its ``limit_concurrency`` counts every open
connection: a few hundred sockets that send nothing, or send their headers a byte every few seconds, made every
request (``/api/health`` too) a 503. ``GuardedH11Protocol`` is uvicorn's ``H11Protocol`` with two guards:

* a **header deadline**: a connection must send a complete request line and headers within ``header_timeout``
  seconds of being opened (or of the end of its previous response, on a kept-alive connection); else it is closed
  (with a 408 when part of a request had arrived);
* a **cap per client address**: beyond ``connections_per_client`` open connections (WebSockets included) from one
  address, a new one gets a 429 and is closed at once.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, fields
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from conquest.web.games import CACHE_GAMES, CACHE_STATES, WebError

ENV = {  # setting -> environment variable read by Limits.from_env
    "header_timeout": "CONQUEST_HEADER_TIMEOUT",
    "connections_per_client": "CONQUEST_CONNECTIONS_PER_CLIENT",
    "games_per_client": "CONQUEST_GAMES_PER_CLIENT",
    "games_window": "CONQUEST_GAMES_WINDOW",
    "cache_games": "CONQUEST_CACHE_GAMES",
    "cache_states": "CONQUEST_CACHE_STATES",
}


@dataclass(frozen=True)
class Limits:
    """The server's limits per client and of its memory (0 turns a cap off)."""
    header_timeout: float = 5.0
    """Seconds a connection has to send a request line and its headers (from its opening, or from the end of
    its previous response)."""
    connections_per_client: int = 64
    """Open connections (WebSockets included) from one address. Behind a reverse proxy every client has the
    proxy's address: set 0 there and let the proxy cap connections per client (docs/web.md)."""
    games_per_client: int = 100
    """Games one address may create or import in ``games_window`` seconds (a 429 beyond)."""
    games_window: float = 3600.0
    cache_games: int = CACHE_GAMES
    """Games kept in memory (replayed); the least recently used beyond it are dropped (the database keeps them)."""
    cache_states: int = CACHE_STATES
    """States kept in memory in all (a game's state, its snapshots and narrated logs)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 10 ** 9 or v != v:
                raise ValueError(f"{f.name} must be a number from 0 to 10^9, not {v!r}")
        if self.cache_games < 1 or self.cache_states < 1:
            raise ValueError("cache_games and cache_states must be at least 1")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Limits:
        """The defaults, changed by the environment variables of ``ENV`` (a bad value: ValueError, one line)."""
        env = dict(os.environ) if env is None else env
        given: dict[str, Any] = {}
        for f in fields(cls):
            text = env.get(ENV[f.name])
            if text is None or not text.strip():
                continue
            try:
                given[f.name] = float(text) if f.type in ("float", float) else int(text)
            except ValueError:
                raise ValueError(f"{ENV[f.name]}={text[:40]!r} is not a number") from None
        try:
            return cls(**given)
        except ValueError as e:
            raise ValueError(f"{e} (from the environment: {', '.join(ENV[k] for k in given)})") from None


# ---- games created per client -----------------------------------------------------------------------------

class CreationLimit:
    """At most ``per_client`` games created (or imported) per client address in any ``window`` seconds."""

    def __init__(self, per_client: int, window: float) -> None:
        self.per_client, self.window = per_client, window
        self._times: dict[str, deque[float]] = {}
        self._lock = threading.Lock()
        self._calls = 0

    def take(self, client: str) -> None:
        """Count one game for ``client``, or refuse it (429) when its window is full."""
        if self.per_client <= 0:
            return
        now = time.monotonic()
        with self._lock:
            self._calls += 1
            if self._calls % 1024 == 0:  # forget the clients whose window has passed
                for k in [k for k, q in self._times.items() if not q or q[-1] <= now - self.window]:
                    del self._times[k]
            q = self._times.setdefault(client, deque())
            while q and q[0] <= now - self.window:
                q.popleft()
            if len(q) >= self.per_client:
                wait = max(1, int(q[0] + self.window - now + 1))
                raise WebError(429, f"too many new games from your address: {self.per_client} in "
                                    f"{self.window:g} s at most; try again in {wait} s")
            q.append(now)


# ---- connections ------------------------------------------------------------------------------------------

class ConnectionGuard:
    """The open connections of one server process by client address (their transports: a connection upgraded
    to a WebSocket is counted until its transport closes)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self._admitted = 0
        self.refused = 0  # connections refused for the cap (for tests)
        self.timed_out = 0  # connections closed for their headers' deadline

    def admit(self, host: str, transport: asyncio.BaseTransport) -> bool:
        cap = self.limits.connections_per_client
        if cap <= 0:
            return True
        held = self.open.setdefault(host, set())
        if len(held) >= cap:
            held.difference_update([t for t in held if t.is_closing()])
            if len(held) >= cap:
                self.refused += 1
                return False
        held.add(transport)
        self._admitted += 1
        if self._admitted % 1024 == 0:
            self._sweep()
        return True

    def release(self, host: str, transport: asyncio.BaseTransport) -> None:
        held = self.open.get(host)
        if held is not None:
            held.discard(transport)
            if not held:
                del self.open[host]

    def _sweep(self) -> None:
        for host in list(self.open):
            held = self.open[host]
            held.difference_update([t for t in held if t.is_closing()])
            if not held:
                del self.open[host]


def _raw_response(status: int, reason: str, text: str) -> bytes:
    body = ('{"error":"' + text.replace('"', "'") + '"}').encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n\r\n").encode() + body


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers and a cap of connections per client
    address (see the module's text). Its settings are the class's ``limits`` (``Limits.from_env()`` unless a
    subclass made by ``guarded_protocol`` says otherwise); its ``guard`` is per process and class."""

    limits: Limits | None = None
    guard: ConnectionGuard | None = None

    @classmethod
    def _the_guard(cls) -> ConnectionGuard:
        if cls.guard is None:
            cls.guard = ConnectionGuard(cls.limits if cls.limits is not None else Limits.from_env())
        return cls.guard

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        guard = self._the_guard()
        self._host = self.client[0] if self.client else None
        if self._host is not None and not guard.admit(self._host, transport):
            self._host = None
            cap = guard.limits.connections_per_client
            transport.write(_raw_response(429, "Too Many Requests",
                                          f"too many connections from your address ({cap} at most)"))
            transport.close()
            return
        self._arm_header_timer()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        timeout = self._the_guard().limits.header_timeout
        if timeout > 0:
            self._header_timer = self.loop.call_later(timeout, self._headers_late)

    def _cancel_header_timer(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        guard = self._the_guard()
        guard.timed_out += 1
        if self.conn.trailing_data[0]:  # part of a request came: say why it is cut
            self.transport.write(_raw_response(
                408, "Request Timeout",
                f"the request line and headers did not arrive within {guard.limits.header_timeout:g} s"))
        self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a request's headers arrived (or the connection failed)
            self._cancel_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_header_timer()  # the next request on this connection gets the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        if getattr(self, "_host", None) is not None:
            self._the_guard().release(self._host, self.transport)  # type: ignore[arg-type]
            self._host = None
        super().connection_lost(exc)


def guarded_protocol(limits: Limits) -> type[GuardedH11Protocol]:
    """A ``GuardedH11Protocol`` with these limits and a guard of its own (for one server in this process)."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limits": limits, "guard": None})
