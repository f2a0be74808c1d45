"""Taking back a move on the server (core.undo): the route, the socket, the record, a restart.

Played with the toy game of the test venv (tests/plugins/meadhall-toy): a leader's rune is
a move it may take back until the next seat answers; a round's close draws runes and rolls
the die, which no one may take back. Response windows pause a few seconds here, so the
server does not answer for a seat before the test has taken a move back.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select

from meadhall.core.record import GameRecord
from meadhall.server import db
from meadhall.server.db import make_engine
from tests.server.conftest import Player, RunningServer, paced_settings, state_with_words, two_seat_table
from tests.server.test_live_and_leaks import Listener


def _views(players: dict[int, Player], spectator: Player, table_id: str) -> dict[str, str]:
    seen = {str(seat): json.dumps(state_with_words(p, table_id)["view"], sort_keys=True) for seat, p in players.items()}
    seen["spectator"] = json.dumps(state_with_words(spectator, table_id)["view"], sort_keys=True)
    return seen


def _undo(player: Player, table_id: str, version: int) -> Any:
    return player.post(f"/api/tables/{table_id}/undo?words=1", {"version": version})


def test_undo_by_the_rules_on_the_api(paced: tuple[RunningServer, str]) -> None:
    server, database_url = paced
    table_id, players = two_seat_table(server)
    spectator = Player(server, "cy")
    spectator.guest()
    start = state_with_words(players[0], table_id)
    leader = start["to_move"][0]
    other = 1 - leader
    me, them = players[leader], players[other]
    mine = state_with_words(me, table_id)
    assert "undo" not in mine  # nothing played yet
    nothing = _undo(me, table_id, mine["version"])
    assert nothing.status_code == 409 and nothing.json()["error"] == "not-undoable", nothing.text
    before = _views(players, spectator, table_id)

    played = me.post(f"/api/tables/{table_id}/actions?words=1", {"action": mine["legal"][0], "version": 0})
    assert played.status_code == 200, played.text
    assert played.json()["undo"] == 1  # my move, and I may take it back
    assert "undo" not in state_with_words(them, table_id) and "undo" not in state_with_words(spectator, table_id)

    # Not theirs to take back; a stale version changes nothing; a spectator holds no seat.
    theirs = _undo(them, table_id, 1)
    assert theirs.status_code == 409 and "another player's" in theirs.json()["message"]
    stale = _undo(me, table_id, 0)
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    assert _undo(spectator, table_id, 1).status_code == 403

    undone = _undo(me, table_id, 1)
    assert undone.status_code == 200, undone.text
    answer = undone.json()
    assert answer["taken_back"] == leader and answer["version"] == 2 and "undo" not in answer
    # Every seat and the spectator see exactly what they saw before the move.
    assert _views(players, spectator, table_id) == before
    assert state_with_words(me, table_id)["legal"] == mine["legal"]
    log = me.get(f"/api/tables/{table_id}/log").json()
    assert log["version"] == 2 and len(log["steps"]) == 1  # the deal only: the move is gone

    # Played again, then the other seat answers: now nobody may take back the lead.
    me.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][-1], "version": 2}).raise_for_status()
    window = state_with_words(them, table_id)
    assert window["to_move"] == [other]
    answered = them.post(f"/api/tables/{table_id}/actions", {"action": window["legal"][-1], "version": 3})
    # (A seat that can only pass is answered by the table after the window's pause: stale then.)
    assert answered.status_code == 200 or answered.json()["error"] == "stale", answered.text
    assert state_with_words(them, table_id)["version"] == 4
    late = _undo(me, table_id, 4)
    assert late.status_code == 409 and late.json()["error"] == "not-undoable"
    # The answer closed the round: runes drawn and the die rolled, which no one takes back.
    kept = _undo(them, table_id, 4)
    assert kept.status_code == 422, kept.text
    assert kept.json()["rule"] == "take-back-chance" and "chance" in kept.json()["message"]
    assert state_with_words(them, table_id)["version"] == 4

    # The record keeps the taken-back move, marked; what replays is the moves that stand.
    engine = make_engine(database_url)
    with engine.connect() as connection:
        rows = connection.execute(
            select(db.actions.c.seq, db.actions.c.taken_back_at).where(db.actions.c.table_id == table_id)
        ).all()
    engine.dispose()
    assert [(seq, taken is not None) for seq, taken in sorted(rows)] == [(0, True), (2, False), (3, False)]


def test_undo_survives_a_restart(tmp_path: Path, database_url: str) -> None:
    settings = paced_settings(tmp_path, database_url)
    with RunningServer(settings) as server:
        table_id, players = two_seat_table(server)
        leader = state_with_words(players[0], table_id)["to_move"][0]
        me = players[leader]
        legal = state_with_words(me, table_id)["legal"]
        me.post(f"/api/tables/{table_id}/actions", {"action": legal[0], "version": 0}).raise_for_status()
        _undo(me, table_id, 1).raise_for_status()
        me.post(f"/api/tables/{table_id}/actions", {"action": legal[-1], "version": 2}).raise_for_status()
        cookies = {seat: dict(p.client.cookies) for seat, p in players.items()}
        csrf = {seat: p.csrf for seat, p in players.items()}
        seen = state_with_words(me, table_id)
    with RunningServer(settings) as server:
        again = Player(server, "again")
        again.client.cookies.update(cookies[leader])
        again.csrf = csrf[leader]
        reloaded = state_with_words(again, table_id)
        # Replayed from the record without the taken-back move, at the version it had.
        assert reloaded["version"] == 3 and reloaded["view"] == seen["view"] and reloaded["undo"] == 1
        undone = _undo(again, table_id, 3)
        assert undone.status_code == 200, undone.text
        assert undone.json()["version"] == 4 and undone.json()["legal"] == legal


def test_undo_over_the_socket(paced: tuple[RunningServer, str]) -> None:
    server, _ = paced
    table_id, players = two_seat_table(server)
    leader = state_with_words(players[0], table_id)["to_move"][0]
    me, them = players[leader], players[1 - leader]
    mine, theirs = Listener(server, table_id, me), Listener(server, table_id, them)
    watcher = Listener(server, table_id, None)
    try:
        first = mine.wait_version(0)
        assert mine.act(first["legal"][0], 0, 1)["type"] == "acted"
        watcher.wait_version(1)
        refused = _socket_undo(theirs, 1, 7)
        assert refused["type"] == "refused" and refused["status"] == 409
        done = _socket_undo(mine, 1, 8)
        assert done == {"type": "undone", "id": 8, "version": 2}
        for socket in (mine, theirs, watcher):
            update = socket.wait_version(2)
            assert update["type"] == "update" and update["taken_back"] == leader and update["events"] == []
        assert mine.wait_version(2)["view"] == first["view"]
        assert "undo" not in theirs.wait_version(2) and "undo" not in watcher.wait_version(2)
        bad = _socket_undo(mine, "two", 9)
        assert bad["type"] == "refused" and bad["status"] == 422
    finally:
        for socket in (mine, theirs, watcher):
            socket.close()


def _socket_undo(listener: Listener, version: Any, ident: int) -> dict[str, Any]:
    listener.send({"type": "undo", "id": ident, "version": version})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for message in list(listener.messages):
            if message.get("type") in ("undone", "refused") and message.get("id") == ident:
                return message
        time.sleep(0.01)
    raise AssertionError(f"no answer to undo {ident}")


def test_an_exported_record_leaves_taken_back_moves_out(paced: tuple[RunningServer, str]) -> None:
    server, _ = paced
    table_id, players = two_seat_table(server)
    taken = 0
    while True:
        state = state_with_words(players[0], table_id)
        if state["view"].get("finished") or not state["to_move"]:
            break
        seat = state["to_move"][0]
        mine = state_with_words(players[seat], table_id)
        moved = players[seat].post(
            f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": mine["version"]}
        )
        if moved.status_code == 409:
            continue  # the table answered for a seat meanwhile
        assert moved.status_code == 200, moved.text
        if moved.json().get("undo") and taken < 2:
            _undo(players[seat], table_id, moved.json()["version"]).raise_for_status()
            taken += 1
    assert taken == 2
    record = players[0].get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200, record.text
    data = record.json()
    game = GameRecord.from_dict(data)  # its stated result matches its replay
    assert game.replay().is_terminal()
    log = players[0].get(f"/api/tables/{table_id}/log").json()
    assert len([s for s in log["steps"] if s["version"] > 0]) == len(data["actions"])
