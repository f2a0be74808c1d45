"""Live updates over WebSocket: versioned, per seat, with resync on request.

The first message is a ``snapshot`` (the seat's view at the current version). Every
accepted action then sends an ``update`` with the new version, the events this seat may
see and its new view. A client that misses a version (or reconnects) sends
``{"type": "resync"}`` and gets a fresh snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from meadhall.server.app import Services
from meadhall.server.games import Listener, TableRuntime
from meadhall.server.security import SESSION_COOKIE, token_hash
from meadhall.server.store import Store, User

router = APIRouter()
log = logging.getLogger("meadhall.ws")


async def _user(svc: Services, websocket: WebSocket) -> User | None:
    token = websocket.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    hashed = token_hash(svc.secret, token)
    found = await svc.store.aread(lambda c: Store.session(c, hashed))
    return found[0] if found else None


async def _snapshot(runtime: TableRuntime, listener: Listener) -> None:
    async with runtime.lock:
        while not listener.queue.empty():
            listener.queue.get_nowait()
        listener.queue.put_nowait({"type": "snapshot", **runtime.payload(listener.seat)})


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """A seat's (or a spectator's) live connection to a table."""
    svc: Services = websocket.app.state.services
    origin = websocket.headers.get("origin")
    if origin and origin.split("://", 1)[-1] != websocket.headers.get("host", ""):
        await websocket.close(code=1008, reason="cross-site")
        return
    runtime = await svc.games.runtime(table_id)
    if runtime is None:
        await websocket.close(code=4404, reason="no game is being played at this table")
        return
    user = await _user(svc, websocket)
    listener = Listener(runtime.seat_of(user), user.id if user else None)
    await websocket.accept()
    async with runtime.lock:
        runtime.listeners.add(listener)
        listener.queue.put_nowait({"type": "snapshot", **runtime.payload(listener.seat)})
    svc.metrics.websockets += 1

    async def sender() -> None:
        while True:
            message = await listener.queue.get()
            await websocket.send_text(orjson.dumps(message).decode())

    task = asyncio.create_task(sender())
    try:
        while True:
            message: Any = await websocket.receive_json()
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "resync":
                await _snapshot(runtime, listener)
            elif kind == "ping":
                listener.queue.put_nowait({"type": "pong", "version": runtime.version})
    except (WebSocketDisconnect, RuntimeError, ValueError):
        pass
    finally:
        runtime.listeners.discard(listener)
        svc.metrics.websockets -= 1
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
