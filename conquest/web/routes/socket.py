"""Live updates: a WebSocket per open page, told the game's revision after every change (no game content)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from conquest.web.bodies import parse_json
from conquest.web.deps import Svc
from conquest.web.games import WebError

router = APIRouter(prefix="/api/games")


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Say why in one line, then close with ``code`` (the client may be gone already)."""
    try:
        await websocket.send_json({"type": "error", "error": reason})
        await websocket.close(code=code, reason=reason[:120])
    except Exception:  # noqa: BLE001 - a client that left: nothing to tell
        pass


async def _first_token(websocket: WebSocket) -> str | None:
    """The token of the first message (the text ``{"token": "..."}``), or None when the client left or the
    socket was refused and closed (see ``ws``)."""
    try:
        msg = await asyncio.wait_for(websocket.receive(), timeout=10)
    except TimeoutError:
        await _refuse(websocket, 4400, 'send {"token": ...} first')
        return None
    if msg["type"] == "websocket.disconnect":
        return None
    text = msg.get("text")
    if text is None:
        await _refuse(websocket, 1003, 'binary message: send the text {"token": ...} first')
        return None
    try:
        doc = parse_json(text, "the first message")
    except WebError as e:
        await _refuse(websocket, 1008, e.reason)
        return None
    token = doc.get("token") if isinstance(doc, dict) else None
    if not isinstance(token, str):
        await _refuse(websocket, 1008, 'send {"token": ...} first')
        return None
    return token


async def _reader(websocket: WebSocket) -> None:
    """Until the client leaves: text is ignored, a binary frame closes the socket (1003)."""
    try:
        while True:
            msg = await websocket.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if msg.get("text") is None:
                await _refuse(websocket, 1003, "binary message: this socket only sends updates")
                return
    except (WebSocketDisconnect, RuntimeError):
        return


@router.websocket("/{gid}/ws")
async def ws(websocket: WebSocket, gid: str, svc: Svc) -> None:
    """The first message must be the text ``{"token": "..."}``; a binary frame is closed with 1003, text that
    is not that JSON object with 1008, a message over the server's ``ws_max_size`` with 1009 (by uvicorn), a
    token of another game (or no game) with 4403, silence for 10 s with 4400. The token is checked against
    the game's row before anything else: the socket never replays a game."""
    games, hub, advancer = svc.games, svc.hub, svc.advancer
    await websocket.accept()
    token = await _first_token(websocket)
    if token is None:
        return
    try:
        await asyncio.to_thread(games.authorize, gid, token)
        revision = await asyncio.to_thread(svc.store.get_revision, gid)
    except WebError as e:
        await _refuse(websocket, 4403, e.reason)
        return
    q: asyncio.Queue[int | None] = asyncio.Queue()
    hub.subs.setdefault(gid, set()).add(q)
    last: tuple[int | None, int | None] = (revision, advancer.thinking.get(gid))
    await websocket.send_json({"type": "update", "revision": revision, "thinking": last[1]})
    rtask = asyncio.create_task(_reader(websocket))
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
        subs = hub.subs.get(gid)
        if subs is not None:
            subs.discard(q)
            if not subs:
                hub.subs.pop(gid, None)
