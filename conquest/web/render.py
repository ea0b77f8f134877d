"""What a seat is sent: its view, the board drawn from it, its legal actions and the log as it may read it."""

from __future__ import annotations

import logging
from typing import Any

from conquest.core.game import Ruleset, State
from conquest.web.board import board_for, places, region_ids
from conquest.web.deps import Services
from conquest.web.games import Actor, Live

log = logging.getLogger("conquest.web")
MAX_LEGAL = 3000


def describe(live: Live, action: Any) -> str:
    try:
        return str(live.ruleset.describe_action(live.state, action))
    except Exception:  # noqa: BLE001 - a menu label must not break the page
        return live.ruleset.format_action(action)


def confirm(live: Live, view: dict[str, Any] | None, action: Any) -> str | None:
    """The question the page asks before sending ``action`` (``Ruleset.confirm_text``), or None."""
    if view is None:
        return None
    try:
        text = live.ruleset.confirm_text(view, action)
    except Exception:  # a question must not break the page
        log.exception("confirm_text of %s failed", live.ruleset.id)
        return None
    return text if isinstance(text, str) and text else None


def legal_for(live: Live, who: Actor, board: dict[str, Any] | None,
              view: dict[str, Any] | None = None) -> dict[str, Any]:
    """The seat's legal actions for the page: notation, description, the board's places it names, whether it
    has odds (``Ruleset.has_odds``) and the question to ask before it (``Ruleset.confirm_text`` of ``view``, the
    seat's view; none without it)."""
    state = live.state
    if who.seat is None or state.to_move != who.seat:
        return {"legal": [], "legal_truncated": False}
    ids = region_ids(board)
    aliases = (board or {}).get("aliases") or {}
    fmt = live.ruleset.format_action
    acts = list(state.legal_actions())
    rs = live.ruleset
    out = []
    for a in acts[:MAX_LEGAL]:
        text = fmt(a)
        out.append({"text": text, "description": describe(live, a), "places": places(a, ids, text, aliases),
                    "odds": rs.has_odds(state, a), "confirm": confirm(live, view, a)})
    return {"legal": out, "legal_truncated": len(acts) > MAX_LEGAL}


def text_board(live: Live, state: State, seat: int | None) -> str | None:
    rs = live.ruleset
    if type(rs).render_text is Ruleset.render_text:
        return None
    try:
        from rich.text import Text
        return Text.from_markup(rs.render_text(state, seat)).plain
    except Exception:  # noqa: BLE001
        try:
            return str(rs.render_text(state, seat))
        except Exception:  # noqa: BLE001
            return None


def draw(live: Live, state: State, seat: int | None) -> tuple[dict[str, Any], dict[str, Any] | None, str | None]:
    """(view, board, text board) of ``state`` for ``seat``; the board is drawn from the view only."""
    view = state.view(seat)
    try:
        board = board_for(live.ruleset, state, view, seat)
    except Exception:
        log.exception("board_json of %s failed", live.ruleset.id)
        board = None
    return view, board, (text_board(live, state, seat) if board is None else None)


def payload(svc: Services, live: Live, who: Actor) -> dict[str, Any]:
    """The answer of ``GET /api/games/{id}`` (and of an action or an undo)."""
    games = svc.games
    view, board, text = draw(live, live.state, who.seat)
    log_entries = games.log_for(live, who.seat)
    last_chance: list[str] = []  # the dice and draws since this seat last acted (those it may see)
    for e in reversed(log_entries):
        if e["seat"] is not None and e["seat"] == who.seat or len(last_chance) >= 8:
            break
        if e["chance"] and e["text"] is not None:
            last_chance.insert(0, e["text"])
    return {"game": games.summary(live),
            "you": {"seat": who.seat, "name": who.name, "role": "spectator" if who.seat is None else "seat"},
            "view": view, "board": board, "text_board": text, "log": log_entries,
            "last_chance": last_chance,
            "thinking": svc.advancer.thinking.get(live.row.id),
            "undo": games.undoable(live, who.seat),
            # a lone pass the server answers for this seat (docs/web.md, "Windows with one answer")
            "answered_for_you": who.seat is not None and live.state.to_move == who.seat
            and games.lone_pass(live) is not None,
            **legal_for(live, who, board, view)}
