"""Several servers on one database and one Redis: table leases and messages between servers.

The pieces the game service runs on (``GameService.join``; docs/deploy.md, "Several
servers": what is built, what is next); only used with ``redis_url`` set. Each server process is a
*node* with a random id.

- **Leases.** One node runs a table's runtime at a time: it holds the Redis key
  ``<prefix>:lease:<table>`` (``SET NX PX``, the value its node id) and renews every
  lease it holds a few times per lease period (a compare-and-expire script, so it only
  ever renews its own). A node that stops renewing (killed, cut off) loses the table
  when the key expires, and any other node may take it. The lease decides who *should*
  write; what keeps the record right is the database: an action is stored under the
  primary key (table, version), so two nodes that both believed they owned a table
  could never both store a move for one version.
- **Updates between servers**: a table's changes (``{"t": table, "to": version, ...}``),
  and what its sockets are told (chat, a held move, a rematch), on the table's own
  channel ``<prefix>:table:<id>``. A node hears a table (:meth:`Cluster.hear`) only while
  it needs to (the game service decides: a socket of the table here, or a copy of a game
  under way that another node runs), so what a node hears grows with its sockets, not
  with the whole cluster's tables. :meth:`Cluster.hear` returns once Redis has confirmed
  the subscription: whatever the node reads of the table after that, no later update
  can pass it by unheard.
- **Requests**: a message to one node on its channel ``<prefix>:node:<id>``, answered
  on the asker's (a move reaching a server that does not own its table, for its owner).

Messages are published in order through one queue per node, so a table's updates leave
in the order they were given. Every name starts with the site's ``redis_prefix``
(:class:`~meadhall.server.redisnames.RedisNames`).

**When Redis goes away** (docs/deploy.md, "When Redis or PostgreSQL goes away") nothing
here crashes or waits on it: renewals and publications fail and are logged,
:attr:`Cluster.reachable` turns False (``/healthz`` says so), and :meth:`Cluster.sure`
turns False for each table once its lease could have run out, so its owner stops
applying moves on it. When Redis answers again and the listener hears this node's own
message again, ``on_reconnect`` is called: updates sent meanwhile were lost, so mirrors
read their tables again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

import orjson

from meadhall.extras import require
from meadhall.server.errors import ApiError
from meadhall.server.redisnames import RedisNames

log = logging.getLogger("meadhall.cluster")

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


def degraded() -> ApiError:
    """The refusal of a request that needs Redis while it does not answer."""
    return ApiError(
        503, "degraded", "this server cannot reach the other servers (Redis) just now; try again in a moment."
    )


class Cluster:
    """A server among several: its leases, and its messages to and from the others.

    Its user (the game service) sets the callbacks: ``on_update(message)`` for
    every update of a table this node hears (:meth:`hear`), awaited in the order received; ``on_request(message)`` for a
    request sent to this node (answered with :meth:`reply`); ``on_lost(table)`` when a
    lease this node held turned out to be another's or gone; ``on_reconnect()`` when the
    listener has subscribed again after losing Redis (updates may have been missed).
    ``prefix`` is the site's ``redis_prefix``: every name it uses in Redis starts with it.
    """

    def __init__(self, url: str, lease_ms: int, node: str | None = None, *, prefix: str) -> None:
        coredis = require("coredis", "redis", "sharing tables among servers (redis_url)")
        self.url = url
        #: The site's names in Redis (shared with the presence, broadcast and bot pool of this server).
        self.names = RedisNames(prefix)
        self._table_channels = self.names("table", "")  # the start of every table's channel
        self.lease_ms = lease_ms
        self.node = node or secrets.token_hex(8)
        self.redis: Any = coredis.Redis.from_url(url, decode_responses=True)
        # coredis logs every retry at INFO: while Redis is away that is lines every second;
        # this module says once that it is away and once that it is back.
        logging.getLogger("coredis.retry").setLevel(logging.WARNING)
        self.owned: set[str] = set()
        self.on_update: Callable[[dict[str, Any]], Coroutine[Any, Any, None]] | None = None
        self.on_request: Callable[[dict[str, Any]], Coroutine[Any, Any, None]] | None = None
        self.on_lost: Callable[[str], None] | None = None
        self.on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None
        #: Whether the last exchange with Redis worked (False: this server is degraded).
        self.reachable = True
        # Per table held: the monotonic time until which its lease surely still stands
        # (counted from when the claim or renewal that set it was *sent*, less a margin).
        self._sure_until: dict[str, float] = {}
        self._hello = asyncio.Event()  # heard its own hello (listening again after an outage)
        self._resyncing: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._serving: set[asyncio.Task[None]] = set()  # forwarded requests being played here
        #: The tables whose channels this node listens to (or will, once Redis answers).
        self.tables: set[str] = set()
        #: How many tables' messages this node has heard (``/metrics``: what the fan-out costs it).
        self.heard = 0
        self._confirming: dict[str, asyncio.Future[None]] = {}  # subscriptions sent, not yet confirmed
        self._changes: asyncio.Queue[tuple[bool, str]] = asyncio.Queue()  # (subscribe?, table), in order
        self._pubsub: Any = None  # the listener's connection while it is up

    # names -----------------------------------------------------------------------------------

    def lease_key(self, table_id: str) -> str:
        """The Redis key of a table's lease."""
        return self.names("lease", table_id)

    def table_channel(self, table_id: str) -> str:
        """The channel a table's updates go out on (heard by the nodes that need them)."""
        return self._table_channels + table_id

    def node_channel(self, node: str) -> str:
        """The channel a node receives forwarded requests and replies on."""
        return self.names("node", node)

    # life ------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect, listen to the tables' channel and this node's, and renew leases from now on."""
        await self.redis.ping()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._publish()),
            loop.create_task(self._renew_every()),
            loop.create_task(self._subscribe_changes()),
        ]
        await asyncio.wait_for(self._subscribed.wait(), 10)

    async def close(self) -> None:
        """Stop, and give back every lease this node holds (another node may take them at once)."""
        tasks = [*self._tasks, *([self._resyncing] if self._resyncing is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table_id in list(self.owned):
            with contextlib.suppress(Exception):
                await self.release(table_id)

    # leases ----------------------------------------------------------------------------------

    def _sure_for(self, sent: float) -> float:
        # A lease set or renewed by a command sent at ``sent`` lasts at least until
        # sent + lease_ms on Redis's clock; a tenth off for clocks running apart.
        return sent + 0.9 * self.lease_ms / 1000

    def sure(self, table_id: str) -> bool:
        """Whether this node surely still holds the table's lease (False: it may have run out meanwhile)."""
        return table_id in self.owned and time.monotonic() < self._sure_until.get(table_id, 0.0)

    @property
    def degraded(self) -> bool:
        """Whether this server is degraded: Redis failed it, or a lease it holds may have run out.

        The second comes first when Redis goes silent (a cut link): the renewal still waits
        for its answer while :meth:`sure` has already turned False and the table's moves
        are refused, and ``/healthz`` must say so from the same moment.
        """
        return not self.reachable or not all(self.sure(table) for table in self.owned)

    def _answered(self) -> None:
        if not self.reachable:
            log.warning("Redis answers again")
            if self._resyncing is None or self._resyncing.done():
                self._resyncing = asyncio.get_running_loop().create_task(self._resync())
        self.reachable = True

    async def _resync(self) -> None:
        """After an outage: once this node hears itself on its channel again, ``on_reconnect``.

        The listener's connection comes back by itself (coredis subscribes again), but
        not necessarily before the commands' one: a message sent to itself and heard
        proves it listens again, so nothing read after this can be missed.
        """
        while True:
            self._hello.clear()
            self.publish(self.node_channel(self.node), {"kind": "hello"})
            try:
                await asyncio.wait_for(self._hello.wait(), self.lease_ms / 1000)
                break
            except TimeoutError:
                continue
        log.warning("listening to the other servers again")
        await self._hear_again()
        if self.on_reconnect is not None:
            try:
                await self.on_reconnect()
            except Exception:
                log.exception("catching up after Redis came back failed")

    def _failed(self, doing: str, error: Exception) -> None:
        if self.reachable:
            log.warning("Redis does not answer (%s: %s): degraded until it does", doing, error)
        self.reachable = False

    async def claim(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it; True if this node holds it now.

        Without Redis: False (the table is only read here until Redis answers again).
        """
        key = self.lease_key(table_id)
        from coredis.tokens import PureToken

        sent = time.monotonic()
        try:
            took = await self.redis.set(key, self.node, condition=PureToken.NX, px=self.lease_ms)
            # Not taken now but ours already: its window stays what the last claim or renewal made it.
            mine = took or await self.redis.get(key) == self.node
        except Exception as error:
            self._failed("claiming a lease", error)
            return False
        self._answered()
        if mine:
            self.owned.add(table_id)
            self._sure_until[table_id] = self._sure_for(sent) if took else self._sure_until.get(table_id, 0.0)
            return True
        self.owned.discard(table_id)
        return False

    async def owner(self, table_id: str) -> str | None:
        """The node holding the table's lease now (None: nobody; any node may take it).

        Without Redis: :class:`ApiError` 503 ``degraded``.
        """
        try:
            found = await self.redis.get(self.lease_key(table_id))
        except Exception as error:
            self._failed("reading a lease", error)
            raise degraded() from None
        self._answered()
        return str(found) if found is not None else None

    async def release(self, table_id: str) -> None:
        """Give the table's lease back (only if this node still holds it)."""
        self.owned.discard(table_id)
        self._sure_until.pop(table_id, None)
        try:
            await self.redis.eval(_RELEASE, keys=[self.lease_key(table_id)], args=[self.node])
        except Exception as error:  # it runs out by itself
            self._failed("giving a lease back", error)

    async def renew(self) -> None:
        """Renew every lease this node holds; one found lost is dropped (``on_lost``)."""
        if not self.owned:
            await self.redis.ping()  # nothing to renew: still, is Redis there? (``reachable``)
        while self.owned:
            tables = sorted(self.owned)
            sent = time.monotonic()
            kept = int(
                await self.redis.eval(_RENEW, keys=[self.lease_key(t) for t in tables], args=[self.node, self.lease_ms])
            )
            sure = self._sure_for(sent)
            for table in tables[: kept if kept >= 0 else -kept - 1]:  # the script renewed these before it stopped
                self._sure_until[table] = sure
            if kept >= 0:
                return
            lost = tables[-kept - 1]
            log.warning("the lease on table %s was lost", lost)
            self.owned.discard(lost)
            self._sure_until.pop(lost, None)
            if self.on_lost is not None:
                self.on_lost(lost)

    async def _renew_every(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                await asyncio.wait_for(self.renew(), self.lease_ms / 1000)
            except Exception as error:
                self._failed("renewing the leases", error)
            else:
                self._answered()

    # which tables this node hears --------------------------------------------------------------

    async def hear(self, table_id: str) -> bool:
        """Listen to the table's channel from now on; True once Redis has confirmed it.

        Everything published on the channel after that reaches this node, so a copy of
        the table read afterwards misses nothing. False if Redis did not confirm within
        a lease (it does not answer): the node subscribes when it comes back, and reads
        every table again then (``on_reconnect``).
        """
        if table_id in self.tables and table_id not in self._confirming:
            return True
        self.tables.add(table_id)
        future = self._confirming.get(table_id)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._confirming[table_id] = future
            self._changes.put_nowait((True, table_id))
        try:
            await asyncio.wait_for(asyncio.shield(future), self.lease_ms / 1000)
        except TimeoutError:
            return False
        return True

    async def _hear_again(self) -> None:
        """Subscribe again to every table heard (Redis may have restarted and forgotten them), and wait for it."""
        if not self.tables:
            return
        loop = asyncio.get_running_loop()
        for table_id in self.tables:
            if table_id not in self._confirming:
                self._confirming[table_id] = loop.create_future()
            self._changes.put_nowait((True, table_id))
        waiting = [asyncio.shield(self._confirming[t]) for t in self.tables if t in self._confirming]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*waiting), self.lease_ms / 1000)

    def stop_hearing(self, table_id: str) -> None:
        """Stop listening to the table's channel (once a subscription still being confirmed is)."""
        if table_id not in self.tables:
            return
        self.tables.discard(table_id)
        if table_id not in self._confirming:  # else: unsubscribed when it is confirmed (one change at a time)
            self._changes.put_nowait((False, table_id))

    def _confirmed(self, channel: str) -> None:
        table_id = channel.removeprefix(self._table_channels)
        future = self._confirming.pop(table_id, None)
        if future is not None and not future.done():
            future.set_result(None)
        if future is not None and table_id not in self.tables:  # given up meanwhile
            self._changes.put_nowait((False, table_id))

    async def _subscribe_changes(self) -> None:
        """Send the subscriptions and unsubscriptions, in the order they were decided."""
        while True:
            subscribe, table_id = await self._changes.get()
            pubsub = self._pubsub
            if pubsub is None:
                continue  # the listener subscribes to every table in ``tables`` when it is back
            try:
                if subscribe:
                    await pubsub.subscribe(self.table_channel(table_id))
                else:
                    await pubsub.unsubscribe(self.table_channel(table_id))
            except Exception as error:
                self._failed("changing what this server listens to", error)

    # messages --------------------------------------------------------------------------------

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` on ``channel`` (queued: messages leave in the order they were given)."""
        self._outbox.put_nowait((channel, orjson.dumps(message).decode()))

    def table_update(self, message: dict[str, Any]) -> None:
        """Tell the nodes hearing a table of a change to it (``{"t": table, "to": version, ...}``)."""
        self.publish(self.table_channel(str(message["t"])), message)

    async def request(self, node: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a request to ``node`` and wait for its reply.

        Raises :class:`ApiError` 503 ``unanswered`` after ``timeout`` seconds (the node may have died).
        """
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        self.publish(self.node_channel(node), {**message, "kind": "request", "rid": ident, "from": self.node})
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise ApiError(503, "unanswered", "The server holding this table did not answer; try again.") from None
        finally:
            self._waiting.pop(ident, None)

    def reply(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        """Answer a request forwarded to this node."""
        self.publish(self.node_channel(str(request["from"])), {**answer, "kind": "reply", "rid": request["rid"]})

    async def _publish(self) -> None:
        while True:
            channel, text = await self._outbox.get()
            if not self.reachable and channel.startswith(self._table_channels):
                continue  # nobody would hear it now; mirrors read their tables again on reconnecting
            try:
                await asyncio.wait_for(self.redis.publish(channel, text), self.lease_ms / 1000)
            except Exception as error:
                self._failed(f"publishing on {channel}", error)

    async def _listen(self) -> None:
        """Listen; coredis connects and subscribes again by itself, and should it give up, so does this."""
        while True:
            try:
                async with self.redis.pubsub(channels=[self.node_channel(self.node)]) as ps:
                    self._pubsub = ps
                    if self.tables:  # every table heard before (Redis went away meanwhile)
                        await ps.subscribe(*(self.table_channel(t) for t in sorted(self.tables)))
                    self._subscribed.set()
                    async for item in ps:
                        kind = item.get("type") if item is not None else None
                        if kind == "subscribe" and str(item["channel"]).startswith(self._table_channels):
                            self._confirmed(str(item["channel"]))
                        if kind != "message":
                            continue
                        if str(item["channel"]).startswith(self._table_channels):
                            self.heard += 1
                        try:
                            await self._received(orjson.loads(item["data"]))
                        except Exception:
                            log.exception("a message from another server could not be handled")
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._failed("listening", error)
            finally:
                self._pubsub = None
            await asyncio.sleep(min(1.0, self.lease_ms / 3000))

    async def _received(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "hello":
            self._hello.set()
        elif kind == "reply":
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
