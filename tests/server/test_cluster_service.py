"""Two real servers on one PostgreSQL database and one Redis play one table; its owner is killed.

The drill of docs/deploy.md, "Several servers": two ``meadhall serve`` processes (their
own ports and node ids) on a fresh PostgreSQL database and the real Redis. A player on
each server; the moves alternate, each player posting to its own server, each seeing the
other's (the state endpoint, and a WebSocket on the server that does not own the table).
Then ``kill -9`` of the owner mid-game: the other server takes the table over, every
acknowledged move is still there, and the game plays on through the survivor.

Skipped, saying so, when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from meadhall.server.redisnames import RedisNames
from meadhall.server.settings import Settings
from tests.server.conftest import PG, free_port, fresh_pg_database, start_table, stop_process
from tests.server.test_cluster import REDIS

pytestmark = [
    pytest.mark.skipif(not PG, reason="PostgreSQL is not reachable at 127.0.0.1:5432: the drill did not run"),
    pytest.mark.skipif(not REDIS, reason="Redis is not reachable at 127.0.0.1:6379: the drill did not run"),
    pytest.mark.skipif(os.name != "posix", reason="kill -9 is POSIX"),
]

HANG_GUARD = 60.0  # the most any one wait may take before the drill fails (a hang, not a speed limit)
LEASE_MS = 1000
#: The servers' names in Redis: they run with the default ``redis_prefix`` unless a test gives them another.
NAMES = RedisNames(Settings.model_fields["redis_prefix"].default)


@pytest.fixture
def database() -> Any:
    """A fresh PostgreSQL database of this test's own, dropped at the end."""
    with fresh_pg_database("meadhall_cluster") as url:
        yield url


class Server:
    """One ``meadhall serve`` process of the cluster."""

    def __init__(
        self,
        tmp: Path,
        name: str,
        database_url: str,
        secret: str,
        redis_url: str = "redis://127.0.0.1:6379",
        *,
        within: list[str] | None = None,
        host: str = "127.0.0.1",
        settings: dict[str, str] | None = None,
    ) -> None:
        # ``within``: a command prefix to start it with (``ip netns exec NS``); ``host``: its address there;
        # ``settings``: more of its settings (``{"ws_per_address": "3"}``).
        self.port = free_port()
        self.url = f"http://{host}:{self.port}"
        self.redis_url = redis_url
        self.log = tmp / f"{name}.log"
        env = {
            **os.environ,
            "MEADHALL_DATABASE_URL": database_url,
            "MEADHALL_REDIS_URL": redis_url,
            "MEADHALL_CLUSTER_LEASE_MS": str(LEASE_MS),
            "MEADHALL_SECRET_KEY": secret,  # one key on every server: a login made on one holds on the other
            "MEADHALL_LOG_LEVEL": "info",
            "MEADHALL_LOG_FORMAT": "text",
            "MEADHALL_COOKIE_SECURE": "false",
            "MEADHALL_LOGIN_RATE": "1000",
            "MEADHALL_RESPONSE_PAUSE_MIN": "0",
            "MEADHALL_RESPONSE_PAUSE_MAX": "0.02",
            **{f"MEADHALL_{name.upper()}": value for name, value in (settings or {}).items()},
        }
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [*(within or []), sys.executable, "-m", "meadhall.cli.main", "serve", "--port", str(self.port),
                 "--host", host, "--data-dir", str(tmp / name)],
                env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        self.node = ""

    def wait_ready(self) -> None:
        deadline = time.monotonic() + HANG_GUARD
        while True:
            try:
                ready = httpx.get(f"{self.url}/readyz", timeout=5)
                if ready.status_code == 200:
                    self.node = ready.json()["node"]
                    return
            except httpx.HTTPError:
                pass
            assert self.process.poll() is None, f"the server exited:\n{self.log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, "the server did not become ready"
            time.sleep(0.05)

    def stop(self) -> None:
        stop_process(self.process)


class Player:
    """A person playing through one server (a session made on any server holds on every one)."""

    def __init__(self, server: Server, name: str) -> None:
        self.name = name
        self.http = httpx.Client(base_url=server.url, timeout=HANG_GUARD)
        self.csrf = ""

    def register(self) -> None:
        response = self.post("/api/auth/register", {"name": self.name, "password": "drill password"})
        assert response.status_code == 201, response.text
        self.csrf = response.json()["csrf"]

    def through(self, server: Server) -> Player:
        """The same person (same cookies and token) on another server."""
        other = Player(server, self.name)
        host = httpx.URL(server.url).host
        if host == self.http.base_url.host:
            other.http.cookies = self.http.cookies
        else:  # another address (the partition drill's hosts): cookies are kept per host
            for name, value in self.http.cookies.items():
                other.http.cookies.set(name, value, domain=host)
        other.csrf = self.csrf
        return other

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers={"X-CSRF-Token": self.csrf})

    def state(self, table_id: str) -> dict[str, Any]:
        response = self.http.get(f"/api/tables/{table_id}/state")
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


