"""The front door: HAProxy, with the repository's own configuration, in front of two real servers.

docs/deploy.md, "A front door": deploy/haproxy.cfg, its ``bind`` and ``server`` lines
set to free ports, carries two players' HTTP and a WebSocket to two ``meadhall serve``
processes on a fresh PostgreSQL database and the real Redis. Then ``kill -9`` of the
server running the table: HAProxy's health check (``GET /readyz``) marks it down, the
survivor takes the table over, and the game plays on through the same address, over
HTTP and over a new WebSocket.

Skipped, saying so, when haproxy (``apt-get install haproxy``; ``make test`` installs
it), PostgreSQL or Redis is missing.
"""

from __future__ import annotations

import contextlib
import csv
import json
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server import test_cluster_service as drill
from tests.server.conftest import free_port, stop_process

HAPROXY = shutil.which("haproxy") or next(
    (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if Path(p).is_file()), None
)
CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"
HANG_GUARD = drill.HANG_GUARD

pytestmark = [
    *drill.pytestmark,
    pytest.mark.skipif(
        HAPROXY is None, reason="haproxy is not installed (apt-get install haproxy): the front door was not tested"
    ),
]

database = drill.database  # a fresh PostgreSQL database of the test's own


def front_door_config(config: str, front: int, servers: list[str], stats: Path) -> str:
    """The repository's HAProxy configuration on ``front``, for ``servers`` (``host:port``), with an admin socket."""
    config = re.sub(r"(?m)^(\s*)bind \S+$", rf"\g<1>bind 127.0.0.1:{front}", config, count=1)
    config = re.sub(r"(?m)^\s*server .*\n", "", config)
    config = config.replace("\nglobal\n", f"\nglobal\n    stats socket {stats} level admin\n", 1)
    lines = "".join(f"    server meadhall{i} {address}\n" for i, address in enumerate(servers, 1))
    return config.rstrip("\n") + "\n" + lines


