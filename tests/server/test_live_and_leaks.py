"""Live updates over WebSocket, and the leak drill.

The drill records every HTTP response and WebSocket message each seat and a spectator
receive while games are played, and scans them: for hidden cards planted as unique
strings (a test game), for the seed and RNG state, and for another seat's Völuspá hand,
draws or the pile.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from meadhall.core.registry import register, unregister
from tests.server.conftest import Player, RunningServer, make_settings
from tests.server.sealed_game import SealedGame


class Listener:
    """A WebSocket client that keeps every message it receives."""

    def __init__(self, server: RunningServer, table_id: str, player: Player | None) -> None:
        cookie = ""
        if player is not None:
            cookie = "; ".join(f"{k}={v}" for k, v in player.client.cookies.items())
        url = server.url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        headers = {"Cookie": cookie} if cookie else {}
        self.socket: ClientConnection = connect(url, additional_headers=headers, open_timeout=10)
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                assert isinstance(text, str)
                self.raw.append(text)
                self.messages.append(json.loads(text))
        except Exception:
            return

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def wait_version(self, version: int, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in reversed(self.messages):
                if message.get("version") == version and message.get("type") in ("update", "snapshot"):
                    return message
            time.sleep(0.01)
        raise AssertionError(f"no message for version {version}; got {[m.get('version') for m in self.messages]}")

    def close(self) -> None:
        self.socket.close()


class Recorder(Player):
    """A player whose every HTTP response is kept for scanning."""

    def __init__(self, server: RunningServer, name: str) -> None:
        super().__init__(server, name)
        self.traffic: list[str] = []

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        response = super().post(path, body, **kwargs)
        self.traffic.append(response.text)
        return response

    def get(self, path: str) -> Any:
        response = super().get(path)
        self.traffic.append(response.text)
        return response


def _table(creator: Player, others: list[Player], game: str, seats: list[dict[str, Any]], options: Any = None) -> str:
    made = creator.post("/api/tables", {"game": game, "options": options or {}, "seats": seats})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    for other in others:
        assert other.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    assert creator.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


@pytest.fixture
def sqlite_server(tmp_path: Any) -> Iterator[RunningServer]:
    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'live.sqlite3'}", login_rate=1000, cookie_secure="false")
    with RunningServer(settings) as running:
        yield running


def test_websocket_snapshot_updates_and_resync(sqlite_server: RunningServer) -> None:
    ann, bob, cy = Player(sqlite_server, "ann"), Player(sqlite_server, "bob"), Player(sqlite_server, "cyd")
    ann.register()
    bob.register()
    cy.guest()
    table_id = _table(ann, [bob], "voluspa", [{"kind": "me"}, {"kind": "open"}])
    sockets = {"ann": Listener(sqlite_server, table_id, ann), "bob": Listener(sqlite_server, table_id, bob),
               "spectator": Listener(sqlite_server, table_id, None)}
    try:
        for name, listener in sockets.items():
            snapshot = listener.wait_version(0)
            assert snapshot["type"] == "snapshot"
            assert ("hand" in snapshot["view"]) == (name != "spectator")
        state = ann.get(f"/api/tables/{table_id}/state").json()
        mover = ann if 0 in state["to_move"] else bob
        mine = mover.get(f"/api/tables/{table_id}/state").json()
        assert mover.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": 0}).status_code == 200
        updates = {name: listener.wait_version(1) for name, listener in sockets.items()}
        mover_name = "ann" if mover is ann else "bob"
        other_name = "bob" if mover is ann else "ann"
        kinds = {name: [e["kind"] for e in update["events"]] for name, update in updates.items()}
        assert "drew" in kinds[mover_name] and "drew" not in kinds[other_name] and "drew" not in kinds["spectator"]
        assert "placed" in kinds["spectator"] and "scored" in kinds["spectator"]
        assert updates[mover_name]["seat"] != updates[other_name]["seat"]
        assert updates["spectator"]["seat"] is None and "legal" not in updates["spectator"]
        before = len(sockets["bob"].messages)
        sockets["bob"].send({"type": "resync"})
        deadline = time.monotonic() + 10
        while len(sockets["bob"].messages) == before:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert sockets["bob"].messages[-1]["type"] == "snapshot" and sockets["bob"].messages[-1]["version"] == 1
        sockets["spectator"].send({"type": "ping"})
        time.sleep(0.2)
        assert any(m["type"] == "pong" for m in sockets["spectator"].messages)
    finally:
        for listener in sockets.values():
            listener.close()


def test_cross_site_websocket_is_refused(sqlite_server: RunningServer) -> None:
    ann, bob = Player(sqlite_server, "ann"), Player(sqlite_server, "bob")
    ann.register()
    bob.register()
    table_id = _table(ann, [bob], "voluspa", [{"kind": "me"}, {"kind": "open"}])
    url = sqlite_server.url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with pytest.raises(Exception), connect(url, additional_headers={"Origin": "http://evil.example"}) as socket:
        socket.recv(timeout=5)


@pytest.fixture
def sealed() -> Iterator[SealedGame]:
    game = SealedGame()
    register(game)
    try:
        yield game
    finally:
        unregister(game.info.name)


def test_leak_drill_with_planted_unique_cards(sqlite_server: RunningServer, sealed: SealedGame) -> None:
    services = sqlite_server.app.state.services
    players = [Recorder(sqlite_server, name) for name in ("ann", "bob", "cyd")]
    for player in players:
        player.register()
    watcher = Recorder(sqlite_server, "dee")
    watcher.guest()
    findings: list[str] = []
    for game_number in range(3):
        table_id = _table(players[0], players[1:], "sealed-test", [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])
        runtime = services.games.runtimes[table_id]
        seat_of = {}
        for player in players:
            state = player.get(f"/api/tables/{table_id}/state").json()
            seat_of[state["seat"]] = player
        listeners = {seat: Listener(sqlite_server, table_id, player) for seat, player in seat_of.items()}
        listeners[None] = Listener(sqlite_server, table_id, None)
        hidden_by_version: dict[int, dict[int | None, set[str]]] = {}

        def snapshot_hidden() -> None:
            state = runtime.state
            deck = set(state.deck)
            hidden_by_version[runtime.version] = {
                seat: deck | {c for other, hand in enumerate(state.hands) if other != seat for c in hand}
                for seat in [0, 1, 2, None]
            }

        snapshot_hidden()
        while not runtime.state.is_terminal():
            seat = runtime.state.to_move()[0]
            player = seat_of[seat]
            for viewer in players + [watcher]:
                viewer.get(f"/api/tables/{table_id}/state")
            mine = player.get(f"/api/tables/{table_id}/state").json()
            # another seat's session is refused
            other = seat_of[(seat + 1) % 3]
            assert other.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": mine["version"]}).status_code == 409
            response = player.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": mine["version"]})
            assert response.status_code == 200
            snapshot_hidden()
        for listener in listeners.values():
            listener.wait_version(runtime.version)
            listener.close()
        seed = str(runtime.row.seed)
        secrets_ = [seed]
        for seat, listener in listeners.items():
            for message, raw in zip(listener.messages, listener.raw, strict=True):
                version = message.get("version")
                if version is None or version not in hidden_by_version:
                    continue
                for card in hidden_by_version[version][seat]:
                    if card in raw:
                        findings.append(f"game {game_number}: seat {seat} saw hidden {card} over WebSocket (v{version})")
                for secret in secrets_:
                    if secret in raw:
                        findings.append(f"game {game_number}: seat {seat} saw the seed over WebSocket")
        for seat, player in list(seat_of.items()) + [(None, watcher)]:
            for raw in player.traffic:
                try:
                    version = json.loads(raw).get("version")
                except (json.JSONDecodeError, AttributeError):
                    version = None
                if seed in raw:
                    findings.append(f"game {game_number}: seat {seat} saw the seed over HTTP")
                if isinstance(version, int) and version in hidden_by_version:
                    for card in hidden_by_version[version][seat]:
                        if card in raw:
                            findings.append(f"game {game_number}: seat {seat} saw hidden {card} over HTTP (v{version})")
            player.traffic.clear()
    assert findings == []


def test_leak_drill_voluspa_with_bots(sqlite_server: RunningServer) -> None:
    services = sqlite_server.app.state.services
    ann, bob = Recorder(sqlite_server, "ann"), Recorder(sqlite_server, "bob")
    ann.register()
    bob.register()
    watcher = Recorder(sqlite_server, "dee")
    watcher.guest()
    findings: list[str] = []
    for preset in ("saga", "order+lightning"):
        table_id = _table(ann, [bob], "voluspa", [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "easy"}],
                          {"preset": preset})
        runtime = services.games.runtimes[table_id]
        seat_of = {ann.get(f"/api/tables/{table_id}/state").json()["seat"]: ann,
                   bob.get(f"/api/tables/{table_id}/state").json()["seat"]: bob}
        listeners = {seat: Listener(sqlite_server, table_id, p) for seat, p in seat_of.items()}
        listeners[None] = Listener(sqlite_server, table_id, None)
        secrets_ = [str(runtime.row.seed), *(str(w) for w in runtime.state.rng.getstate())]
        hands: dict[int, dict[int, list[str]]] = {}
        piles: dict[int, list[str]] = {}

        def remember() -> None:
            hands[runtime.version] = {s: runtime.state.view(s)["hand"] for s in range(3)}
            from meadhall.games.voluspa.tiles import CODES

            piles[runtime.version] = [CODES[k] for k in runtime.state.pile]

        remember()
        deadline = time.monotonic() + 240
        while not runtime.state.is_terminal():
            assert time.monotonic() < deadline
            movers = runtime.state.to_move()
            if movers[0] not in seat_of:
                version = runtime.version
                while runtime.version == version and not runtime.state.is_terminal():
                    time.sleep(0.01)
                remember()
                continue
            player = seat_of[movers[0]]
            mine = player.get(f"/api/tables/{table_id}/state").json()
            watcher.get(f"/api/tables/{table_id}/state")
            if player.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": mine["version"]}).status_code == 200:
                remember()
        for listener in listeners.values():
            listener.wait_version(runtime.version, timeout=30)
            listener.close()

        def scan(seat: int | None, raw: str, where: str) -> None:
            for secret in secrets_:
                if secret in raw:
                    findings.append(f"{preset}: seat {seat} got the seed or RNG state over {where}")
            try:
                message = json.loads(raw)
            except json.JSONDecodeError:
                return
            if not isinstance(message, dict):
                return
            version = message.get("version")
            view = message.get("view")
            if isinstance(view, dict):
                if seat is None and "hand" in view:
                    findings.append(f"{preset}: a spectator got a hand over {where}")
                if seat is not None and isinstance(version, int) and version in hands and view.get("hand") != hands[version][seat]:
                    findings.append(f"{preset}: seat {seat} got a hand that is not its own over {where} (v{version})")
                if not isinstance(view.get("pile"), int):
                    findings.append(f"{preset}: the pile is not a count over {where}")
            for event in message.get("events", []) or []:
                if event.get("kind") == "drew" and event.get("seat") != seat:
                    findings.append(f"{preset}: seat {seat} saw another seat's draw over {where}")
            if isinstance(version, int) and version in piles and len(piles[version]) >= 4:
                run = json.dumps(piles[version][-4:])[1:-1]
                if run in raw:
                    findings.append(f"{preset}: seat {seat} got the pile order over {where}")

        for seat, listener in listeners.items():
            for raw in listener.raw:
                scan(seat, raw, "WebSocket")
        for seat, player in list(seat_of.items()) + [(None, watcher)]:
            for raw in player.traffic:
                scan(seat, raw, "HTTP")
            player.traffic.clear()
    assert findings == []
