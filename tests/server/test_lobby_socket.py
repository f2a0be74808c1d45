"""The live lobby (``/ws/lobby``) on one server: what each viewer is sent, and when, within the limits.

Each viewer's lobby message holds what ``GET /api/tables`` and ``GET /api/me/games`` give
that viewer at that moment (a join code only to its creator); every table made, joined,
left, started and ended reaches every lobby socket; a sign-out closes the socket with
4401; the socket limits of table sockets hold.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import Player, RunningServer, make_settings

HANG_GUARD = 30.0  # only against a hang: no duration is asserted


class LobbyEar:
    """A lobby socket and every message it heard, in order."""

    def __init__(self, port: int, cookie: str = "") -> None:
        headers = {"Cookie": cookie} if cookie else {}
        self._stack = contextlib.ExitStack()
        self.socket: ClientConnection = self._stack.enter_context(
            connect(f"ws://127.0.0.1:{port}/ws/lobby", additional_headers=headers, open_timeout=HANG_GUARD)
        )
        self.heard: list[dict[str, Any]] = []

    def hear(self, what: str, until: Any) -> dict[str, Any]:
        """Read until a message ``until`` accepts arrives (it may have already); the latest such message."""
        deadline = time.monotonic() + HANG_GUARD
        while True:
            found = [m for m in self.heard if until(m)]
            if found:
                return found[-1]
            assert time.monotonic() < deadline, f"the lobby socket waited in vain for {what}: {self.heard}"
            try:
                self.heard.append(json.loads(self.socket.recv(timeout=0.5)))
            except TimeoutError:
                continue

    def close_code(self) -> int | None:
        """Read until the server closes the socket; its close code."""
        return closed_with(self.socket, self.heard)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()


def closed_with(socket: ClientConnection, heard: list[dict[str, Any]] | None = None) -> int | None:
    """Read ``socket`` (into ``heard``) until the server closes it; its close code."""
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        try:
            message = json.loads(socket.recv(timeout=0.5))
        except TimeoutError:
            continue
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        if heard is not None:
            heard.append(message)
    raise AssertionError(f"the socket stayed open: {heard}")


def table_ids(tables: list[dict[str, Any]]) -> list[str]:
    return [t["id"] for t in tables]


def holds(table_id: str, status: str | None = None, key: str = "tables") -> Any:
    """A check: the message lists the table (in ``key``: ``tables``, or ``mine``), with ``status`` if given."""

    def check(message: dict[str, Any]) -> bool:
        if message.get("type") != "lobby":
            return False
        tables = message["tables"] if key == "tables" else message.get("mine", {}).get("tables", [])
        return any(t["id"] == table_id and (status is None or t["status"] == status) for t in tables)

    return check


def seated(tables: list[dict[str, Any]], table_id: str, seat: int) -> bool:
    """Whether someone holds the seat at the table (among these)."""
    return any(t["id"] == table_id and t["seats"][seat]["name"] for t in tables)


def cookie(player: Player) -> str:
    return "; ".join(f"{k}={v}" for k, v in player.client.cookies.items())


@pytest.fixture
def lobby_server(tmp_path: Path, database_url: str) -> Iterator[RunningServer]:
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false")
    with RunningServer(settings) as running:
        yield running


def test_each_viewer_hears_every_change_as_the_endpoints_show_it_to_them(lobby_server: RunningServer) -> None:
    ann, bob, cat = Player(lobby_server, "ann"), Player(lobby_server, "bob"), Player(lobby_server, "cat")
    for player in (ann, bob, cat):
        player.register()
    ears = {name: LobbyEar(lobby_server.port, cookie(p)) for name, p in (("ann", ann), ("bob", bob))}
    ears["nobody"] = LobbyEar(lobby_server.port)  # signed out
    try:
        for name, ear in ears.items():
            first = ear.hear("the first lobby", lambda m: m["type"] == "lobby")
            assert first["tables"] == []
            assert ("mine" in first) == (name != "nobody")

        # Ann makes a table inviting Bob by name: everyone sees it; only Ann its join code.
        made = ann.post("/api/tables", {"game": "toy", "seats": [{"kind": "me"}, {"kind": "invite", "name": "bob"}]})
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        seen = {name: ear.hear("the new table", holds(table_id)) for name, ear in ears.items()}
        assert seen["ann"]["tables"] == ann.get("/api/tables").json()["tables"]
        assert seen["ann"]["tables"][0]["join_code"] == made.json()["join_code"]
        assert seen["bob"]["tables"] == bob.get("/api/tables").json()["tables"]
        assert "join_code" not in seen["bob"]["tables"][0]
        assert "join_code" not in seen["nobody"]["tables"][0]
        assert seen["nobody"]["tables"] == httpx.get(f"{lobby_server.url}/api/tables").json()["tables"]
        assert seen["bob"]["mine"] == bob.get("/api/me/games").json()  # invited: among Bob's own tables
        assert table_ids(seen["bob"]["mine"]["tables"]) == [table_id]
        assert "mine" not in seen["nobody"]

        # A table of Cat's concerns neither Ann nor Bob: their lobby comes without "mine".
        other = cat.post("/api/tables", {"game": "toy", "seats": [{"kind": "me"}, {"kind": "open"}]}).json()["id"]
        assert "mine" not in ears["ann"].hear("Cat's table", holds(other))
        assert "mine" not in ears["bob"].hear("Cat's table", holds(other))

        # Bob joins, Ann starts: it leaves the open tables and is under way among theirs.
        assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
        joined = ears["ann"].hear("Bob seated", lambda m: holds(table_id)(m) and seated(m["tables"], table_id, 1))
        assert joined["mine"] == ann.get("/api/me/games").json()
        assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
        for ear in ears.values():
            ear.hear(
                "the table gone from the open ones",
                lambda m: m["type"] == "lobby" and table_ids(m["tables"]) == [other],
            )
        assert (
            ears["bob"].hear("it under way", holds(table_id, "active", key="mine"))["mine"]["tables"][0]["my_seat"] == 1
        )

        # Ann resigns: the game ends, in Bob's lobby too.
        assert ann.post(f"/api/tables/{table_id}/resign").status_code == 200
        ended = ears["bob"].hear("the game over", holds(table_id, "finished", key="mine"))
        assert ended["mine"] == bob.get("/api/me/games").json()

        # Cat leaves her table (it stays open, empty of her) and abandons it: gone for everyone.
        assert cat.post(f"/api/tables/{other}/leave").status_code == 200
        assert cat.post(f"/api/tables/{other}/abandon").status_code == 200
        for ear in ears.values():
            ear.hear("no open table", lambda m: m["type"] == "lobby" and m["tables"] == [])

        # Asking again sends the whole lobby; a ping is answered.
        ears["bob"].socket.send(json.dumps({"type": "ping"}))
        ears["bob"].hear("a pong", lambda m: m["type"] == "pong")
        ears["bob"].heard.clear()
        ears["bob"].socket.send(json.dumps({"type": "resync"}))
        again = ears["bob"].hear("the lobby again", lambda m: m["type"] == "lobby" and "mine" in m)
        assert again["mine"] == bob.get("/api/me/games").json()
    finally:
        for ear in ears.values():
            ear.close()


def test_signing_out_closes_the_lobby_socket_and_the_limits_hold(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path,
        f"sqlite:///{tmp_path / 'lobby.sqlite3'}",
        login_rate=1000,
        cookie_secure="false",
        ws_per_address=2,
        ws_message_rate="5/minute",
    )
    with RunningServer(settings) as server:
        ann = Player(server, "ann")
        ann.register()
        mine, flooder = LobbyEar(server.port, cookie(ann)), LobbyEar(server.port)
        try:
            mine.hear("the first lobby", lambda m: m["type"] == "lobby")
            # Lobby sockets count with table sockets towards the address's limit.
            with pytest.raises(InvalidStatus) as refused:
                LobbyEar(server.port)
            assert refused.value.response.status_code == 429
            for _ in range(6):
                with contextlib.suppress(ConnectionClosed):
                    flooder.socket.send(json.dumps({"type": "ping"}))
            assert flooder.close_code() == 4429
            assert ann.post("/api/auth/logout").status_code == 200
            assert mine.close_code() == 4401
        finally:
            mine.close()
            flooder.close()
