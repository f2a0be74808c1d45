"""Table WebSockets within limits: resyncs coalesced, a flooding socket closed, an address
holding too many sockets refused, and everybody else still served."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from tests.server.conftest import Player, RunningServer, make_settings
from tests.server.test_live_and_leaks import Listener, _table


def _server(tmp_path: Path, **limits: Any) -> RunningServer:
    settings = make_settings(
        tmp_path, f"sqlite:///{tmp_path / 'sockets.sqlite3'}", login_rate=1000, cookie_secure="false", **limits
    )
    return RunningServer(settings)


def _until(check: Any, what: str) -> None:
    hang_guard = time.monotonic() + 30  # only against a hang
    while not check():
        assert time.monotonic() < hang_guard, what
        time.sleep(0.01)


def _pongs(listener: Listener) -> int:
    return sum(1 for m in listener.messages if m["type"] == "pong")


def _snapshots(listener: Listener) -> list[int]:
    return [m["version"] for m in listener.messages if m["type"] == "snapshot"]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[RunningServer, dict[int, Player], str]]:
    with _server(tmp_path, ws_message_rate="100000/second", ws_per_address=3) as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bob.register()
        yield server, {0: ann, 1: bob}, _table(ann, [bob], "voluspa", [{"kind": "me"}, {"kind": "open"}])


def test_a_resync_flood_gets_one_snapshot_per_version(table: tuple[RunningServer, dict[int, Player], str]) -> None:
    server, players, table_id = table
    spectator = Listener(server, table_id, None)
    _until(lambda: _snapshots(spectator), "no first snapshot")
    for _ in range(300):
        spectator.send({"type": "resync"})
    spectator.send({"type": "ping"})
    _until(lambda: _pongs(spectator) == 1, "no pong after the flood")  # every resync before it was handled
    assert _snapshots(spectator) == [0]
    mover = players[players[0].get(f"/api/tables/{table_id}/state").json()["to_move"][0]]
    legal = mover.get(f"/api/tables/{table_id}/state").json()["legal"]
    assert mover.post(f"/api/tables/{table_id}/actions", {"action": legal[0], "version": 0}).status_code == 200
    spectator.wait_version(1)
    for _ in range(300):
        spectator.send({"type": "resync"})
    spectator.send({"type": "ping"})
    _until(lambda: _pongs(spectator) == 2, "no pong after the second flood")
    assert _snapshots(spectator) == [0, 1]
    spectator.close()


def test_an_address_over_its_socket_limit_is_refused_and_the_others_go_on(
    table: tuple[RunningServer, dict[int, Player], str],
) -> None:
    server, players, table_id = table
    held = [Listener(server, table_id, players[0] if index == 0 else None) for index in range(3)]
    with pytest.raises(InvalidStatus) as refused:
        Listener(server, table_id, None)
    assert refused.value.response.status_code == 429
    assert b"at most 3 table connections per address" in refused.value.response.body
    for listener in held:
        listener.send({"type": "ping"})
        _until(lambda listener=listener: _pongs(listener) == 1, "a socket within the limit went unanswered")
    held.pop().close()
    _until(lambda: _try_open(server, table_id), "a freed place was not given to a new socket")
    for listener in held:
        listener.close()


def _try_open(server: RunningServer, table_id: str) -> bool:
    try:
        Listener(server, table_id, None).close()
    except InvalidStatus:
        return False
    return True


def test_a_socket_over_its_message_rate_is_closed_and_the_others_are_served(tmp_path: Path) -> None:
    with _server(tmp_path, ws_message_rate="10/minute") as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bob.register()
        table_id = _table(ann, [bob], "voluspa", [{"kind": "me"}, {"kind": "open"}])
        flooder, calm = Listener(server, table_id, None), Listener(server, table_id, ann)
        for _ in range(40):
            try:
                flooder.send({"type": "resync"})
            except Exception:  # closed under our feet: that is the point
                break
        _until(lambda: flooder.socket.close_code is not None, "the flooding socket stayed open")
        assert flooder.socket.close_code == 4429
        assert "too many messages: at most 10/minute" in (flooder.socket.close_reason or "")
        calm.send({"type": "ping"})
        _until(lambda: _pongs(calm) == 1, "a calm socket was not served")
        assert httpx.get(f"{server.url}/healthz").status_code == 200
        calm.close()


def test_a_message_too_long_closes_the_socket(tmp_path: Path) -> None:
    with _server(tmp_path, ws_max_message_chars=1000) as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bob.register()
        table_id = _table(ann, [bob], "voluspa", [{"kind": "me"}, {"kind": "open"}])
        listener = Listener(server, table_id, None)
        listener.send({"type": "ping", "padding": "x" * 2000})
        _until(lambda: listener.socket.close_code is not None, "the socket stayed open")
        assert listener.socket.close_code == 1009
        assert _pongs(listener) == 0
