"""The web app: a FastAPI JSON API, a WebSocket for live updates, and the page (served from ``static/``).

``serve(host, port, db)`` is what ``conquest serve`` calls. ``create_app`` builds the app for tests.
The API speaks only the game contract, so every registered ruleset is playable, including later ones.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Union

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException

from conquest.core.game import CHANCE, Ruleset
from conquest.web.board import board_for, places, region_ids
from conquest.web.games import Actor, Games, Live, WebError
from conquest.web.storage import Store

log = logging.getLogger("conquest.web")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
MAX_RECORD = 4 * 1024 * 1024  # a record file (POST /api/records)
MAX_LEGAL = 3000
TOKEN_HEADER = "X-Conquest-Token"


# ---- request bodies -------------------------------------------------------------------------------

OptionValue = Union[StrictBool, StrictInt, StrictFloat, StrictStr]


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field("human", max_length=32)
    name: str | None = Field(None, max_length=40)


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=64)
    players: int | None = Field(None, ge=1, le=16)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=64)
    seats: list[SeatIn] = Field(default_factory=list, max_length=16)
    seed: int | None = Field(None, ge=0, le=2 ** 62)


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=500)
    step: int | None = Field(None, ge=0)


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: int = Field(1, ge=1, le=50)
    step: int | None = Field(None, ge=0)


class GameRef(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(max_length=32)
    token: str = Field(max_length=128)


class MyGames(BaseModel):
    model_config = ConfigDict(extra="forbid")
    games: list[GameRef] = Field(max_length=200)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_name(name: str | None, default: str) -> str:
    n = _CONTROL.sub("", name or "").strip()
    return n[:40] or default


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
        from conquest.agents.base import decide, get_agent
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


# ---- the app ----------------------------------------------------------------------------------------

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                 b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
]


class BodyLimit:
    """Refuse request bodies over MAX_BODY bytes (declared or streamed) with 413; add the security headers
    (a plain ASGI middleware: cheaper than Starlette's BaseHTTPMiddleware)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_RECORD if scope.get("path") == "/api/records" else MAX_BODY
        for k, v in scope.get("headers", []):
            if k == b"content-length":
                try:
                    too_big = int(v) > limit
                except ValueError:
                    too_big = True
                if too_big:
                    await JSONResponse({"error": f"request body too large ({limit} bytes at most)"},
                                       status_code=413)(scope, receive, send)
                    return
        api = scope.get("path", "").startswith("/api/")

        async def send_with_headers(msg: Any) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *SECURITY_HEADERS,
                                  *([(b"cache-control", b"no-store")] if api else [])]
            await send(msg)

        seen = 0

        async def limited() -> Any:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise WebError(413, f"request body too large ({limit} bytes at most)")
            return msg

        await self.app(scope, limited, send_with_headers)


class FastJSON(Response):
    """JSON rendered by the standard library in one pass (the answers are plain dicts already)."""
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode()


_available: dict[str, Ruleset] | None = None


def available_rulesets() -> dict[str, Ruleset]:
    """The registry's rulesets; a package that fails to import is left out by the registry (and logged
    here) rather than the whole server failing."""
    global _available
    if _available is not None:
        return _available
    from conquest.core.registry import broken, rulesets as registry
    _available = registry()
    for name, problem in broken.items():
        log.error("ruleset package %s cannot be loaded: %s", name, problem.splitlines()[0])
    return _available


def _one_line(exc: RequestValidationError) -> str:
    errs = exc.errors()
    if not errs:
        return "invalid request"
    e = errs[0]
    loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
    msg = str(e.get("msg", "invalid")).splitlines()[0]
    more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
    return f"{loc}: {msg}{more}"


