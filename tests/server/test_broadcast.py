"""Messages every server handles (``meadhall.server.broadcast``), alone and through the real Redis.

Alone, a server hands a message to its own handler. Through Redis, two servers (two
``Broadcast`` objects, each with its own client) both hear a message either sends; while
the cluster finds Redis away a message is handled on its own server only; when the
cluster hears Redis again, each handler is told it may have missed messages, and the
sessions' handler then forgets every cached session.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Any

import pytest

from meadhall.server.broadcast import LOBBY, MISSED, SESSIONS, Broadcast
from meadhall.server.redisnames import RedisNames
from tests.server.test_cluster import REDIS

HANG_GUARD = 10.0  # only against a hang


class Heard:
    """A handler that keeps what it hears."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    async def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        self.arrived.set()

    async def wait_for(self, count: int) -> list[dict[str, Any]]:
        deadline = time.monotonic() + HANG_GUARD
        while len(self.messages) < count:
            assert time.monotonic() < deadline, f"heard only {self.messages}"
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), 0.2)
        return self.messages


def test_alone_a_server_handles_its_own_messages() -> None:
    async def run() -> None:
        broadcast, heard = Broadcast(), Heard()
        broadcast.on(LOBBY, heard)
        broadcast.send(LOBBY, {"all": True})
        broadcast.send(SESSIONS, {"session": "nobody listens"})  # no handler: nothing happens
        assert await heard.wait_for(1) == [{"all": True}]
        broadcast.missed()
        assert await heard.wait_for(2) == [{"all": True}, MISSED]

    asyncio.run(run())


class FakeCluster:
    """What ``after_outages_of`` reads of a cluster: whether Redis answers, and the callback on its return."""

    def __init__(self, told: list[str]) -> None:
        self.reachable = True
        self.told = told

        async def reconnected() -> None:
            told.append("the cluster caught up")

        self.on_reconnect: Any = reconnected


@pytest.mark.skipif(not REDIS, reason="Redis is not reachable at 127.0.0.1:6379: the broadcast was not tested")
def test_two_servers_hear_each_message_once_and_catch_up_after_an_outage() -> None:
    import coredis

    async def run() -> None:
        servers = [Broadcast(), Broadcast()]
        site = RedisNames(f"test-{secrets.token_hex(4)}")
        ears = [Heard(), Heard()]
        sessions = Heard()
        told: list[str] = []
        cluster = FakeCluster(told)
        for broadcast, ear in zip(servers, ears, strict=True):
            broadcast.on(LOBBY, ear)
            redis = coredis.Redis.from_url("redis://127.0.0.1:6379", decode_responses=True)
            await broadcast.start(redis, site)  # this run's names: another run is another site
        servers[1].on(SESSIONS, sessions)
        servers[1].after_outages_of(cluster)
        try:
            servers[0].send(LOBBY, {"users": [1], "names": ["ann"]})
            for ear in ears:  # the sender hears its own message too
                assert (await ear.wait_for(1))[0] == {"users": [1], "names": ["ann"]}
            servers[0].send(SESSIONS, {"session": "abc"})
            assert await sessions.wait_for(1) == [{"session": "abc"}]

            # Redis away (as the cluster finds): the second server's message stays with it, at once.
            cluster.reachable = False
            servers[1].send(LOBBY, {"all": True})
            assert (await ears[1].wait_for(2))[1] == {"all": True}
            # Redis back: the cluster catches up, then every handler of this server is told.
            cluster.reachable = True
            await cluster.on_reconnect()
            assert told == ["the cluster caught up"]
            assert (await ears[1].wait_for(3))[2] == MISSED
            assert (await sessions.wait_for(2))[1] == MISSED
            await asyncio.sleep(0.3)
            assert len(ears[0].messages) == 1  # the first server heard neither
        finally:
            for broadcast in servers:
                await broadcast.close()

    asyncio.run(run())
