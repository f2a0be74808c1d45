"""Several servers on one database and one Redis: table leases and messages between servers.

The pieces the game service runs on (``GameService.join``; docs/deploy.md, "Several
servers": what is built, what is next); only used with ``redis_url`` set. Each server process is a
*node* with a random id.

- **Leases.** One node runs a table's runtime at a time: it holds the Redis key
  ``meadhall:lease:<table>`` (``SET NX PX``, the value its node id) and renews every
  lease it holds a few times per lease period (a compare-and-expire script, so it only
  ever renews its own). A node that stops renewing (killed, cut off) loses the table
  when the key expires, and any other node may take it. The lease decides who *should*
  write; what keeps the record right is the database: an action is stored under the
  primary key (table, version), so two nodes that both believed they owned a table
  could never both store a move for one version.
- **Updates between servers**: a table's changes (``{"t": table, "to": version, ...}``)
  on the channel ``meadhall:tables``, which every node hears.
- **Requests**: a message to one node on its channel ``meadhall:node:<id>``, answered
  on the asker's (a move reaching a server that does not own its table, for its owner).

Messages are published in order through one queue per node, so a table's updates leave
in the order they were given.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import Any

import orjson

from meadhall.extras import require
from meadhall.server.errors import ApiError

log = logging.getLogger("meadhall.cluster")

#: The channel every node listens to for tables' updates.
TABLES = "meadhall:tables"

# Renews a lease only while it is still this node's (returns 1), else 0.
_RENEW = """
local kept = 0
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
    kept = kept + 1
  else
    return -i
  end
end
return kept
"""
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


def lease_key(table_id: str) -> str:
    """The Redis key of a table's lease."""
    return f"meadhall:lease:{table_id}"


def node_channel(node: str) -> str:
    """The channel a node receives forwarded requests and replies on."""
    return f"meadhall:node:{node}"


class Cluster:
    """A server among several: its leases, and its messages to and from the others.

    Its user (the game service) sets the callbacks: ``on_update(message)`` for
    every table's update, awaited in the order received; ``on_request(message)`` for a
    request sent to this node (answered with :meth:`reply`); ``on_lost(table)`` when a
    lease this node held turned out to be another's or gone.
    """

    def __init__(self, url: str, lease_ms: int, node: str | None = None) -> None:
        coredis = require("coredis", "redis", "sharing tables among servers (redis_url)")
        self.url = url
        self.lease_ms = lease_ms
        self.node = node or secrets.token_hex(8)
        self.redis: Any = coredis.Redis.from_url(url, decode_responses=True)
        self.owned: set[str] = set()
        self.on_update: Callable[[dict[str, Any]], Coroutine[Any, Any, None]] | None = None
        self.on_request: Callable[[dict[str, Any]], Coroutine[Any, Any, None]] | None = None
        self.on_lost: Callable[[str], None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._serving: set[asyncio.Task[None]] = set()  # forwarded requests being played here

    # life ------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect, listen to the tables' channel and this node's, and renew leases from now on."""
        await self.redis.ping()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._publish()),
            loop.create_task(self._renew_every()),
        ]
        await asyncio.wait_for(self._subscribed.wait(), 10)

    async def close(self) -> None:
        """Stop, and give back every lease this node holds (another node may take them at once)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table_id in list(self.owned):
            with contextlib.suppress(Exception):
                await self.release(table_id)

    # leases ----------------------------------------------------------------------------------

    async def claim(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it; True if this node holds it now."""
        key = lease_key(table_id)
        from coredis.tokens import PureToken

        took = await self.redis.set(key, self.node, condition=PureToken.NX, px=self.lease_ms)
        if took or await self.redis.get(key) == self.node:
            self.owned.add(table_id)
            return True
        self.owned.discard(table_id)
        return False

    async def owner(self, table_id: str) -> str | None:
        """The node holding the table's lease now (None: nobody; any node may take it)."""
        found = await self.redis.get(lease_key(table_id))
        return str(found) if found is not None else None

    async def release(self, table_id: str) -> None:
        """Give the table's lease back (only if this node still holds it)."""
        self.owned.discard(table_id)
        await self.redis.eval(_RELEASE, keys=[lease_key(table_id)], args=[self.node])

    async def renew(self) -> None:
        """Renew every lease this node holds; one found lost is dropped (``on_lost``)."""
        while self.owned:
            tables = sorted(self.owned)
            kept = int(
                await self.redis.eval(_RENEW, keys=[lease_key(t) for t in tables], args=[self.node, self.lease_ms])
            )
            if kept >= 0:
                return
            lost = tables[-kept - 1]
            log.warning("the lease on table %s was lost", lost)
            self.owned.discard(lost)
            if self.on_lost is not None:
                self.on_lost(lost)

    async def _renew_every(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                await self.renew()
            except Exception:
                log.exception("renewing the table leases failed")

    # messages --------------------------------------------------------------------------------

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` on ``channel`` (queued: messages leave in the order they were given)."""
        self._outbox.put_nowait((channel, orjson.dumps(message).decode()))

    def table_update(self, message: dict[str, Any]) -> None:
        """Tell every node of a change to a table (``{"t": table, "to": version, ...}``)."""
        self.publish(TABLES, message)

    async def request(self, node: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a request to ``node`` and wait for its reply.

        Raises :class:`ApiError` 503 ``unanswered`` after ``timeout`` seconds (the node may have died).
        """
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        self.publish(node_channel(node), {**message, "kind": "request", "rid": ident, "from": self.node})
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise ApiError(503, "unanswered", "The server holding this table did not answer; try again.") from None
        finally:
            self._waiting.pop(ident, None)

    def reply(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        """Answer a request forwarded to this node."""
        self.publish(node_channel(str(request["from"])), {**answer, "kind": "reply", "rid": request["rid"]})

    async def _publish(self) -> None:
        while True:
            channel, text = await self._outbox.get()
            try:
                await self.redis.publish(channel, text)
            except Exception:
                log.exception("publishing on %s failed", channel)

    async def _listen(self) -> None:
        async with self.redis.pubsub(ignore_subscribe_messages=True, channels=[TABLES, node_channel(self.node)]) as ps:
            self._subscribed.set()
            async for item in ps:
                if item is None or item.get("type") != "message":
                    continue
                try:
                    await self._received(orjson.loads(item["data"]))
                except Exception:
                    log.exception("a message from another server could not be handled")

    async def _received(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "reply":
            future = self._waiting.get(int(message["rid"]))
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "request":
            if self.on_request is not None:
                task = asyncio.get_running_loop().create_task(self.on_request(message))
                self._serving.add(task)
                task.add_done_callback(self._serving.discard)
        elif self.on_update is not None:
            await self.on_update(message)