def _until(what: str, check: Any) -> Any:
    """Poll ``check()`` until it gives something truthy (a generous guard against hangs, no timing asserted)."""
    deadline = time.monotonic() + HANG_GUARD
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.05)


def _lease_holder(table_id: str, redis: tuple[str, int] = ("127.0.0.1", 6379)) -> str | None:
    """The node holding the table's lease in the Redis at ``redis`` now (a plain GET over the socket)."""
    import socket

    key = NAMES("lease", table_id).encode()
    with socket.create_connection(redis, timeout=5) as connection:
        connection.sendall(b"*2\r\n$3\r\nGET\r\n$%d\r\n%s\r\n" % (len(key), key))
        reply = connection.recv(4096)
    if reply.startswith(b"$-1"):
        return None
    return reply.split(b"\r\n")[1].decode()


def _publish(channel: str, message: dict[str, Any]) -> None:
    """Publish a message in Redis by hand, as another server would."""
    import socket

    parts = [b"PUBLISH", channel.encode(), json.dumps(message).encode()]
    command = b"*3\r\n" + b"".join(b"$%d\r\n%s\r\n" % (len(part), part) for part in parts)
    with socket.create_connection(("127.0.0.1", 6379), timeout=5) as connection:
        connection.sendall(command)
        assert connection.recv(64).startswith(b":")


def _stored_moves(database_url: str, table_id: str) -> list[tuple[int, int, str]]:
    import psycopg

    with psycopg.connect(database_url.replace("+psycopg", "")) as connection:
        rows = connection.execute(
            "SELECT seq, seat, action FROM actions WHERE table_id = %s ORDER BY seq", (table_id,)
        ).fetchall()
    return [(int(seq), int(seat), str(action)) for seq, seat, action in rows]


def start_two_seat_table(ann: Player, bob: Player) -> str:
    """A Völuspá (saga) table Ann makes and starts on her server (which then runs it), Bob in seat 1: its id."""
    return start_table(ann, bob, "voluspa", {"preset": "saga"})


class Hearing:
    """What a table's socket was sent, in order (``heard``), read as it comes."""

    def __init__(self, socket: Any, who: str) -> None:
        self.socket = socket
        self.who = who
        self.heard: list[dict[str, Any]] = []

    def until(self, what: str, check: Any) -> None:
        """Read the socket until a message passes ``check`` (one read already counts)."""
        deadline = time.monotonic() + HANG_GUARD
        while not any(check(m) for m in self.heard):
            assert time.monotonic() < deadline, f"{self.who}'s socket waited in vain for {what}: {self.heard}"
            try:
                self.heard.append(json.loads(self.socket.recv(timeout=1)))
            except TimeoutError:
                continue


def _play_one(players: dict[int, Player], table_id: str, acknowledged: list[tuple[int, int, str]]) -> bool:
    """The seat to move plays its last legal action through its own server; False once the game is over."""
    for seat, player in players.items():
        mine = player.state(table_id)
        if mine["status"] != "active":
            return False
        if seat in mine["to_move"]:
            action = mine["legal"][-1]
            response = player.post(f"/api/tables/{table_id}/actions", {"action": action, "version": mine["version"]})
            assert response.status_code == 200, response.text
            acknowledged.append((mine["version"], seat, action))
            assert response.json()["version"] == mine["version"] + 1
            return True
    raise AssertionError("nobody is to move at a game under way")


def test_two_servers_share_a_table_and_the_survivor_takes_it_over(tmp_path: Path, database: str) -> None:
    secret = secrets.token_hex(32)
    with two_servers(tmp_path, database, secret) as (first, second):
        _drill(first, second, database, secret)


@contextlib.contextmanager
def two_servers(
    tmp_path: Path,
    database: str,
    secret: str,
    redis_url: str = "redis://127.0.0.1:6379",
    settings: dict[str, str] | None = None,
) -> Iterator[tuple[Server, Server]]:
    """Two ready servers on one database and the Redis, the first started first (it makes the schema).

    ``settings``: more of their settings (``{"redis_prefix": ...}``).
    """
    first = Server(tmp_path, "first", database, secret, redis_url, settings=settings)
    try:
        first.wait_ready()
        second = Server(tmp_path, "second", database, secret, redis_url, settings=settings)
        try:
            second.wait_ready()
            assert first.node != second.node
            yield first, second
        finally:
            second.stop()
    finally:
        first.stop()


