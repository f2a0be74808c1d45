"""Every name a site uses in Redis: its keys, streams and channels, all under one prefix.

Servers, ``meadhall bot-pool`` and the rate limits of one site name everything they
keep or say in Redis ``<redis_prefix>:<...>`` (the setting ``redis_prefix``), through
:class:`RedisNames` alone: two sites sharing one Redis with different prefixes (a
club's production and its staging, two test runs) never count each other's sockets,
hear each other's tables or hold each other's leases (docs/deploy.md, "Several servers").
"""

from __future__ import annotations


class RedisNames:
    """The Redis names of one site: ``names("lease", "42")`` is ``<prefix>:lease:42``."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, *parts: str) -> str:
        """The name made of the prefix and ``parts``, joined by colons."""
        return ":".join((self.prefix, *parts))

    def __repr__(self) -> str:
        return f"RedisNames({self.prefix!r})"
