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
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from meadhall.core.registry import register, unregister
from meadhall.games.voluspa.tiles import CODES
from meadhall.server.store import Store
from tests.server.conftest import Player, RunningServer, make_settings
from tests.server.sealed_game import SealedGame

HANG_GUARD = 60.0  # seconds: long enough for a busy machine; only a hang fails


class Listener:
    """A WebSocket client that keeps every message it receives.

    It asks for the game's words (``?words=1``) as the table page does, so the drills scan
    every label and event text too.
    """

    def __init__(self, server: RunningServer, table_id: str, player: Player | None) -> None:
        cookie = ""
        if player is not None:
            cookie = "; ".join(f"{k}={v}" for k, v in player.client.cookies.items())
        url = server.url.replace("http://", "ws://") + f"/ws/tables/{table_id}?words=1"
        headers = {"Cookie": cookie} if cookie else {}
        self.socket: ClientConnection = connect(url, additional_headers=headers, open_timeout=HANG_GUARD)
        self.messages: list[dict[str, Any]] = []  # every message, parsed
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

    def wait_version(self, version: int, timeout: float = HANG_GUARD) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in reversed(self.messages):
                if message.get("version") == version and message.get("type") in ("update", "snapshot"):
                    found: dict[str, Any] = message
                    return found
            time.sleep(0.01)
        raise AssertionError(f"no message for version {version}; got {[m.get('version') for m in self.messages]}")

    def act(self, action: str, version: Any, ident: int, timeout: float = HANG_GUARD) -> dict[str, Any]:
        """Play over this socket; returns the ``acted`` or ``refused`` answer to ``ident``."""
        self.send({"type": "act", "id": ident, "action": action, "version": version})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in list(self.messages):
                if message.get("type") in ("acted", "refused") and message.get("id") == ident:
                    return message
            time.sleep(0.01)
        raise AssertionError(f"no answer to act {ident}")

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
    # The drills play whole games at machine speed, moves over a seat's socket many times a
    # second on a quiet machine: far above a person's pace, which ws_message_rate bounds
    # (tests/server/test_socket_limits.py checks that limit).
    settings = make_settings(
        tmp_path,
        f"sqlite:///{tmp_path / 'live.sqlite3'}",
        login_rate=1000,
        cookie_secure="false",
        ws_message_rate="1000/second",
    )
    with RunningServer(settings) as running:
        yield running


def _two_seats_and_a_spectator(server: RunningServer) -> tuple[Player, Player, str, dict[str, Listener]]:
    """A started two-player Völuspá table, and a socket for each seat and a spectator."""
    ann, bob = Player(server, "ann"), Player(server, "bob")
    ann.register()
    bob.register()
    table_id = _table(ann, [bob], "voluspa", [{"kind": "me"}, {"kind": "open"}])
    sockets = {
        "ann": Listener(server, table_id, ann),
        "bob": Listener(server, table_id, bob),
        "spectator": Listener(server, table_id, None),
    }
    return ann, bob, table_id, sockets


def test_websocket_snapshot_updates_and_resync(sqlite_server: RunningServer) -> None:
    ann, bob, table_id, sockets = _two_seats_and_a_spectator(sqlite_server)
    try:
        for name, listener in sockets.items():
            snapshot = listener.wait_version(0)
            assert snapshot["type"] == "snapshot"
            assert ("hand" in snapshot["view"]) == (name != "spectator")
        state = ann.get(f"/api/tables/{table_id}/state").json()
        mover = ann if 0 in state["to_move"] else bob
        mine = mover.get(f"/api/tables/{table_id}/state").json()
        assert (
            mover.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": 0}).status_code == 200
        )
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
        deadline = time.monotonic() + HANG_GUARD
        while len(sockets["bob"].messages) == before:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert sockets["bob"].messages[-1]["type"] == "snapshot" and sockets["bob"].messages[-1]["version"] == 1
        sockets["spectator"].send({"type": "ping"})
        deadline = time.monotonic() + HANG_GUARD  # the answer is awaited, not timed
        while not any(m["type"] == "pong" for m in sockets["spectator"].messages):
            assert time.monotonic() < deadline, "no pong"
            time.sleep(0.01)
    finally:
        for listener in sockets.values():
            listener.close()


