"""Exact odds: the Nerath battle calculator (``/api/odds/nerath``) and a seat's odds of one of its dice-driven
actions (``/api/games/{id}/odds``). Both are computed in the odds lane (a share of the processor, waited for
at most ``ODDS_SECONDS``); a seat's odds are cached per game, revision, step and action."""

from __future__ import annotations

from typing import Annotated, Any

import asyncio
from fastapi import APIRouter, Depends, Query

from conquest.core.errors import ConquestError
from conquest.core.odds import OddsError
from conquest.web.bodies import NerathOddsIn, json_body
from conquest.web.deps import Game, Services, Svc, Who
from conquest.web.games import Live, WebError
from conquest.web.odds import MAX_PENDING, MAX_SIDE, ODDS_SECONDS, calculator_info, seat_odds

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


@router.get("/odds/nerath")
def nerath_calculator_info() -> dict[str, Any]:
    return calculator_info()


@router.post("/odds/nerath")
async def nerath_odds(body: Annotated[NerathOddsIn, Depends(json_body(NerathOddsIn))], svc: Svc) -> dict[str, Any]:
    return await _in_lane(svc, _nerath, body)  # type: ignore[no-any-return]


def _side(value: list[str] | str, who: str) -> list[str]:
    from conquest.rulesets.nerath.odds import parse_pieces
    pieces = parse_pieces(value if isinstance(value, str) else ",".join(value), who)
    if len(pieces) > MAX_SIDE:
        raise OddsError(f"{who}: {len(pieces)} pieces; the web calculator takes at most {MAX_SIDE} a side "
                        f"(the command line, conquest odds, takes more)")
    return pieces


def _nerath(body: NerathOddsIn) -> dict[str, Any]:
    from conquest.rulesets.nerath.odds import Battle, NerathBattle, dungeon_battle, parse_guardians
    try:
        battle: Battle
        if body.dungeon:
            if body.sea or body.ally is not None or body.defender_cards or body.ally_cards:
                raise OddsError("dungeon: Heroes fight the Guardians of a dungeon entrance (no sea, ally or "
                                "defender_cards)")
            tiles = body.defender if isinstance(body.defender, str) else ",".join(body.defender)
            battle = dungeon_battle(_side(body.attacker, "attacker"), parse_guardians(tiles, "defender"),
                                    order=body.order, press=body.press, attacker_cards=body.attacker_cards,
                                    heroes_need_lasts=body.heroes_need_lasts)
        else:
            defender = _side(body.defender, "defender")
            ally = _side(body.ally, "ally") if body.ally is not None else None
            if ally and len(defender) + len(ally) > MAX_SIDE:
                raise OddsError(f"defender and ally: {len(defender) + len(ally)} pieces; the web calculator takes at "
                                f"most {MAX_SIDE} a side (the command line, conquest odds, takes more)")
            battle = NerathBattle(_side(body.attacker, "attacker"), defender, sea=body.sea, order=body.order,
                                  press=body.press, attacker_cards=body.attacker_cards,
                                  defender_cards=body.defender_cards, hurt_dragon_fights=body.hurt_dragon_fights,
                                  ally=ally, ally_cards=body.ally_cards)
        return battle.solve().to_json()
    except OddsError as e:
        raise WebError(422, str(e).replace("--press", "press")) from None


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
