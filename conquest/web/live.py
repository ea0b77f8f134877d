"""What the server plays itself: agents' turns (``Advancer``, background threads) and the live-update hub
(``Hub``) that wakes the WebSocket handlers of a game from any thread."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Callable

from conquest.core.game import CHANCE
from conquest.web.games import Games, WebError

log = logging.getLogger("conquest.web")

# ---- agents seated by the server --------------------------------------------------------------------

class Advancer:
    """Plays the server's moves (agents' turns) in background threads, one loop per game at a time.
    An agent that thinks longer than ``think_limit`` seconds plays a random legal action instead."""

    def __init__(self, games: Games, think_limit: float, delay: float,
                 notify: Callable[[str, int | None], None]) -> None:
        self.games, self.think_limit, self.delay, self.notify = games, think_limit, delay, notify
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="conquest-game")
        self.think_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="conquest-agent")
        self.lock = threading.Lock()
        self.running: set[str] = set()
        self.again: set[str] = set()
        self.thinking: dict[str, int] = {}
        self.stopped = threading.Event()

    def schedule(self, gid: str) -> None:
        with self.lock:
            if self.stopped.is_set():
                return
            if gid in self.running:
                self.again.add(gid)
                return
            self.running.add(gid)
        try:
            self.pool.submit(self._run, gid)
        except RuntimeError:  # shutting down
            with self.lock:
                self.running.discard(gid)

    def _run(self, gid: str) -> None:
        try:
            while not self.stopped.is_set():
                if self._step(gid):
                    continue
                with self.lock:
                    if gid in self.again:
                        self.again.discard(gid)
                        continue
                    self.running.discard(gid)
                    return
        except Exception:  # noqa: BLE001 - a broken game must not stop the others
            log.exception("advancing game %s failed", gid)
        with self.lock:
            self.running.discard(gid)
            self.again.discard(gid)

    def _step(self, gid: str) -> bool:
        from conquest.agents import decide, get_agent
        try:
            live = self.games.load(gid)
            if live.state.to_move == CHANCE:  # left by a process that stopped before drawing it
                self.games.resolve_chance(gid)
                live = self.games.load(gid)
        except WebError:
            return False
        state = live.state
        seat = state.to_move
        if seat is None or seat == CHANCE:
            return False
        row = self.games.seat_row(live, seat)
        if row is not None and row.kind == "human":
            # a person's seat whose only answer is pass, among computer seats (after an undo): answered for it
            lone = self.games.lone_pass(live)
            if lone is None:
                return False
            self.games.commit_agent(gid, live.revision, lone)
            return True
        if row is None or row.kind in ("human", "record"):
            return False
        try:
            agent = get_agent(row.kind)
        except Exception:  # noqa: BLE001 - an agent this process does not know: play for it at random
            log.warning("game %s: unknown agent '%s'; a random agent plays its turns", gid, row.kind)
            agent = get_agent("random")
        rng = self.games.agent_rng(live)
        revision = live.revision
        self.thinking[gid] = seat
        self.notify(gid, None)
        try:
            # a pause a person can follow: the whole delay before an agent's first action in a row,
            # a quarter of it before the next ones (a long turn of small decisions stays watchable)
            last = live.log[-1] if live.log else None
            pause = self.delay if last is None or last.seat != seat else self.delay / 4
            if pause and self.stopped.wait(pause):
                return False
            fut = self.think_pool.submit(decide, agent, state, rng)  # the seat's determinization
            try:
                action = fut.result(timeout=self.think_limit)
            except FutureTimeout:
                log.warning("game %s: %s went over its thinking limit; playing a random action", gid, row.kind)
                acts = list(state.legal_actions())
                action = acts[rng.randrange(len(acts))]
            except Exception:  # noqa: BLE001 - a failing agent must not stall the game
                log.exception("game %s: agent %s failed; playing a random action", gid, row.kind)
                acts = list(state.legal_actions())
                action = acts[rng.randrange(len(acts))]
        finally:
            self.thinking.pop(gid, None)
        self.games.commit_agent(gid, revision, action)
        return True

    def stop(self) -> None:
        self.stopped.set()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.think_pool.shutdown(wait=False, cancel_futures=True)


# ---- live updates -----------------------------------------------------------------------------------

class Hub:
    """Per-game subscribers (WebSocket handlers) woken from any thread of this process. Other processes'
    writes are seen by each handler's periodic revision check."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.subs: dict[str, set[asyncio.Queue[int | None]]] = {}

    def publish(self, gid: str, revision: int | None = None) -> None:
        loop = self.loop
        if loop is None or loop.is_closed() or gid not in self.subs:
            return
        try:
            loop.call_soon_threadsafe(self._wake, gid, revision)
        except RuntimeError:
            pass

    def _wake(self, gid: str, revision: int | None) -> None:
        for q in list(self.subs.get(gid, ())):
            q.put_nowait(revision)