def test_websocket_act_commits_broadcasts_and_refuses_bad_moves(sqlite_server: RunningServer) -> None:
    ann, bob, table_id, sockets = _two_seats_and_a_spectator(sqlite_server)
    try:
        for listener in sockets.values():
            listener.wait_version(0)
        state = ann.get(f"/api/tables/{table_id}/state").json()
        mover, waiter = ("ann", "bob") if 0 in state["to_move"] else ("bob", "ann")
        mine = (ann if mover == "ann" else bob).get(f"/api/tables/{table_id}/state").json()
        legal = mine["legal"]

        def refused(name: str, action: Any, version: Any, ident: int) -> dict[str, Any]:
            before = ann.get(f"/api/tables/{table_id}/state").json()["version"]
            answer = sockets[name].act(action, version, ident)
            assert answer["type"] == "refused", answer
            assert ann.get(f"/api/tables/{table_id}/state").json()["version"] == before  # nothing changed
            return answer

        assert refused("spectator", legal[0], 0, 1)["status"] == 403
        assert refused(waiter, legal[0], 0, 2)["error"] == "not-your-turn"
        assert refused(mover, "this is not a move", 0, 3)["error"] == "malformed"
        assert refused(mover, legal[0], "zero", 4)["error"] == "invalid"
        assert refused(mover, "", 0, 5)["error"] == "invalid"
        assert refused(mover, legal[0], 7, 6)["error"] == "stale"
        unplayable = next(code for code in CODES if code not in mine["view"]["hand"])
        illegal = refused(mover, f"{unplayable}@0,1", 0, 7)
        assert illegal["status"] == 422 and illegal["error"] == "illegal" and illegal["message"]

        answer = sockets[mover].act(legal[0], 0, 8)
        assert answer == {"type": "acted", "id": 8, "version": 1}
        updates = {name: listener.wait_version(1) for name, listener in sockets.items()}
        assert updates[mover]["type"] == "update" and "legal" not in updates["spectator"]
        # the update reached the mover before its answer
        kinds = [(m.get("type"), m.get("version"), m.get("id")) for m in sockets[mover].messages]
        assert kinds.index(("update", 1, None)) < kinds.index(("acted", 1, 8))
        assert ann.get(f"/api/tables/{table_id}/state").json()["version"] == 1
        stored = sqlite_server.app.state.services.store.read(lambda c: Store.table_actions(c, table_id))
        assert [action for _, action in stored] == [legal[0]]  # committed before the answer
        assert refused(mover, legal[0], 0, 9)["error"] in ("stale", "not-your-turn")
    finally:
        for listener in sockets.values():
            listener.close()


def test_cross_site_websocket_is_refused(sqlite_server: RunningServer) -> None:
    ann, bob = Player(sqlite_server, "ann"), Player(sqlite_server, "bob")
    ann.register()
    bob.register()
    table_id = _table(ann, [bob], "voluspa", [{"kind": "me"}, {"kind": "open"}])
    url = sqlite_server.url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with pytest.raises(InvalidStatus):
        connect(url, additional_headers={"Origin": "http://evil.example"}, open_timeout=10)


@pytest.fixture
def sealed() -> Iterator[SealedGame]:
    game = SealedGame()
    register(game)
    try:
        yield game
    finally:
        unregister(game.info.name)


def _act(player: Player, table_id: str, state: dict[str, Any]) -> int:
    body = {"action": state["legal"][0], "version": state["version"]}
    return int(player.post(f"/api/tables/{table_id}/actions", body).status_code)


def _traffic(seat_of: dict[int, Recorder], watcher: Recorder) -> list[tuple[int | None, Recorder]]:
    return [*seat_of.items(), (None, watcher)]


