"""What every server hears at once: sessions that ended, and the lobby's changes.

A message is sent on a named channel and handled on every server by the handler that
server set for that channel (:meth:`Broadcast.on`). A server alone (no ``redis_url``)
hands the message to its own handler; with Redis (:meth:`Broadcast.start`) it goes out
as a Redis pub/sub message on the channel (named with the site's ``redis_prefix``,
``<prefix>:sessions``), and every server, the sender among them, hears it and handles
it (docs/deploy.md, "Several servers"). The channels:

- ``sessions``: ``{"session": <token hash>}``, a session signed out (or
  revoked): each server drops it from its session cache and closes its sockets.
- ``lobby``: ``{"users": [ids], "names": [invited names]}``, a table those
  people sit at, made or are invited to was made, joined, left, started or ended;
  ``{"all": true}``, many tables changed (the open ones expired): each server sends its
  lobby sockets the lobby again (:mod:`meadhall.server.lobbyfeed`).

Handlers are idempotent: hearing a message twice does no harm. When Redis does not
answer, a message that could not be published is handled on its own server only (logged),
and when the listener has to subscribe again each handler is called with
``{"missed": true}``: messages may have been lost meanwhile, so the sessions' cache is
emptied and the lobby sockets get the lobby again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import orjson

from meadhall.server.redisnames import RedisNames

log = logging.getLogger("meadhall.broadcast")

#: Sessions that ended (signed out, revoked).
SESSIONS = "sessions"
#: The lobby's changes.
LOBBY = "lobby"
#: What a handler is called with when messages may have been missed.
MISSED: dict[str, Any] = {"missed": True}

Handler = Callable[[dict[str, Any]], Coroutine[Any, Any, None]]


class Broadcast:
    """Messages every server handles: through Redis with several servers, in this process otherwise."""

    def __init__(self, timeout: float = 2.0) -> None:
        self.timeout = timeout
        self.redis: Any = None
        self._names: RedisNames | None = None  # the site's names in Redis, once started
        self._handlers: dict[str, Handler] = {}
        self._outbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._handling: set[asyncio.Task[None]] = set()
        self._subscribed = asyncio.Event()
        self._reachable: Callable[[], bool] = lambda: True  # whether Redis answers lately (the cluster's word)
        self._away = False  # the listener failed, said once

    def on(self, channel: str, handler: Handler) -> None:
        """Handle the messages of ``channel`` (heard from any server) with ``handler``."""
        self._handlers[channel] = handler

    def send(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every server's handler of ``channel`` (this one's too); does not wait."""
        if self.redis is None or not self._reachable():  # alone, or Redis away: this server only
            self._handle(channel, message)
        else:
            self._outbox.put_nowait((channel, message))

    def _handle(self, channel: str, message: dict[str, Any]) -> None:
        handler = self._handlers.get(channel)
        if handler is None:
            return
        task = asyncio.get_running_loop().create_task(handler(message))
        self._handling.add(task)
        task.add_done_callback(self._handled)

    def _handled(self, task: asyncio.Task[None]) -> None:
        self._handling.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a broadcast message could not be handled", exc_info=task.exception())

    async def start(self, redis: Any, names: RedisNames) -> None:
        """Send and hear the messages through ``redis`` (a coredis client) from now on, named by ``names``."""
        self.redis = redis
        self._names = names
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]
        await asyncio.wait_for(self._subscribed.wait(), 10)

    async def close(self) -> None:
        """Stop listening and sending."""
        for task in [*self._tasks, *self._handling]:
            task.cancel()
        for task in [*self._tasks, *self._handling]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []

    def after_outages_of(self, cluster: Any) -> None:
        """Catch up (:meth:`missed`) whenever ``cluster`` (a :class:`~meadhall.server.cluster.Cluster`) does.

        The cluster knows when Redis answers and hears it again after an outage; until
        then messages on these channels may have been lost too. While it finds Redis away,
        a message sent is handled on this server only, at once.
        """
        previous = cluster.on_reconnect
        self._reachable = lambda: bool(cluster.reachable)

        async def caught_up() -> None:
            if previous is not None:
                await previous()
            self.missed()

        cluster.on_reconnect = caught_up

    def missed(self) -> None:
        """Messages may have been lost (Redis was away): every handler catches up."""
        for channel in self._handlers:
            self._handle(channel, MISSED)

    async def _publish(self) -> None:
        while True:
            channel, message = await self._outbox.get()
            try:
                await asyncio.wait_for(
                    self.redis.publish(self._in_redis(channel), orjson.dumps(message).decode()), self.timeout
                )
            except Exception as error:
                log.warning("could not tell the other servers (%s: %s): told this one only", channel, error)
                self._handle(channel, message)

    def _in_redis(self, channel: str) -> str:
        assert self._names is not None  # started
        return self._names(channel)

    async def _listen(self) -> None:
        again = False
        heard = {self._in_redis(channel): channel for channel in (SESSIONS, LOBBY)}
        while True:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True, channels=list(heard)) as ps:
                    self._subscribed.set()
                    if again:
                        log.warning("hearing sign-outs and the lobby's changes again")
                        self._away = False
                        self.missed()
                    async for item in ps:
                        if item is not None and item.get("type") == "message":
                            self._handle(heard[str(item["channel"])], orjson.loads(item["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not self._away:
                    log.warning("listening for sign-outs and the lobby's changes failed (%s): trying again", error)
                self._away = True
            again = True
            await asyncio.sleep(1.0)
