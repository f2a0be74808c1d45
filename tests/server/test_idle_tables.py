"""Tables nobody uses leave the server's memory, and come back from the database when asked for.

A game over is read into memory for its replay, its record, its state; before this, it
stayed there until the server stopped, so reading every finished game's replay grew the
server without bound. ``idle_table_seconds`` drops such a copy once no request and no
socket has used it that long (docs/server.md); a game under way run here stays.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from tests.server.conftest import Player, RunningServer, make_settings, start_table

HANG_GUARD = 60.0


def _in_memory(server: RunningServer) -> set[str]:
    return set(server.app.state.services.games.runtimes)


def _until(what: str, check: Any) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not check():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.05)


def test_a_game_over_nobody_uses_leaves_memory_and_a_watched_one_or_one_under_way_stays(
    tmp_path: Path, database_url: str
) -> None:
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false", idle_table_seconds=1)
    with RunningServer(settings) as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bob.register()
        watched, unwatched, under_way = (start_table(ann, bob) for _ in range(3))
        for table_id in (watched, unwatched):
            assert ann.post(f"/api/tables/{table_id}/resign").status_code == 200
        cookie = "; ".join(f"{name}={value}" for name, value in ann.client.cookies.items())
        socket_url = f"ws://127.0.0.1:{server.port}/ws/tables/{watched}"
        with connect(socket_url, additional_headers={"Cookie": cookie}, open_timeout=HANG_GUARD) as socket:
            assert json.loads(socket.recv(timeout=HANG_GUARD))["type"] == "snapshot"
            assert ann.get(f"/api/tables/{unwatched}/state").json()["status"] == "finished"
            assert {watched, unwatched, under_way} <= _in_memory(server)

            _until("the game over nobody uses to leave memory", lambda: unwatched not in _in_memory(server))
            # Dropped after the watched one had been idle as long: its socket kept it.
            assert {watched, under_way} <= _in_memory(server)

        # Asked for again, it is read from the database, the same.
        again = ann.get(f"/api/tables/{unwatched}/state").json()
        assert again["status"] == "finished"
        assert unwatched in _in_memory(server)
        _until("the watched game, its socket closed, to leave memory", lambda: watched not in _in_memory(server))
        assert under_way in _in_memory(server)


def test_asking_for_tables_that_do_not_exist_leaves_nothing_behind(tmp_path: Path, database_url: str) -> None:
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false")
    with RunningServer(settings) as server:
        ann = Player(server, "ann")
        ann.register()
        for number in range(50):
            assert ann.get(f"/api/tables/nothing{number}/state").status_code == 404
        games = server.app.state.services.games
        assert (games.runtimes, games._loading, games._loaders) == ({}, {}, {})
