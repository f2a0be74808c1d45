"""The server's one error family: a refusal with an HTTP status, a short code and a message.

Routes, the game service (a stale, out-of-turn, malformed or illegal action) and the
store's write jobs (a seat just taken) all raise :class:`ApiError`; one handler answers
it over HTTP as ``{"error": code, "message": ..., **extra}``, and a table's WebSocket
sends the same fields in a ``refused`` message. Requests that fail validation get the
same shape, with the code ``invalid``.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from meadhall.server.responses import FastJSON

#: What a request or a move is told when the database does not answer (503 ``database``).
DATABASE_AWAY = "the database does not answer just now; try again in a moment."


class ApiError(Exception):
    """A refusal: HTTP status, a short code, a message for people and any extra fields.

    Nothing has changed when one is raised: the request (or the move) was refused whole.
    """

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The answer's JSON body: ``error`` (the code), ``message`` and the extra fields."""
        return {"error": self.code, "message": self.message, **self.extra}


async def api_error(request: Request, error: ApiError) -> JSONResponse:
    """Answer an :class:`ApiError` with its status and body."""
    return FastJSON(error.body(), status_code=error.status)


async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    """Answer a request that fails validation: 422, code ``invalid``, every problem in one message."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in item.get('loc', ())[1:]) or 'body'}: {item.get('msg')}" for item in error.errors()
    )
    return JSONResponse({"error": "invalid", "message": problems or "invalid request"}, status_code=422)


async def database_unavailable(request: Request, error: Exception) -> JSONResponse:
    """Answer a request that failed because the database did not answer (restarting, cut off): 503, not 500.

    Nothing was stored for it (or, for a move whose commit broke off, its table is read
    again before the next move: server/games.py). The pool tests each connection before
    use, so requests succeed again as soon as the database is back.
    """
    return FastJSON({"error": "database", "message": DATABASE_AWAY}, status_code=503)
