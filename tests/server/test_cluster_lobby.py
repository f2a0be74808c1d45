"""Two real servers on one PostgreSQL database and one Redis: sign-outs and the lobby reach both at once.

docs/deploy.md, "Several servers": a session signed out on one server is refused by the
other at once (not after its 30-second session cache) and its sockets there close with
4401; a table made on one server appears on the lobby sockets of the other.

Skipped, saying so, when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.server.test_cluster_service import (  # noqa: F401 (database: a fixture)
    HANG_GUARD,
    Player,
    database,
    pytestmark,
    start_two_seat_table,
    two_servers,
)
from tests.server.test_lobby_socket import LobbyEar, closed_with, holds

__all__ = ["pytestmark"]


@pytest.fixture(autouse=True)
def _many_sockets_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    # The servers count sockets per address in the shared Redis, where other drills on this
    # machine may hold many from 127.0.0.1 at the same time: room enough for them all.
    monkeypatch.setenv("MEADHALL_WS_PER_ADDRESS", "100000")


def test_a_sign_out_on_one_server_ends_the_session_on_every_server_at_once(tmp_path: Path, database: str) -> None:  # noqa: F811
    with two_servers(tmp_path, database, secrets.token_hex(32)) as (first, second):
        ann, bob = Player(first, "ann"), Player(second, "bob")
        ann.register()
        bob.register()
        table_id = start_two_seat_table(ann, bob)
        ann_there = ann.through(second)
        # The second server caches her session.
        assert ann_there.http.get("/api/auth/me").json()["user"]["name"] == "ann"
        table_url = f"ws://127.0.0.1:{second.port}/ws/tables/{table_id}"
        with connect(table_url, additional_headers={"Cookie": ann.cookie()}, open_timeout=HANG_GUARD) as table:
            assert json.loads(table.recv(timeout=HANG_GUARD))["type"] == "snapshot"
            lobby = LobbyEar(second.port, ann.cookie())
            try:
                lobby.hear("the first lobby", lambda m: m["type"] == "lobby")
                assert ann.post("/api/auth/logout").status_code == 200  # on the first server
                assert lobby.close_code() == 4401
                assert closed_with(table) == 4401
                # Well within its 30-second cache, the second server refuses her cookie.
                assert ann_there.http.get("/api/auth/me").json() == {"user": None, "csrf": None}
                assert ann_there.post(f"/api/tables/{table_id}/resign").status_code == 401
            finally:
                lobby.close()
        assert bob.state(table_id)["status"] == "active"  # Bob's session is untouched


def test_a_table_made_on_one_server_appears_on_the_lobby_sockets_of_the_other(tmp_path: Path, database: str) -> None:  # noqa: F811
    with two_servers(tmp_path, database, secrets.token_hex(32)) as (first, second):
        ann, bob = Player(first, "ann"), Player(second, "bob")
        ann.register()
        bob.register()
        bob_lobby, nobody = LobbyEar(second.port, bob.cookie()), LobbyEar(second.port)
        try:
            for ear in (bob_lobby, nobody):
                assert ear.hear("the first lobby", lambda m: m["type"] == "lobby")["tables"] == []
            made = ann.post(
                "/api/tables",
                {"game": "toy", "seats": [{"kind": "me"}, {"kind": "invite", "name": "bob"}]},
            )
            assert made.status_code == 201, made.text
            table_id = made.json()["id"]
            seen = bob_lobby.hear("Ann's table, made on the first server", holds(table_id, key="mine"))
            assert seen["tables"] == bob.http.get("/api/tables").json()["tables"]
            assert "join_code" not in seen["tables"][0]
            assert seen["mine"] == bob.http.get("/api/me/games").json()
            nobody.hear("Ann's table", holds(table_id))
            # Bob joins through his server, Ann starts through hers: both lobbies follow.
            assert bob.post(f"/api/tables/{table_id}/join").status_code == 200
            assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
            bob_lobby.hear("the table under way", holds(table_id, "active", key="mine"))
            nobody.hear("no open table", lambda m: m["type"] == "lobby" and m["tables"] == [])
        finally:
            bob_lobby.close()
            nobody.close()
