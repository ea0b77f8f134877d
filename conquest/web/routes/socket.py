"""Live updates: a WebSocket per open page, told the game's revision after every change (no game content)."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from conquest.web.deps import Svc
from conquest.web.games import WebError

router = APIRouter(prefix="/api/games")


@router.websocket("/{gid}/ws")
async def ws(websocket: WebSocket, gid: str, svc: Svc) -> None:
    games, hub, advancer = svc.games, svc.hub, svc.advancer
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
                rev = await asyncio.to_thread(svc.store.get_revision, gid)
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
