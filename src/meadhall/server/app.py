"""The ASGI application, assembled: services, error handlers, middleware, routers and pages.

Everything it assembles lives elsewhere: the services and request dependencies in
:mod:`meadhall.server.deps`, the error family in :mod:`meadhall.server.errors`, the
routers in ``api/``, ``ws.py`` and ``pages.py``. The routers import none of this module,
so there is no import circle.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from meadhall.server import errors, lobbyfeed, logs, pages, vacations, ws
from meadhall.server.api import auth, end, lobby, notifications, ops, play, social
from meadhall.server.bodylimit import BodyLimit
from meadhall.server.botpool import PoolBots
from meadhall.server.broadcast import SESSIONS
from meadhall.server.db import make_engine
from meadhall.server.deps import Services, session_ended
from meadhall.server.games import GameService, uniform_pause
from meadhall.server.mail import Notifier
from meadhall.server.metrics import Metrics
from meadhall.server.migrate import upgrade
from meadhall.server.ratelimit import RateLimits
from meadhall.server.requestlog import RequestLog
from meadhall.server.responses import FastJSON
from meadhall.server.security import dummy_hash
from meadhall.server.settings import Settings
from meadhall.server.socket_limits import SocketLimits
from meadhall.server.store import Store
from meadhall.server.text import RefuseControlCharacters
from meadhall.server.thinking import BotWorkers

log = logging.getLogger("meadhall.server")
_GC_THRESHOLDS = (10_000, 20, 20)
WEB = Path(__file__).parent / "web"


def create_app(settings: Settings) -> FastAPI:
    """Build the application for ``settings``."""

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
        notifier = Notifier(settings, store, secret)
        game_service.notifier = notifier
        services_ = Services(
            settings,
            store,
            game_service,
            RateLimits(settings),
            metrics,
            secret,
            socket_limits=SocketLimits(settings.ws_message_rate, settings.ws_per_address),
            notifier=notifier,
        )
        # Sign-outs and the lobby's changes reach every server (through Redis with redis_url).
        services_.broadcast.on(SESSIONS, partial(session_ended, services_))
        services_.lobby = lobbyfeed.LobbyFeed(services_)
        services_.lobby.start()
        game_service.lobby_changed = partial(lobbyfeed.tell_lobby, services_)
        cluster = None
        presence = None
        if settings.redis_url:
            # Created and started here, on the loop that serves the requests: its listener
            # task runs the service's callbacks on that loop.
            from meadhall.server.cluster import Cluster

            cluster = Cluster(settings.redis_url, settings.cluster_lease_ms, prefix=settings.redis_prefix)
            await cluster.start()
            # A forwarded move may wait out a response window's pause on its owner.
            forward = 2 * settings.cluster_lease_ms / 1000 + settings.response_pause_max + 2.0
            game_service.join(cluster, forward_seconds=forward)
            # Sockets per address and open tables, counted across the servers.
            from meadhall.server.presence import SharedPresence

            presence = SharedPresence(cluster.redis, cluster.node, settings.cluster_lease_ms, cluster.names)
            presence.start()
            services_.socket_limits.shared = presence
            game_service.presence = presence
            await services_.broadcast.start(cluster.redis, cluster.names)
            services_.broadcast.after_outages_of(cluster)
            log.info("sharing tables through Redis as node %s", cluster.node)
            if settings.bot_pool:  # bots' moves go to `meadhall bot-pool` (docs/deploy.md, "A pool of bots")
                bots.shutdown()  # (it has started no process yet)
                bots = game_service.bots = PoolBots(
                    settings.bot_workers,
                    settings.bot_move_seconds,
                    cluster.redis,
                    cluster.node,
                    settings.bot_pool_seconds,
                    cluster.names,
                )
                bots.start()
        elif settings.bot_pool:
            log.warning("bot_pool needs redis_url: this server thinks for its bots itself")
        await lobby.expire_open_tables(services_)
        expiry = asyncio.create_task(lobby.expire_open_tables_every(services_, 60.0))
        idle_tables = asyncio.create_task(game_service.forget_idle_every(settings.idle_table_seconds))
        digests = asyncio.create_task(notifier.digests_every(settings.digest_check_seconds))
        asyncio.get_running_loop().run_in_executor(None, dummy_hash)  # made before the first sign-in needs it

        app.state.services = services_
        await play.resume_bots(services_)
        await vacations.resume(services_)
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
            idle_tables.cancel()
            digests.cancel()
            for runtime in list(game_service.runtimes.values()):
                if runtime.bot_task:
                    runtime.bot_task.cancel()
            await services_.lobby.close()
            await services_.broadcast.close()
            if presence is not None:
                await presence.close()  # this server's sockets stop counting at once
            if cluster is not None:
                game_service.leave_cluster()
                await cluster.close()  # its leases go back: another server may take the tables at once
            if isinstance(bots, PoolBots):
                await bots.close()
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

    app.exception_handler(errors.ApiError)(errors.api_error)
    app.exception_handler(RequestValidationError)(errors.invalid_request)
    # The database restarting or cut off: 503 (docs/deploy.md, "When Redis or PostgreSQL goes away").
    app.exception_handler(OperationalError)(errors.database_unavailable)
    app.exception_handler(InterfaceError)(errors.database_unavailable)
    app.exception_handler(StarletteHTTPException)(pages.http_error)

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
    app.include_router(end.router)
    app.include_router(social.router)
    app.include_router(notifications.router)
    app.include_router(ops.router)
    app.include_router(ws.router)
    app.include_router(lobbyfeed.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    return app
