"""Crash drill: kill -9 the server under load from several games, restart it.

No acknowledged action may be lost, every game continues from the same state, and the
restarted server becomes ready again. Half the games send their moves by POST, half over
the table's WebSocket as the browser does (acknowledged there by the ``acted`` answer).

How fast it recovers is a measurement, not a test (the suite must pass on a busy
machine): ``meadhall bench-server --restart`` (part of ``make bench``) times the restart
after ``kill -9`` beside a fresh start; see docs/performance.md.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from tests.server.conftest import free_port

GAMES = 6
HANG_GUARD = 120  # seconds: generous, so a busy machine is slow here but never fails


class Client:
    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=HANG_GUARD)
        self.name = name
        self.csrf = ""

    def register(self) -> None:
        response = self.http.post("/api/auth/register", json={"name": self.name, "password": "drill password"})
        assert response.status_code == 201, response.text
        self.csrf = response.json()["csrf"]

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers={"X-CSRF-Token": self.csrf})

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


def start_server(data: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "MEADHALL_LOG_LEVEL": "warning",
        "MEADHALL_COOKIE_SECURE": "false",
        "MEADHALL_LOGIN_RATE": "1000",
        "MEADHALL_WS_MESSAGE_RATE": "100000/second",  # the drill moves as fast as it can
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "meadhall.cli.main", "serve", "--port", str(port), "--data-dir", str(data)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + HANG_GUARD
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        assert process.poll() is None, "the server exited"
        assert time.monotonic() < deadline, "the server did not become ready"
        time.sleep(0.02)


@pytest.mark.skipif(os.name != "posix", reason="kill -9 is POSIX")
def test_kill_9_under_load_loses_nothing(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(tmp_path / "data", port)
    acknowledged: dict[str, list[tuple[int, str]]] = {}
    stop = threading.Event()
    try:
        tables: list[tuple[str, Client, Client]] = []
        for game in range(GAMES):
            a, b = Client(base, f"ann{game}"), Client(base, f"bob{game}")
            a.register()
            b.register()
            table = a.post(
                "/api/tables",
                {"game": "voluspa", "options": {"preset": "saga"}, "seats": [{"kind": "me"}, {"kind": "open"}]},
            )
            table_id = table.json()["id"]
            assert b.post(f"/api/tables/{table_id}/join").status_code == 200
            assert a.post(f"/api/tables/{table_id}/start").status_code == 200
            tables.append((table_id, a, b))
            acknowledged[table_id] = []

        def load(table_id: str, a: Client, b: Client) -> None:
            while not stop.is_set():
                try:
                    state = a.http.get(f"/api/tables/{table_id}/state").json()
                    if state["view"]["finished"]:
                        return
                    mover = a if state["seat"] in state["to_move"] else b
                    mine = mover.http.get(f"/api/tables/{table_id}/state").json()
                    action = mine["legal"][-1]
                    response = mover.post(
                        f"/api/tables/{table_id}/actions", {"action": action, "version": mine["version"]}
                    )
                    if response.status_code == 200:
                        acknowledged[table_id].append((mine["version"], action))
                except (httpx.HTTPError, KeyError, ValueError):
                    return

        def load_over_sockets(table_id: str, a: Client, b: Client) -> None:
            url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
            try:
                with (
                    connect(url, additional_headers={"Cookie": a.cookie()}, open_timeout=HANG_GUARD) as socket_a,
                    connect(url, additional_headers={"Cookie": b.cookie()}, open_timeout=HANG_GUARD) as socket_b,
                ):
                    while not stop.is_set():
                        state = a.http.get(f"/api/tables/{table_id}/state").json()
                        if state["view"]["finished"]:
                            return
                        mover, socket = (a, socket_a) if state["seat"] in state["to_move"] else (b, socket_b)
                        mine = mover.http.get(f"/api/tables/{table_id}/state").json()
                        action, version = mine["legal"][-1], mine["version"]
                        socket.send(json.dumps({"type": "act", "id": version, "action": action, "version": version}))
                        while True:
                            message = json.loads(socket.recv(timeout=HANG_GUARD))
                            if message.get("type") in ("acted", "refused") and message.get("id") == version:
                                break
                        if message["type"] == "acted":
                            acknowledged[table_id].append((version, action))
            except (httpx.HTTPError, WebSocketException, OSError, TimeoutError, KeyError, ValueError):
                return

        threads = [
            threading.Thread(target=load_over_sockets if index % 2 else load, args=t, daemon=True)
            for index, t in enumerate(tables)
        ]

        def over_sockets() -> int:
            return sum(len(acknowledged[t]) for index, (t, _, _) in enumerate(tables) if index % 2)

        for thread in threads:
            thread.start()
        # Kill once the load is well under way (counted in moves, not seconds: a busy
        # machine takes longer to get there).
        deadline = time.monotonic() + HANG_GUARD
        while sum(len(v) for v in acknowledged.values()) <= 30 or over_sockets() <= 10:
            assert time.monotonic() < deadline, "the load did not get going"
            assert any(thread.is_alive() for thread in threads), "every game stopped before the crash"
            time.sleep(0.05)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        stop.set()
        for thread in threads:
            thread.join(timeout=60)

        server = start_server(tmp_path / "data", port)
        for table_id, a, b in tables:
            log = a.http.get(f"/api/tables/{table_id}/log").json()
            state = a.http.get(f"/api/tables/{table_id}/state").json()
            acked = acknowledged[table_id]
            assert state["version"] >= len(acked), f"{table_id}: lost acknowledged actions"
            assert [v for v, _ in acked] == list(range(len(acked)))
            record_actions = _actions(tmp_path / "data", table_id)
            for version, action in acked:
                assert record_actions[version] == action, f"{table_id}: action {version} differs after the crash"
            assert log["version"] == state["version"]
            # and the game goes on from the same state
            mover = a if state["seat"] in state["to_move"] else b
            mine = mover.http.get(f"/api/tables/{table_id}/state").json()
            if not mine["view"]["finished"]:
                again = mover.post(
                    f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": mine["version"]}
                )
                assert again.status_code == 200, again.text
    finally:
        stop.set()
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=60)


def _actions(data: Path, table_id: str) -> list[str]:
    import sqlite3

    with sqlite3.connect(data / "meadhall.sqlite3") as connection:
        rows = connection.execute("SELECT seq, action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,))
        return [action for _, action in rows]
