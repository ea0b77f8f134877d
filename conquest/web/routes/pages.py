"""The page (one HTML file for the lobby, a game and its replay) and its static files."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from conquest.web.games import WebError

STATIC = Path(__file__).resolve().parent.parent / "static"
INDEX = STATIC / "index.html"
# docs/rules, through the link conquest/web/rules (package data: a wheel carries the documents themselves)
RULES_DOCS = Path(__file__).resolve().parent.parent / "rules"
CALC = STATIC / "calc.html"
# docs/howto through the link conquest/web/howto: each game's "How to play" page, for players
HOWTO_DOCS = Path(__file__).resolve().parent.parent / "howto"

router = APIRouter(include_in_schema=False)


@router.get("/")
def page_root() -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


@router.get("/game/{gid}")
def page_game(gid: str) -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


@router.get("/account")
def page_account() -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


@router.get("/tables")
def page_tables() -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


@router.get("/player/{name}")
def page_player(name: str) -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


@router.get("/game/{gid}/replay")
def page_replay(gid: str) -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


def _markdown_page(doc: Path, title: str, nav: str) -> Response:
    """A document as an HTML page (raw HTML in the document is escaped, not passed through); rendered once per
    version of the file (a page asked for again costs no rendering)."""
    return Response(_rendered(doc, doc.stat().st_mtime_ns, title, nav), media_type="text/html")


@lru_cache(maxsize=64)
def _rendered(doc: Path, _version: int, title: str, nav: str) -> str:
    from html import escape

    from markdown_it import MarkdownIt
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(doc.read_text(encoding="utf-8"))
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{escape(title)}</title>'
            f'<link rel="stylesheet" href="/static/app.css"></head><body><header class="top">'
            f'<a href="/" class="brand">Conquest</a>{nav}</header><main class="card rules-page">{body}</main>'
            f'</body></html>')


def _page(docs: Path, rid: str, name: str) -> Path | None:
    """A game's page: ``docs/<kind>/<ruleset>.md``, else the file ``name`` in the ruleset's own package (a game
    added as one package, or an installed plugin, brings its pages along)."""
    if not re.fullmatch(r"[a-z0-9_]+", rid):
        return None
    doc = docs / f"{rid}.md"
    if doc.is_file():
        return doc
    from conquest.core.registry import package_dir, rulesets
    rs = rulesets().get(rid)
    own = package_dir(rs) / name if rs is not None else None
    return own if own is not None and own.is_file() else None


@router.get("/rules/{rid}")
def page_rules(rid: str) -> Response:
    """A game's rules page: docs/rules/<ruleset>.md (the readings of the rules), as HTML; it links to the
    game's How-to-play page when there is one."""
    doc = _page(RULES_DOCS, rid, "rules.md")
    if doc is None:
        raise WebError(404, "no rules page for this game")
    nav = (f' <a href="/howto/{rid}" id="howto-link">How to play</a>' if _page(HOWTO_DOCS, rid, "howto.md") else "")
    return _markdown_page(doc, f"Rules: {rid}", nav)


@router.get("/howto/{rid}")
def page_howto(rid: str) -> Response:
    """A game's "How to play" page for players: docs/howto/<ruleset>.md (set-up, turn, actions, scoring, end),
    linked to the readings page."""
    doc = _page(HOWTO_DOCS, rid, "howto.md")
    if doc is None:
        raise WebError(404, "no How-to-play page for this game")
    return _markdown_page(doc, f"How to play: {rid}", f' <a href="/rules/{rid}" id="readings-link">Rules readings</a>')


@router.get("/calc")
def page_calc() -> FileResponse:
    """The calculator page (static/calc.html and calc.js) of the first game that offers one."""
    return FileResponse(CALC, media_type="text/html")


@router.get("/calc/{rid}")
def page_calc_of(rid: str) -> FileResponse:
    """The calculator page of the game ``rid`` (``Ruleset.calculator``; 404 when it offers none)."""
    from conquest.web.odds import calculator_of
    calculator_of(rid)
    return FileResponse(CALC, media_type="text/html")


@router.get("/static/{name}")
def static(name: str) -> FileResponse:
    if not re.fullmatch(r"[a-z0-9_-]+\.(js|css|svg)", name) or not (STATIC / name).is_file():
        raise WebError(404, "no such file")
    kind = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}[name.rsplit(".", 1)[1]]
    return FileResponse(STATIC / name, media_type=kind)
