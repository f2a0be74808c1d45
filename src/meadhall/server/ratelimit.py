"""Rate limits, counted by the maintained ``limits`` library in one configurable storage.

Every rate of the server is a Settings field (``login_rate``, ``chat_rate``,
``history_rate``, ...) and is counted here, in the storage that ``rate_limit_storage``
names: ``memory://`` (this process, the default) or ``redis://host:6379`` (shared by
several processes; needs the ``redis`` extra). Moving the counters is that one setting;
left at ``memory://`` while ``redis_url`` names the Redis several servers share, the
counters live there (``Settings.rate_limit_uri``): every server counts one budget. In
Redis their keys start with the site's ``redis_prefix`` (``<prefix>:limits``), so sites
sharing one Redis count apart.

Use :meth:`RateLimits.check` with the name of the Settings field that holds the rate::

    retry = await svc.limits.check("chat_rate", str(user.id))
    if retry:
        ...  # refuse; the client may try again in ``retry`` seconds
"""

from __future__ import annotations

import math
import time
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from meadhall.server.redisnames import RedisNames


def parse_rate(value: int | str) -> list[RateLimitItem]:
    """A rate in the ``limits`` notation (``"5/10 seconds;30/minute"``); a bare number is per minute."""
    if isinstance(value, int):
        value = f"{value}/minute"
    return parse_many(value)


def make_storage(uri: str, names: RedisNames) -> Storage:
    """The asynchronous ``limits`` storage for ``uri`` (``memory://``, ``redis://host:port``, ...).

    In Redis or Valkey (plain, TLS, a socket, a cluster, sentinels) the counters' keys
    start ``<prefix>:limits`` (``names``).
    """
    if not uri.startswith("async+"):
        uri = f"async+{uri}"
    kinds = uri.partition("://")[0].split("+")
    in_redis = any(kind.startswith(("redis", "valkey")) for kind in kinds)
    storage = storage_from_string(uri, **({"key_prefix": names("limits")} if in_redis else {}))
    if not isinstance(storage, Storage):
        raise ValueError(f"{uri!r} is not a storage the server can use")
    return storage


class RateLimits:
    """The server's rate limits: moving windows in one ``limits`` storage.

    ``settings`` is the server's Settings object (any object whose attributes hold the
    rates, and ``redis_prefix``); each rate is parsed once, on first use.
    """

    def __init__(self, settings: Any, storage_uri: str | None = None) -> None:
        self.settings = settings
        uri = storage_uri or getattr(settings, "rate_limit_uri", None) or settings.rate_limit_storage
        self.storage = make_storage(uri, RedisNames(settings.redis_prefix))
        self.strategy = MovingWindowRateLimiter(self.storage)
        self._rates: dict[str, list[RateLimitItem]] = {}

    def rate(self, setting: str) -> list[RateLimitItem]:
        """The parsed rate held by the Settings field ``setting``."""
        found = self._rates.get(setting)
        if found is None:
            found = self._rates[setting] = parse_rate(getattr(self.settings, setting))
        return found

    async def check(self, setting: str, *keys: str) -> int:
        """Count one event for ``keys`` against the rate in ``setting``.

        Returns 0 if it is allowed (and counted), otherwise the seconds until the
        next one would be (nothing is counted then).
        """
        rates = self.rate(setting)
        identifiers = (setting, *keys)
        # Test every window first, so that a refused event is not counted in the others.
        for item in rates:
            if not await self.strategy.test(item, *identifiers):
                return await self._retry_after(item, identifiers)
        for item in rates:
            if not await self.strategy.hit(item, *identifiers):  # filled meanwhile by a concurrent event
                return await self._retry_after(item, identifiers)
        return 0

    async def _retry_after(self, item: RateLimitItem, identifiers: tuple[str, ...]) -> int:
        stats = await self.strategy.get_window_stats(item, *identifiers)
        return max(1, math.ceil(stats.reset_time - time.time()))
