"""The request middleware: security headers on every answer, request metrics, a log line per API change."""

from __future__ import annotations

import logging
import time
from typing import Any

log = logging.getLogger("meadhall.server")


#: Scripts and styles only from this site (no inline script; inline style attributes stay
#: allowed: the boards colour pieces with them, and Swagger UI sets them too), no framing
#: by other sites, no plugins, forms post only here. ``'self'`` covers this site's own
#: WebSocket (ws:/wss: to the same host) in current browsers.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)

_SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


class RequestLog:
    """Plain ASGI middleware: security headers, request metrics, a log line per API change.

    (Starlette's BaseHTTPMiddleware costs far more per request.)
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Handle one ASGI connection."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [500]

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                message["headers"] = list(message.get("headers", [])) + _SECURITY_HEADERS
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            elapsed = time.perf_counter() - started
            found = getattr(scope["app"].state, "services", None) if "app" in scope else None
            if found is not None:
                found.metrics.observe(status[0], elapsed)
            path = scope.get("path", "")
            if path.startswith("/api/") and scope.get("method") != "GET" and log.isEnabledFor(logging.INFO):
                log.info(
                    "request",
                    extra={
                        "ctx_method": scope.get("method"),
                        "ctx_path": path,
                        "ctx_status": status[0],
                        "ctx_ms": round(elapsed * 1000, 2),
                    },
                )
