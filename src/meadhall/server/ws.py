"""Live updates over WebSocket: versioned, per seat, with resync on request.

The first message is a ``snapshot`` (the seat's view at the current version; opened as
``/ws/tables/{id}?words=1``, every message carries the game's words too, see
:meth:`~meadhall.server.games.TableRuntime.payload`). Every
accepted action then sends an ``update`` with the new version, the events this seat may
see and its new view. A client that misses a version (or reconnects) sends
``{"type": "resync"}`` and gets a fresh snapshot.

A seated socket may also play: ``{"type": "act", "action": "...", "version": N, "id": K}``
is checked and committed exactly like ``POST /api/tables/{id}/actions`` (the socket's
seat acts; the cookie that opened it and the same-origin check stand in for the CSRF
token). After the ``update`` it answers ``{"type": "acted", "id": K, "version": N+1}``,
or ``{"type": "refused", "id": K, "status": 4xx, "error": code, "message": ...}`` with
nothing changed. The browser plays this way: it saves an HTTP request per move.
``{"type": "undo", "version": N, "id": K}`` takes back the seat's latest move as
``POST /api/tables/{id}/undo`` does: everyone gets an ``update`` (with ``taken_back``, the
seat), then the socket's answer ``{"type": "undone", "id": K, "version": N+1}``, or ``refused``.
``{"type": "confirm", "version": N, "id": K}`` confirms the seat's held moves at a
confirm-turn table as ``POST /api/tables/{id}/confirm`` does, answered ``confirmed`` or
``refused``. While a seat holds moves, its own sockets (only they) get an ``update`` per
held move or dropped one, with versions that count the held moves.

Limits (see :mod:`meadhall.server.socket_limits`): resyncs are coalesced (a socket gets at
most one snapshot per version: asking again at the same version answers nothing), a
socket that sends too many messages is closed with code 4429, a message too long with
1009, and an address holding too many table sockets is refused with HTTP 429.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InterfaceError, OperationalError

from meadhall.server.deps import (
    SIGNED_OUT,
    Services,
    drop_session_socket,
    keep_session_socket,
    services,
    session_of,
)
from meadhall.server.errors import DATABASE_AWAY, ApiError
from meadhall.server.games import Listener, TableRuntime, encode
from meadhall.server.security import SESSION_COOKIE, token_hash
from meadhall.server.socket_limits import TOO_MANY
from meadhall.server.store import User

router = APIRouter()
log = logging.getLogger("meadhall.ws")


async def _snapshot(runtime: TableRuntime, listener: Listener) -> None:
    if listener.snapshot_version == runtime.seat_version(listener.seat):
        return  # it has this version's snapshot already: a flood of resyncs costs nothing
    async with runtime.lock:
        listener.clear()
        listener.queue.put_nowait(runtime.snapshot(listener.seat, listener.words))
        listener.snapshot_version = runtime.seat_version(listener.seat)


def cross_site(websocket: WebSocket) -> bool:
    """Whether a browser opened the socket from a page of another site."""
    origin = websocket.headers.get("origin")
    return bool(origin) and str(origin).split("://", 1)[-1] != websocket.headers.get("host", "")


async def deny(websocket: WebSocket, status: int, code: str, message: str) -> None:
    """Refuse a socket before its handshake completes (HTTP ``status``), or close it where that cannot be done."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(JSONResponse({"error": code, "message": message}, status_code=status))
    else:
        await websocket.close(code=TOO_MANY, reason=message)


def _refusal(ident: Any, status: int, code: str, message: str, **extra: Any) -> str:
    return encode({"type": "refused", "id": ident, "status": status, "error": code, "message": message, **extra})


