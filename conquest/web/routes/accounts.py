"""Accounts: register, log in and out, who is logged in, the account's games, claiming a seat link.

A session is a cookie (``conquest_session``: HttpOnly, SameSite=Lax, Secure when the request came over https);
every write it authenticates needs the session's CSRF token in ``X-CSRF-Token`` (``csrf_session``). The seat
and spectator tokens (``X-Conquest-Token``) are headers, not cookies, and need no CSRF token.
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from conquest.web.accounts import CSRF_HEADER, SESSION_COOKIE, SESSION_DAYS, Account, Accounts, Session
from conquest.web.bodies import STRICT, json_body
from conquest.web.deps import Svc, client_of
from conquest.web.games import WebError

router = APIRouter(prefix="/api/account")


def accounts_of(conn: HTTPConnection) -> Accounts:
    a: Accounts = conn.app.state.accounts
    return a


Accts = Annotated[Accounts, Depends(accounts_of)]


async def session_of(conn: HTTPConnection, accounts: Accts) -> Session | None:
    """The request's session, None without a (live) one; 401 for a forged cookie."""
    cookie = conn.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    return await anyio.to_thread.run_sync(accounts.session, cookie)


MaybeSession = Annotated[Session | None, Depends(session_of)]


async def logged_in(session: MaybeSession) -> Session:
    if session is None:
        raise WebError(401, "log in first (no session, or it has ended)")
    return session


async def csrf_session(request: Request, session: Annotated[Session, Depends(logged_in)]) -> Session:
    """A logged-in session whose request carries its CSRF token (every write a cookie authenticates)."""
    import hmac
    sent = request.headers.get(CSRF_HEADER)
    if not sent:
        raise WebError(403, f"missing CSRF token: send the session's token in the {CSRF_HEADER} header")
    if not sent.isascii() or not hmac.compare_digest(sent.encode(), session.csrf.encode()):
        raise WebError(403, "wrong CSRF token for this session (reload the page)")
    return session


async def same_site_json(request: Request) -> None:
    """Login and registration are not authenticated by a cookie, so they carry no CSRF token: they are guarded
    against another site's form (which would log a visitor into the attacker's account) by asking for a JSON
    body (a form cannot send ``application/json`` to another site without CORS, which this server never allows)
    and, when the browser names the page's origin, that origin being this server's (its ``Host``, or the
    ``X-Forwarded-Host`` of a reverse proxy that rewrites ``Host``)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WebError(415, "send the body as JSON (Content-Type: application/json)")
    origin = request.headers.get("origin")
    if origin and origin != "null":
        from urllib.parse import urlsplit
        hosts = {(request.headers.get(h) or "").split(",")[0].strip().lower() for h in ("host", "x-forwarded-host")}
        if urlsplit(origin).netloc.lower() not in hosts - {""}:
            raise WebError(403, "a request from another site's page is refused")


SameSiteJSON = Depends(same_site_json)
LoggedIn = Annotated[Session, Depends(logged_in)]
Writer = Annotated[Session, Depends(csrf_session)]


class RegisterIn(BaseModel):
    model_config = STRICT
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)
    email: str | None = Field(None, max_length=320)


class LoginIn(BaseModel):
    model_config = STRICT
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


class EmailIn(BaseModel):
    model_config = STRICT
    email: str | None = Field(None, max_length=320)


class ClaimIn(BaseModel):
    model_config = STRICT
    game: str = Field(max_length=32)
    token: str = Field(max_length=128)


def secure_cookies(request: Request) -> bool:
    """Secure cookies when the request came over https (as uvicorn saw it: behind a proxy on this host, from its
    X-Forwarded-Proto), or always with CONQUEST_SECURE_COOKIES=1."""
    import os
    return request.url.scheme == "https" or os.environ.get("CONQUEST_SECURE_COOKIES") == "1"


def _set_cookie(request: Request, response: Response, value: str) -> None:
    response.set_cookie(SESSION_COOKIE, value, max_age=SESSION_DAYS * 86400, path="/", httponly=True,
                        samesite="lax", secure=secure_cookies(request))


def _me(account: Account, csrf: str) -> dict[str, Any]:
    return {"account": {"name": account.name, "email": account.email}, "csrf": csrf}


@router.post("/register", status_code=201, dependencies=[SameSiteJSON])
def register(body: Annotated[RegisterIn, Depends(json_body(RegisterIn))], request: Request, response: Response,
             accounts: Accts) -> dict[str, Any]:
    account = accounts.register(body.name, body.password, body.email, client_of(request))
    cookie, session = accounts.open_session(account)
    _set_cookie(request, response, cookie)
    return _me(account, session.csrf)


@router.post("/login", dependencies=[SameSiteJSON])
def login(body: Annotated[LoginIn, Depends(json_body(LoginIn))], request: Request, response: Response,
          accounts: Accts) -> dict[str, Any]:
    account = accounts.login(body.name, body.password, client_of(request))
    cookie, session = accounts.open_session(account)
    _set_cookie(request, response, cookie)
    return _me(account, session.csrf)


@router.post("/logout")
def logout(_session: Writer, request: Request, response: Response, accounts: Accts) -> dict[str, Any]:
    accounts.close_session(request.cookies.get(SESSION_COOKIE, ""))
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure_cookies(request))
    return {"account": None}


@router.get("")
def me(session: MaybeSession) -> dict[str, Any]:
    """Who is logged in (``account`` null when nobody is) and the session's CSRF token."""
    if session is None:
        return {"account": None, "csrf": None}
    return _me(session.account, session.csrf)


@router.post("/email")
def set_email(session: Writer, body: Annotated[EmailIn, Depends(json_body(EmailIn))],
              accounts: Accts) -> dict[str, Any]:
    return _me(accounts.set_email(session.account, body.email), session.csrf)


@router.get("/games")
def my_games(session: LoggedIn, accounts: Accts, svc: Svc) -> dict[str, Any]:
    """The account's games from the server (any device): each with its seat link, from the games' rows (nothing
    is replayed)."""
    out: list[dict[str, Any]] = []
    rulesets = svc.games.rulesets()
    for claim in accounts.seats_of(session.account.id)[:200]:
        row = svc.store.get_game(claim.game_id)
        if row is None:
            continue
        seat = next((s for s in row.seats if s.seat == claim.seat), None)
        if seat is None or seat.token is None:
            continue
        rs = rulesets.get(row.ruleset)
        to_move = row.to_move
        out.append({
            "id": row.id, "title": rs.title if rs is not None else row.ruleset, "ruleset": row.ruleset,
            "seat": seat.seat, "name": seat.name, "step": row.next_step, "over": row.status == "over",
            "to_move": to_move if to_move is None or to_move >= 0 else "chance",
            "to_move_name": next((s.name for s in row.seats if s.seat == to_move), None),
            "your_turn": to_move == seat.seat,
            "link": f"/game/{row.id}#t={seat.token}", "token": seat.token,
            "updated_at": row.updated_at.isoformat() if row.updated_at else None})
    return {"games": out}


@router.post("/claim")
def claim(session: Writer, body: Annotated[ClaimIn, Depends(json_body(ClaimIn))], accounts: Accts,
          svc: Svc) -> dict[str, Any]:
    """Claim the seat a seat link (game and token) opens: the game is then listed among the account's games.
    The link keeps working for whoever holds it."""
    who = svc.games.authorize(body.game, body.token)
    if who.seat is None:
        raise WebError(422, "a spectator link holds no seat: only a seat link can be claimed")
    accounts.claim(session.account, body.game, who.seat)
    return {"game": body.game, "seat": who.seat, "name": who.name}