class SealedDrill:
    """One sealed-card game: which cards each seat may not see, version by version."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.hidden: dict[int, dict[int | None, set[str]]] = {}
        self.remember()

    def remember(self) -> None:
        state = self.runtime.state
        deck = set(state.deck)
        self.hidden[self.runtime.version] = {
            seat: deck | {c for other, hand in enumerate(state.hands) if other != seat for c in hand}
            for seat in [0, 1, 2, None]
        }

    def scan(self, seat: int | None, raw: str, where: str, findings: list[str]) -> None:
        seed = str(self.runtime.row.seed)
        if seed in raw:
            findings.append(f"seat {seat} saw the seed over {where}")
        try:
            version = json.loads(raw).get("version")
        except (json.JSONDecodeError, AttributeError):
            return
        if isinstance(version, int) and version in self.hidden:
            findings.extend(
                f"seat {seat} saw hidden {card} over {where} (v{version})"
                for card in self.hidden[version][seat]
                if card in raw
            )


def test_leak_drill_with_planted_unique_cards(sqlite_server: RunningServer, sealed: SealedGame) -> None:
    services = sqlite_server.app.state.services
    players = [Recorder(sqlite_server, name) for name in ("ann", "bob", "cyd")]
    for player in players:
        player.register()
    watcher = Recorder(sqlite_server, "dee")
    watcher.guest()
    findings: list[str] = []
    for _ in range(3):
        seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
        table_id = _table(players[0], list(players[1:]), "sealed-test", seats)
        drill = SealedDrill(services.games.runtimes[table_id])
        seat_of = {int(p.get(f"/api/tables/{table_id}/state").json()["seat"]): p for p in players}
        listeners: dict[int | None, Listener] = {
            seat: Listener(sqlite_server, table_id, p) for seat, p in seat_of.items()
        }
        listeners[None] = Listener(sqlite_server, table_id, None)
        runtime = drill.runtime
        while not runtime.state.is_terminal():
            seat = runtime.state.to_move()[0]
            for viewer in [*players, watcher]:
                viewer.get(f"/api/tables/{table_id}/state")
            mine = seat_of[seat].get(f"/api/tables/{table_id}/state").json()
            assert _act(seat_of[(seat + 1) % 3], table_id, mine) == 409  # another seat's session is refused
            assert _act(seat_of[seat], table_id, mine) == 200
            drill.remember()
        for seat, listener in listeners.items():
            listener.wait_version(runtime.version)
            listener.close()
            for raw in listener.raw:
                drill.scan(seat, raw, "WebSocket", findings)
        for seat, player in _traffic(seat_of, watcher):
            for raw in player.traffic:
                drill.scan(seat, raw, "HTTP", findings)
            player.traffic.clear()
    assert findings == []


class VoluspaDrill:
    """One Völuspá game: each seat's true hand and the pile, version by version."""

    def __init__(self, runtime: Any, preset: str) -> None:
        self.runtime = runtime
        self.preset = preset
        self.secrets = [str(runtime.row.seed), *(str(w) for w in runtime.state.rng.getstate())]
        self.hands: dict[int, dict[int, list[str]]] = {}
        self.piles: dict[int, list[str]] = {}
        self.remember()

    def remember(self) -> None:
        state = self.runtime.state
        self.hands[self.runtime.version] = {s: state.view(s)["hand"] for s in range(state.num_players)}
        self.piles[self.runtime.version] = [CODES[k] for k in state.pile]

    def scan(self, seat: int | None, raw: str, where: str, findings: list[str]) -> None:
        label = f"{self.preset}: seat {seat}"
        if any(secret in raw for secret in self.secrets):
            findings.append(f"{label} got the seed or RNG state over {where}")
        try:
            message = json.loads(raw)
        except json.JSONDecodeError:
            return
        if not isinstance(message, dict):
            return
        version = message.get("version")
        version = version if isinstance(version, int) else -1
        view = message.get("view")
        if isinstance(view, dict):
            if seat is None and "hand" in view:
                findings.append(f"{label} (a spectator) got a hand over {where}")
            if seat is not None and version in self.hands and view.get("hand") != self.hands[version][seat]:
                findings.append(f"{label} got a hand that is not its own over {where} (v{version})")
            if not isinstance(view.get("pile"), int):
                findings.append(f"{label}: the pile is not a count over {where}")
        for event in message.get("events", []) or []:
            if event.get("kind") == "drew" and event.get("seat") != seat:
                findings.append(f"{label} saw another seat's draw over {where}")
        pile = self.piles.get(version, [])
        if len(pile) >= 4 and json.dumps(pile[-4:])[1:-1] in raw:
            findings.append(f"{label} got the pile order over {where}")


