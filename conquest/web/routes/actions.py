"""A seat's moves: play an action in notation, take back its own last actions."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from conquest.web.bodies import ActionIn, UndoIn, json_body
from conquest.web.deps import Game, Svc, Token
from conquest.web.middleware import FastJSON
from conquest.web.render import payload

router = APIRouter(prefix="/api/games")


@router.post("/{gid}/actions")
def post_action(gid: str, body: Annotated[ActionIn, Depends(json_body(ActionIn))], token: Token, svc: Svc,
                _loaded: Game) -> FastJSON:  # the token checked, then the game loaded (in the loads lane)
    live = svc.games.play(gid, token, body.action, body.step)  # looks the game up under its lock
    return FastJSON(payload(svc, live, svc.games.actor(live, token)))


@router.post("/{gid}/undo")
def post_undo(gid: str, body: Annotated[UndoIn, Depends(json_body(UndoIn))], token: Token, svc: Svc,
              _loaded: Game) -> FastJSON:
    live = svc.games.undo(gid, token, body.count, body.step)
    return FastJSON(payload(svc, live, svc.games.actor(live, token)))