def create_app(db: str | None = None, rulesets: Callable[[], dict[str, Ruleset]] | None = None,
               think_limit: float = 5.0, agent_delay: float = 0.0, sweep_seconds: float = 10.0,
               request_threads: int = 8) -> FastAPI:
    """The app. ``rulesets`` defaults to the registry (every package under conquest.rulesets)."""
    if rulesets is None:
        rulesets = available_rulesets
    store = Store(db)
    games = Games(store, rulesets)
    hub = Hub()
    advancer = Advancer(games, think_limit, agent_delay, hub.publish)
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
                except Exception:  # noqa: BLE001
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
    app.state.games = games
    app.state.store = store
    app.state.advancer = advancer

    @app.exception_handler(WebError)
    async def _web_error(_r: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"error": exc.reason}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _one_line(exc)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_r: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(_r: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse({"error": "internal error in the server (a bug: please report it)"},
                            status_code=500)

    app.add_middleware(BodyLimit)

    # ---- helpers ---------------------------------------------------------------------------------
    def describe(live: Live, action: Any) -> str:
        try:
            return str(live.ruleset.describe_action(live.state, action))
        except Exception:  # noqa: BLE001 - a menu label must not break the page
            return live.ruleset.format_action(action)

    def legal_for(live: Live, who: Actor, board: dict[str, Any] | None) -> dict[str, Any]:
        state = live.state
        if who.seat is None or state.to_move != who.seat:
            return {"legal": [], "legal_truncated": False}
        ids = region_ids(board)
        fmt = live.ruleset.format_action
        acts = list(state.legal_actions())
        out = [{"text": fmt(a), "description": describe(live, a), "places": places(a, ids)}
               for a in acts[:MAX_LEGAL]]
        return {"legal": out, "legal_truncated": len(acts) > MAX_LEGAL}

    def text_board(live: Live, state: Any, seat: int | None) -> str | None:
        rs = live.ruleset
        if type(rs).render_text is Ruleset.render_text:
            return None
        try:
            from rich.text import Text
            return Text.from_markup(rs.render_text(state, seat)).plain
        except Exception:  # noqa: BLE001
            try:
                return str(rs.render_text(state, seat))
            except Exception:  # noqa: BLE001
                return None

    def draw(live: Live, state: Any, seat: int | None) -> tuple[dict[str, Any], dict[str, Any] | None,
                                                                str | None]:
        view = state.view(seat)
        try:
            board = board_for(live.ruleset, state, view, seat)
        except Exception:  # noqa: BLE001
            log.exception("board_json of %s failed", live.ruleset.id)
            board = None
        return view, board, (text_board(live, state, seat) if board is None else None)

    def payload(live: Live, who: Actor) -> dict[str, Any]:
        view, board, text = draw(live, live.state, who.seat)
        log_entries = games.log_for(live, who.seat)
        last_chance: list[str] = []  # the dice and draws since this seat last acted (those it may see)
        for e in reversed(log_entries):
            if e["seat"] is not None and e["seat"] == who.seat or len(last_chance) >= 8:
                break
            if e["chance"] and e["text"] is not None:
                last_chance.insert(0, e["text"])
        return {"game": games.summary(live),
                "you": {"seat": who.seat, "name": who.name, "role": "spectator" if who.seat is None else "seat"},
                "view": view, "board": board, "text_board": text, "log": log_entries,
                "last_chance": last_chance,
                "thinking": advancer.thinking.get(live.row.id),
                "undo": games.undoable(live, who.seat),
                **legal_for(live, who, board)}

    def token_of(x_conquest_token: str | None, authorization: str | None) -> str | None:
        if x_conquest_token:
            return x_conquest_token
        if authorization and authorization.lower().startswith("bearer "):
            return authorization[7:].strip()
        return None

    # ---- API -------------------------------------------------------------------------------------
    @app.get("/api/rulesets")
    def list_rulesets() -> dict[str, Any]:
        from conquest.agents.base import AGENTS, get_agent
        get_agent("random")  # registers the built-in agents
        out = []
        for rid, rs in sorted(games.rulesets().items()):
            info = rs.info()
            info["default_players"] = rs.default_players()
            names = {}
            for n in range(rs.min_players, rs.max_players + 1):
                try:
                    names[str(n)] = rs.seat_names(n, rs.options().resolve({}))
                except Exception:  # noqa: BLE001
                    names[str(n)] = [f"Player {i + 1}" for i in range(n)]
            info["seat_names"] = names
            out.append(info)
        from conquest.agents.base import LEVELS
        return {"rulesets": out, "seat_kinds": ["human", *LEVELS, *sorted(AGENTS)],
                "levels": {k: {"spec": spec, "help": text} for k, (spec, text) in LEVELS.items()}}

    @app.post("/api/games", status_code=201)
    def create_game(body: CreateGame) -> dict[str, Any]:
        from conquest.agents.base import get_agent
        from conquest.core.errors import ConquestError
        rs = games.ruleset(body.ruleset)
        n = body.players if body.players is not None else (len(body.seats) or rs.default_players())
        try:
            defaults = rs.seat_names(n, rs.options().resolve(body.options)) \
                if rs.min_players <= n <= rs.max_players else []
        except Exception:  # noqa: BLE001 - bad options are reported by new_game below
            defaults = []
        seats: list[tuple[str, str]] = []
        for i, s in enumerate(body.seats):
            if s.kind != "human":
                try:
                    agent = get_agent(s.kind)  # an agent spec or a level (easy, normal, hard)
                except ConquestError as e:
                    raise WebError(422, f"seats.{i}: seat kind {s.kind!r}: {e}") from None
                if getattr(agent, "time", 0) > advancer.think_limit:
                    raise WebError(422, f"seats.{i}: {s.kind} thinks longer than this server allows "
                                        f"({advancer.think_limit:g} s per decision)")
            default = defaults[i] if i < len(defaults) else f"Player {i + 1}"
            seats.append((s.kind, clean_name(s.name, default)))
        row = games.create(rs.id, n, body.options, seats, body.seed)
        live = games.load(row.id)
        advancer.schedule(row.id)
        games.resolve_chance(row.id)
        return {"game": games.summary(games.load(row.id)),
                "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "token": s.token,
                           "link": f"/game/{row.id}#t={s.token}" if s.token else None} for s in live.row.seats],
                "spectator": {"token": row.spectator_token, "link": f"/game/{row.id}#t={row.spectator_token}"}}

    @app.get("/api/games/{gid}")
    def get_game(gid: str, x_conquest_token: str | None = Header(None),
                 authorization: str | None = Header(None)) -> FastJSON:
        live = games.load(gid)
        who = games.actor(live, token_of(x_conquest_token, authorization))
        return FastJSON(payload(live, who))

    @app.get("/api/games/{gid}/legal")
    def get_legal(gid: str, x_conquest_token: str | None = Header(None),
                  authorization: str | None = Header(None)) -> dict[str, Any]:
        live = games.load(gid)
        who = games.actor(live, token_of(x_conquest_token, authorization))
        _view, board, _t = draw(live, live.state, who.seat)
        return {"step": live.next_step, "to_move": games.summary(live)["to_move"], **legal_for(live, who, board)}

    @app.post("/api/games/{gid}/actions")
    def post_action(gid: str, body: ActionIn, x_conquest_token: str | None = Header(None),
                    authorization: str | None = Header(None)) -> FastJSON:
        token = token_of(x_conquest_token, authorization)
        live = games.play(gid, token, body.action, body.step)
        return FastJSON(payload(live, games.actor(live, token)))

    @app.post("/api/games/{gid}/undo")
    def post_undo(gid: str, body: UndoIn, x_conquest_token: str | None = Header(None),
                  authorization: str | None = Header(None)) -> FastJSON:
        token = token_of(x_conquest_token, authorization)
        live = games.undo(gid, token, body.count, body.step)
        return FastJSON(payload(live, games.actor(live, token)))

    @app.get("/api/games/{gid}/log")
    def get_log(gid: str, x_conquest_token: str | None = Header(None),
                authorization: str | None = Header(None)) -> dict[str, Any]:
        live = games.load(gid)
        who = games.actor(live, token_of(x_conquest_token, authorization))
        return {"step": live.next_step, "log": games.log_for(live, who.seat)}

    @app.get("/api/games/{gid}/replay")
    def get_replay(gid: str, step: int = Query(..., ge=0, le=10_000_000),
                   x_conquest_token: str | None = Header(None),
                   authorization: str | None = Header(None)) -> dict[str, Any]:
        live = games.load(gid)
        who = games.actor(live, token_of(x_conquest_token, authorization))
        total = live.next_step
        if step > total:
            raise WebError(422, f"step {step} is past the end of the game ({total} steps so far)")
        state = None
        for state, _a in games.states(live, step):
            pass
        assert state is not None
        view, board, text = draw(live, state, who.seat)
        tm = state.to_move
        res = state.result()
        return {"step": step, "total": total, "view": view, "board": board, "text_board": text,
                "to_move": tm if tm is None or tm >= 0 else "chance", "to_move_name": games.seat_name(live, tm),
                "result": list(res) if res is not None else None,
                "log": games.log_for(live, who.seat, upto=step), "game": games.summary(live),
                "you": {"seat": who.seat, "name": who.name}}

    @app.get("/api/games/{gid}/record")
    def get_record(gid: str, x_conquest_token: str | None = Header(None),
                   authorization: str | None = Header(None)) -> Response:
        live = games.load(gid)
        who = games.actor(live, token_of(x_conquest_token, authorization))
        doc = games.record(live, who)
        return Response(json.dumps(doc, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{live.ruleset.id}-{gid}.json"'})

    @app.post("/api/records", status_code=201)
    def import_record(body: dict[str, Any]) -> dict[str, Any]:
        """Watch and replay a game from its record file (the ``conquest replay`` format)."""
        row = games.import_record(body.get("record", body))
        return {"game": games.summary(games.load(row.id)),
                "spectator": {"token": row.spectator_token, "link": f"/game/{row.id}#t={row.spectator_token}",
                              "replay": f"/game/{row.id}/replay#t={row.spectator_token}"}}

    @app.post("/api/my-games")
    def my_games(body: MyGames) -> dict[str, Any]:
        out: list[dict[str, Any]] = []
        for ref in body.games:
            try:
                live = games.load(ref.id)
                who = games.actor(live, ref.token)
            except WebError as e:
                out.append({"id": ref.id, "error": e.reason})
                continue
            out.append({"id": ref.id, "you": {"seat": who.seat, "name": who.name}, **games.summary(live)})
        return {"games": out}

    @app.websocket("/api/games/{gid}/ws")
    async def ws(websocket: WebSocket, gid: str) -> None:
        await websocket.accept()
        try:
            first = await asyncio.wait_for(websocket.receive_text(), timeout=10)
            token = json.loads(first).get("token") if first.startswith("{") else None
            live = await asyncio.to_thread(games.load, gid)
            games.actor(live, token)
        except WebError as e:
            await websocket.send_json({"type": "error", "error": e.reason})
            await websocket.close(code=4403)
            return
        except (asyncio.TimeoutError, ValueError, AttributeError, WebSocketDisconnect):
            try:
                await websocket.send_json({"type": "error", "error": "send {\"token\": ...} first"})
                await websocket.close(code=4400)
            except Exception:  # noqa: BLE001
                pass
            return
        q: asyncio.Queue[int | None] = asyncio.Queue()
        hub.subs.setdefault(gid, set()).add(q)
        last: tuple[int | None, int | None] = (live.revision, advancer.thinking.get(gid))
        await websocket.send_json({"type": "update", "revision": live.revision, "thinking": last[1]})

        async def reader() -> None:
            while True:
                await websocket.receive_text()  # pings; a disconnect raises

        rtask = asyncio.create_task(reader())
        try:
            while not rtask.done():
                getter = asyncio.ensure_future(q.get())
                done, _pending = await asyncio.wait({getter, rtask}, timeout=2.0,
                                                    return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                if rtask in done:  # the client went away
                    break
                rev = getter.result() if getter in done else None
                while rev is not None and not q.empty():  # only the newest matters
                    rev = q.get_nowait()
                if rev is None:  # a periodic look, for writes made by other server processes
                    rev = await asyncio.to_thread(store.get_revision, gid)
                if rev is not None and last[0] is not None and rev < last[0]:
                    rev = last[0]
                now = (rev, advancer.thinking.get(gid))
                if now != last and not rtask.done():
                    last = now
                    await websocket.send_json({"type": "update", "revision": rev, "thinking": now[1]})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            rtask.cancel()
            hub.subs.get(gid, set()).discard(q)

    # ---- the page --------------------------------------------------------------------------------
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    def page_root() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    @app.get("/game/{gid}", include_in_schema=False)
    def page_game(gid: str) -> FileResponse:
        return FileResponse(index, media_type="text/html")

    @app.get("/game/{gid}/replay", include_in_schema=False)
    def page_replay(gid: str) -> FileResponse:
        return FileResponse(index, media_type="text/html")

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> FileResponse:
        if not re.fullmatch(r"[a-z0-9_-]+\.(js|css|svg)", name) or not (STATIC / name).is_file():
            raise WebError(404, "no such file")
        kind = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}[name.rsplit(".", 1)[1]]
        return FileResponse(STATIC / name, media_type=kind)

    @app.get("/api/health", include_in_schema=False)
    def health() -> dict[str, Any]:
        return {"ok": True, "schema": store.schema_version(), "rulesets": sorted(games.rulesets())}

    return app


def app_from_env() -> FastAPI:
    """The app for ``uvicorn --factory`` with several worker processes (database from ``CONQUEST_DB``)."""
    import os
    return create_app(os.environ.get("CONQUEST_DB"), agent_delay=float(os.environ.get("CONQUEST_AGENT_DELAY", "0.4")))


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, workers: int = 1) -> None:
    """Serve the web app until interrupted (``conquest serve``). ``db``: a database URL or a SQLite file
    path; default ``CONQUEST_DB`` or SQLite in the user data directory. ``workers`` > 1 runs that many
    server processes on one port, sharing the database (no game state lives only in one process)."""
    import os

    import uvicorn
    from conquest.web.storage import Store, normalise_url
    url = normalise_url(db)
    shown = host if ":" not in host else f"[{host}]"
    safe_url = re.sub(r"//[^@/]*@", "//***@", url)
    print(f"Conquest is served at http://{shown}:{port}/  (games in {safe_url}; Ctrl+C stops)", flush=True)
    if workers > 1:
        Store(url).close()  # create or upgrade the tables once, before the workers start
        os.environ["CONQUEST_DB"] = url
        uvicorn.run("conquest.web.server:app_from_env", factory=True, host=host, port=port, workers=workers,
                    log_level="warning")
    else:
        uvicorn.run(create_app(url, agent_delay=0.4), host=host, port=port, log_level="warning")


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
