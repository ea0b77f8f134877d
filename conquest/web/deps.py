"""What the routers share: the app's services (kept in ``app.state.services``) and the dependencies that
look up a game and the seat (or spectator) a token belongs to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from conquest.web.games import Actor, Games, Live
from conquest.web.live import Advancer, Hub
from conquest.web.storage import Store

TOKEN_HEADER = "X-Conquest-Token"


@dataclass
class Services:
    """One app's database, games in play, agents' player and live-update hub."""
    store: Store
    games: Games
    advancer: Advancer
    hub: Hub


def services(conn: HTTPConnection) -> Services:
    s: Services = conn.app.state.services
    return s


Svc = Annotated[Services, Depends(services)]


async def seat_token(x_conquest_token: Annotated[str | None, Header()] = None,
                     authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The token of the request: ``X-Conquest-Token``, else ``Authorization: Bearer``."""
    if x_conquest_token:
        return x_conquest_token
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


Token = Annotated[str | None, Depends(seat_token)]


def game(gid: str, svc: Svc) -> Live:
    """The game of the path (404 when there is none), its cache checked against the database."""
    return svc.games.load(gid)


Game = Annotated[Live, Depends(game)]


async def actor(live: Game, token: Token, svc: Svc) -> Actor:
    """Who holds the token in this game (401 without one, 403 with another game's)."""
    return svc.games.actor(live, token)


Who = Annotated[Actor, Depends(actor)]
