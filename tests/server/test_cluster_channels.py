"""Per-table channels between servers (docs/deploy.md, "Several servers": who hears a table).

Two ``meadhall serve`` processes on a fresh PostgreSQL database and the real Redis (the
helpers of ``test_cluster_service``). A table's updates go out on its own channel, and a
server listens to it only while it needs to: one with no socket and no copy of a table
hears none of its messages (counted in its ``/metrics``), and a socket opened on it in
the middle of a game sees every update after its snapshot, none missed, while the moves
go on through the other server.

The servers run with a ``redis_prefix`` of this file's own, so that the sockets they
hold do not count against another test's cluster's sockets per address, nor another
cluster's messages reach them, when tests run side by side.

Skipped, saying so, when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import secrets
import threading
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.server.test_cluster_service import (
    HANG_GUARD,
    Hearing,
    Player,
    Server,
    _play_one,
    _stored_moves,
    _until,
    database,  # noqa: F401 (the fixture)
    pytestmark,  # noqa: F401 (the same skips)
    start_two_seat_table,
    two_servers,
)

OWN_SITE = {"redis_prefix": f"test-{secrets.token_hex(4)}"}  # this file's names in Redis, apart from other drills'


def _heard(server: Server) -> tuple[int, int]:
    """The server's tables heard now and tables' messages heard so far (its ``/metrics``)."""
    found: dict[str, int] = {}
    for line in httpx.get(f"{server.url}/metrics", timeout=HANG_GUARD).text.splitlines():
        name, _, value = line.partition(" ")
        if name in ("meadhall_cluster_tables_heard", "meadhall_cluster_table_messages_total"):
            found[name] = int(float(value))
    return found["meadhall_cluster_tables_heard"], found["meadhall_cluster_table_messages_total"]


def _players_on_first(first: Server) -> dict[int, Player]:
    ann, bob = Player(first, "ann"), Player(first, "bob")
    ann.register()
    bob.register()
    return {0: ann, 1: bob}


def test_a_server_without_a_socket_of_a_table_hears_none_of_its_messages(tmp_path: Path, database: str) -> None:  # noqa: F811
    with two_servers(tmp_path, database, secrets.token_hex(32), settings=OWN_SITE) as (first, second):
        players = _players_on_first(first)
        table_id = start_two_seat_table(players[0], players[1])  # the first runs it
        url = f"ws://127.0.0.1:{first.port}/ws/tables/{table_id}"
        with connect(url, additional_headers={"Cookie": players[0].cookie()}, open_timeout=HANG_GUARD) as socket:
            hearing = Hearing(socket, "ann")
            hearing.until("its snapshot", lambda m: m["type"] == "snapshot")
            acknowledged: list[tuple[int, int, str]] = []
            for _ in range(6):
                assert _play_one(players, table_id, acknowledged)
            said = players[1].post(f"/api/tables/{table_id}/chat", {"text": "heard in one hall only"})
            assert said.status_code == 201, said.text
            hearing.until("the chat line", lambda m: m["type"] == "chat")
            hearing.until("the last move", lambda m: m["type"] == "update" and m["version"] == 6)
            # The owner holds a socket: it hears the table (its own messages come back to it).
            assert _until("the owner to hear its table", lambda: _heard(first)[1] >= 7 or None)
            assert _heard(first)[0] == 1
        assert _heard(second) == (0, 0)  # no socket, no copy: not one of the table's messages reached it
        _until("the owner to stop hearing its table", lambda: _heard(first)[0] == 0)  # its last socket closed


def test_a_socket_opened_mid_game_on_another_server_sees_every_later_update(tmp_path: Path, database: str) -> None:  # noqa: F811
    with two_servers(tmp_path, database, secrets.token_hex(32), settings=OWN_SITE) as (first, second):
        players = _players_on_first(first)
        table_id = start_two_seat_table(players[0], players[1])
        acknowledged: list[tuple[int, int, str]] = []
        for _ in range(3):
            assert _play_one(players, table_id, acknowledged)
        moves, stop = 30, threading.Event()
        failures: list[BaseException] = []

        def play_on() -> None:  # the moves go on through the first server while the socket opens on the second
            try:
                while len(acknowledged) < moves and not stop.is_set() and _play_one(players, table_id, acknowledged):
                    pass
            except BaseException as error:  # reported by the test's thread
                failures.append(error)

        playing = threading.Thread(target=play_on)
        playing.start()
        try:
            bob = players[1].through(second)
            url = f"ws://127.0.0.1:{second.port}/ws/tables/{table_id}"
            with connect(url, additional_headers={"Cookie": bob.cookie()}, open_timeout=HANG_GUARD) as socket:
                hearing = Hearing(socket, "bob")
                hearing.until("its snapshot", lambda m: m["type"] == "snapshot")
                playing.join(HANG_GUARD)
                assert not playing.is_alive() and not failures, failures
                last = len(_stored_moves(database, table_id))
                assert last == len(acknowledged) > 3
                hearing.until(f"version {last}", lambda m: m["type"] in ("update", "snapshot") and m["version"] == last)
        finally:
            stop.set()
            playing.join(HANG_GUARD)
        heard = [m for m in hearing.heard if m["type"] in ("update", "snapshot")]
        assert heard[0]["type"] == "snapshot"
        version = heard[0]["version"]
        assert version < last, "the socket opened after the moves were over: nothing was tested"
        for message in heard[1:]:  # every update after the snapshot, one version at a time; a resync never goes back
            if message["type"] == "update":
                assert message["version"] == version + 1, _versions(heard)
            assert message["version"] >= version, _versions(heard)
            version = message["version"]
        assert version == last
        assert _heard(second)[1] >= last - heard[0]["version"]  # through the table's channel


def _versions(heard: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(m["type"], m["version"]) for m in heard]
