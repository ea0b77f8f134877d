"""The lobby's endpoints: the rulesets and seat kinds, the list of a browser's games, the health check."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Depends, Request

from conquest.web.bodies import MyGames, json_body
from conquest.web.deps import Svc, client_of, load
from conquest.web.games import Actor, WebError
from conquest.web.pace import can_drop

router = APIRouter(prefix="/api")


@router.get("/rulesets")
def list_rulesets(svc: Svc) -> dict[str, Any]:
    out = []
    for _rid, rs in sorted(svc.games.rulesets().items()):
        info = rs.info()
        info["default_players"] = rs.default_players()
        names = {}
        for n in range(rs.min_players, rs.max_players + 1):
            try:
                names[str(n)] = rs.seat_names(n, rs.options().resolve({}))
            except Exception:  # noqa: BLE001
                names[str(n)] = [f"Player {i + 1}" for i in range(n)]
        info["seat_names"] = names
        info["can_drop_seat"] = can_drop(rs)  # a turn-based game may drop a seat at its deadline
        out.append(info)
    # seat_kinds: every kind this server accepts; levels: {id: {spec, label, help, decision_seconds,
    # turn_seconds}}; agents and policies: the operator's named agents and installed policies
    return {"rulesets": out, **svc.advancer.seats.describe()}


@router.post("/my-games")
async def my_games(body: Annotated[MyGames, Depends(json_body(MyGames))], request: Request, svc: Svc
                   ) -> dict[str, Any]:
    """Each game's summary for the holder of its token. Every token is checked against its game's row first
    (nothing is replayed for a wrong one); games not in memory are then loaded one by one in the loads lane."""
    games = svc.games

    def check() -> list[Actor | WebError]:
        out: list[Actor | WebError] = []
        for ref in body.games:
            try:
                out.append(games.authorize(ref.id, ref.token))
            except WebError as e:
                out.append(e)
        return out

    out: list[dict[str, Any]] = []
    for ref, who in zip(body.games, await anyio.to_thread.run_sync(check)):
        try:
            if isinstance(who, WebError):
                raise who
            live = await load(svc, ref.id, client_of(request))
        except WebError as e:
            out.append({"id": ref.id, "error": e.reason})
            continue
        out.append({"id": ref.id, "you": {"seat": who.seat, "name": who.name}, **games.summary(live)})
    return {"games": out}


@router.get("/health", include_in_schema=False)
async def health(svc: Svc) -> dict[str, Any]:
    # the database query in the event loop's own executor: not queued behind the requests' thread pool
    schema = await asyncio.to_thread(svc.store.schema_version)
    return {"ok": True, "schema": schema, "rulesets": sorted(svc.games.rulesets())}
