"""The web app: a FastAPI JSON API, a WebSocket for live updates, and the page (served from ``static/``).

``serve(host, port, db)`` is what ``conquest serve`` calls. ``create_app`` builds the app for tests: it
wires the services (database, games in play, agents, live updates) into ``app.state.services`` and mounts
the routers of ``conquest.web.routes``. The API speaks only the game contract, so every registered ruleset
is playable, including later ones.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

import conquest.web.routes.accounts as account_routes
import conquest.web.routes.lobby as lobby_routes
from conquest.core.game import Ruleset
from conquest.web.accounts import Accounts
from conquest.web.deps import Services
from conquest.web.games import MAX_IMPORT_SECONDS, Games
from conquest.web.limits import CreationLimit, Limits, guarded_protocol
from conquest.web.live import THINKING_PER_CLIENT, Advancer, Hub
from conquest.web.lobby import Lobby
from conquest.web.middleware import BODY_TIMEOUT, BodyLimit, install_error_handlers
from conquest.web.routes import actions, games as game_routes, meta, odds, pages, records, socket
from conquest.web.seats import DECISION_LIMIT, TURN_LIMIT, SeatKinds
from conquest.web.storage import Store

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
               thinking_per_client: int = THINKING_PER_CLIENT, limits: Limits | None = None) -> FastAPI:
    """The app. ``rulesets`` defaults to the registry (every package under conquest.rulesets).
    ``body_timeout``: seconds a request's body may take to arrive (408 after); ``import_seconds``: the
    longest check of an imported record. Computer seats (``conquest.web.seats``): the levels, the named
    ``agents`` the operator enables (default ``random`` and ``greedy``) and the policies installed in the folder
    ``policies`` (none by default), each within ``think_limit`` seconds per decision and ``turn_limit`` per whole
    turn; the games of one client think ``thinking_per_client`` at a time. ``limits``: games per client and in
    memory (default ``Limits()``; its connection limits are uvicorn's part: ``uvicorn_options``)."""
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

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
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
        try:
            yield
        finally:
            task.cancel()
            advancer.stop()
            hub.loop = None
            store.close()

    app = FastAPI(title="Conquest", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.services = Services(store=store, games=games, advancer=advancer, hub=hub,
                                  creations=CreationLimit(limits.games_per_client, limits.games_window))
    app.state.games = games
    app.state.store = store
    app.state.accounts = Accounts(store)  # accounts, sessions and the open lobby (conquest.web.accounts, lobby)
    app.state.lobby = Lobby(store, games, app.state.accounts, advancer)
    games.listeners.append(app.state.lobby.ratings.on_write)
    install_error_handlers(app)
    app.add_middleware(BodyLimit, body_timeout=body_timeout)
    for module in (meta, game_routes, actions, records, odds, socket, pages):
        app.include_router(module.router)
    app.include_router(account_routes.router)
    app.include_router(lobby_routes.router)
    return app


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
