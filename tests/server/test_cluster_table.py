"""Everything a table does, on its owner, across two real servers (docs/deploy.md, "Several servers").

Two ``meadhall serve`` processes on a fresh PostgreSQL database and the real Redis (the
helpers of ``test_cluster_service``). At a confirm-turn table run by the first server: a
move held there reaches its holder's socket on the second; a chat line said on the first,
a request to abandon and a resignation posted on the second (played by the owner) and a
rematch asked on the first reach the sockets of the second. Then a table with a bot seat
and a running clock: its owner is killed, the survivor takes it over, the clock runs on
from the stored state (the person times out there and a bot takes the seat), and the
bots play on.

Skipped, saying so, when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import signal
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.server.test_cluster_service import (
    HANG_GUARD,
    Player,
    Server,
    _lease_holder,
    _stored_moves,
    _until,
    database,  # noqa: F401 (the fixture)
    pytestmark,  # noqa: F401 (the same skips)
    two_servers,
)


class Ear:
    """A WebSocket of one player on one server, and every message it heard, in order."""

    def __init__(self, server: Server, table_id: str, player: Player) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}?words=1"
        self._stack = contextlib.ExitStack()
        self.socket: ClientConnection = self._stack.enter_context(
            connect(url, additional_headers={"Cookie": player.cookie()}, open_timeout=HANG_GUARD)
        )
        self.heard: list[dict[str, Any]] = []

    def hear(self, what: str, until: Any) -> dict[str, Any]:
        """Read until a message ``until`` accepts arrives (it may have already); that message."""
        deadline = time.monotonic() + HANG_GUARD
        while True:
            found = next((m for m in self.heard if until(m)), None)
            if found is not None:
                return found
            assert time.monotonic() < deadline, f"the socket waited in vain for {what}: {self.heard}"
            try:
                self.heard.append(json.loads(self.socket.recv(timeout=1)))
            except TimeoutError:
                continue

    def close(self) -> None:
        self._stack.close()


def test_a_table_does_everything_on_its_owner(tmp_path: Path, database: str) -> None:  # noqa: F811
    with two_servers(tmp_path, database, secrets.token_hex(32)) as (first, second):
        ann, bob = Player(first, "ann"), Player(second, "bob")
        ann.register()
        bob.register()
        _confirm_turns_chat_abandon_resign_rematch(first, second, ann, bob)
        _bot_and_clock_survive_the_owner(first, second, ann, database)


def _confirm_turns_chat_abandon_resign_rematch(first: Server, second: Server, ann: Player, bob: Player) -> None:
    made = ann.post(
        "/api/tables", {"game": "toy", "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}], "pace": "async"}
    )
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    assert made.json()["confirm_turns"] is True
    assert bob.post(f"/api/tables/{table_id}/join").status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    assert _lease_holder(table_id) == first.node  # the server that started the table runs it
    people = {0: ann, 1: bob}
    leader = ann.state(table_id)["to_move"][0]
    holder, other = people[leader].through(first), people[1 - leader].through(second)

    # The leader's page on the second server (a mirror); the leader plays on the first.
    ear = Ear(second, table_id, holder)
    try:
        assert ear.hear("its snapshot", lambda m: m["type"] == "snapshot")["version"] == 0
        rune = holder.state(table_id)["legal"][0]
        played = holder.post(f"/api/tables/{table_id}/actions", {"action": rune, "version": 0})
        assert played.status_code == 200, played.text
        held = ear.hear("the held move", lambda m: m["type"] == "update" and m["version"] == 1)
        assert [step["action"] for step in held["held"]] == [rune]  # held on the owner, seen on the mirror
        assert other.state(table_id)["version"] == 0  # nobody else sees it before the confirmation
        assert held["events"]  # the rune's events, seen as it was played
        assert holder.post(f"/api/tables/{table_id}/confirm", {"version": 1}).status_code == 200
        confirmed = ear.hear("the confirmation", lambda m: m["type"] == "update" and m.get("confirmed"))
        assert confirmed["version"] == 1 and confirmed["events"] == [] and "held" not in confirmed  # not twice
        _until("the confirmed move on the mirror", lambda: other.state(table_id)["version"] == 1)

        said = holder.post(f"/api/tables/{table_id}/chat", {"text": "hail from the first hall"})
        assert said.status_code == 201, said.text
        chat = ear.hear("the chat line", lambda m: m["type"] == "chat")
        assert chat["message"]["text"] == "hail from the first hall"

        # Posted on the mirror, played by the owner; the owner's words reach the mirror's sockets.
        asked = other.post(f"/api/tables/{table_id}/abandon")
        assert asked.status_code == 200, asked.text
        assert asked.json()["abandon_requests"] == [1 - leader] and asked.json()["status"] == "active"
        request = ear.hear("the request to abandon", lambda m: m["type"] == "abandon-requested")
        assert request["seats"] == [1 - leader]
        resigned = other.post(f"/api/tables/{table_id}/resign")
        assert resigned.status_code == 200, resigned.text
        assert resigned.json()["status"] == "finished"
        word = ear.hear("the resignation", lambda m: m["type"] == "resigned")
        assert word["seat"] == 1 - leader
        ended = ear.hear("the ended game", lambda m: m["type"] == "snapshot" and m["status"] == "finished")
        assert ear.heard.index(word) < ear.heard.index(ended)
        assert f"table {table_id}: seat {1 - leader} resigned" in first.log.read_text()  # the owner played it
        assert f"table {table_id}: seat" not in second.log.read_text()

        again = holder.post(f"/api/tables/{table_id}/rematch")
        assert again.status_code == 200, again.text
        rematch = ear.hear("the rematch", lambda m: m["type"] == "rematch")
        assert rematch["table"] == again.json()["id"] and rematch["by"] == leader
        for kind in ("chat", "abandon-requested", "resigned", "rematch"):  # each once
            assert [m["type"] for m in ear.heard].count(kind) == 1, ear.heard
    finally:
        ear.close()


def _bot_and_clock_survive_the_owner(first: Server, second: Server, ann: Player, database_url: str) -> None:
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}]
    body = {"game": "toy", "options": {}, "seats": seats, "clock": True, "base_minutes": 0.1, "on_timeout": "bot"}
    made = ann.post("/api/tables", body)
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    assert _lease_holder(table_id) == first.node
    mirrored = ann.through(second)
    ear = Ear(second, table_id, mirrored)
    try:
        ear.hear("its snapshot", lambda m: m["type"] == "snapshot")
        before = _until("ann's clock running", lambda: _running(mirrored, table_id))
        first.process.send_signal(signal.SIGKILL)  # the owner dies while Ann's clock runs
        first.process.wait(timeout=HANG_GUARD)
        stored = len(_stored_moves(database_url, table_id))

        # The survivor takes the table over from the database: its snapshot carries on Ann's clock.
        taken = ear.hear("the survivor's snapshot", lambda m: m["type"] == "snapshot" and m is not ear.heard[0])
        assert taken["clock"]["remaining"][0] <= before["clock"]["remaining"][0], (before, taken)
        timeout = ear.hear("ann's timeout", lambda m: m["type"] == "timeout")
        assert timeout["seat"] == 0
        ear.hear("a bot's move after the takeover", lambda m: m["type"] == "update" and m["version"] > stored)
        assert _lease_holder(table_id) == second.node
        assert f"took over table {table_id}" in second.log.read_text()
        moves = _until("ann's seat played by a bot", lambda: _after(database_url, table_id, stored, 0))
        assert moves and 0 in mirrored.state(table_id)["clock"]["timed_out"]
    finally:
        ear.close()


def _running(player: Player, table_id: str) -> dict[str, Any] | None:
    """The table's state once Ann's clock (seat 0) runs, else None."""
    state = player.state(table_id)
    return state if state["clock"]["running"] == [0] else None


def _after(database_url: str, table_id: str, stored: int, seat: int) -> list[tuple[int, int, str]]:
    """The moves of ``seat`` stored after the first ``stored``."""
    return [move for move in _stored_moves(database_url, table_id)[stored:] if move[1] == seat]
