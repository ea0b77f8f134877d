"""The HTTP plumbing of the web app: body limits and security headers (a plain ASGI middleware), the JSON
response, and the error handlers that turn every refusal into ``{"error": "one line"}``."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from conquest.web.bodies import one_line
from conquest.web.games import WebError

log = logging.getLogger("conquest.web")
MAX_BODY = 64 * 1024
MAX_RECORD = 4 * 1024 * 1024  # a record file (POST /api/records)
BODY_TIMEOUT = 10.0  # seconds from a request's headers to the end of its body

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                 b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
]


class BodyLimit:
    """Refuse request bodies over MAX_BODY bytes (declared or streamed) with 413, and bodies that have not
    arrived ``body_timeout`` seconds after the request's headers with 408 (the connection is then closed:
    a client sending its body slowly cannot hold a connection and a request task); add the security
    headers (a plain ASGI middleware: cheaper than Starlette's BaseHTTPMiddleware)."""

    def __init__(self, app: Any, body_timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.body_timeout = body_timeout

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_RECORD if scope.get("path") == "/api/records" else MAX_BODY
        expects_body = False
        for k, v in scope.get("headers", []):
            if k == b"transfer-encoding":
                expects_body = True
            if k == b"content-length":
                try:
                    too_big = int(v) > limit
                    expects_body = expects_body or int(v) > 0
                except ValueError:
                    too_big = True
                if too_big:
                    await JSONResponse({"error": f"request body too large ({limit} bytes at most)"},
                                       status_code=413, headers={"connection": "close"})(scope, receive, send)
                    return
        api = scope.get("path", "").startswith("/api/")
        seen = 0
        done = not expects_body  # the whole body arrived
        deadline = time.monotonic() + self.body_timeout

        async def send_with_headers(msg: Any) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *SECURITY_HEADERS,
                                  *([(b"cache-control", b"no-store")] if api else []),
                                  *([] if done else [(b"connection", b"close")])]  # a body left unread
            await send(msg)

        async def limited() -> Any:
            nonlocal seen, done
            if done:
                return await receive()
            try:
                msg = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise WebError(408, f"the request body did not arrive within {self.body_timeout:g} s") from None
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise WebError(413, f"request body too large ({limit} bytes at most)")
                done = not msg.get("more_body", False)
            return msg

        await self.app(scope, limited, send_with_headers)


class FastJSON(Response):
    """JSON rendered by the standard library in one pass (the answers are plain dicts already)."""
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode()


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal as ``{"error": "one line"}`` with its status; a crash as a 500 without a traceback."""

    @app.exception_handler(WebError)
    async def _web_error(_r: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"error": exc.reason}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": one_line(exc.errors())}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_r: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(_r: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse({"error": "internal error in the server (a bug: please report it)"},
                            status_code=500)
