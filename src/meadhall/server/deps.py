"""What the routers depend on: the services, who is asking, and the sessions' sockets.

The routers (``api/``, ``ws.py``, ``pages.py``) import this module; it imports no router
and not the app, so the app imports the routers without an import circle.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection

from meadhall.server.broadcast import SESSIONS, Broadcast
from meadhall.server.errors import ApiError
from meadhall.server.games import GameService
from meadhall.server.history import HistoryCache
from meadhall.server.mail import Notifier
from meadhall.server.metrics import Metrics
from meadhall.server.ratelimit import RateLimits
from meadhall.server.security import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, same_token, token_hash
from meadhall.server.settings import Settings
from meadhall.server.socket_limits import SocketLimits
from meadhall.server.store import Store, User

if TYPE_CHECKING:
    from meadhall.server.lobbyfeed import LobbyFeed

#: The close code of a socket whose session ended (signed out, expired or revoked).
SIGNED_OUT = 4401

_SESSION_CACHE_SECONDS = 30.0


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
    notifier: Notifier
    #: Open WebSockets by the (hashed) session that opened them: signing out closes them.
    session_sockets: dict[str, set[Any]] = field(default_factory=dict)
    history: HistoryCache = field(default_factory=HistoryCache)
    #: Messages every server handles (sign-outs, the lobby's changes): :mod:`meadhall.server.broadcast`.
    broadcast: Broadcast = field(default_factory=Broadcast)
    #: The lobby sockets of this server and what they are sent (the app sets it).
    lobby: LobbyFeed | None = None
    #: Live sessions read lately, by token hash: (when read, the user, the CSRF token).
    _sessions: dict[str, tuple[float, User, str]] = field(default_factory=dict, repr=False)


def services(request: HTTPConnection) -> Services:
    """The services of the running app (of a request or a WebSocket)."""
    found: Services = request.app.state.services
    return found


async def session_of(request: HTTPConnection) -> tuple[User, str] | None:
    """The user and CSRF token of the session cookie (of a request or a WebSocket), if live."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    svc = services(request)
    hashed = token_hash(svc.secret, token)
    cache = svc._sessions
    hit = cache.get(hashed)
    if hit is not None and time.monotonic() - hit[0] < _SESSION_CACHE_SECONDS:
        return hit[1], hit[2]
    found = await svc.store.aread(lambda c: Store.session(c, hashed))
    if found is None:
        cache.pop(hashed, None)
        return None
    if len(cache) > 50_000:
        cache.clear()
    cache[hashed] = (time.monotonic(), found[0], found[1])
    return found


async def end_session(svc: Services, session: str) -> None:
    """The session ``session`` (a token hash) has ended, signed out or revoked: on every server at once.

    This server forgets it and closes its sockets now; every server (with ``redis_url``,
    through Redis) does the same on hearing it (:func:`session_ended`), so no server's
    cache lets the cookie in for the rest of its 30 seconds.
    """
    svc._sessions.pop(session, None)
    await close_session_sockets(svc, session)
    svc.broadcast.send(SESSIONS, {"session": session})


async def session_ended(svc: Services, message: dict[str, Any]) -> None:
    """Handle a session's end heard from any server (messages missed: forget every cached session)."""
    if message.get("missed"):
        svc._sessions.clear()
        return
    session = str(message.get("session", ""))
    svc._sessions.pop(session, None)
    await close_session_sockets(svc, session)


async def close_session_sockets(svc: Services, session: str) -> None:
    """Close every socket opened with the session ``session`` (a token hash): it has signed out."""
    for websocket in list(svc.session_sockets.pop(session, ())):
        with contextlib.suppress(Exception):
            await websocket.close(code=SIGNED_OUT, reason="signed out")


def keep_session_socket(svc: Services, session: str | None, websocket: Any) -> None:
    """Note a socket opened with ``session`` (a token hash; None: signed out): the session's end closes it."""
    if session is not None:
        svc.session_sockets.setdefault(session, set()).add(websocket)


def drop_session_socket(svc: Services, session: str | None, websocket: Any) -> None:
    """A socket noted by :func:`keep_session_socket` has closed."""
    sockets = svc.session_sockets.get(session) if session is not None else None
    if sockets is not None:
        sockets.discard(websocket)
        if not sockets:
            svc.session_sockets.pop(str(session), None)


async def optional_user(request: Request) -> User | None:
    """The signed-in user, or ``None``."""
    found = await session_of(request)
    return found[0] if found else None


def check_origin(request: Request) -> None:
    """Refuse a browser request sent from another site."""
    origin = request.headers.get("origin")
    if origin and origin != "null":
        host = request.headers.get("host", "")
        if origin.split("://", 1)[-1] != host:
            raise ApiError(403, "cross-site", "requests from other sites are refused")


async def signed_in(request: Request) -> User:
    """The signed-in user (401 otherwise), for reading."""
    found = await session_of(request)
    if found is None:
        raise ApiError(401, "signed-out", "sign in (or play as a guest) first")
    return found[0]


async def acting_user(request: Request) -> User:
    """The signed-in user of a state-changing request, with its CSRF token checked."""
    check_origin(request)
    found = await session_of(request)
    if found is None:
        raise ApiError(401, "signed-out", "sign in (or play as a guest) first")
    user, csrf = found
    check_csrf(request, csrf)
    return user


def check_csrf(request: Request, csrf: str) -> None:
    """Refuse a state-changing request of a session that does not carry the session's CSRF token."""
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not same_token(sent, csrf):
        raise ApiError(403, "csrf", "missing or wrong CSRF token (send the X-CSRF-Token header)")


def set_session_cookies(request: Request, response: Response, token: str, csrf: str, days: int) -> None:
    """Set the HTTP-only session cookie and the readable CSRF cookie."""
    svc = services(request)
    setting = svc.settings.cookie_secure
    host = request.url.hostname or ""
    secure = setting == "true" or (
        setting == "auto" and (request.url.scheme == "https" or host in ("localhost", "127.0.0.1", "::1"))
    )
    age = days * 86_400
    response.set_cookie(SESSION_COOKIE, token, max_age=age, httponly=True, secure=secure, samesite="lax", path="/")
    response.set_cookie(CSRF_COOKIE, csrf, max_age=age, httponly=False, secure=secure, samesite="lax", path="/")


OptionalUser = Annotated[User | None, Depends(optional_user)]
SignedIn = Annotated[User, Depends(signed_in)]
Acting = Annotated[User, Depends(acting_user)]