def _drill(first: Server, second: Server, database: str, secret: str) -> None:
    ann, bob = Player(first, "ann"), Player(second, "bob")
    ann.register()
    bob.register()
    table_id = start_two_seat_table(ann, bob)  # the first server owns it now
    players = {0: ann, 1: bob}
    assert _lease_holder(table_id) == first.node  # the server that started the table runs it

    # Bob's page on the second server, which mirrors the table: every move reaches it,
    # and Bob plays his own moves through it (the second server sends them to the owner).
    acknowledged: list[tuple[int, int, str]] = []
    socket_url = f"ws://127.0.0.1:{second.port}/ws/tables/{table_id}"
    with connect(socket_url, additional_headers={"Cookie": bob.cookie()}, open_timeout=HANG_GUARD) as socket:
        hearing = Hearing(socket, "bob")
        heard, hear = hearing.heard, hearing.until
        hear("its snapshot", lambda m: m["type"] == "snapshot")
        assert heard[0]["version"] == 0
        for move in range(6):
            mine = bob.state(table_id)
            version = mine["version"]
            if 1 in mine["to_move"]:
                action = mine["legal"][-1]
                socket.send(json.dumps({"type": "act", "action": action, "version": version, "id": move}))
                hear(f"move {move} acknowledged", lambda m, k=move: m["type"] in ("acted", "refused") and m["id"] == k)
                answer = heard[-1]
                assert answer == {"type": "acted", "id": move, "version": version + 1}, answer
                acknowledged.append((version, 1, action))
            else:
                assert _play_one(players, table_id, acknowledged)
            hear(f"version {version + 1}", lambda m, v=version + 1: m["type"] == "update" and m["version"] == v)
            for player in players.values():  # each sees the other's move, on its own server
                seen = f"{player.name} to see version {version + 1}"
                _until(seen, lambda p=player, v=version + 1: p.state(table_id)["version"] == v)
        # By hand, as another server: steps the mirror has already are ignored; any other
        # change makes it read the table again and send its sockets snapshots of it.
        channel = NAMES("table", table_id)
        _publish(channel, {"t": table_id, "node": "drill", "from": 2, "to": 3, "steps": [[0, "pass"]]})
        _publish(channel, {"t": table_id, "node": "drill", "to": 6})
        hear("a snapshot read again", lambda m: m["type"] == "snapshot" and m is not heard[0])
        assert [m for m in heard if m["type"] == "snapshot"][-1]["version"] == 6
    updates = [m["version"] for m in heard if m["type"] == "update"]
    assert updates == list(range(1, 7)), heard  # one update per move, in order, none missed
    for index, message in enumerate(heard):  # Bob's own moves: the update first, then the acknowledgement
        if message["type"] == "acted":
            update = next(
                i for i, m in enumerate(heard) if m["type"] == "update" and m["version"] == message["version"]
            )
            assert update < index, heard
    assert {0, 1} <= {seat for _, seat, _ in acknowledged}  # both servers' players moved
    assert [m["type"] for m in heard].count("acted") >= 1  # one of them through the mirror's socket

    # The owner dies mid-game: the second server takes the table over from the database.
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(timeout=HANG_GUARD)
    survivors = {0: ann.through(second), 1: bob}
    assert _stored_moves(database, table_id) == acknowledged  # every acknowledged move was stored
    before = len(acknowledged)

    def plays_on() -> bool:
        try:
            return _play_one(survivors, table_id, acknowledged)
        except AssertionError as refused:  # 503 while the dead owner's lease runs out: try again
            assert "unanswered" in str(refused), refused
            # Given up as the dead owner's lease lapsed, not after the forwarding's whole wait.
            assert "did not answer" not in str(refused), refused
            return False

    _until("the survivor to take the table over and play a move", plays_on)
    assert _lease_holder(table_id) == second.node
    for _ in range(3):
        assert _play_one(survivors, table_id, acknowledged)
    assert len(acknowledged) == before + 4
    assert _stored_moves(database, table_id) == acknowledged  # nothing lost, nothing twice
    assert survivors[0].state(table_id)["version"] == len(acknowledged)
    assert "took over table" in second.log.read_text()

    # A server that joins later mirrors the table the survivor runs; a resignation on the
    # survivor reaches its sockets in the log's words, then the ended game's snapshot.
    third = Server(first.log.parent, "third", database, secret)
    try:
        third.wait_ready()
        late: list[dict[str, Any]] = []
        socket_url = f"ws://127.0.0.1:{third.port}/ws/tables/{table_id}"
        with connect(socket_url, additional_headers={"Cookie": bob.cookie()}, open_timeout=HANG_GUARD) as socket:
            late.append(json.loads(socket.recv(timeout=HANG_GUARD)))
            assert late[0]["type"] == "snapshot" and late[0]["version"] == len(acknowledged)
            assert survivors[0].post(f"/api/tables/{table_id}/resign").status_code == 200
            while len(late) < 3:
                late.append(json.loads(socket.recv(timeout=HANG_GUARD)))
        assert [m["type"] for m in late] == ["snapshot", "resigned", "snapshot"], late
        assert late[1]["seat"] == 0 and late[2]["status"] == "finished"
    finally:
        third.stop()
