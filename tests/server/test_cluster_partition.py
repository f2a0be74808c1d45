"""Two real servers on separate network namespaces; the owner of a table is cut off the network, then healed.

The partition drill of docs/deploy.md ("Several servers"). The test builds the network
itself (it runs as root; tests/server/netns.py): a namespace per host, a private
``redis-server`` and a private PostgreSQL cluster (``initdb``/``pg_ctl``, as in the
outage drills) on hosts of their own, and two servers, each with

- a *back* veth link into a bridge of the root namespace, which joins the hosts: the
  servers reach Redis, the database and so each other only across it;
- a *front* link of its own (as a proxy would reach it), over which the test plays.

Cutting the owner's back link (``ip link set ... down`` on the bridge's side: its packets
are dropped silently, as on a real partition) leaves it alone with its clients: it must
stop acknowledging moves once its lease may have run out (503 ``degraded``), while the
other server takes the table over when the lease expires and plays on. After the link
comes back the old owner finds its lease gone, becomes a mirror and shows the
survivor's moves, and the game goes on through both. Checked: the lease names one owner,
the database's moves are exactly the acknowledged ones (each version once), nothing
refused with anything but a clear 503 (or 409, stale). No durations are asserted.

Skipped, saying why, when not root, without ``ip netns``, ``redis-server`` or
``initdb``/``pg_ctl``. Everything made (namespaces, links, bridge, processes, the
database folder) is removed in ``finally`` blocks, even on failure.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.server.netns import Network, cluster_on_hosts, netns_skip
from tests.server.netns import network as network  # the fixture
from tests.server.test_cluster_outage import (
    PrivatePostgres,
    PrivateRedis,
    _health,
    _play_on,
    _table,
    _try_move,
)
from tests.server.test_cluster_service import HANG_GUARD, Server, _lease_holder, _stored_moves, _until

_SKIP = netns_skip("the partition drill")
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")


def test_a_cut_off_owner_stops_the_other_takes_over_and_the_healed_one_mirrors(
    tmp_path: Path, network: Network
) -> None:
    with cluster_on_hosts(tmp_path, network) as cluster:
        first, second = cluster.servers
        _partition_drill(network, first, second, cluster.postgres, cluster.redis)


def _partition_drill(
    network: Network, first: Server, second: Server, postgres: PrivatePostgres, redis: PrivateRedis
) -> None:
    where = (redis.host, redis.port)
    table_id, ann, bob = _table(first, second)
    assert _lease_holder(table_id, where) == first.node  # the server that started the table runs it
    players = {0: ann, 1: bob}  # each through their own server: Bob's moves are forwarded to the owner
    acknowledged: list[tuple[int, int, str]] = []
    _play_on(players, table_id, acknowledged, 4)
    owner_side = {0: ann, 1: bob.through(first)}
    owner_side[1].state(table_id)  # Bob has looked at the owner too (his session is known there)

    network.cut(1)  # the owner is cut off: Redis, the database, the other
    try:
        # A move reaching the other server at once is forwarded to the owner, which does not
        # hear it: refused (503 unanswered), or played there if the lease ran out meanwhile;
        # never played twice, even once the owner hears the request after the healing.
        survivor_side = {0: ann.through(second), 1: bob}
        _try_move(survivor_side, table_id, acknowledged, [])
        # The owner, reached by its clients still, refuses once its lease may have run out.
        refusals: list[str] = []
        _until(
            "the cut-off owner to refuse a move",
            lambda: (
                not _try_move(owner_side, table_id, acknowledged, refusals) and refusals[-1].startswith("degraded:")
            ),
        )
        assert _health(first) == {"status": "degraded", "redis": "unreachable"}
        # The other server takes the table over once the lease has expired, and plays on.
        _until("the other server to take the table over", lambda: _lease_holder(table_id, where) == second.node)
        _play_on(survivor_side, table_id, acknowledged, 4)
        assert not _try_move(owner_side, table_id, acknowledged, refusals)  # still cut off: still refused
        assert refusals[-1].startswith("degraded:"), refusals
    finally:
        network.heal(1)

    # Healed: the old owner finds its lease gone, mirrors the table and shows the survivor's moves.
    _until("the healed server to answer Redis again", lambda: _health(first) == {"status": "ok", "redis": "ok"})
    _until(
        "the healed server to show the survivor's moves",
        lambda: ann.state(table_id)["version"] == len(acknowledged),
    )
    assert _lease_holder(table_id, where) == second.node  # one owner: the survivor
    _play_on(players, table_id, acknowledged, 4)  # through both servers again
    assert _lease_holder(table_id, where) == second.node
    stored = _stored_moves(postgres.url, table_id)
    assert stored == acknowledged  # nothing lost, nothing applied twice
    assert [version for version, _, _ in stored] == list(range(len(stored)))  # each version once
    assert "its lease was lost; mirrored here" in first.log.read_text()
    assert "took over table" in second.log.read_text()
    for server in (first, second):  # both still answer
        assert httpx.get(f"{server.url}/readyz", timeout=HANG_GUARD).status_code == 200
