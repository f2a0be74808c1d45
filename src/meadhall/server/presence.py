"""What the servers share of their sockets: table sockets per address, and who has a table open.

Only used with ``redis_url`` set (docs/deploy.md, "Several servers"); a single process
counts in its own memory (:class:`~meadhall.server.socket_limits.SocketLimits`, the
table runtimes' listeners). Each server writes its own part, under its node id, and
says every third of ``fade_ms`` that it is alive (every name starts with the site's
``redis_prefix``, :class:`~meadhall.server.redisnames.RedisNames`):

- ``<prefix>:nodes``, a sorted set: node id to the time (Redis's clock, ms) until which
  its entries count. A server killed or cut off stops saying so, and its entries stop
  counting ``fade_ms`` later, although the keys they sit in live on.
- ``<prefix>:ws:<address>``, a hash: node id to the number of table sockets that
  address holds on that node. ``ws_per_address`` is checked against the sum over live
  nodes, in one script, so two servers admitting at once cannot both take the last place.
- ``<prefix>:open:<table>``, a set of ``<seat>@<node>``: the seats with the table open
  on that node (the e-mail's "has the table open" test: a player watching the table
  gets no turn notice).

Why a field per node, not one counter per address with an expiry: the other servers'
sockets keep such a key alive, so a dead server's share would never fade. Every write
states this node's whole count (not +1/-1), so the heartbeat repairs anything lost
(a write that failed while Redis was away, Redis itself restarted). Keys expire
``3 × fade_ms`` after their last write: nothing is left behind once nobody writes.

When Redis does not answer, a socket is admitted on this process's own count (as a
single process would) and a seat counts as present only where its socket is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from typing import Any

from meadhall.server.redisnames import RedisNames

log = logging.getLogger("meadhall.presence")

# Redis's own clock, so that servers whose clocks disagree still agree on who is alive.
_NOW = "local t = redis.call('time') local now = t[1] * 1000 + math.floor(t[2] / 1000)\n"

# KEYS: nodes, the address's hash. ARGV: node, limit, this node's count with the new
# socket, fade_ms. 1 (and the count written) if the live nodes' sum stays in the limit.
_ADMIT = (
    _NOW
    + """
local held = tonumber(ARGV[3])
local fields = redis.call('hgetall', KEYS[2])
for i = 1, #fields, 2 do
  if fields[i] ~= ARGV[1] then
    local alive = redis.call('zscore', KEYS[1], fields[i])
    if alive and tonumber(alive) >= now then
      held = held + tonumber(fields[i + 1])
    else
      redis.call('hdel', KEYS[2], fields[i])
    end
  end