def test_leak_drill_voluspa_with_bots(sqlite_server: RunningServer) -> None:
    services = sqlite_server.app.state.services
    ann, bob = Recorder(sqlite_server, "ann"), Recorder(sqlite_server, "bob")
    ann.register()
    bob.register()
    watcher = Recorder(sqlite_server, "dee")
    watcher.guest()
    findings: list[str] = []
    for preset in ("saga", "order+lightning"):
        seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "easy"}]
        table_id = _table(ann, [bob], "voluspa", seats, {"preset": preset})
        drill = VoluspaDrill(services.games.runtimes[table_id], preset)
        runtime = drill.runtime
        seat_of = {int(p.get(f"/api/tables/{table_id}/state").json()["seat"]): p for p in (ann, bob)}
        listeners: dict[int | None, Listener] = {
            seat: Listener(sqlite_server, table_id, p) for seat, p in seat_of.items()
        }
        listeners[None] = Listener(sqlite_server, table_id, None)
        deadline = time.monotonic() + 240
        while not runtime.state.is_terminal():
            assert time.monotonic() < deadline
            mover = runtime.state.to_move()[0]
            if mover not in seat_of:  # the bot thinks on the server
                version = runtime.version
                while runtime.version == version and not runtime.state.is_terminal():
                    time.sleep(0.01)
                drill.remember()
                continue
            mine = seat_of[mover].get(f"/api/tables/{table_id}/state").json()
            watcher.get(f"/api/tables/{table_id}/state")
            if mine["version"] % 2:  # every other move over the mover's WebSocket, as the browser sends it
                answer = listeners[mover].act(mine["legal"][0], mine["version"], mine["version"])
                if answer["type"] == "acted":
                    drill.remember()
            elif _act(seat_of[mover], table_id, mine) == 200:
                drill.remember()
        for seat, listener in listeners.items():
            listener.wait_version(runtime.version)
            listener.close()
            for raw in listener.raw:
                drill.scan(seat, raw, "WebSocket", findings)
        for seat, player in _traffic(seat_of, watcher):
            for raw in player.traffic:
                drill.scan(seat, raw, "HTTP", findings)
            player.traffic.clear()
    assert findings == []


class BloodRageDrill:
    """One Blood Rage game: the cards each seat may not see, version by version.

    Hands, face-down quests, drafted and saved cards, the packs and picks of other seats,
    battle cards before the reveal, the deck and the cards removed at the end of an Age.
    """

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.dropped_by: dict[str, int] = {}
        self.secrets = [str(runtime.row.seed), *(str(w) for w in runtime.state.rng.getstate())]
        self.hidden: dict[int, dict[int | None, set[str]]] = {}
        self.deck_tops: dict[int, str] = {}
        self.remember()

    def remember(self) -> None:
        from tests.bloodrage_valhalla.test_views_and_invariants import hidden_from

        state = self.runtime.state
        for seat, action in state.history():
            if action.kind == "drop":
                self.dropped_by[action.a] = seat
        seats: list[int | None] = [*range(state.num_players), None]
        self.hidden[self.runtime.version] = {seat: hidden_from(state, seat, self.dropped_by) for seat in seats}
        if len(state.deck) >= 3:
            self.deck_tops[self.runtime.version] = json.dumps(state.deck[-3:])[1:-1]

    def scan(self, seat: int | None, raw: str, where: str, findings: list[str]) -> None:
        if any(secret in raw for secret in self.secrets):
            findings.append(f"seat {seat} got the seed or RNG state over {where}")
        try:
            message = json.loads(raw)
        except json.JSONDecodeError:
            return
        version = message.get("version") if isinstance(message, dict) else None
        if not isinstance(version, int) or version not in self.hidden:
            return
        findings.extend(
            f"seat {seat} saw hidden {card} over {where} (v{version})"
            for card in self.hidden[version][seat]
            if f'"{card}"' in raw
        )
        if version in self.deck_tops and self.deck_tops[version] in raw:
            findings.append(f"seat {seat} got the deck order over {where} (v{version})")