async def _act(svc: Services, runtime: TableRuntime, listener: Listener, message: dict[str, Any]) -> None:
    """Play the socket's seat's action; answer ``acted`` or ``refused`` on the same socket."""
    ident = message.get("id")
    if not isinstance(ident, (int, str)) or isinstance(ident, bool):
        ident = None
    action = message.get("action")
    version = message.get("version")
    if listener.seat is None:
        text = _refusal(ident, 403, "not-seated", "you do not hold a seat at this table")
    elif not isinstance(action, str) or not 1 <= len(action) <= 80:
        text = _refusal(ident, 422, "invalid", "action: a move in the game's notation, 1 to 80 characters")
    elif not isinstance(version, int) or isinstance(version, bool) or version < 0:
        text = _refusal(ident, 422, "invalid", "version: the version the move was chosen on, a whole number")
    else:

        def acknowledge(new_version: int) -> None:
            listener.put(encode({"type": "acted", "id": ident, "version": new_version}), new_version)

        try:
            await svc.games.act(runtime, listener.seat, version, action, acknowledge, words=listener.words)
        except ApiError as refused:
            text = _refusal(ident, refused.status, refused.code, refused.message, **refused.extra)
        except (OperationalError, InterfaceError):  # the database is away: refused, the socket stays
            text = _refusal(ident, 503, "database", DATABASE_AWAY)
        else:
            return
    listener.put(text, runtime.version)


async def _undo(
    svc: Services, runtime: TableRuntime, listener: Listener, message: dict[str, Any], confirm: bool = False
) -> None:
    """Take back (``confirm``: confirm) the socket's seat's move(s); answer ``undone``/``confirmed`` or ``refused``."""
    ident = message.get("id")
    if not isinstance(ident, (int, str)) or isinstance(ident, bool):
        ident = None
    version = message.get("version")
    if listener.seat is None:
        text = _refusal(ident, 403, "not-seated", "you do not hold a seat at this table")
    elif not isinstance(version, int) or isinstance(version, bool) or version < 0:
        text = _refusal(ident, 422, "invalid", "version: the version the table showed, a whole number")
    else:

        def acknowledge(new_version: int) -> None:
            answer = "confirmed" if confirm else "undone"
            listener.put(encode({"type": answer, "id": ident, "version": new_version}), new_version)

        handle = svc.games.confirm if confirm else svc.games.undo
        try:
            await handle(runtime, listener.seat, version, acknowledge, words=listener.words)
        except ApiError as refused:
            text = _refusal(ident, refused.status, refused.code, refused.message, **refused.extra)
        except (OperationalError, InterfaceError):  # the database is away: refused, the socket stays
            text = _refusal(ident, 503, "database", DATABASE_AWAY)
        else:
            return
    listener.put(text, runtime.version)


def _asks_words(websocket: WebSocket) -> bool:
    """Whether the socket asked for the game's words (``?words=1``, as the table page does)."""
    return websocket.query_params.get("words", "") in ("1", "true", "yes")


async def still_signed_in(websocket: WebSocket, user: Any) -> bool:
    """Whether the session that opened the socket is still live, for the same user (cached reads)."""
    found = await session_of(websocket)
    return found is not None and user is not None and found[0].id == user.id


