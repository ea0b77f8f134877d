"""What the server plays itself: agents' turns (``Advancer``, background threads) and the live-update hub
(``Hub``) that wakes the WebSocket handlers of a game from any thread."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

from conquest.agents.budget import TurnBudget, decide_within
from conquest.agents.random_agent import RandomAgent
from conquest.core.game import CHANCE
from conquest.web.games import Games, WebError
from conquest.web.seats import SeatKind, SeatKinds

log = logging.getLogger("conquest.web")

# ---- agents seated by the server --------------------------------------------------------------------

THINKING_PER_CLIENT = 2
"""Games of one client whose computer players may think at once (the others wait their turn)."""
MAX_OWNERS = 100_000


@dataclass
class _Turn:
    """A computer seat's turn under way: its agent (kept for the turn, so a search may reuse its tree), its budget
    and the log length after its last action (a later action by another seat ends the turn)."""
    seat: int
    kind: str
    agent: Any
    budget: TurnBudget
    after: int
    paused: float = 0.0


class Advancer:
    """Plays the server's moves (agents' turns) in background threads, one loop per game at a time.

    Every computer seat plays within a budget per decision and per whole turn (``SeatKinds``): the agent is
    handed a deadline and its search stops by it (``conquest.agents.budget``). An agent that has not answered
    ``think_limit`` x 1.5 + 0.5 seconds after it began (one that ignores deadlines) plays a random legal action
    instead. The games of one client (``owner``) think at most ``per_client`` at a time; the others wait, in
    turn, for one of them to answer."""

    def __init__(self, games: Games, think_limit: float, delay: float,
                 notify: Callable[[str, int | None], None], seats: SeatKinds | None = None,
                 per_client: int = THINKING_PER_CLIENT) -> None:
        self.games, self.think_limit, self.delay, self.notify = games, think_limit, delay, notify
        self.seats = seats if seats is not None else SeatKinds(decision_limit=think_limit)
        self.per_client = per_client
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="conquest-game")
        self.think_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="conquest-agent")
        self.lock = threading.Lock()
        self.running: set[str] = set()
        self.again: set[str] = set()
        self.thinking: dict[str, int] = {}
        self.stopped = threading.Event()
        self.owners: dict[str, str] = {}  # game -> the client that created it
        self.holders: dict[str, set[str]] = {}  # client -> its games thinking now (or handed the next turn)
        self.waiting: dict[str, deque[str]] = {}  # client -> its games waiting to think
        self.turns: dict[str, _Turn] = {}
        self.slot_of: dict[str, str] = {}  # game -> the client whose thinking slot it holds (released to that one)

    # ---- clients ---------------------------------------------------------------------------------------
    def own(self, gid: str, client: str) -> None:
        """Record the client that created ``gid`` (its computer seats count against that client)."""
        with self.lock:
            if len(self.owners) >= MAX_OWNERS:
                self.owners.pop(next(iter(self.owners)))
            self.owners[gid] = client

    def _client(self, gid: str) -> str:
        return self.owners.get(gid) or f"game:{gid}"  # a game of unknown origin (a restart) is its own client

    def busy(self, client: str) -> int:
        """How many of ``client``'s games have a computer player thinking or waiting to think."""
        with self.lock:
            mine = {g for g in self.running if self.owners.get(g) == client and g in self.thinking}
            return len(mine | self.holders.get(client, set()) | set(self.waiting.get(client, ())))

    def _acquire(self, gid: str) -> bool:
        """A thinking slot of the game's client; False (and the game queued) when they are all taken."""
        client = self._client(gid)
        with self.lock:
            if gid in self.slot_of:
                return True  # handed over by the game that answered before it
            held = self.holders.setdefault(client, set())
            queue = self.waiting.setdefault(client, deque())
            if len(held) < self.per_client and (not queue or queue[0] == gid):
                if queue:
                    queue.popleft()
                if not queue:
                    self.waiting.pop(client, None)
                held.add(gid)
                self.slot_of[gid] = client
                return True
            if gid not in queue:
                queue.append(gid)
            return False

    def _release(self, gid: str) -> None:
        """Give the slot back; the client's next waiting game gets it and is scheduled."""
        nxt = None
        with self.lock:
            # the client recorded when the slot was taken: the game's owner may have been forgotten since
            client = self.slot_of.pop(gid, None) or self._client(gid)
            held = self.holders.get(client)
            if held is None or gid not in held:
                return
            held.discard(gid)
            queue = self.waiting.get(client)
            if queue:
                nxt = queue.popleft()
                held.add(nxt)
                self.slot_of[nxt] = client
            if not queue:
                self.waiting.pop(client, None)
            if not held:
                self.holders.pop(client, None)
        if nxt is not None:
            self.schedule(nxt)

    # ---- the loop of one game ----------------------------------------------------------------------------
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
                moved = self._step(gid)
                if moved is True:
                    continue
                with self.lock:
                    if moved is None and gid not in self.slot_of:
                        # waiting for a thinking slot: the game that frees one hands it over and schedules it
                        self.running.discard(gid)
                        self.again.discard(gid)
                        return
                    if moved is None or gid in self.again:  # handed a slot meanwhile, or asked again
                        self.again.discard(gid)
                        continue
                    self.running.discard(gid)
                self._release(gid)  # a slot handed over to a game that had nothing left to think about
                return
        except Exception:  # a broken game must not stop the others
            log.exception("advancing game %s failed", gid)
        with self.lock:
            self.running.discard(gid)
            self.again.discard(gid)
        self._release(gid)

    def _turn_kind(self, kind: str) -> SeatKind:
        sk = self.seats.get(kind)
        if sk is None:
            log.warning("a seat kind '%s' is not offered by this server; a random agent plays its turns", kind)
            sk = self.seats.get("random") or SeatKind("random", "random", "", RandomAgent,
                                                      self.seats.decision_limit, self.seats.turn_limit)
        return sk

    def _turn(self, gid: str, live: Any, seat: int, kind: str) -> _Turn:
        """The turn ``seat`` is playing: the one under way if only chance acted since its last action."""
        cur = self.turns.get(gid)
        if (cur is not None and cur.seat == seat and cur.kind == kind and cur.after <= live.next_step
                and all(a.seat in (seat, CHANCE) for a in live.log[cur.after:live.next_step])):
            return cur
        sk = self._turn_kind(kind)
        cur = self.turns[gid] = _Turn(seat, kind, None, TurnBudget(sk.decision, sk.turn), live.next_step)
        return cur

    def _step(self, gid: str) -> bool | None:
        """Play one computer decision of ``gid``: True when one was played, False when there is none to play,
        None when the game waits for a thinking slot of its client."""
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
            self._idle(gid)
            if seat is None:
                with self.lock:
                    self.owners.pop(gid, None)
            return False
        row = self.games.seat_row(live, seat)
        if row is not None and row.kind == "human":
            # a person's seat whose only answer is pass, among computer seats (after an undo): answered for it
            lone = self.games.lone_pass(live)
            if lone is None:
                self._idle(gid)
                return False
            self.games.commit_agent(gid, live.revision, lone)
            return True
        if row is None or row.kind in ("human", "record"):
            self._idle(gid)
            return False
        turn = self._turn(gid, live, seat, row.kind)
        rng = self.games.agent_rng(live)
        revision, step = live.revision, live.next_step
        self.thinking[gid] = seat
        self.notify(gid, None)
        waits = False
        try:
            # a pause a person can follow: the whole delay before an agent's first action in a row, a quarter
            # of it before the next ones while the turn's pauses stay under 2.5 delays (a long turn of small
            # decisions stays watchable and ends). Pauses count against the turn's budget: what a person waits
            # for a whole computer turn, pauses included, is what the budget bounds.
            last = live.log[-1] if live.log else None
            pause = self.delay if last is None or last.seat != seat else self.delay / 4
            if turn.paused >= 2.5 * self.delay:
                pause = 0.0
            if pause and self.stopped.wait(pause):
                return False
            if pause:
                turn.paused += pause
                turn.budget.charge(pause, decision=False)
            if not self._acquire(gid):
                waits = True  # still shown as thinking
                return None
            try:
                action = self._think(gid, row.kind, turn, state, rng)
            finally:
                self._release(gid)
        finally:
            if not waits:
                self.thinking.pop(gid, None)
        if turn.agent is None:
            self.turns.pop(gid, None)
        self.games.commit_agent(gid, revision, action)
        turn.after = step + 1
        return True

    def _idle(self, gid: str) -> None:
        """Nothing for the server to play in ``gid`` now: forget its computer turn (an agent and its search tree),
        the "thinking" mark, and any thinking slot handed to it while it waited."""
        self.turns.pop(gid, None)
        self.thinking.pop(gid, None)
        self._release(gid)

    def _think(self, gid: str, kind: str, turn: _Turn, state: Any, rng: Any) -> Any:
        """The agent's decision within its turn's budget (a random legal action if it fails or never answers)."""
        if turn.agent is None:
            turn.agent = self._turn_kind(kind).make()
        fut = self.think_pool.submit(decide_within, turn.agent, state, rng, turn.budget)
        try:
            return fut.result(timeout=self.think_limit * 1.5 + 0.5)
        except FutureTimeout:
            fut.cancel()  # still queued behind other games' agents: never started
            log.warning("game %s: %s went over its thinking limit; playing a random action", gid, kind)
            turn.agent = None  # it may still be running: a fresh one for the next decision
        except Exception:  # a failing agent must not stall the game
            log.exception("game %s: agent %s failed; playing a random action", gid, kind)
        acts = list(state.legal_actions())
        return acts[rng.randrange(len(acts))]

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

