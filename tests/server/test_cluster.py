"""Several servers on one Redis (server.cluster): table leases, and messages between servers.

Against the real Redis at 127.0.0.1:6379 (skipped, saying so, when it is not
reachable). The two-server drill (a table played across two processes, its owner
killed) is tests/server/test_cluster_service.py.
"""

from __future__ import annotations

import asyncio
import secrets
import socket

import pytest


def _redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


REDIS = _redis_reachable()
#: This run's names in the shared Redis (``redis_prefix``): another run's servers are another site.
SITE = f"test-{secrets.token_hex(4)}"
needs_redis = pytest.mark.skipif(
    not REDIS, reason="Redis is not reachable at 127.0.0.1:6379: the cluster was not tested"
)


@needs_redis
def test_a_lease_has_one_holder_and_passes_on_when_it_is_not_renewed() -> None:
    from meadhall.server.cluster import Cluster

    async def run() -> None:
        table = f"lease-test-{secrets.token_hex(6)}"  # a key of this run only, in the shared Redis
        a, b = Cluster("redis://127.0.0.1:6379", 600, prefix=SITE), Cluster("redis://127.0.0.1:6379", 600, prefix=SITE)
        lost: list[str] = []
        a.on_lost = lost.append
        await a.start()
        await b.start()
        try:
            assert await a.claim(table) and await a.claim(table)  # taken, and still its own
            assert not await b.claim(table)
            assert await b.owner(table) == a.node
            await asyncio.sleep(1.5)  # past the lease: A renews it
            assert not await b.claim(table) and await b.owner(table) == a.node
            for task in a._tasks:  # A stops renewing, as a killed server does
                task.cancel()
            await asyncio.sleep(0.9)
            assert await b.owner(table) is None
            assert await b.claim(table) and await b.owner(table) == b.node
            await a.renew()  # A finds it lost, and lets go
            assert lost == [table] and table not in a.owned
            await b.release(table)
            assert await a.owner(table) is None
        finally:
            await b.close()
            await a.close()

    asyncio.run(run())


@needs_redis
def test_updates_reach_the_servers_hearing_the_table_in_order_and_requests_get_their_reply() -> None:
    from meadhall.server.cluster import Cluster
    from meadhall.server.errors import ApiError

    async def run() -> None:
        a, b = (
            Cluster("redis://127.0.0.1:6379", 3000, prefix=SITE),
            Cluster("redis://127.0.0.1:6379", 3000, prefix=SITE),
        )
        table, unheard = f"msg-test-{secrets.token_hex(6)}", f"msg-test-{secrets.token_hex(6)}"
        heard: list[dict[str, object]] = []

        async def update(message: dict[str, object]) -> None:
            heard.append(message)

        async def serve(request: dict[str, object]) -> None:
            b.reply(request, {"ok": True, "twice": 2 * int(str(request["n"]))})

        b.on_update = update
        b.on_request = serve
        await a.start()
        await b.start()
        try:
            assert await b.hear(table)  # confirmed by Redis: nothing published from now on passes B by
            for version in range(20):
                a.table_update({"t": unheard, "from": version, "to": version + 1})  # B does not hear this table
                a.table_update({"t": table, "from": version, "to": version + 1})
            answer = await a.request(b.node, {"n": 21}, 10)
            assert answer["ok"] and answer["twice"] == 42
            for _ in range(100):
                if len(heard) == 20:
                    break
                await asyncio.sleep(0.05)
            assert [m["to"] for m in heard] == list(range(1, 21))  # all of them, in the order sent
            assert {m["t"] for m in heard} == {table} and b.heard == 20  # none of the table B does not hear
            b.stop_hearing(table)
            for _ in range(100):
                if dict(await a.redis.pubsub_numsub(a.table_channel(table))).get(a.table_channel(table)) == 0:
                    break
                await asyncio.sleep(0.05)
            a.table_update({"t": table, "from": 20, "to": 21})
            await a.request(b.node, {"n": 1}, 10)  # after the update, on another channel: B has had time
            assert b.heard == 20
            with pytest.raises(ApiError) as unanswered:
                await a.request("no-such-node", {"n": 1}, 0.5)
            assert (unanswered.value.status, unanswered.value.code) == (503, "unanswered")
        finally:
            await a.close()
            await b.close()

    asyncio.run(run())