@dataclass
class Admitted:
    """A socket let in within the limits (table or lobby): who opened it, with which session, from where."""

    svc: Services
    websocket: WebSocket
    user: User | None
    session: str | None  # the session's token hash (None: signed out)
    address: str
    key: str  # its message windows (SocketLimits.socket_key)
    accepted: bool = False
    sender: asyncio.Task[None] | None = None

    @classmethod
    async def admit(cls, svc: Services, websocket: WebSocket) -> Admitted | None:
        """Count the socket towards its address's limit; None (refused with HTTP 429) over it."""
        found = await session_of(websocket)
        token = websocket.cookies.get(SESSION_COOKIE)
        limits = svc.socket_limits
        address = websocket.client.host if websocket.client else ""
        if not await limits.open(address):
            await deny(
                websocket, 429, "too-many-sockets", f"at most {limits.per_address} table connections per address"
            )
            return None
        session = token_hash(svc.secret, token) if found and token else None
        return cls(svc, websocket, found[0] if found else None, session, address, limits.socket_key())

    async def accept(self) -> None:
        """Complete the handshake; the session's end closes the socket from now on; ``/metrics`` counts it."""
        await self.websocket.accept()
        keep_session_socket(self.svc, self.session, self.websocket)
        self.svc.metrics.websockets += 1
        self.accepted = True

    def send_from(self, sender: Coroutine[Any, Any, None]) -> None:
        """Run ``sender`` (the task sending the socket's messages) until the socket closes."""
        self.sender = asyncio.create_task(sender)

    async def receive(self, before_close: Callable[[], None] = lambda: None, **context: Any) -> Any:
        """The next message, read as JSON, within the limits.

        A socket over its message rate is closed with 4429 (logged, with ``context``), one
        sending a message too long with 1009, one whose session has ended with 4401
        (``before_close`` first); then :class:`WebSocketDisconnect` is raised.
        """
        text = await self.websocket.receive_text()
        limits = self.svc.socket_limits
        longest = self.svc.settings.ws_max_message_chars
        if not limits.message(self.key):
            log.warning("a socket sent too many messages: closed", extra=context)
            code, reason = TOO_MANY, limits.refusal()
        elif len(text) > longest:
            code, reason = 1009, f"a message is at most {longest} characters"
        else:
            message = orjson.loads(text)
            if self.session is None or await still_signed_in(self.websocket, self.user):
                return message
            before_close()
            code, reason = SIGNED_OUT, "signed out"
        await self.websocket.close(code=code, reason=reason)
        raise WebSocketDisconnect(code, reason)

    async def forget(self) -> None:
        """The socket has closed: this process forgets it and stops its sender (then :meth:`release`)."""
        drop_session_socket(self.svc, self.session, self.websocket)
        self.svc.socket_limits.forget(self.key)
        if self.accepted:
            self.svc.metrics.websockets -= 1
            self.accepted = False
        if self.sender is not None:
            self.sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.sender

    async def release(self) -> None:
        """Its address holds one socket fewer (last: with several servers this may wait for Redis)."""
        await self.svc.socket_limits.close(self.address)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """A seat's (or a spectator's) live connection to a table."""
    svc = services(websocket)
    if cross_site(websocket):
        await websocket.close(code=1008, reason="cross-site")
        return
    runtime = await svc.games.runtime(table_id)
    if runtime is None:
        await websocket.close(code=4404, reason="no game is being played at this table")
        return
    admitted = await Admitted.admit(svc, websocket)
    if admitted is None:
        return
    user = admitted.user
    listener = Listener(runtime.seat_of(user), user.id if user else None, words=_asks_words(websocket))
    counted = False
    presence = svc.games.presence if listener.seat is not None else None
    try:
        await admitted.accept()
        await svc.games.open_socket(runtime, listener)  # with several servers: heard from before its snapshot
        counted = True
        if presence is not None and listener.seat is not None:
            await presence.opened(table_id, listener.seat)

        async def sender() -> None:
            while True:
                text = await listener.next_message()
                listener.sending = True
                try:
                    await websocket.send_text(text)
                finally:
                    listener.sending = False

        admitted.send_from(sender())
        listener.send_now = websocket.send_text
        while True:
            message = await admitted.receive(partial(svc.games.close_socket, runtime, listener), ctx_table=table_id)
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "act":
                await _act(svc, runtime, listener, message)
            elif kind == "undo":
                await _undo(svc, runtime, listener, message)
            elif kind == "confirm":
                await _undo(svc, runtime, listener, message, confirm=True)
            elif kind == "resync":
                await _snapshot(runtime, listener)
            elif kind == "ping":
                listener.put(encode({"type": "pong", "version": runtime.version}), runtime.version)
    except (WebSocketDisconnect, RuntimeError, ValueError, KeyError):
        pass
    finally:
        svc.games.close_socket(runtime, listener)
        listener.send_now = None
        await admitted.forget()
        # Last, what may wait for Redis (with several servers): everything in this process
        # is put right first, even if this task is cancelled meanwhile (a server stopping).
        await admitted.release()
        if counted and presence is not None and listener.seat is not None:
            await presence.closed(table_id, listener.seat)
