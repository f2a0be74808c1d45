"""``meadhall bench-server --cluster`` and ``--postgres``: the load through HAProxy to real servers.

Two servers on a fresh PostgreSQL database and the real Redis behind HAProxy (deploy/
haproxy.cfg on free ports), and one server on PostgreSQL alone; the figures name the CPU
each part used per move. Skipped, saying so, when haproxy, PostgreSQL or Redis is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from meadhall.cli.bench_cluster import haproxy_path
from tests.server.conftest import PG, PG_ADMIN
from tests.server.test_bench_server import NEEDS_PROC, bench_server
from tests.server.test_cluster import REDIS

pytestmark = [
    NEEDS_PROC,
    pytest.mark.skipif(not PG, reason="PostgreSQL is not reachable at 127.0.0.1:5432: the cluster bench did not run"),
]


@pytest.mark.skipif(not REDIS, reason="Redis is not reachable at 127.0.0.1:6379: the cluster bench did not run")
@pytest.mark.skipif(haproxy_path() is None, reason="haproxy is not installed (apt-get install haproxy)")
def test_bench_server_cluster_drives_two_servers_through_haproxy_and_reports_each_part(tmp_path: Path) -> None:
    figures = bench_server(tmp_path, "--tables", "4", "--seconds", "2", "--cluster", "2", "--postgres-url", PG_ADMIN)
    assert figures["servers"] == 2 and figures["proxy"] is True
    # A rare refused move is counted, not hidden (seen once in a handful of runs on a busy machine).
    assert figures["moves"] > 0 and figures["errors"] <= figures["moves"] // 50
    assert 0 < figures["move_p50_ms"] <= figures["move_p99_ms"]
    # Both servers worked: leastconn spreads the players' sockets over them.
    assert len(figures["server_cpu_ms_per_move_each"]) == 2
    assert all(each > 0 for each in figures["server_cpu_ms_per_move_each"])
    assert figures["server_cpu_ms_per_move"] == pytest.approx(sum(figures["server_cpu_ms_per_move_each"]), abs=0.01)
    for part in ("server", "proxy", "redis", "postgres"):
        assert figures[f"{part}_cpu_ms_per_move"] > 0, part
        assert figures[f"{part}_cpu_share"] > 0, part
    assert figures["postgres_commits_per_move"] > 0  # every accepted move is committed
    assert figures["load_average_1min"] >= 0
    # Each server heard the tables it holds sockets of (per-table channels), and said how many messages.
    assert len(figures["table_messages_per_move_each"]) == 2
    assert 0 < sum(figures["table_messages_per_move_each"]) <= 4  # about one update per move, on one server or both


def test_bench_server_postgres_runs_one_server_directly(tmp_path: Path) -> None:
    figures = bench_server(tmp_path, "--tables", "2", "--seconds", "1.5", "--postgres", "--postgres-url", PG_ADMIN)
    assert figures["servers"] == 1 and figures["proxy"] is False
    assert figures["moves"] > 0 and figures["errors"] == 0 and figures["refused"] == {}
    assert figures["server_cpu_ms_per_move"] > 0 and figures["postgres_commits_per_move"] > 0
    assert "proxy_cpu_ms_per_move" not in figures and "redis_cpu_ms_per_move" not in figures
