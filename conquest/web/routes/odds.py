"""Exact odds: a game's calculator (``/api/odds/{ruleset}``, ``Ruleset.calculator``) and a seat's odds of one of
its dice-driven actions (``/api/games/{id}/odds``). Both are computed in the odds lane (a share of the processor, waited
for at most ``ODDS_SECONDS``); a seat's odds are cached per game, revision, step and action."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Request

from conquest.core.calculator import Calculator
from conquest.core.errors import ConquestError
from conquest.core.odds import OddsError
from conquest.web.bodies import read_json, validate
from conquest.web.deps import Game, Services, Svc, Who
from conquest.web.games import Live, WebError
from conquest.web.odds import MAX_PENDING, ODDS_SECONDS, calculator_of, calculators, seat_odds

router = APIRouter(prefix="/api")


async def _in_lane(svc: Services, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in the odds lane; after ``ODDS_SECONDS`` the request gets a 503 and the computation
    finishes on its own (a seat's odds then land in the cache for the next request). At most
    ``MAX_PENDING`` computations run or wait at a time; beyond that, 503 at once."""
    if svc.odds_pending >= MAX_PENDING:
        raise WebError(503, "the server is busy computing other odds: try again in a moment")
    svc.odds_pending += 1
    task = asyncio.ensure_future(svc.odds_lane.run(fn, *args))

    def finished(t: asyncio.Future[Any]) -> None:
        svc.odds_pending -= 1
        if not t.cancelled():
            t.exception()   # retrieved: a refusal after the request gave up is not an unhandled error
    task.add_done_callback(finished)
    done, _ = await asyncio.wait({task}, timeout=ODDS_SECONDS)
    if task not in done:
        raise WebError(503, f"these odds take more than {ODDS_SECONDS:g} s to compute here: "
                            f"try again in a moment, or use the command line (conquest odds)")
    return task.result()


@router.get("/odds")
def calculator_list() -> dict[str, Any]:
    """The games that offer a calculator: ``{"calculators": [{ruleset, title}]}``."""
    return {"calculators": calculators()}


@router.get("/odds/{rid}")
def calculator_info(rid: str) -> dict[str, Any]:
    """What the calculator page of ``rid`` offers (``Calculator.describe``), with its title."""
    calc = calculator_of(rid)
    return {"ruleset": rid, "title": calc.title, **calc.describe()}


@router.post("/odds/{rid}")
async def calculator_odds(rid: str, request: Request, svc: Svc) -> dict[str, Any]:
    """The calculator's exact odds of the inputs in the body (its strict ``Calculator.body``; 422 naming a
    field, or the calculator's one-line refusal)."""
    calc = calculator_of(rid)
    body = validate(calc.body, await read_json(request))
    return await _in_lane(svc, _calculate, calc, body)  # type: ignore[no-any-return]


def _calculate(calc: Calculator, body: Any) -> dict[str, Any]:
    try:
        return calc.web(body)
    except OddsError as e:
        raise WebError(422, str(e).splitlines()[0]) from None


@router.get("/games/{gid}/odds")
async def game_odds(live: Game, who: Who, svc: Svc,
                    action: str = Query(..., min_length=1, max_length=500)) -> dict[str, Any]:
    """The odds of ``action``, a legal dice-driven action of the asking seat, which must be the seat to move
    (from what that seat sees: see conquest/web/odds.py); from the cache when they were computed already."""
    state, rs = live.state, live.ruleset
    if who.seat is None or state.to_move != who.seat:
        raise WebError(409, "odds are given to the seat to move, for its own actions")
    try:
        act = rs.parse_action(action)
    except ConquestError as e:
        raise WebError(422, f"action '{action[:80]}': {str(e).splitlines()[0]}") from None
    key = (live.row.id, live.revision, live.next_step, rs.format_action(act))
    hit = svc.odds_cache.get(key)
    if hit is not None:
        return hit
    return await _in_lane(svc, _game_odds, svc, live, who.seat, act, key)  # type: ignore[no-any-return]


def _game_odds(svc: Services, live: Live, seat: int, action: Any, key: tuple[Any, ...]) -> dict[str, Any]:
    out = {**seat_odds(live.ruleset, live.state, seat, action), "step": live.next_step}
    svc.odds_cache.put(key, out)
    return out
