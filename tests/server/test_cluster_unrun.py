"""A table nobody else had open, with a clock running, goes on when its server dies; a copy nobody uses is dropped.

A server that dies hands its tables to the servers holding copies of them; a table no
other server ever read has no copy anywhere. One that waits for a person is run by the
first server a request of it reaches; one with work of its own (a clock running, a bot
to move) would stand still until somebody looked. So every server looks, each lease,
for such tables whose lease is free and runs them (docs/deploy.md, "Several servers").

The drill: two real servers on a fresh PostgreSQL database and the real Redis; two
Völuspá tables made, started and run on the first: one with a clock of three seconds a
seat whose runner-out a bot takes over, one without a clock. The second server is never
asked about either. ``kill -9`` of the first: the second takes the clocked table, its
clock runs out and the bot plays for the seat (a move stored), while the table that only
waits for a person is left for the first request that reaches a server.

And a copy of a game another server runs (a mirror), read for one request, is dropped
once nobody has used it for ``idle_table_seconds``: the server stops hearing its table,
and reads it again, current, when next asked.

Skipped, saying so, when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import secrets
import signal
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import start_table
from tests.server.test_cluster_service import (
    HANG_GUARD,
    Player,
    Server,
    _lease_holder,
    _stored_moves,
    _until,
    pytestmark,  # noqa: F401 (the same skips)
    two_servers,
)
from tests.server.test_cluster_service import database as database  # the fixture

CLOCK: dict[str, Any] = {"clock": True, "base_minutes": 0.05, "increment_seconds": 1, "timeout_bot": "beginner"}


def test_a_clocked_table_no_other_server_had_open_goes_on_after_its_server_dies(tmp_path: Path, database: str) -> None:
    with two_servers(tmp_path, database, secrets.token_hex(32)) as (first, second):
        ann, bob = Player(first, "ann"), Player(first, "bob")
        ann.register()
        bob.register()
        clocked = start_table(ann, bob, "voluspa", **CLOCK)
        waiting = start_table(ann, bob, "voluspa")
        assert _lease_holder(clocked) == _lease_holder(waiting) == first.node
        assert ann.state(clocked)["clock"]["running"]

        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=HANG_GUARD)

        # Nobody asks the second server about either table: it finds the clocked one itself.
        _until("the second server to run the clocked table", lambda: _lease_holder(clocked) == second.node)
        _until("the timed-out seat's bot to play", lambda: _stored_moves(database, clocked))
        assert _lease_holder(waiting) is None  # nothing to do there until a person comes
        assert _stored_moves(database, waiting) == []

        # The first request for the waiting table runs it on the server it reaches.
        through = bob.through(second)
        assert through.state(waiting)["status"] == "active"
        assert _lease_holder(waiting) == second.node
        assert f"took over table {clocked}, which no server ran" in second.log.read_text()


def _gauges(server: Server) -> dict[str, int]:
    """The server's tables in memory and tables heard now (its ``/metrics``)."""
    found: dict[str, int] = {}
    for line in httpx.get(f"{server.url}/metrics", timeout=HANG_GUARD).text.splitlines():
        name, _, value = line.partition(" ")
        if name in ("meadhall_tables_in_memory", "meadhall_cluster_tables_heard"):
            found[name.removeprefix("meadhall_")] = int(float(value))
    return found


def test_a_mirror_nobody_uses_is_dropped_and_read_again_when_asked(tmp_path: Path, database: str) -> None:
    with two_servers(tmp_path, database, secrets.token_hex(32), settings={"idle_table_seconds": "1"}) as servers:
        first, second = servers
        ann, bob = Player(first, "ann"), Player(first, "bob")
        ann.register()
        bob.register()
        table_id = start_table(ann, bob, "voluspa")
        on_second = bob.through(second)
        assert on_second.state(table_id)["version"] == 0  # a mirror there now, hearing the table
        assert _gauges(second) == {"tables_in_memory": 1, "cluster_tables_heard": 1}

        idle = {"tables_in_memory": 0, "cluster_tables_heard": 0}
        _until("the second server to drop its idle mirror", lambda: _gauges(second) == idle)
        mover = (ann, bob)[ann.state(table_id)["to_move"][0]]  # (who begins is drawn)
        mine = mover.state(table_id)
        moved = mover.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][-1], "version": mine["version"]})
        assert moved.status_code == 200, moved.text
        assert on_second.state(table_id)["version"] == 1  # read again, current
        assert _lease_holder(table_id) == first.node  # the owner still runs it
