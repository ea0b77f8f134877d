"""The web app: a FastAPI JSON API, a WebSocket for live updates, and the page (served from ``static/``).

``serve(host, port, db)`` is what ``conquest serve`` calls. ``create_app`` builds the app for tests: it
wires the services (database, games in play, agents, live updates) into ``app.state.services`` and mounts
the routers of ``conquest.web.routes``. The API speaks only the game contract, so every registered ruleset
is playable, including later ones.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import logging
import os
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI

import conquest.web.routes.accounts as account_routes
import conquest.web.routes.lobby as lobby_routes
from conquest.core.game import Ruleset
from conquest.web.accounts import Accounts
from conquest.web.bus import POLL_SECONDS, Bus, make_bus
from conquest.web.deps import Services
from conquest.web.games import MAX_IMPORT_SECONDS, Games
from conquest.web.limits import CreationLimit, Limits, guarded_protocol
from conquest.web.live import THINKING_PER_CLIENT, Advancer, Hub
from conquest.web.lobby import Lobby
from conquest.web.middleware import BODY_TIMEOUT, BodyLimit, install_error_handlers
from conquest.web.notify import EmailOf, Mailer, SmtpSettings, public_url_problem, seat_notify_email
from conquest.web.pace import CHECK_SECONDS, Pace
from conquest.web.routes import actions, games as game_routes, meta, odds, pace as pace_routes, pages, records, socket
from conquest.web.seats import DECISION_LIMIT, TURN_LIMIT, SeatKinds
from conquest.web.storage import GameRow, Store

log = logging.getLogger("conquest.web")

# the server's own limits (uvicorn's defaults are unbounded or large): idle keep-alive connections close
# after 5 s; beyond 512 open connections and tasks new requests get 503; request headers of 16 KiB at most;
# WebSocket messages (only the token is ever sent) of 64 KiB at most; 5 s to finish requests on shutdown
UVICORN_LIMITS: dict[str, Any] = {"timeout_keep_alive": 5, "limit_concurrency": 512,
                                  "h11_max_incomplete_event_size": 16 * 1024, "ws_max_size": 64 * 1024,
                                  "timeout_graceful_shutdown": 5}


def uvicorn_options(limits: Limits) -> dict[str, Any]:
    """uvicorn's settings for a server with these limits: ``UVICORN_LIMITS`` and the h11 protocol with a
    deadline for request headers and a cap of connections per client (``conquest.web.limits``)."""
    return {**UVICORN_LIMITS, "http": guarded_protocol(limits)}

_available: dict[str, Ruleset] | None = None


def available_rulesets() -> dict[str, Ruleset]:
    """The registry's rulesets; a package that fails to import is left out by the registry (and logged
    here) rather than the whole server failing."""
    global _available
    from conquest.core.registry import broken, rulesets as registry
    found = registry()
    if found is not _available:  # the registry looked again (first call, or a test added a game)
        for name, problem in broken.items():
            log.error("ruleset package %s cannot be loaded: %s", name, problem.splitlines()[0])
        _available = found
    return found


def create_app(db: str | None = None, rulesets: Callable[[], dict[str, Ruleset]] | None = None,
               think_limit: float = DECISION_LIMIT, agent_delay: float = 0.0, sweep_seconds: float = 10.0,
               request_threads: int = 8, body_timeout: float = BODY_TIMEOUT, import_seconds: float = MAX_IMPORT_SECONDS,
               agents: Sequence[str] | None = None, policies: str | None = None, turn_limit: float = TURN_LIMIT,
               thinking_per_client: int = THINKING_PER_CLIENT, limits: Limits | None = None,
               smtp: SmtpSettings | dict[str, Any] | None = None, public_url: str | None = None,
               email_of: EmailOf | None = None, clock: Callable[[], dt.datetime] | None = None,
               deadline_check_seconds: float = CHECK_SECONDS, bus_poll_seconds: float = POLL_SECONDS) -> FastAPI:
    """The app. ``rulesets`` defaults to the registry (every package under conquest.rulesets).
    ``body_timeout``: seconds a request's body may take to arrive (408 after); ``import_seconds``: the
    longest check of an imported record. Computer seats (``conquest.web.seats``): the levels, the named
    ``agents`` the operator enables (default ``random`` and ``greedy``) and the policies installed in the folder
    ``policies`` (none by default), each within ``think_limit`` seconds per decision and ``turn_limit`` per whole
    turn; the games of one client think ``thinking_per_client`` at a time. ``limits``: games per client and in
    memory (default ``Limits()``; its connection limits are uvicorn's part: ``uvicorn_options``).
    Turn-based play (``conquest.web.pace``, ``conquest.web.notify``): ``smtp`` (default: ``CONQUEST_SMTP_*``
    from the environment; none, no mail) and ``public_url`` (default ``CONQUEST_PUBLIC_URL``) for the turn
    mails, ``email_of`` the address of a game's seat (default: its account's, else the one set with the seat token),
    ``clock`` (UTC, no zone) and ``deadline_check_seconds`` for the deadlines. ``bus_poll_seconds``: how often
    a process on SQLite looks for other processes' moves (``conquest.web.bus``)."""
    if rulesets is None:
        rulesets = available_rulesets
    if limits is None:
        limits = Limits()
    seats = SeatKinds(agents, policies, decision_limit=think_limit, turn_limit=turn_limit)
    store = Store(db)
    games = Games(store, rulesets, import_seconds=import_seconds, cache_games=limits.cache_games,
                  cache_states=limits.cache_states)
    hub = Hub()
    advancer = Advancer(games, think_limit, agent_delay, hub.publish, seats=seats, per_client=thinking_per_client)
    games.listeners.append(lambda gid, rev: hub.publish(gid, rev))
    games.on_server_turn = advancer.schedule
    accounts = Accounts(store)  # accounts, sessions and the open lobby (conquest.web.accounts, lobby)
    pace = _pace(store, games, seats, smtp, public_url, email_of or account_or_seat_email(accounts, store), clock,
                 deadline_check_seconds)
    games.listeners.append(pace.track)
    games.summary_extras.append(pace.info)
    bus = make_bus(store, hub, bus_poll_seconds)
    games.listeners.append(bus.announce)

    lifespan = _lifespan(store, advancer, hub, pace, bus, request_threads, sweep_seconds)
    app = FastAPI(title="Conquest", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.services = Services(store=store, games=games, advancer=advancer, hub=hub,
                                  creations=CreationLimit(limits.games_per_client, limits.games_window))
    app.state.games = games
    app.state.store = store
    app.state.pace = pace
    app.state.bus = bus
    app.state.accounts = accounts
    app.state.lobby = Lobby(store, games, app.state.accounts, advancer, pace)
    games.listeners.append(app.state.lobby.ratings.on_write)
    install_error_handlers(app)
    app.add_middleware(BodyLimit, body_timeout=body_timeout)
    for module in (meta, game_routes, actions, records, odds, socket, pace_routes, pages):
        app.include_router(module.router)
    app.include_router(account_routes.router)
    app.include_router(lobby_routes.router)
    return app


def _lifespan(store: Store, advancer: Advancer, hub: Hub, pace: Pace, bus: Bus, request_threads: int,
              sweep_seconds: float) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's start and stop: the games left to advance, the sweep for games another process left, the
    deadlines, the bus; everything stopped and closed at the end."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        # what the process holds when it starts (modules, tables, boards) stays for its life: the collector
        # stops scanning it, so that a full collection, which holds every thread up (a computer's search
        # included, past its deadline), costs what the games hold, not the whole process
        gc.collect()
        gc.freeze()
        # few request threads: they share one interpreter lock, and many runnable threads make the one
        # holding the database write lock wait its turn for the interpreter (a convoy)
        import anyio.to_thread
        anyio.to_thread.current_default_thread_limiter().total_tokens = request_threads
        for gid in await asyncio.to_thread(store.games_to_advance):
            advancer.schedule(gid)

        async def sweep() -> None:  # games left by another (perhaps killed) process
            while True:
                await asyncio.sleep(sweep_seconds)
                try:
                    for gid in await asyncio.to_thread(store.games_to_advance):
                        advancer.schedule(gid)
                except Exception:
                    log.exception("sweep failed")

        task = asyncio.create_task(sweep())
        deadlines = asyncio.create_task(pace.run())
        await bus.start()
        try:
            yield
        finally:
            task.cancel()
            deadlines.cancel()
            pace.stop()
            await bus.stop()
            if pace.mailer is not None:
                pace.mailer.close()
            advancer.stop()
            hub.loop = None
            store.close()
    return lifespan


def account_or_seat_email(accounts: Accounts, store: Store) -> EmailOf:
    """The default ``EmailOf``: the address of the account that holds or claimed the seat, else the one the
    seat's player set with the seat token (``seat_notify_email``), else None."""
    by_token = seat_notify_email(store)

    def email_of(game: GameRow, seat: int) -> str | None:
        return accounts.seat_email(game.id, seat) or by_token(game, seat)
    return email_of


def _pace(store: Store, games: Games, seats: SeatKinds, smtp: SmtpSettings | dict[str, Any] | None,
          public_url: str | None, email_of: EmailOf | None, clock: Callable[[], dt.datetime] | None,
          check_seconds: float) -> Pace:
    """The paces and deadlines of the games, with the turn mails when an SMTP server is configured (a setting
    that is wrong is a ``ValueError`` of one line)."""
    if isinstance(smtp, dict):  # handed to worker processes as JSON, without the password
        smtp = SmtpSettings(**{**smtp, "password": smtp.get("password") or os.environ.get("CONQUEST_SMTP_PASSWORD")})
    elif smtp is None:
        smtp = SmtpSettings.from_env(os.environ)
    if public_url is None:
        public_url = os.environ.get("CONQUEST_PUBLIC_URL") or None
    if smtp is not None and smtp.problem():
        raise ValueError(smtp.problem())
    if public_url is not None and public_url_problem(public_url):
        raise ValueError(public_url_problem(public_url))
    if smtp is not None and public_url is None:
        raise ValueError("turn mails need the server's public address for their links (--public-url or "
                         "CONQUEST_PUBLIC_URL)")
    mailer = Mailer(smtp) if smtp is not None else None
    extra: dict[str, Any] = {"clock": clock} if clock is not None else {}
    return Pace(store, games, seats, mailer=mailer, email_of=email_of or seat_notify_email(store),
                public_url=public_url, check_seconds=check_seconds, **extra)


def _server_process() -> None:
    """Settings of a process that serves: a thread waiting for the interpreter (a request back from the
    database) gets it after 1 ms instead of 5 ms while another thread computes (an import, a replay), so
    ordinary requests wait less beside heavy ones."""
    import sys
    sys.setswitchinterval(0.001)


def app_from_env() -> FastAPI:
    """The app for ``uvicorn --factory`` with several worker processes (database from ``CONQUEST_DB``, the
    other settings of ``create_app`` as JSON in ``CONQUEST_APP_OPTIONS``)."""
    import json
    import os
    _server_process()
    options = json.loads(os.environ.get("CONQUEST_APP_OPTIONS") or "{}")
    return create_app(os.environ.get("CONQUEST_DB"), agent_delay=float(os.environ.get("CONQUEST_AGENT_DELAY", "0.4")),
                      limits=Limits.from_env(), **options)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, workers: int = 1,
          app_options: dict[str, Any] | None = None) -> None:
    """Serve the web app until interrupted (``conquest serve``). ``db``: a database URL or a SQLite file
    path; default ``CONQUEST_DB`` or SQLite in the user data directory. ``workers`` > 1 runs that many
    server processes on one port, sharing the database (no game state lives only in one process).
    ``app_options``: more settings of ``create_app`` (seat kinds and thinking limits)."""
    import json
    import os
    app_options = dict(app_options or {})

    import uvicorn

    from conquest.web.storage import Store, normalise_url
    _server_process()
    try:
        limits = Limits.from_env()
    except ValueError as e:
        raise SystemExit(f"conquest serve: {e}") from None
    url = normalise_url(db)
    shown = host if ":" not in host else f"[{host}]"
    safe_url = re.sub(r"//[^@/]*@", "//***@", url)
    print(f"Conquest is served at http://{shown}:{port}/  (games in {safe_url}; Ctrl+C stops)", flush=True)
    if workers > 1:
        Store(url).close()  # create or upgrade the tables once, before the workers start
        os.environ["CONQUEST_DB"] = url
        # each worker process reads the limits from the environment (the caps are per process)
        os.environ["CONQUEST_APP_OPTIONS"] = json.dumps(app_options)
        uvicorn.run("conquest.web.server:app_from_env", factory=True, host=host, port=port, workers=workers,
                    log_level="warning", **{**UVICORN_LIMITS, "http": "conquest.web.limits:GuardedH11Protocol"})
    else:
        uvicorn.run(create_app(url, agent_delay=0.4, limits=limits, **app_options), host=host, port=port,
                    log_level="warning", **uvicorn_options(limits))


def main(argv: list[str] | None = None) -> None:
    """``python -m conquest.web.server [--host H] [--port P] [--db URL]`` (the same as ``conquest serve``)."""
    import argparse
    p = argparse.ArgumentParser(prog="python -m conquest.web.server", description=main.__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="database URL or SQLite file (default: $CONQUEST_DB or the "
                                              "user data directory)")
    p.add_argument("--workers", type=int, default=1, help="server processes sharing the database")
    a = p.parse_args(argv)
    serve(a.host, a.port, a.db, a.workers)


if __name__ == "__main__":
    main()
