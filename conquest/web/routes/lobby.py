"""The open lobby (public tables: list, create, join, leave, start) and the players' pages (ratings, history).

Reading needs no account; every write needs a session and its CSRF token (``routes.accounts.csrf_session``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from conquest.web.bodies import STRICT, Options, PaceIn, json_body
from conquest.web.lobby import Lobby
from conquest.web.pace import LIVE, choose
from conquest.web.routes.accounts import MaybeSession, Writer

router = APIRouter(prefix="/api")


def lobby_of(conn: HTTPConnection) -> Lobby:
    lb: Lobby = conn.app.state.lobby
    return lb


Lob = Annotated[Lobby, Depends(lobby_of)]


class TableIn(BaseModel):
    model_config = STRICT
    ruleset: str = Field(max_length=64)
    players: int | None = Field(None, ge=1, le=16)
    options: Options = Field(default_factory=dict)
    seats: list[Annotated[str, Field(max_length=32)]] = Field(default_factory=list, max_length=16)
    public: bool = True
    rated: bool = True
    pace: PaceIn | None = None


class JoinIn(BaseModel):
    model_config = STRICT
    seat: int | None = Field(None, ge=0, le=64)


class StartIn(BaseModel):
    model_config = STRICT
    level: str = Field("normal", max_length=32)


class Empty(BaseModel):
    model_config = STRICT


@router.get("/lobby")
def list_tables(lobby: Lob, session: MaybeSession,
                sort: Annotated[Literal["new", "rating"], Query()] = "new") -> dict[str, Any]:
    """The public tables open or in play: newest first, or (``sort=rating``) by the mean rating of the players
    seated, in the table's ruleset, highest first."""
    lobby.ratings.settle_pending()
    viewer = session.account if session is not None else None
    tables = [lobby.describe(t, viewer) for t in lobby.public()]
    if sort == "rating":
        tables.sort(key=lambda t: (t["rating"] is None, -(t["rating"] or 0.0)))
    return {"tables": tables, "sort": sort}


@router.post("/lobby", status_code=201)
def create_table(session: Writer, body: Annotated[TableIn, Depends(json_body(TableIn))], lobby: Lob
                 ) -> dict[str, Any]:
    p = body.pace
    pace = (choose(p.mode, p.deadline_seconds, p.at_deadline, p.level, lobby.games.ruleset(body.ruleset),
                   lobby.advancer.seats) if p is not None else LIVE)
    t = lobby.create(session.account, body.ruleset, body.players, body.options, list(body.seats), body.public,
                     body.rated, pace)
    return lobby.describe(t, session.account)


@router.get("/lobby/{tid}")
def get_table(tid: str, lobby: Lob, session: MaybeSession) -> dict[str, Any]:
    return lobby.describe(lobby.get(tid), session.account if session is not None else None)


@router.post("/lobby/{tid}/join")
def join_table(tid: str, session: Writer, body: Annotated[JoinIn, Depends(json_body(JoinIn))], lobby: Lob
               ) -> dict[str, Any]:
    return lobby.describe(lobby.join(session.account, tid, body.seat), session.account)


@router.post("/lobby/{tid}/leave")
def leave_table(tid: str, session: Writer, _body: Annotated[Empty, Depends(json_body(Empty))], lobby: Lob
                ) -> dict[str, Any]:
    return lobby.describe(lobby.leave(session.account, tid), session.account)


@router.post("/lobby/{tid}/start")
def start_table(tid: str, session: Writer, body: Annotated[StartIn, Depends(json_body(StartIn))], lobby: Lob
                ) -> dict[str, Any]:
    return lobby.describe(lobby.start_now(session.account, tid, body.level), session.account)


@router.get("/players/{name}")
def player(name: str, lobby: Lob) -> dict[str, Any]:
    return lobby.ratings.player(name)
