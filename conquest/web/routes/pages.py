"""The page (one HTML file for the lobby, a game and its replay) and its static files."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from conquest.web.games import WebError

STATIC = Path(__file__).resolve().parent.parent / "static"
INDEX = STATIC / "index.html"

router = APIRouter(include_in_schema=False)


@router.get("/")
def page_root() -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


@router.get("/game/{gid}")
def page_game(gid: str) -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


@router.get("/game/{gid}/replay")
def page_replay(gid: str) -> FileResponse:
    return FileResponse(INDEX, media_type="text/html")


@router.get("/static/{name}")
def static(name: str) -> FileResponse:
    if not re.fullmatch(r"[a-z0-9_-]+\.(js|css|svg)", name) or not (STATIC / name).is_file():
        raise WebError(404, "no such file")
    kind = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}[name.rsplit(".", 1)[1]]
    return FileResponse(STATIC / name, media_type=kind)
