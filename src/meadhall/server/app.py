"""The ASGI application: settings, services, middleware, routers and pages."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from meadhall.server import logs
from meadhall.server.bodylimit import BodyLimit
from meadhall.server.db import make_engine
from meadhall.server.games import ActionRefused, GameService, TableRuntime, uniform_pause
from meadhall.server.history import HistoryCache
from meadhall.server.migrate import upgrade
from meadhall.server.ratelimit import RateLimits
from meadhall.server.security import dummy_hash
from meadhall.server.settings import Settings
from meadhall.server.socket_limits import SocketLimits
from meadhall.server.store import Store
from meadhall.server.text import RefuseControlCharacters
from meadhall.server.thinking import BotWorkers

log = logging.getLogger("meadhall.server")
_GC_THRESHOLDS = (10_000, 20, 20)
WEB = Path(__file__).parent / "web"


@dataclass
class Metrics:
    """Counters and latencies for ``/metrics``."""

    started: float = field(default_factory=time.time)
    requests: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    websockets: int = 0
    loop_lag: list[float] = field(default_factory=list)

    async def probe_loop_lag(self) -> None:
        """Measure, every 20 ms, how late the event loop wakes a sleeper (its lag)."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.02)
            self.loop_lag.append(time.perf_counter() - asked - 0.02)
            if len(self.loop_lag) > 2_000:
                del self.loop_lag[:1_000]

    def observe(self, status: int, seconds: float) -> None:
        """Count one request."""
        key = f"{status // 100}xx"
        self.requests[key] = self.requests.get(key, 0) + 1
        self.latencies.append(seconds)
        if len(self.latencies) > 20_000:
            del self.latencies[:10_000]


@dataclass
class Services:
    """What the routes share: settings, storage, games, limits, metrics."""

    settings: Settings
    store: Store
    games: GameService
    limits: RateLimits
    metrics: Metrics
    secret: str
    socket_limits: SocketLimits
    #: Open WebSockets by the (hashed) session that opened them: signing out closes them.
    session_sockets: dict[str, set[Any]] = field(default_factory=dict)
    history: HistoryCache = field(default_factory=HistoryCache)


def services(request: Request) -> Services:
    """The services of the running app."""
    found: Services = request.app.state.services
    return found


class FastJSON(JSONResponse):
    """JSON responses encoded by orjson."""

    def render(self, content: Any) -> bytes:
        """Encode ``content``."""
        return orjson.dumps(content)


class ApiError(Exception):
    """An error answer: HTTP status, a short code and a message for people."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


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


def create_app(settings: Settings) -> FastAPI:
    """Build the application for ``settings``."""
    from meadhall.server import pages, ws
    from meadhall.server.api import auth, lobby, ops, play, social

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        json_logs = settings.json_logs()
        logs.setup(json_logs, settings.log_level)
        secret = settings.ensure_secret()
        engine = make_engine(settings.sqlalchemy_url)
        upgrade(engine)
        store = Store(engine, inline_writes=settings.inline_db_writes)
        bots = BotWorkers(settings.bot_workers, settings.bot_move_seconds)
        metrics = Metrics()
        lag_probe = asyncio.create_task(metrics.probe_loop_lag())
        game_service = GameService(
            store, bots, pause=uniform_pause(settings.response_pause_min, settings.response_pause_max)
        )
        services_ = Services(
            settings,
            store,
            game_service,
            RateLimits(settings),
            metrics,
            secret,
            socket_limits=SocketLimits(settings.ws_message_rate, settings.ws_per_address),
        )
        await lobby.expire_open_tables(services_)
        expiry = asyncio.create_task(lobby.expire_open_tables_every(services_, 60.0))
        asyncio.get_running_loop().run_in_executor(None, dummy_hash)  # made before the first sign-in needs it

        async def finished(runtime: TableRuntime) -> None:
            await social.record_ratings(services_, runtime)

        game_service.on_finish = finished
        app.state.services = services_
        await play.resume_bots(services_)
        # The code and data loaded at start live as long as the server: keep them out of
        # the cyclic collector's full passes, which otherwise pause every request for
        # tens of milliseconds; and collect the young generation less often.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*_GC_THRESHOLDS)
        # For services, a record; at a terminal `meadhall serve` prints the address line instead.
        log.log(
            logging.INFO if json_logs else logging.DEBUG,
            "meadhall is ready",
            extra={"ctx_database": engine.url.render_as_string(hide_password=True)},
        )
        try:
            yield
        finally:
            lag_probe.cancel()
            expiry.cancel()
            for runtime in list(game_service.runtimes.values()):
                if runtime.bot_task:
                    runtime.bot_task.cancel()
            bots.shutdown()
            store.close()

    app = FastAPI(
        title="meadhall",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # pages.py serves /api/docs from packaged assets, without inline script
        redoc_url=None,
        default_response_class=FastJSON,
    )

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return FastJSON({"error": error.code, "message": error.message, **error.extra}, status_code=error.status)

    @app.exception_handler(ActionRefused)
    async def refused(request: Request, error: ActionRefused) -> JSONResponse:
        return JSONResponse({"error": error.code, "message": error.message, **error.extra}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in item.get('loc', ())[1:]) or 'body'}: {item.get('msg')}"
            for item in error.errors()
        )
        return JSONResponse({"error": "invalid", "message": problems or "invalid request"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Any:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": "http", "message": str(error.detail)}, status_code=error.status_code)
        return pages.error_page(request, error.status_code, str(error.detail))

    app.add_middleware(RefuseControlCharacters)
    app.add_middleware(
        BodyLimit, limit=settings.max_body_bytes, larger={("POST", "/api/tables"): settings.max_pack_body_bytes}
    )
    app.add_middleware(RequestLog)
    if settings.trusted_proxies.strip():  # outermost: everything after sees the proxy's client
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)
    app.include_router(auth.router)
    app.include_router(lobby.router)
    app.include_router(play.router)
    app.include_router(social.router)
    app.include_router(ops.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    return app
