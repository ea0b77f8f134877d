"""Exact odds: the Nerath battle calculator (``/api/odds/nerath``) and a seat's odds of one of its dice-driven
actions (``/api/games/{id}/odds``). Both are computed in the odds lane (a share of the processor, waited for
at most ``ODDS_SECONDS``); a seat's odds are cached per game, revision, step and action."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Query

from conquest.core.errors import ConquestError
from conquest.core.odds import OddsError
from conquest.web.bodies import NerathOddsIn, json_body
from conquest.web.deps import Game, Services, Svc, Who
from conquest.web.games import Actor, Live, WebError
from conquest.web.odds import MAX_SIDE, ODDS_SECONDS, calculator_info, seat_odds

router = APIRouter(prefix="/api")


async def _in_lane(svc: Services, fn: Any, *args: Any) -> Any:
    try:
        with anyio.fail_after(ODDS_SECONDS):
            return await svc.odds_lane.run(fn, *args)
    except TimeoutError:
        raise WebError(503, f"these odds take more than {ODDS_SECONDS:g} s to compute here: "
                            f"try fewer pieces, or the command line (conquest odds)") from None


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
    from conquest.rulesets.nerath.odds import NerathBattle
    try:
        battle = NerathBattle(_side(body.attacker, "attacker"), _side(body.defender, "defender"), sea=body.sea,
                              order=body.order, press=body.press, attacker_cards=body.attacker_cards,
                              defender_cards=body.defender_cards, hurt_dragon_fights=body.hurt_dragon_fights)
        return battle.solve().to_json()
    except OddsError as e:
        raise WebError(422, str(e).replace("--press", "press")) from None


@router.get("/games/{gid}/odds")
async def game_odds(live: Game, who: Who, svc: Svc,
                    action: str = Query(..., min_length=1, max_length=500)) -> dict[str, Any]:
    return await _in_lane(svc, _game_odds, svc, live, who, action)  # type: ignore[no-any-return]


def _game_odds(svc: Services, live: Live, who: Actor, text: str) -> dict[str, Any]:
    state, rs = live.state, live.ruleset
    if who.seat is None or state.to_move != who.seat:
        raise WebError(409, "odds are given to the seat to move, for its own actions")
    try:
        action = rs.parse_action(text)
    except ConquestError as e:
        raise WebError(422, f"action '{text[:80]}': {str(e).splitlines()[0]}") from None
    key = (live.row.id, live.revision, live.next_step, rs.format_action(action))
    hit = svc.odds_cache.get(key)
    if hit is not None:
        return hit
    out = {**seat_odds(rs, state, who.seat, action), "step": live.next_step}
    svc.odds_cache.put(key, out)
    return out
