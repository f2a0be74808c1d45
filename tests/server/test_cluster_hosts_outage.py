"""The outage drills across a real network: Redis, then PostgreSQL, cut off from two servers on hosts of their own.

docs/deploy.md, "When Redis or PostgreSQL goes away". The cluster of
tests/server/netns.py: two ``meadhall serve`` processes, a private ``redis-server`` and
a private PostgreSQL cluster, each in a network namespace of its own, joined by veth
links into a bridge. Where tests/server/test_cluster_outage.py stops the service (its
port then refuses at once), here the service's link goes down: its packets vanish,
nothing is refused or reset, as when a switch or a host's network dies. The drills are
the same: during the cut ``/healthz`` says Redis is unreachable, every move is either
acknowledged or refused with a clear 503, never a 500 and never lost; healed, both
servers play on by themselves and the database holds exactly the acknowledged moves.
PostgreSQL is also restarted (``pg_ctl stop``/``start`` on its host) before its link is
cut. No durations are asserted: every wait polls under a generous guard against hangs.

Skipped, saying why, when not root, without ``ip netns``, ``redis-server`` or
``initdb``/``pg_ctl``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.netns import POSTGRES_HOST, REDIS_HOST, Network, cluster_on_hosts, netns_skip
from tests.server.netns import network as network  # the fixture
from tests.server.test_cluster_outage import _postgres_drill, _redis_drill

_SKIP = netns_skip("the outage drill across hosts")
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")


def test_servers_on_their_hosts_degrade_while_redis_is_cut_off_and_recover(tmp_path: Path, network: Network) -> None:
    with cluster_on_hosts(tmp_path, network) as cluster:
        first, second = cluster.servers
        _redis_drill(
            first, second, cluster.postgres.url, lambda: network.cut(REDIS_HOST), lambda: network.heal(REDIS_HOST)
        )


def test_servers_on_their_hosts_ride_out_a_postgresql_restart_and_a_cut_link(tmp_path: Path, network: Network) -> None:
    with cluster_on_hosts(tmp_path, network) as cluster:
        first, second = cluster.servers
        postgres = cluster.postgres
        restart = (postgres.stop, postgres.start)
        cut_link = (lambda: network.cut(POSTGRES_HOST), lambda: network.heal(POSTGRES_HOST))
        _postgres_drill(first, second, postgres.url, [restart, cut_link])