def test_leak_drill_bloodrage(sqlite_server: RunningServer) -> None:
    """Three people play Blood Rage through the API; nobody's bytes hold another's secrets."""
    import random

    services = sqlite_server.app.state.services
    players = [Recorder(sqlite_server, name) for name in ("ann", "bob", "cyd")]
    for player in players:
        player.register()
    watcher = Recorder(sqlite_server, "dee")
    watcher.guest()
    findings: list[str] = []
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    table_id = _table(players[0], list(players[1:]), "bloodrage-valhalla", seats, {"preset": "first-game"})
    drill = BloodRageDrill(services.games.runtimes[table_id])
    runtime = drill.runtime
    seat_of = {int(p.get(f"/api/tables/{table_id}/state").json()["seat"]): p for p in players}
    listeners: dict[int | None, Listener] = {seat: Listener(sqlite_server, table_id, p) for seat, p in seat_of.items()}
    listeners[None] = Listener(sqlite_server, table_id, None)
    choose = random.Random(5)
    kinds: set[str] = set()
    deadline = time.monotonic() + 240
    while not runtime.state.is_terminal():
        assert time.monotonic() < deadline
        mover = choose.choice(runtime.state.to_move())
        mine = seat_of[mover].get(f"/api/tables/{table_id}/state").json()
        if choose.random() < 0.2:
            watcher.get(f"/api/tables/{table_id}/state")
        legal = [a for a in mine["legal"] if a != "pass"] or mine["legal"]
        action = choose.choice(legal)
        kinds.add(action.split(":", 1)[0])
        body = {"action": action, "version": mine["version"]}
        assert seat_of[mover].post(f"/api/tables/{table_id}/actions", body).status_code == 200
        drill.remember()
    assert {"pick", "play", "drop", "quest"} <= kinds, kinds  # drafts, battle cards, keeping, quests
    for seat, listener in listeners.items():
        listener.wait_version(runtime.version)
        listener.close()
        for raw in listener.raw:
            drill.scan(seat, raw, "WebSocket", findings)
    for seat, player in _traffic(seat_of, watcher):
        for raw in player.traffic:
            drill.scan(seat, raw, "HTTP", findings)
    assert findings == []