end
if held > tonumber(ARGV[2]) then return 0 end
redis.call('hset', KEYS[2], ARGV[1], ARGV[3])
redis.call('pexpire', KEYS[2], 3 * tonumber(ARGV[4]))
redis.call('zadd', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
return 1
"""
)

# KEYS: nodes, then keys this node writes its part of. ARGV: node, fade_ms, the start
# of every address's key (the rest are tables' keys), then one value per key: an
# address's count ("0": none), or a table's open seats ("1,3"; "": none). Marks the
# node alive for fade_ms more and drops nodes long dead.
_SYNC = (
    _NOW
    + """
local node, fade = ARGV[1], tonumber(ARGV[2])
redis.call('zadd', KEYS[1], now + fade, node)
redis.call('zremrangebyscore', KEYS[1], '-inf', now - 100 * fade)
for i = 2, #KEYS do
  local key, value = KEYS[i], ARGV[i + 2]
  if string.sub(key, 1, #ARGV[3]) == ARGV[3] then
    if value == '0' then redis.call('hdel', key, node) else redis.call('hset', key, node, value) end
  else
    local wanted = {}
    for seat in string.gmatch(value, '[^,]+') do wanted[seat .. '@' .. node] = true end
    for _, member in ipairs(redis.call('smembers', key)) do
      if string.sub(member, -#node - 1) == '@' .. node and not wanted[member] then redis.call('srem', key, member) end
    end
    for member in pairs(wanted) do redis.call('sadd', key, member) end
  end
  if redis.call('exists', key) == 1 then redis.call('pexpire', key, 3 * fade) end
end
return 1
"""
)

# KEYS: nodes, the table's set. The seats open on a live node.
_OPEN_SEATS = (
    _NOW
    + """
local seats = {}
for _, member in ipairs(redis.call('smembers', KEYS[2])) do
  local at = string.find(member, '@', 1, true)
  local alive = redis.call('zscore', KEYS[1], string.sub(member, at + 1))
  if alive and tonumber(alive) >= now then table.insert(seats, string.sub(member, 1, at - 1)) end
end
return seats
"""
)


class SharedPresence:
    """A server's table sockets and open seats, written to the Redis every server reads.

    ``redis`` is the cluster's client (:class:`~meadhall.server.cluster.Cluster`),
    ``node`` its id, ``names`` the site's names in Redis (the cluster's); entries of a
    node that stopped beating fade after ``fade_ms``.
    """

    def __init__(self, redis: Any, node: str, fade_ms: int, names: RedisNames) -> None:
        self.redis = redis
        self.nodes = names("nodes")
        self._addresses = names("ws", "")  # the start of every address's hash
        self._tables = names("open", "")  # the start of every table's set
        self.node = node
        self.fade_ms = fade_ms
        self.addresses: Counter[str] = Counter()  # this node's table sockets per address
        self.seats: Counter[tuple[str, int]] = Counter()  # this node's sockets per (table, seat)
        # Keys whose part was not written (Redis away): written by the next beat, even if now empty.
        self._dirty: set[str] = set()
        self._away = False
        self._task: asyncio.Task[None] | None = None

    # names -------------------------------------------------------------------------------

    def address_key(self, address: str) -> str:
        """The Redis hash of an address's table sockets, per node."""
        return self._addresses + address

    def open_key(self, table_id: str) -> str:
        """The Redis set of a table's open seats (``<seat>@<node>``)."""
        return self._tables + table_id

    # sockets per address ---------------------------------------------------------------

    async def admit(self, address: str, limit: int) -> bool:
        """Count one more socket of ``address`` here; False (nothing counted) if all servers hold ``limit``."""
        self.addresses[address] += 1
        mine = self.addresses[address]
        try:
            taken = bool(
                await self._eval(
                    _ADMIT, [self.nodes, self.address_key(address)], [self.node, limit, mine, self.fade_ms]
                )
            )
            self._answered()
        except Exception as error:
            self._failed(error)
            self._dirty.add(self.address_key(address))
            taken = mine <= limit  # as a single process would
        if not taken:
            self._drop_address(address)
            self._dirty.add(self.address_key(address))  # the next beat states this node's count again
        return taken

    async def release(self, address: str) -> None:
        """A socket of ``address`` on this node has closed."""
        self._drop_address(address)
        await self._sync([self.address_key(address)])

    def _drop_address(self, address: str) -> None:
        self.addresses[address] -= 1
        if self.addresses[address] <= 0:
            del self.addresses[address]

    # open tables -----------------------------------------------------------------------

    async def opened(self, table_id: str, seat: int) -> None:
        """A socket of ``seat`` has the table open on this node."""
        self.seats[(table_id, seat)] += 1
        if self.seats[(table_id, seat)] == 1:
            await self._sync([self.open_key(table_id)])

    async def closed(self, table_id: str, seat: int) -> None:
        """A socket of ``seat`` on this node has closed."""
        self.seats[(table_id, seat)] -= 1
        if self.seats[(table_id, seat)] <= 0:
            del self.seats[(table_id, seat)]
            await self._sync([self.open_key(table_id)])

    async def open_seats(self, table_id: str) -> set[int]:
        """The seats with the table open on any live server (this one's alone if Redis does not answer)."""
        here = {seat for (table, seat) in self.seats if table == table_id}
        try:
            found = await self._eval(_OPEN_SEATS, [self.nodes, self.open_key(table_id)], [])
            self._answered()
        except Exception as error:
            self._failed(error)
            return here
        return here | {int(seat) for seat in found}

    # writing this node's part ------------------------------------------------------------

    def _value(self, key: str) -> str:
        if key.startswith(self._addresses):
            return str(self.addresses.get(key.removeprefix(self._addresses), 0))
        table_id = key.removeprefix(self._tables)
        return ",".join(str(seat) for (table, seat) in sorted(self.seats) if table == table_id)

    async def _sync(self, keys: list[str]) -> None:
        try:
            await self._eval(
                _SYNC, [self.nodes, *keys], [self.node, self.fade_ms, self._addresses, *(self._value(k) for k in keys)]
            )
            self._answered()
        except Exception as error:
            self._failed(error)
            self._dirty.update(keys)

    async def beat(self) -> None:
        """Say this node is alive, and write its whole part again (keys kept from expiring, lost writes made good)."""
        keys = {self.address_key(a) for a in self.addresses} | {self.open_key(t) for t, _ in self.seats} | self._dirty
        self._dirty = set()
        await self._sync(sorted(keys))

    async def _beat_every(self) -> None:
        while True:
            await asyncio.sleep(self.fade_ms / 3000)
            await self.beat()

    def start(self) -> None:
        """Beat every third of ``fade_ms`` from now on."""
        self._task = asyncio.get_running_loop().create_task(self._beat_every())

    async def close(self) -> None:
        """Stop beating and take this node's entries out at once (a clean stop)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        keys = {self.address_key(a) for a in self.addresses} | {self.open_key(t) for t, _ in self.seats}
        self.addresses.clear()
        self.seats.clear()
        with contextlib.suppress(Exception):
            await self._sync(sorted(keys))
            await self.redis.zrem(self.nodes, [self.node])

    async def _eval(self, script: str, keys: list[str], args: list[Any]) -> Any:
        # Bounded: while Redis is away a socket's handshake or a notice waits fade_ms at most.
        return await asyncio.wait_for(self.redis.eval(script, keys=keys, args=args), self.fade_ms / 1000)

    def _answered(self) -> None:
        if self._away:
            log.warning("sharing sockets and presence through Redis again")
        self._away = False

    def _failed(self, error: Exception) -> None:
        if not self._away:
            log.warning("Redis does not answer (%s): sockets and presence counted in this process until it does", error)
        self._away = True
