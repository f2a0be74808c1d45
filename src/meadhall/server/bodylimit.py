"""A limit on the size of request bodies, checked while they arrive.

A request whose ``Content-Length`` is over the limit is answered 413 before any of
its body is read. A body without a length (chunked) is read as it arrives and
answered 413 as soon as it passes the limit, without reading the rest; the connection
is closed then, so the client cannot go on sending. A body within the limit is
handed to the application unchanged.
"""

from __future__ import annotations

from typing import Any

import orjson


class BodyLimit:
    """Plain ASGI middleware: 413 for a request body larger than its route's limit.

    ``limit`` holds for every request but the ``(method, path)`` pairs in ``larger``,
    which have their own limit (e.g. the route that accepts a content pack).
    """

    def __init__(self, app: Any, limit: int, larger: dict[tuple[str, str], int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = larger or {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Handle one ASGI connection."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get((scope["method"], scope["path"]), self.limit)
        length: int | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = None
            elif name == b"transfer-encoding":
                chunked = True
        if length is not None and length > limit:
            await _refuse(send, limit)
            return
        if not length and not chunked:  # no body (HTTP/1.1 framing): nothing to count
            await self.app(scope, receive, send)
            return
        # Read the body here, at most ``limit`` bytes of it, then give it to the app whole.
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(send, limit)
                return
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(parts), "more_body": False}
        await self.app(scope, _replay([body], receive), send)


def _replay(messages: list[dict[str, Any]], receive: Any) -> Any:
    """A ``receive`` that first returns ``messages``, then asks the server."""

    async def receiving() -> Any:
        if messages:
            return messages.pop(0)
        return await receive()

    return receiving


async def _refuse(send: Any, limit: int) -> None:
    body = orjson.dumps({"error": "too-large", "message": f"the request is larger than {limit} bytes"})
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})