def _card_ids(value: Any, cards: Any) -> set[str]:
    """Every card id named anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value} if value in cards else set()
    if isinstance(value, dict):
        return {c for v in value.values() for c in _card_ids(v, cards)}
    if isinstance(value, list | tuple):
        return {c for v in value for c in _card_ids(v, cards)}
    return set()


class ValdaDrill:
    """One Valda game: the cards each seat may not see, version by version.

    Other players' hands, the open cards while Freya keeps them to the player whose turn
    it is, the tops of the god decks and the base deck's order; a card counts as hidden
    from a seat only while nothing that seat was shown (its view, its events so far) names
    it, since the default deck holds several copies of most cards.
    """

    def __init__(self, runtime: Any) -> None:
        from meadhall.games.valda import GAME

        state = runtime.state
        self.runtime = runtime
        self.cards = state.config.content.cards
        self.shadow = GAME.new_game(players=state.num_players, seed=runtime.row.seed, options=dict(state.options))
        self.seats: list[int | None] = [*range(state.num_players), None]
        self.seen: dict[int | None, set[str]] = {seat: set() for seat in self.seats}
        self.secrets = [str(runtime.row.seed), *(str(w) for w in state.rng.getstate())]
        self.hidden: dict[int, dict[int | None, set[str]]] = {}
        self.deck_tops: dict[int, str] = {}
        self.remember()

    def remember(self) -> None:
        """Record what is hidden at every version played since the last call (the server answers
        some response windows by itself, so versions may pass between two moves of the drill)."""
        if not self.hidden:
            self._record(0)
        for seat, action in self.runtime.state.history()[len(self.shadow.history()) :]:
            for event in self.shadow.apply(seat, action):
                for who in self.seats:
                    if event.visible_to(who):
                        self.seen[who] |= _card_ids(event.data, self.cards)
            self._record(len(self.shadow.history()))

    def _record(self, version: int) -> None:
        state = self.shadow
        hidden: dict[int | None, set[str]] = {}
        for who in self.seats:
            private = {card for seat, player in enumerate(state.players) if seat != who for card in player.hand}
            if state.open_closed and who != state.current:
                private |= set(state.open)
            for deck in state.gods.values():
                private |= set(deck[-2:])
            # what the seat may know, from the rules (not from its view, which is under test)
            shown = self.seen[who] | set(state.discard) | _card_ids(state.attack, self.cards)
            if who is not None:
                shown |= set(state.players[who].hand)
            if not state.open_closed or who == state.current:
                shown |= set(state.open)
            if state.decision is not None and state.decision["seat"] == who:
                shown |= _card_ids(state.decision, self.cards)
            hidden[who] = private - shown
        self.hidden[version] = hidden
        if len(state.base) >= 3:
            self.deck_tops[version] = json.dumps(state.base[-3:])[1:-1]

    def scan(self, seat: int | None, raw: str, where: str, findings: list[str]) -> None:
        if any(secret in raw for secret in self.secrets):
            findings.append(f"seat {seat} got the seed or RNG state over {where}")
        try:
            message = json.loads(raw)
        except json.JSONDecodeError:
            return
        version = message.get("version") if isinstance(message, dict) else None
        if not isinstance(version, int) or version not in self.hidden:
            return
        findings.extend(
            f"seat {seat} saw hidden {card} over {where} (v{version})"
            for card in self.hidden[version][seat]
            if f'"{card}"' in raw
        )
        if version in self.deck_tops and self.deck_tops[version] in raw:
            findings.append(f"seat {seat} got the base deck's order over {where} (v{version})")


def test_leak_drill_valda(sqlite_server: RunningServer) -> None:
    """Three people play Valda through the API and the socket; nobody's bytes hold another's secrets."""
    import random

    services = sqlite_server.app.state.services
    players = [Recorder(sqlite_server, name) for name in ("ann", "bob", "cyd")]
    for player in players:
        player.register()
    watcher = Recorder(sqlite_server, "dee")
    watcher.guest()
    findings: list[str] = []
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    table_id = _table(players[0], list(players[1:]), "valda", seats, {"preset": "standard"})
    drill = ValdaDrill(services.games.runtimes[table_id])
    runtime = drill.runtime
    seat_of = {int(p.get(f"/api/tables/{table_id}/state").json()["seat"]): p for p in players}
    listeners: dict[int | None, Listener] = {seat: Listener(sqlite_server, table_id, p) for seat, p in seat_of.items()}
    listeners[None] = Listener(sqlite_server, table_id, None)
    choose = random.Random(7)
    kinds: set[str] = set()
    checked = 0
    deadline = time.monotonic() + 240
    while not runtime.state.is_terminal():
        assert time.monotonic() < deadline
        (mover,) = runtime.state.to_move()
        mine = seat_of[mover].get(f"/api/tables/{table_id}/state").json()
        if choose.random() < 0.1:
            watcher.get(f"/api/tables/{table_id}/state")
        if "legal" not in mine:  # the server answered a window between our two looks
            drill.remember()
            continue
        if mine.get("answered"):  # a response window with nothing but a pass: the server answers it
            while runtime.version == mine["version"] and not runtime.state.is_terminal():
                time.sleep(0.005)
            drill.remember()
            continue
        legal = [a for a in mine["legal"] if a not in ("pass", "done", "yield")] or mine["legal"]
        action = choose.choice(legal if choose.random() < 0.85 else mine["legal"])
        kinds.add(action.split(":", 1)[0])
        if mine["version"] % 3 == 0:  # some moves over the mover's WebSocket, as the browser sends them
            answer = listeners[mover].act(action, mine["version"], mine["version"])
            assert answer["type"] == "acted", answer
        else:
            body = {"action": action, "version": mine["version"]}
            assert seat_of[mover].post(f"/api/tables/{table_id}/actions", body).status_code == 200
        drill.remember()
        checked += sum(len(h) for h in drill.hidden[runtime.version].values())
    assert {"play", "build", "attack", "defend", "keep"} <= kinds, kinds
    assert checked > 1000, checked
    for seat, listener in listeners.items():
        listener.wait_version(runtime.version)
        listener.close()
        for raw in listener.raw:
            drill.scan(seat, raw, "WebSocket", findings)
    for seat, player in _traffic(seat_of, watcher):
        for raw in player.traffic:
            drill.scan(seat, raw, "HTTP", findings)
    assert findings == []