class FrontDoor:
    """HAProxy running deploy/haproxy.cfg in the foreground, on a free port."""

    def __init__(self, tmp: Path, servers: list[drill.Server]) -> None:
        assert HAPROXY is not None
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.stats = tmp / "haproxy.sock"
        self.config = tmp / "haproxy.cfg"
        addresses = [f"{httpx.URL(s.url).host}:{s.port}" for s in servers]
        self.config.write_text(front_door_config(CONFIG.read_text(), self.port, addresses, self.stats))
        checked = subprocess.run([HAPROXY, "-c", "-f", str(self.config)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr  # the committed file is valid HAProxy
        self.log = tmp / "haproxy.log"
        with self.log.open("wb") as out:
            self.process = subprocess.Popen([HAPROXY, "-db", "-f", str(self.config)], stdout=out, stderr=out)

    def status(self) -> dict[str, str]:
        """Each server's state as HAProxy sees it now (``UP``, ``DOWN``, ...), from its admin socket."""
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(str(self.stats))
            connection.sendall(b"show stat\n")
            data = b""
            while chunk := connection.recv(65536):
                data += chunk
        rows = csv.DictReader(data.decode().lstrip("# ").splitlines())
        return {r["svname"]: r["status"] for r in rows if r["svname"] not in ("FRONTEND", "BACKEND")}

    def stop(self) -> None:
        stop_process(self.process)


def _nodes_answering(front: FrontDoor) -> set[str]:
    """The nodes a handful of /readyz requests through the front door reached."""
    nodes = set()
    for _ in range(6):
        try:
            ready = httpx.get(f"{front.url}/readyz", timeout=5)
        except httpx.HTTPError:
            continue
        if ready.status_code == 200:
            nodes.add(ready.json()["node"])
    return nodes


def _told_or_played_on(page: Any, version: int) -> str:
    """What became of a page's socket open through the door when a server died: closed, or at ``version``."""
    deadline = time.monotonic() + HANG_GUARD
    try:
        while True:
            assert time.monotonic() < deadline, "a socket open through the door was left hanging"
            try:
                message = json.loads(page.recv(timeout=1))
            except TimeoutError:
                continue
            if message["type"] in ("snapshot", "update") and message["version"] >= version:
                return "played on"
    except ConnectionClosed:
        return "closed"


def test_the_front_door_carries_http_and_websockets_and_outlives_a_server(tmp_path: Path, database: str) -> None:
    secret = secrets.token_hex(32)
    servers: list[drill.Server] = []
    front: FrontDoor | None = None
    try:
        servers.append(drill.Server(tmp_path, "first", database, secret))
        servers[0].wait_ready()  # the schema is made once, by the first
        servers.append(drill.Server(tmp_path, "second", database, secret))
        servers[1].wait_ready()
        front = FrontDoor(tmp_path, servers)
        _through_the_door(front, servers, database)
    finally:
        if front is not None:
            front.stop()
        for server in servers:
            server.stop()


def _through_the_door(front: FrontDoor, servers: list[drill.Server], database: str) -> None:
    with contextlib.ExitStack() as pages:
        _drill(front, servers, database, pages)


def _drill(front: FrontDoor, servers: list[drill.Server], database: str, pages: contextlib.ExitStack) -> None:
    nodes = {server.node for server in servers}
    seen: set[str] = set()

    def both_answer() -> bool:
        assert front.process.poll() is None, f"haproxy exited:\n{front.log.read_text()[-3000:]}"
        seen.update(_nodes_answering(front))
        return nodes <= seen

    drill._until("both servers to answer through the front door", both_answer)
    up = {"meadhall1": "UP", "meadhall2": "UP"}
    drill._until("HAProxy's health check to find both servers up", lambda: front.status() == up)

    ann, bob = drill.Player(front, "ann"), drill.Player(front, "bob")  # type: ignore[arg-type]
    ann.register()
    bob.register()
    table_id = drill.start_two_seat_table(ann, bob)
    players = {0: ann, 1: bob}
    acknowledged: list[tuple[int, int, str]] = []
    socket_url = f"ws://127.0.0.1:{front.port}/ws/tables/{table_id}"

    def play_on_socket(moves: int) -> None:
        """Bob's page through the front door: his moves on its socket, Ann's over HTTP."""
        with connect(socket_url, additional_headers={"Cookie": bob.cookie()}, open_timeout=HANG_GUARD) as ws:
            hearing = drill.Hearing(ws, "bob")
            heard, hear = hearing.heard, hearing.until
            hear("its snapshot", lambda m: m["type"] == "snapshot")
            assert heard[0]["version"] == len(acknowledged)
            for move in range(moves):
                mine = bob.state(table_id)
                version = mine["version"]
                if 1 in mine["to_move"]:
                    action = mine["legal"][-1]
                    ws.send(json.dumps({"type": "act", "action": action, "version": version, "id": move}))
                    hear(f"move {move} acknowledged", lambda m, k=move: m.get("id") == k)
                    assert heard[-1] == {"type": "acted", "id": move, "version": version + 1}, heard[-1]
                    acknowledged.append((version, 1, action))
                else:
                    assert drill._play_one(players, table_id, acknowledged)
                hear(f"version {version + 1}", lambda m, v=version + 1: m["type"] == "update" and m["version"] == v)
            assert any(m["type"] == "acted" for m in heard), heard  # a move of Bob's went over the socket

    play_on_socket(6)
    assert drill._stored_moves(database, table_id) == acknowledged

    # The server running the table dies; the front door stays where it was. A page open
    # through the door then is either told (its socket closes: the page reconnects) or,
    # on the survivor, plays on: never left hanging.
    open_page = pages.enter_context(
        connect(socket_url, additional_headers={"Cookie": ann.cookie()}, open_timeout=HANG_GUARD)
    )
    assert json.loads(open_page.recv(timeout=HANG_GUARD))["type"] == "snapshot"
    owner_node = drill._lease_holder(table_id)
    owner = next(s for s in servers if s.node == owner_node)
    survivor = next(s for s in servers if s is not owner)
    owner.process.send_signal(signal.SIGKILL)
    owner.process.wait(timeout=HANG_GUARD)
    dead = f"meadhall{servers.index(owner) + 1}"
    drill._until("HAProxy's health check to mark the killed server down", lambda: front.status()[dead] == "DOWN")
    assert _nodes_answering(front) == {survivor.node}

    before = len(acknowledged)

    def plays_on() -> bool:
        try:
            return drill._play_one(players, table_id, acknowledged)
        except AssertionError as refused:  # 503 while the dead owner's lease runs out: try again
            assert "unanswered" in str(refused), refused
            return False

    drill._until("the survivor to take the table over and play a move through the front door", plays_on)
    assert drill._lease_holder(table_id) == survivor.node
    _told_or_played_on(open_page, len(acknowledged))
    play_on_socket(4)  # a page opened anew through the same address plays on
    assert len(acknowledged) == before + 5
    assert drill._stored_moves(database, table_id) == acknowledged  # nothing lost, nothing twice
    assert ann.state(table_id)["version"] == len(acknowledged)
