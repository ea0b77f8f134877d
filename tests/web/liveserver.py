"""A real server (uvicorn in a thread) on 127.0.0.1 and a free port, for the browser tests and benchmarks."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn

from conquest.core.game import Ruleset
from conquest.web.limits import Limits
from conquest.web.server import create_app, uvicorn_options


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``limits``: served as ``conquest serve`` serves (its uvicorn settings, connection guards and limits);
    without it, uvicorn's defaults and no cap of games per client (the browser tests make many)."""

    def __init__(self, db: str, rulesets: Callable[[], dict[str, Ruleset]] | None = None,
                 limits: Limits | None = None, **app_kwargs: Any):
        self.port = free_port()
        self.app = create_app(db, rulesets=rulesets, limits=limits or Limits(games_per_client=0), **app_kwargs)
        served = uvicorn_options(limits) if limits is not None else {}
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on",
                                **served)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
