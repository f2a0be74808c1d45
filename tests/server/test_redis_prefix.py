"""Sites sharing one Redis, apart by their ``redis_prefix`` (docs/deploy.md, "Several servers").

Every key, stream and channel of the servers, the bot pool and the rate limits is named
through :class:`~meadhall.server.redisnames.RedisNames`: the source holds no other
Redis name (a new key that skipped the prefix fails here), and two sites with different
prefixes on the machine's Redis count their sockets per address apart, do not hear each
other's tables, hold the leases of equal table ids each, and count rate limits apart.

The sites' test is skipped, saying so, when Redis is not reachable at 127.0.0.1:6379.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pydantic
import pytest

from meadhall.server.redisnames import RedisNames
from meadhall.server.settings import Settings
from tests.server.test_cluster import REDIS

SOURCE = Path(__file__).resolve().parents[2] / "src" / "meadhall"
REDIS_URL = "redis://127.0.0.1:6379"
HANG_GUARD = 10.0  # only against a hang

#: What a Redis name written in the source, not made by RedisNames, looks like.
STRAY_NAMES = {
    "a name under the default prefix": re.compile(r"meadhall:[\w<{-]"),
    # (not Lua's redis.call('get', KEYS[1]): its command names come first, its names from KEYS)
    "a Redis command on a literal name": re.compile(r"\bredis\.(?!p?call\()\w+\(\s*\[?\s*[rbf]?[\"']"),
    "a literal channel or key list": re.compile(r"\b(?:channels|keys)=\[\s*[rbf]?[\"']"),
    "a subscription or publication on a literal channel": re.compile(r"\.(?:p?subscribe|publish)\(\s*[rbf]?[\"']"),
}


def _stray_names(text: str) -> list[str]:
    return [f"{what}: {found.group(0)!r}" for what, pattern in STRAY_NAMES.items() for found in pattern.finditer(text)]


def test_the_stray_name_check_finds_names_that_skip_the_prefix() -> None:
    assert _stray_names('await self.redis.set("meadhall:seen", 1)')  # both: a literal name, the default prefix
    assert _stray_names('await self.redis.delete([f"seen:{table}"])')
    assert _stray_names('async with self.redis.pubsub(channels=["news"]) as ps:')
    assert _stray_names('await pubsub.subscribe("news")')
    assert _stray_names("``meadhall:bots``")  # a docstring naming a fixed name is a stray too
    assert not _stray_names("await self.redis.set(self.names('seen'), 1)")
    assert not _stray_names("redis.call('pexpire', KEYS[1], ARGV[2])")  # Lua: the names come in KEYS
    assert not _stray_names('title = f"meadhall: {game}"')  # words for people, not a Redis name


def test_every_redis_name_in_the_source_goes_through_the_prefix() -> None:
    strays = {
        str(path.relative_to(SOURCE)): found
        for path in sorted(SOURCE.rglob("*.py"))
        if (found := _stray_names(path.read_text(encoding="utf-8")))
    }
    assert strays == {}, "name Redis keys, streams and channels through RedisNames (redis_prefix)"


def test_the_prefix_is_short_and_plain() -> None:
    assert Settings.model_fields["redis_prefix"].default == "meadhall"
    assert Settings.model_validate({"redis_prefix": "club.staging-2_b"}).redis_prefix == "club.staging-2_b"
    for bad in ("", "club:staging", "two words", "x" * 33, "héll"):
        with pytest.raises(pydantic.ValidationError, match="redis_prefix"):
            Settings.model_validate({"redis_prefix": bad})


class Listener:
    """A table's updates heard by one node, in order."""

    def __init__(self) -> None:
        self.heard: list[Any] = []
        self.changed = asyncio.Event()

    async def __call__(self, message: dict[str, Any]) -> None:
        self.heard.append(message["to"])
        self.changed.set()

    async def until(self, count: int) -> list[Any]:
        while len(self.heard) < count:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), HANG_GUARD)
        return self.heard


@pytest.mark.skipif(not REDIS, reason="Redis is not reachable at 127.0.0.1:6379: sites apart were not tested")
def test_two_sites_on_one_redis_do_not_see_each_other() -> None:
    from meadhall.server.cluster import Cluster
    from meadhall.server.presence import SharedPresence
    from meadhall.server.ratelimit import RateLimits

    run = secrets.token_hex(4)
    production, staging = f"test-{run}-production", f"test-{run}-staging"

    async def drill() -> set[str]:
        # Two nodes of the production site, one of the staging site, on the one Redis.
        first = Cluster(REDIS_URL, 3000, prefix=production)
        second = Cluster(REDIS_URL, 3000, prefix=production)
        other = Cluster(REDIS_URL, 3000, prefix=staging)
        nodes = (first, second, other)
        for node in nodes:
            await node.start()
        try:
            # Sockets per address: each site's limit of 1 holds its own socket, not the other's.
            ours = SharedPresence(first.redis, first.node, 3000, first.names)
            theirs = SharedPresence(other.redis, other.node, 3000, other.names)
            assert await ours.admit("10.1.2.3", 1)
            assert await theirs.admit("10.1.2.3", 1)
            assert not await ours.admit("10.1.2.3", 1) and not await theirs.admit("10.1.2.3", 1)

            # Leases: table 7 of each site is held by a node of that site.
            assert await first.claim("7") and await other.claim("7")
            assert await second.owner("7") == first.node and await other.owner("7") == other.node
            assert not await second.claim("7")

            # A table's channel: heard within the site only.
            ear, stranger = Listener(), Listener()
            second.on_update, other.on_update = ear, stranger
            assert await second.hear("7") and await other.hear("7")
            first.table_update({"t": "7", "to": "production 1"})
            other.table_update({"t": "7", "to": "staging 1"})
            assert await stranger.until(1) == ["staging 1"]  # on Redis now: a listener of it would have it next
            first.table_update({"t": "7", "to": "production 2"})
            assert await ear.until(2) == ["production 1", "production 2"]
            assert stranger.heard == ["staging 1"]

            # Rate limits: one budget of 1 a minute per site, on one key.
            sites = (production, staging)
            limits = [RateLimits(SimpleNamespace(chat_rate="1/minute", redis_prefix=p), REDIS_URL) for p in sites]
            assert await limits[0].check("chat_rate", "ann") == 0
            assert await limits[0].check("chat_rate", "ann") > 0  # the production site's budget is spent
            assert await limits[1].check("chat_rate", "ann") == 0  # the staging site's is whole
            found = {str(key) for key in await first.redis.keys("*") if str(key).startswith(f"test-{run}-")}
            await ours.close()
            await theirs.close()
            return found
        finally:
            for node in nodes:
                await node.close()
            keys = [str(key) for key in await first.redis.keys(f"test-{run}-*")]
            if keys:
                await first.redis.delete(keys)

    found = asyncio.run(drill())
    for site in (production, staging):
        names = RedisNames(site)
        # Every kind of key both sites wrote is there, once per site, under its own prefix.
        assert {names("nodes"), names("ws", "10.1.2.3"), names("lease", "7")} <= found
        assert any(key.startswith(names("limits")) for key in found), found
