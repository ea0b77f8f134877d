"""A game's record (download), its replay step by step, and the import of a record to watch."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from conquest.web.bodies import read_json, record_of
from conquest.web.deps import Game, Services, Svc, Who, client_of
from conquest.web.games import Actor, Live, WebError
from conquest.web.middleware import FastJSON
from conquest.web.render import draw

router = APIRouter(prefix="/api")


@router.get("/games/{gid}/replay")
async def get_replay(live: Game, who: Who, svc: Svc, step: int = Query(..., ge=0, le=10_000_000)
                     ) -> FastJSON:
    return await svc.replays.run(_replay, svc, live, who, step)


def _replay(svc: Services, live: Live, who: Actor, step: int) -> FastJSON:
    """Rendered in the lane's thread too (a long game's log is a large answer)."""
    games = svc.games
    total = live.next_step
    if step > total:
        raise WebError(422, f"step {step} is past the end of the game ({total} steps so far)")
    state = games.state_at(live, step)  # from the nearest snapshot: at most SNAPSHOT_EVERY steps replayed
    view, board, text = draw(live, state, who.seat)
    tm = state.to_move
    res = state.result()
    return FastJSON({
        "step": step, "total": total, "view": view, "board": board, "text_board": text,
        "to_move": tm if tm is None or tm >= 0 else "chance", "to_move_name": games.seat_name(live, tm),
        "result": list(res) if res is not None else None,
        "log": games.log_for(live, who.seat, upto=step), "game": games.summary(live),
        "you": {"seat": who.seat, "name": who.name}})


@router.get("/games/{gid}/record")
def get_record(live: Game, who: Who, svc: Svc) -> Response:
    doc = svc.games.record(live, who)
    return Response(json.dumps(doc, indent=1) + "\n", media_type="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="{live.ruleset.id}-{live.row.id}.json"'})


@router.post("/records", status_code=201)
async def import_record(request: Request, svc: Svc) -> dict[str, Any]:
    """Watch and replay a game from its record file (the ``conquest replay`` format): the record is checked
    field by field, then step by step off the event loop, one import at a time per client."""
    doc = record_of(await read_json(request)).model_dump(exclude_none=True)
    svc.creations.take(client_of(request))  # an imported game counts as a game created
    return await svc.heavy.run_for(client_of(request), _import, svc, doc)


def _import(svc: Services, doc: dict[str, Any]) -> dict[str, Any]:
    games = svc.games
    row = games.import_record(doc, share=svc.heavy.share)  # pauses within the check: see Heavy
    return {"game": games.summary(games.load(row.id)),
            "spectator": {"token": row.spectator_token, "link": f"/game/{row.id}#t={row.spectator_token}",
                          "replay": f"/game/{row.id}/replay#t={row.spectator_token}"}}
