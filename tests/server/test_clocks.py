"""Clocks and bot takeover (issue 22 item 1), on a real server with short clocks.

Played with the toy game of the test venv: the leader's clock runs while it chooses a
rune; a seat that lets its clock run out is taken by a bot (or loses, by the table's
rule); its player takes it back; a restart in the middle of a running clock goes on
with the right time (the clocks are kept in the database, in wall time).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import select

from meadhall.server import db
from meadhall.server.clocks import Clocks, TimeControl
from meadhall.server.db import make_engine
from meadhall.server.ratings import places_with_losers
from tests.server.conftest import Player, RunningServer, make_settings, state_with_words, two_seat_table
from tests.server.test_live_and_leaks import Listener

#: A live clock of three seconds and one second a move: a seat that waits times out soon.
SHORT: dict[str, Any] = {"clock": True, "base_minutes": 0.05, "increment_seconds": 1, "timeout_bot": "beginner"}


def _settings(tmp_path: Path, database_url: str) -> Any:
    return make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false")


def _wait(check: Any, seconds: float = 60.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


def _stored_seat_actions(database_url: str, table_id: str) -> list[int]:
    engine = make_engine(database_url)
    with engine.connect() as connection:
        rows = connection.execute(
            select(db.actions.c.seat).where(db.actions.c.table_id == table_id).order_by(db.actions.c.seq)
        ).all()
    engine.dispose()
    return [int(row[0]) for row in rows]


def test_time_control_is_chosen_at_creation_and_shown(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_settings(tmp_path, database_url)) as server:
        ann = Player(server, "ann")
        ann.register()
        seats = [{"kind": "me"}, {"kind": "open"}]

        def made(**settings: Any) -> Any:
            return ann.post("/api/tables", {"game": "toy", "options": {}, "seats": seats, **settings})

        plain = made().json()
        assert plain["time_control"] is None and not any("clock" in words for words in plain["setup"])
        live = made(clock=True, base_minutes=5, increment_seconds=3, on_timeout="lose").json()
        assert live["time_control"]["kind"] == "live"
        assert live["time_control"]["base"] == 300 and live["time_control"]["increment"] == 3
        assert live["time_control"]["on_timeout"] == "lose"
        assert "clock 5 min + 3 s a move; a timed-out seat loses (Thoughtful)" in live["setup"]
        slow = made(pace="async", clock=True, days_per_move=2).json()
        assert slow["time_control"]["kind"] == "async" and slow["time_control"]["days"] == 2
        assert any(words.startswith("clock 2 days a move") for words in slow["setup"])
        assert made(clock=True, timeout_bot="grandmaster").status_code == 422
        assert made(clock=True, base_minutes=0).status_code == 422
        assert made(clock=True, on_timeout="pause").status_code == 422
        listed = {t["id"]: t for t in ann.get("/api/tables").json()["tables"]}  # the lobby shows it
        assert listed[live["id"]]["time_control"] == live["time_control"]


def test_a_seat_times_out_a_bot_plays_it_and_its_player_takes_it_back(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_settings(tmp_path, database_url)) as server:
        table_id, players = two_seat_table(server, **SHORT)
        watcher = Listener(server, table_id, None)
        first = state_with_words(players[0], table_id)
        clock = first["clock"]
        leader = first["to_move"][0]
        other = 1 - leader
        assert clock["kind"] == "live" and clock["running"] == [leader] and clock["timed_out"] == []
        assert 0 < clock["remaining"][leader] <= 3.0 and clock["remaining"][other] == 3.0
        # The leader waits: its clock runs out, and a bot (beginner) takes the seat.
        out = _wait(lambda: [m for m in watcher.messages if m["type"] == "timeout"], 30)
        assert out[0]["seat"] == leader and "ran out of time" in out[0]["text"] and "a bot" in out[0]["text"]
        after = state_with_words(players[leader], table_id)
        assert after["clock"]["timed_out"] == [leader] and after["clock"]["bot_plays"] == [leader]
        assert after["clock"]["remaining"][leader] == 0

        # The bot moves for the seat; the other seat answers at once, so its clock never runs out.
        def bot_moved() -> bool:
            state = state_with_words(players[other], table_id)
            if state.get("legal"):
                players[other].post(
                    f"/api/tables/{table_id}/actions", {"action": state["legal"][0], "version": state["version"]}
                )
            return leader in _stored_seat_actions(database_url, table_id)

        _wait(bot_moved, 30)
        # The player may not move while the bot plays the seat, and takes it back.
        state = state_with_words(players[leader], table_id)
        assert "legal" not in state  # its person has no moves while the bot plays the seat
        move = {"action": "pass", "version": state["version"]}
        refused = players[leader].post(f"/api/tables/{table_id}/actions", move)
        assert refused.status_code == 409 and refused.json()["error"] in ("taken-over", "stale")  # stale: the bot moved
        assert players[leader].post(f"/api/tables/{table_id}/seat-back").status_code == 204
        back = _wait(lambda: [m for m in watcher.messages if m["type"] == "seat-back"], 10)
        assert back[0]["seat"] == leader and "takes the seat again" in back[0]["text"]
        mine = state_with_words(players[leader], table_id)
        assert "bot_plays" not in mine["clock"] and mine["clock"]["timed_out"] == []  # rule bot: no loss now
        # The log keeps both, after the step they followed, for every seat and spectators.
        logged = Player(server, "dan").get(f"/api/tables/{table_id}/log").json()["table_events"]
        assert [(e["kind"], e["seat"]) for e in logged] == [("timeout", leader), ("seat-back", leader)]
        assert logged[0]["text"] == out[0]["text"] and logged[1]["text"] == back[0]["text"]
        assert logged[0]["version"] == 0  # it ran out before the first move
        again = players[leader].post(f"/api/tables/{table_id}/seat-back")
        assert again.status_code == 409 and again.json()["error"] == "not-taken-over"
        stranger = Player(server, "cat")
        stranger.register()
        assert stranger.post(f"/api/tables/{table_id}/seat-back").status_code == 403
        watcher.close()


def test_a_timeout_under_the_lose_rule_is_a_loss_in_ratings(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_settings(tmp_path, database_url)) as server:
        table_id, players = two_seat_table(server, **SHORT, on_timeout="lose")
        leader = state_with_words(players[0], table_id)["to_move"][0]
        other = 1 - leader
        _wait(lambda: state_with_words(players[0], table_id)["clock"]["timed_out"] == [leader], 30)
        # Coming back does not undo the loss under this rule.
        assert players[leader].post(f"/api/tables/{table_id}/seat-back").status_code == 204
        assert state_with_words(players[0], table_id)["clock"]["timed_out"] == [leader]
        players[other].post(f"/api/tables/{table_id}/resign").raise_for_status()
        result = players[0].get(f"/api/tables/{table_id}").json()["result"]
        # Both lose: the resigner and the timed-out seat; the timed-out seat's standing orders them.
        assert result["timed_out"] == [leader] and sorted(result["places"]) in ([1, 2], [2, 2], [1, 1])
        assert {r["seat"] for r in result["ratings"]} == {0, 1}
        # A rematch is played with the same clock and rule.
        rematch = players[0].post(f"/api/tables/{table_id}/rematch")
        assert rematch.status_code == 200, rematch.text
        control = players[0].get(f"/api/tables/{table_id}").json()["time_control"]
        assert rematch.json()["time_control"] == control and control["on_timeout"] == "lose"


def test_a_bot_seat_has_no_clock(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_settings(tmp_path, database_url)) as server:
        ann = Player(server, "ann")
        ann.register()
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}]
        made = ann.post("/api/tables", {"game": "toy", "options": {}, "seats": seats, "clock": True, "base_minutes": 5})
        table_id = str(made.json()["id"])
        assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
        clock = state_with_words(ann, table_id)["clock"]
        assert clock["remaining"][1] is None and clock["remaining"][0] > 0 and 1 not in clock["running"]


def test_places_with_losers_puts_the_losers_last() -> None:
    assert places_with_losers([1, 2, 3], [0]) == [3, 1, 2]
    assert places_with_losers([1, 1, 3], [2]) == [1, 1, 3]
    assert places_with_losers([1, 2, 3, 4], [0, 2]) == [3, 1, 4, 2]
    assert places_with_losers([2, 1], []) == [2, 1]


def test_clocks_charge_the_runner_and_give_the_increment() -> None:
    live = TimeControl("live", base=60, increment=5)
    clocks = Clocks([60.0, 60.0], [0], since=100.0)
    assert clocks.left(110.0) == [50.0, 60.0]
    moved = clocks.after(live, 110.0, 0, [1])
    assert moved.remaining == [55.0, 60.0] and moved.running == [1] and moved.since == 110.0
    assert moved.first_out(130.0) == (40.0, 1)
    slow = TimeControl("async", days=2)
    waiting = Clocks([2 * 86_400.0, 2 * 86_400.0], [0], since=0.0).after(slow, 3_600.0, 0, [1])
    assert waiting.remaining == [2 * 86_400.0 - 3_600.0, 2 * 86_400.0]  # the next move gets its two days afresh


def test_a_running_clock_goes_on_across_a_restart(tmp_path: Path, database_url: str) -> None:
    settings = _settings(tmp_path, database_url)
    with RunningServer(settings) as server:
        table_id, players = two_seat_table(server, **{**SHORT, "base_minutes": 0.2})  # twelve seconds
        first = state_with_words(players[0], table_id)
        leader = first["to_move"][0]
        cookies = {seat: (dict(p.client.cookies), p.csrf) for seat, p in players.items()}
        before = first["clock"]["remaining"][leader]
    stopped = time.monotonic()
    with RunningServer(settings) as server:
        again = Player(server, "again")
        again.client.cookies.update(cookies[leader][0])
        again.csrf = cookies[leader][1]
        state = state_with_words(again, table_id)
        # The clock ran on while the server was down: less is left than before, and it still runs.
        assert state["clock"]["running"] == [leader]
        assert state["clock"]["remaining"][leader] <= before - (time.monotonic() - stopped) + 0.5
        assert state["clock"]["remaining"][leader] > 0
        # It runs out after the restart too: the seat times out, a bot takes it.
        _wait(lambda: state_with_words(again, table_id)["clock"]["timed_out"] == [leader], 30)
