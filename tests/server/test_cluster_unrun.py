"""A table nobody else had open, with a clock running, goes on when its server dies.

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

Skipped, saying so, when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import secrets
import signal
from pathlib import Path

from tests.server.test_cluster_service import (
    HANG_GUARD,
    Player,
    _lease_holder,
    _stored_moves,
    _until,
    pytestmark,  # noqa: F401 (the same skips)
    two_servers,
)
from tests.server.test_cluster_service import database as database  # the fixture

CLOCK = {"clock": True, "base_minutes": 0.05, "increment_seconds": 1, "timeout_bot": "beginner"}


def _start(ann: Player, bob: Player, **settings: object) -> str:
    made = ann.post(
        "/api/tables",
        {"game": "voluspa", "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}], **settings},
    )
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert bob.post(f"/api/tables/{table_id}/join").status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def test_a_clocked_table_no_other_server_had_open_goes_on_after_its_server_dies(tmp_path: Path, database: str) -> None:
    with two_servers(tmp_path, database, secrets.token_hex(32)) as (first, second):
        ann, bob = Player(first, "ann"), Player(first, "bob")
        ann.register()
        bob.register()
        clocked = _start(ann, bob, **CLOCK)
        waiting = _start(ann, bob)
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
