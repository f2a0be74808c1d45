"""The live lobby: a WebSocket that sends the lobby again whenever it changes.

``/ws/lobby`` first sends ``{"type": "lobby", "tables": [...], "mine": {...}}``: the open
tables as ``GET /api/tables`` gives them to this viewer, and (signed in) the viewer's own
tables as ``GET /api/me/games`` gives them (``mine``; absent when signed out). Whenever
a table is made, joined, left, started or ends, on any server, every lobby socket is sent
the open tables again, and the people concerned (seated at it, its creator, invited to
it) their ``mine`` too; a socket whose viewer the change does not concern gets no
``mine`` (it keeps the one it has). Each viewer sees exactly what the two endpoints show
it (:func:`~meadhall.server.tables.describe`: a join code only to the table's creator).

The changes reach every server through :mod:`meadhall.server.broadcast` (Redis with
``redis_url``). Each server gathers the changes of a moment and reads the open tables
once for all its sockets; a socket still sending the last lobby is only sent the newest.

The socket may send ``{"type": "ping"}`` (answered ``{"type": "pong"}``) and
``{"type": "resync"}`` (answered with the lobby). The limits of table sockets hold
(:mod:`meadhall.server.socket_limits`): lobby and table sockets count together towards
``ws_per_address`` (HTTP 429 beyond), a socket sending too many messages is closed with
4429, a message too long with 1009; a socket of a session that ended is closed with 4401.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from meadhall.server.broadcast import LOBBY
from meadhall.server.deps import Services, services
from meadhall.server.games import encode
from meadhall.server.store import TableRow, User
from meadhall.server.tables import describe_for_anyone, games_of, open_tables, viewer_part
from meadhall.server.ws import Admitted, cross_site

router = APIRouter()
log = logging.getLogger("meadhall.lobbyfeed")

#: Seconds a server gathers the lobby's changes before sending the lobby again.
GATHER_SECONDS = 0.05


def tell_lobby(svc: Services, row: TableRow | None, also: Collection[int] = ()) -> None:
    """The table ``row`` changed (made, joined, left, started, ended): every server's lobby sockets hear it.

    ``also``: more users concerned (one who just left is no longer seated). ``row``
    None: many tables changed; everyone's lobby is sent again.
    """
    if row is None:
        svc.broadcast.send(LOBBY, {"all": True})
        return
    users = {row.created_by, *also} | {seat.user_id for seat in row.seats if seat.user_id is not None}
    names = {seat.invited.lower() for seat in row.seats if seat.invited}
    svc.broadcast.send(LOBBY, {"users": sorted(users), "names": sorted(names)})


@dataclass(eq=False)
class Viewer:
    """One lobby socket: who looks (None: signed out) and the newest message not yet sent to it."""

    user: User | None
    latest: dict[str, Any] | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, message: dict[str, Any]) -> None:
        """Send ``message`` next, instead of any still waiting (whose ``mine`` it keeps if it has none)."""
        if self.latest is not None and "mine" in self.latest and "mine" not in message:
            message = {**message, "mine": self.latest["mine"]}
        self.latest = message
        self.ready.set()

    async def next(self) -> str:
        """The next message to send (waits for one)."""
        while self.latest is None:
            self.ready.clear()
            await self.ready.wait()
        message, self.latest = self.latest, None
        return encode(message)


@dataclass
class _Changes:
    """The changes gathered since the lobby was last sent."""

    everyone: bool = False
    users: set[int] = field(default_factory=set)
    names: set[str] = field(default_factory=set)

    def concerns(self, user: User | None) -> bool:
        return user is not None and (self.everyone or user.id in self.users or user.name.lower() in self.names)

    def add(self, other: _Changes) -> None:
        self.everyone |= other.everyone
        self.users |= other.users
        self.names |= other.names


class LobbyFeed:
    """A server's lobby sockets, and the task that sends them the lobby when it changes.

    Every lobby sent goes out from that one task, the newest last: a socket is never sent
    an older lobby after a newer one.
    """

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.viewers: set[Viewer] = set()
        self._changes = _Changes()
        self._asking: set[Viewer] = set()  # new sockets, and those that asked to resync
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Hear the lobby's changes (``svc.broadcast``) and send them from now on."""
        self.svc.broadcast.on(LOBBY, self.heard)
        self._task = asyncio.get_running_loop().create_task(self._send_every_change())

    async def close(self) -> None:
        """Stop sending."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def heard(self, message: dict[str, Any]) -> None:
        """A change heard from any server (``{"missed": true}``: changes may have been lost)."""
        everyone = bool(message.get("all") or message.get("missed"))
        users = {int(u) for u in message.get("users", ())}
        names = {str(n).lower() for n in message.get("names", ())}
        self._changes.add(_Changes(everyone, users, names))
        self._wake.set()

    def ask(self, viewer: Viewer) -> None:
        """Send ``viewer`` the whole lobby, its own tables too (a new socket, or one that asked)."""
        self.viewers.add(viewer)
        self._asking.add(viewer)
        self._wake.set()

    def drop(self, viewer: Viewer) -> None:
        """A lobby socket has closed."""
        self.viewers.discard(viewer)
        self._asking.discard(viewer)

    async def _send_every_change(self) -> None:
        while True:
            await self._wake.wait()
            await asyncio.sleep(GATHER_SECONDS)
            self._wake.clear()
            changes, self._changes = self._changes, _Changes()
            asking, self._asking = self._asking, set()
            try:
                await self._send(changes, asking)
            except Exception:  # the database is away: the sockets keep what they have; try again
                log.exception("sending the lobby's change failed")
                self._changes.add(changes)
                self._asking |= asking & self.viewers
                await asyncio.sleep(1.0)
                self._wake.set()

    async def _send(self, changes: _Changes, asking: set[Viewer]) -> None:
        changed = changes.everyone or changes.users or changes.names
        viewers = list(self.viewers) if changed else [v for v in asking if v in self.viewers]
        if not viewers:
            return
        rows, users = await open_tables(self.svc)
        # What everyone sees alike is made once; a viewer gets their own list only where
        # they sit at or made an open table (their seat, their join code).
        public = [describe_for_anyone(row, users) for row in rows]
        stranger: list[dict[str, Any]] | None = None
        for viewer in viewers:
            tables = public
            if viewer.user is not None:
                parts = [viewer_part(row, viewer.user) for row in rows]
                if any(len(part) > 2 or part["my_seat"] is not None for part in parts):
                    tables = [{**table, **part} for table, part in zip(public, parts, strict=True)]
                else:
                    stranger = stranger or [{**table, **part} for table, part in zip(public, parts, strict=True)]
                    tables = stranger
            message: dict[str, Any] = {"type": "lobby", "tables": tables}
            if viewer.user is not None and (viewer in asking or changes.concerns(viewer.user)):
                message["mine"] = await games_of(self.svc, viewer.user)
            viewer.put(message)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby, sent again whenever it changes (see the module's description)."""
    svc = services(websocket)
    feed = svc.lobby
    if cross_site(websocket) or feed is None:
        await websocket.close(code=1008, reason="cross-site")
        return
    admitted = await Admitted.admit(svc, websocket)
    if admitted is None:
        return
    viewer = Viewer(admitted.user)
    try:
        await admitted.accept()
        feed.ask(viewer)

        async def sender() -> None:
            while True:
                await websocket.send_text(await viewer.next())

        admitted.send_from(sender())
        while True:
            message = await admitted.receive()
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "ping" and viewer.latest is None:  # a lobby waiting to be sent answers too
                viewer.put({"type": "pong"})
            elif kind == "resync":
                feed.ask(viewer)
    except (WebSocketDisconnect, RuntimeError, ValueError, KeyError):
        pass
    finally:
        feed.drop(viewer)
        await admitted.forget()
        await admitted.release()
