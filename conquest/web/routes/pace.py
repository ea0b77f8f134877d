"""A seat's turn notifications: the e-mail address its player is told at when their turn begins."""

from __future__ import annotations

from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Depends
from starlette.requests import HTTPConnection

from conquest.web.bodies import NotifyIn, json_body
from conquest.web.deps import Svc, Token
from conquest.web.games import Actor, WebError
from conquest.web.notify import email_problem, seat_notify_email, set_seat_email
from conquest.web.pace import Pace

router = APIRouter(prefix="/api/games")


def pace_of(conn: HTTPConnection) -> Pace:
    p: Pace = conn.app.state.pace
    return p


PaceDep = Annotated[Pace, Depends(pace_of)]


def _seat(svc: Svc, gid: str, token: str | None) -> Actor:
    who = svc.games.authorize(gid, token)
    if who.seat is None:
        raise WebError(403, "a spectator has no turn to be told of: use a seat's link")
    return who


def _answer(pace: Pace, seat: int, email: str | None) -> dict[str, Any]:
    return {"seat": seat, "email": email, "mail": pace.mailer is not None and pace.public_url is not None}


@router.get("/{gid}/notify")
async def get_notify(gid: str, token: Token, svc: Svc, pace: PaceDep) -> dict[str, Any]:
    """The address this seat is told at (only its own), and whether this server sends mail at all (``mail``)."""
    who = await anyio.to_thread.run_sync(_seat, svc, gid, token)
    row = await anyio.to_thread.run_sync(svc.store.get_game, gid)
    assert who.seat is not None and row is not None
    email = await anyio.to_thread.run_sync(seat_notify_email(svc.store), row, who.seat)
    return _answer(pace, who.seat, email)


@router.put("/{gid}/notify")
async def put_notify(gid: str, body: Annotated[NotifyIn, Depends(json_body(NotifyIn))], token: Token, svc: Svc,
                     pace: PaceDep) -> dict[str, Any]:
    """Set (or, with ``{"email": null}``, remove) the address the seat of the token is told at."""
    who = await anyio.to_thread.run_sync(_seat, svc, gid, token)
    email = body.email.strip() if body.email is not None else None
    if email == "":
        email = None
    if email is not None:
        bad = email_problem(email)
        if bad:
            raise WebError(422, f"email: {bad}")
    assert who.seat is not None
    await anyio.to_thread.run_sync(set_seat_email, svc.store, gid, who.seat, email)
    return _answer(pace, who.seat, email)
