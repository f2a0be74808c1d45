"""Confirm-turn tables (issue 21 item 2): a seat's moves wait for its Confirm.

Played with the toy game of the test venv (tests/plugins/meadhall-toy): a leader's rune
is a move it may take back, so at a confirm-turn table it is held until the leader
confirms; the other seat's answer is a response window and is never held. A Völuspá
move draws a tile (it reveals something), so it is committed at once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from meadhall.server import db
from meadhall.server.db import make_engine
from tests.server.conftest import PACED_WINDOW as WINDOW
from tests.server.conftest import Player, RunningServer, paced_settings, state_with_words, two_seat_table
from tests.server.test_live_and_leaks import Listener


def _raw(player: Player, table_id: str) -> list[bytes]:
    """Everything a seat can ask about the table, byte for byte."""
    return [
        player.get(f"/api/tables/{table_id}/state?words=1").content,
        player.get(f"/api/tables/{table_id}/state").content,
        player.get(f"/api/tables/{table_id}/log").content,
        player.get(f"/api/tables/{table_id}").content,
    ]


def _confirm(player: Player, table_id: str, version: int) -> Any:
    return player.post(f"/api/tables/{table_id}/confirm?words=1", {"version": version})


def _standing_actions(database_url: str, table_id: str) -> list[tuple[int, str]]:
    engine = make_engine(database_url)
    with engine.connect() as connection:
        rows = connection.execute(
            select(db.actions.c.seq, db.actions.c.action).where(db.actions.c.table_id == table_id)
        ).all()
    engine.dispose()
    return sorted((int(seq), str(action)) for seq, action in rows)


def test_pace_and_confirm_are_chosen_at_creation(paced: tuple[RunningServer, str]) -> None:
    server, _ = paced
    ann = Player(server, "ann")
    ann.register()
    seats = [{"kind": "me"}, {"kind": "open"}]

    def made(**settings: Any) -> Any:
        return ann.post("/api/tables", {"game": "toy", "options": {}, "seats": seats, **settings})

    live = made().json()
    assert live["pace"] == "live" and live["confirm_turns"] is False
    played_async = made(pace="async").json()
    assert played_async["pace"] == "async" and played_async["confirm_turns"] is True  # on by default
    assert made(pace="async", confirm_turns=False).json()["confirm_turns"] is False
    assert made(confirm_turns=True).json()["confirm_turns"] is True
    bad = made(pace="sometimes")
    assert bad.status_code == 422, bad.text
    # The setting is stored: the lobby's own reading of the table shows it.
    again = ann.get(f"/api/tables/{played_async['id']}").json()
    assert again["pace"] == "async" and again["confirm_turns"] is True


def test_held_moves_are_seen_only_by_their_seat(paced: tuple[RunningServer, str]) -> None:
    server, database_url = paced
    table_id, players = two_seat_table(server, pace="async")
    spectator = Player(server, "cy")
    spectator.guest()
    leader = state_with_words(players[0], table_id)["to_move"][0]
    me, them = players[leader], players[1 - leader]
    theirs, watcher = Listener(server, table_id, them), Listener(server, table_id, None)
    try:
        theirs.wait_version(0)
        watcher.wait_version(0)
        mine = state_with_words(me, table_id)
        assert mine["confirm_turns"] is True and "held" not in mine
        assert "confirm_turns" not in state_with_words(spectator, table_id)
        nothing = _confirm(me, table_id, 0)
        assert nothing.status_code == 409 and nothing.json()["error"] == "nothing-held"
        before = {"them": _raw(them, table_id), "spectator": _raw(spectator, table_id)}
        heard = (len(theirs.raw), len(watcher.raw))
        lobby = them.get("/api/me/games").content

        played = me.post(f"/api/tables/{table_id}/actions?words=1", {"action": mine["legal"][0], "version": 0})
        assert played.status_code == 200, played.text
        held = played.json()
        assert held["version"] == 1 and held["undo"] == 1
        assert [step["action"] for step in held["held"]] == [mine["legal"][0]]
        assert held["to_move"] == [1 - leader]  # in my held state the turn has passed
        assert "legal" not in held  # nothing more of mine to play: confirm or undo
        # Nothing is written, and the others learn nothing: their payloads are byte-identical.
        assert _standing_actions(database_url, table_id) == []
        assert {"them": _raw(them, table_id), "spectator": _raw(spectator, table_id)} == before
        assert them.get("/api/me/games").content == lobby
        assert (len(theirs.raw), len(watcher.raw)) == heard
        assert state_with_words(me, table_id)["held"] == held["held"]
        # My log has the held move as its last step, at my version; theirs does not.
        my_log = me.get(f"/api/tables/{table_id}/log").json()
        assert my_log["version"] == 1 and my_log["steps"][-1] == {"version": 1, "events": held["held"][0]["events"]}
        # My own lobby still says it is my turn: the turn moves on only when I confirm.
        assert any(t["id"] == table_id and t["my_turn"] for t in me.get("/api/me/games").json()["tables"])

        # Undo inside a held turn drops the held move, and writes nothing either.
        dropped = me.post(f"/api/tables/{table_id}/undo?words=1", {"version": 1})
        assert dropped.status_code == 200, dropped.text
        assert dropped.json()["version"] == 0 and "held" not in dropped.json()
        assert dropped.json()["legal"] == mine["legal"] and dropped.json()["view"] == mine["view"]
        assert {"them": _raw(them, table_id), "spectator": _raw(spectator, table_id)} == before
        assert (len(theirs.raw), len(watcher.raw)) == heard

        choice = mine["legal"][-1]
        me.post(f"/api/tables/{table_id}/actions", {"action": choice, "version": 0}).raise_for_status()
        stale = _confirm(me, table_id, 0)
        assert stale.status_code == 409 and stale.json()["error"] == "stale"
        assert {"them": _raw(them, table_id), "spectator": _raw(spectator, table_id)} == before
        confirmed = _confirm(me, table_id, 1)
        assert confirmed.status_code == 200, confirmed.text
        assert confirmed.json()["version"] == 1 and "held" not in confirmed.json()
        # Now it is written and everyone hears of it, with the move's events.
        assert _standing_actions(database_url, table_id) == [(0, choice)]
        for socket in (theirs, watcher):
            update = socket.wait_version(1)
            assert update["type"] == "update" and update["events"], update
        answer = state_with_words(them, table_id)
        assert answer["version"] == 1 and answer["to_move"] == [1 - leader] and answer["legal"]
        # Confirmed moves stand as any: the mover may still take back its latest by the rules.
        assert state_with_words(me, table_id)["undo"] == 1
    finally:
        theirs.close()
        watcher.close()


def test_a_revealing_move_confirms_the_turn_at_once(paced: tuple[RunningServer, str]) -> None:
    server, database_url = paced
    table_id, players = two_seat_table(server, game="voluspa", confirm_turns=True)
    leader = state_with_words(players[0], table_id)["to_move"][0]
    me, them = players[leader], players[1 - leader]
    mine = state_with_words(me, table_id)
    assert mine["confirm_turns"] is True
    played = me.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": 0})
    assert played.status_code == 200, played.text
    # Placing a tile draws the next one: nobody may hold what they have seen, so it stands.
    assert "held" not in played.json() and played.json()["version"] == 1
    assert _standing_actions(database_url, table_id) == [(0, mine["legal"][0])]
    assert state_with_words(them, table_id)["version"] == 1


def test_confirm_over_the_socket(paced: tuple[RunningServer, str]) -> None:
    server, _ = paced
    table_id, players = two_seat_table(server, pace="async")
    leader = state_with_words(players[0], table_id)["to_move"][0]
    me, them = players[leader], players[1 - leader]
    mine, theirs = Listener(server, table_id, me), Listener(server, table_id, them)
    try:
        first = mine.wait_version(0)
        theirs.wait_version(0)
        assert mine.act(first["legal"][0], 0, 1) == {"type": "acted", "id": 1, "version": 1}
        held = mine.wait_version(1)
        assert held["held"][0]["action"] == first["legal"][0] and held["held"][0]["events"]
        heard = list(theirs.raw)
        mine.send({"type": "confirm", "id": 2, "version": 1})
        deadline = time.monotonic() + 60
        answer = None
        while answer is None and time.monotonic() < deadline:
            answer = next((m for m in list(mine.messages) if m.get("id") == 2), None)
            time.sleep(0.01)
        assert answer == {"type": "confirmed", "id": 2, "version": 1}
        update = theirs.wait_version(1)
        assert update["events"] and theirs.raw[: len(heard)] == heard
        # The mover's own update after confirming carries no events: it saw them when it played.
        confirmed = [m for m in mine.messages if m.get("type") == "update" and m.get("version") == 1]
        assert confirmed[-1]["events"] == [] and "held" not in confirmed[-1]
    finally:
        mine.close()
        theirs.close()


def test_held_moves_are_dropped_on_restart(tmp_path: Path, database_url: str) -> None:
    settings = paced_settings(tmp_path, database_url)
    with RunningServer(settings) as server:
        table_id, players = two_seat_table(server, pace="async")
        leader = state_with_words(players[0], table_id)["to_move"][0]
        me = players[leader]
        mine = state_with_words(me, table_id)
        me.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": 0}).raise_for_status()
        cookies, csrf = dict(me.client.cookies), me.csrf
    with RunningServer(settings) as server:
        again = Player(server, "again")
        again.client.cookies.update(cookies)
        again.csrf = csrf
        reloaded = state_with_words(again, table_id)
        # Held moves live in memory only: the seat plays its turn again.
        assert reloaded["version"] == 0 and "held" not in reloaded and reloaded["legal"] == mine["legal"]
        assert reloaded["view"] == mine["view"]
        assert _confirm(again, table_id, 0).json()["error"] == "nothing-held"


def test_a_bot_waits_for_the_confirmation(paced: tuple[RunningServer, str]) -> None:
    server, database_url = paced
    ann = Player(server, "ann")
    ann.register()
    made = ann.post(
        "/api/tables",
        {"game": "toy", "options": {}, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}], "pace": "async"},
    )
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    deadline = time.monotonic() + 120
    state = state_with_words(ann, table_id)
    while state["to_move"] != [0] and time.monotonic() < deadline:  # the bot may lead: wait for my turn
        time.sleep(0.05)
        state = state_with_words(ann, table_id)
    assert state.get("legal"), state
    version = state["version"]
    ann.post(f"/api/tables/{table_id}/actions", {"action": state["legal"][0], "version": version}).raise_for_status()
    standing = _standing_actions(database_url, table_id)
    # The bot does not see a held move: past its answer's pause, nothing more is written.
    time.sleep(WINDOW + 1)
    assert _standing_actions(database_url, table_id) == standing
    _confirm(ann, table_id, version + 1).raise_for_status()
    while len(_standing_actions(database_url, table_id)) < len(standing) + 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(_standing_actions(database_url, table_id)) >= len(standing) + 2  # mine, then the bot's answer


def _holdable_then_revealing(state: Any) -> tuple[str, str] | None:
    """A move the seat to move alone could hold, then one that reveals something (None: not here)."""
    from meadhall.core.undo import apply

    seat = state.to_move()[0]
    if tuple(state.to_move()) != (seat,) or state.response_window(seat):
        return None
    for first in state.legal_actions(seat):
        held = state.clone()
        _, refusal = apply(held, seat, first)
        if refusal is not None or tuple(held.to_move()) != (seat,) or held.response_window(seat):
            continue
        for second in held.legal_actions(seat):
            _, shows = apply(held.clone(), seat, second)
            if shows is not None:
                return str(first), str(second)
    return None


def test_a_revealing_move_after_held_ones_commits_them_all(paced: tuple[RunningServer, str]) -> None:
    """Valda: a held move, then one that shows the mover something (a take from the supply, say)."""
    from meadhall.core.registry import get_game

    server, database_url = paced
    table_id, players = two_seat_table(server, game="valda", confirm_turns=True)
    engine = make_engine(database_url)
    with engine.connect() as connection:
        seed, options = connection.execute(
            select(db.game_tables.c.seed, db.game_tables.c.options).where(db.game_tables.c.id == table_id)
        ).one()
    engine.dispose()
    # The same game, mirrored here from the table's seed: it finds where such a pair is playable.
    state = get_game("valda").new_game(players=2, seed=int(seed), options=dict(options))
    for _ in range(60):
        seat = state.to_move()[0]
        player = players[seat]
        version = state_with_words(player, table_id)["version"]
        pair = _holdable_then_revealing(state)
        if state.response_window(seat) and len(state.legal_actions(seat)) == 1:
            # The table passes for a seat that can only pass, after the window's pause.
            deadline = time.monotonic() + 60
            while state_with_words(player, table_id)["version"] == version and time.monotonic() < deadline:
                time.sleep(0.05)
            state.apply(seat, state.legal_actions(seat)[0])
            continue
        if pair is None:
            action = str(state.legal_actions(seat)[0])
            played = player.post(f"/api/tables/{table_id}/actions", {"action": action, "version": version})
            assert played.status_code == 200, played.text
            state.apply(seat, state.game.parse_action(action))
            if "held" in played.json():
                _confirm(player, table_id, played.json()["version"]).raise_for_status()
            continue
        first, second = pair
        held = player.post(f"/api/tables/{table_id}/actions", {"action": first, "version": version})
        assert held.status_code == 200, held.text
        assert [step["action"] for step in held.json()["held"]] == [first]
        assert state_with_words(players[1 - seat], table_id)["version"] == version  # nothing shown yet
        shown = player.post(f"/api/tables/{table_id}/actions", {"action": second, "version": version + 1})
        assert shown.status_code == 200, shown.text
        assert "held" not in shown.json() and shown.json()["version"] == version + 2
        # Both are written, in order, and the other seat sees the table after both.
        assert [action for _, action in _standing_actions(database_url, table_id)][-2:] == [first, second]
        assert state_with_words(players[1 - seat], table_id)["version"] == version + 2
        return
    pytest.fail("no held move followed by a revealing one came up in 60 moves")
