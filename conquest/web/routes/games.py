"""A game: create it, read it as a seat or a spectator (view, board, legal actions, log)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from conquest.web.bodies import CreateGame, clean_name, json_body
from conquest.web.deps import Game, Svc, Who, client_of
from conquest.web.games import WebError
from conquest.web.middleware import FastJSON
from conquest.web.pace import LIVE, choose
from conquest.web.render import draw, legal_for, payload

router = APIRouter(prefix="/api/games")


@router.post("", status_code=201)
def create_game(body: Annotated[CreateGame, Depends(json_body(CreateGame))], svc: Svc,
                request: Request) -> dict[str, Any]:
    games = svc.games
    kinds = svc.advancer.seats
    rs = games.ruleset(body.ruleset)
    n = body.players if body.players is not None else (len(body.seats) or rs.default_players())
    try:
        defaults = rs.seat_names(n, rs.options().resolve(body.options)) \
            if rs.min_players <= n <= rs.max_players else []
    except Exception:  # noqa: BLE001 - bad options are reported by new_game below
        defaults = []
    seats: list[tuple[str, str]] = []
    computers = 0
    for i, s in enumerate(body.seats):
        if s.kind != "human":
            # looked up whole in the server's table: a client's text is never an agent spec nor a path
            kind = kinds.get(s.kind)
            if kind is None:
                raise WebError(422, f"seats.{i}: {kinds.refusal()}")
            policy = kinds.policies.get(s.kind)
            if policy is not None and (policy.ruleset != rs.id or policy.players != n):
                raise WebError(422, f"seats.{i}: {s.kind} plays {policy.ruleset} with {policy.players} players")
            if policy is not None:
                try:  # trained under these rules: the game's options (with their defaults) must be the policy's
                    same = rs.options().resolve(body.options) == rs.options().resolve(policy.options)
                except Exception:  # noqa: BLE001 - bad options are reported by the game's creation below
                    same = True
                if not same:
                    raise WebError(422, f"seats.{i}: {s.kind} was trained with other options of {rs.id}: "
                                        f"{policy.options or 'the defaults'}")
            computers += 1
        default = defaults[i] if i < len(defaults) else f"Player {i + 1}"
        seats.append((s.kind, clean_name(s.name, default)))
    client = client_of(request)
    if computers:
        busy = svc.advancer.busy(client)
        if busy >= svc.advancer.per_client:
            raise WebError(429, f"you have {busy} games whose computer players are thinking (at most "
                                f"{svc.advancer.per_client} at once): try again when one of them has answered")
    pace = request.app.state.pace
    p = body.pace
    settings = choose(p.mode, p.deadline_seconds, p.at_deadline, p.level, rs, kinds) if p is not None else LIVE
    svc.creations.take(client)  # games per client and time (429 beyond)
    row = games.create(rs.id, n, body.options, seats, body.seed)
    pace.save(row.id, settings)
    live = games.load(row.id)
    if computers:
        svc.advancer.own(row.id, client)
    svc.advancer.schedule(row.id)
    games.resolve_chance(row.id)
    return {"game": games.summary(games.load(row.id)),
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "token": s.token,
                       "link": f"/game/{row.id}#t={s.token}" if s.token else None} for s in live.row.seats],
            "spectator": {"token": row.spectator_token, "link": f"/game/{row.id}#t={row.spectator_token}"}}


@router.get("/{gid}")
def get_game(live: Game, who: Who, svc: Svc) -> FastJSON:
    return FastJSON(payload(svc, live, who))


@router.get("/{gid}/legal")
def get_legal(live: Game, who: Who, svc: Svc) -> dict[str, Any]:
    view, board, _t = draw(live, live.state, who.seat)
    return {"step": live.next_step, "to_move": svc.games.summary(live)["to_move"],
            **legal_for(live, who, board, view)}


@router.get("/{gid}/log")
def get_log(live: Game, who: Who, svc: Svc) -> FastJSON:
    return FastJSON({"step": live.next_step, "log": svc.games.log_for(live, who.seat)})
