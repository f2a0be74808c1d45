"""Leaving a game under way and vacation days (issue 22 item 1), on a real server.

Leaving is a loss for the leaver in ratings, with or without a clock: in a game of two
the game ends at once (the other wins); with more people a bot plays the seat on, the
leaver ranks last when the game ends, and the log says what happened.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from meadhall.server.clocks import Absences, leave_words
from tests.server.conftest import Player, RunningServer, make_settings, state_with_words, two_seat_table


def _settings(tmp_path: Path, database_url: str) -> Any:
    return make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false")


def test_leaving_a_rated_game_of_two_is_a_loss_without_a_clock(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_settings(tmp_path, database_url)) as server:
        table_id, players = two_seat_table(server)
        assert state_with_words(players[0], table_id).get("clock") is None  # a table without a clock
        left = players[1].post(f"/api/tables/{table_id}/leave")
        assert left.status_code == 200, left.text
        table = players[0].get(f"/api/tables/{table_id}").json()
        result = table["result"]
        assert table["status"] == "finished" and result["left"] == [1] and result["places"] == [1, 2]
        ratings = {r["seat"]: r for r in result["ratings"]}
        assert ratings[0]["after"] > ratings[0]["before"] and ratings[1]["after"] < ratings[1]["before"]
        board = {row["name"]: row["elo"] for row in players[0].get("/api/leaderboard/toy").json()["players"]}
        assert board["ann"] > 1500 > board["bob"]
        logged = players[0].get(f"/api/tables/{table_id}/log").json()["table_events"]
        assert [(e["kind"], e["seat"]) for e in logged] == [("left", 1)]
        assert logged[0]["text"] == "bob left the game and loses; the game ends."
        # The end, the replay and the exported record show the line too, and how the game ended.
        end = players[0].get(f"/api/tables/{table_id}/end").json()
        assert end["ending"] == "left" and end["seat_events"] == [logged[0]["text"]] and end["winners"] == [0]
        replayed = players[0].get(f"/api/tables/{table_id}/replay/0").json()
        assert [(e["kind"], e["text"]) for e in replayed["seat_events"]] == [("left", logged[0]["text"])]
        record = players[0].get(f"/api/tables/{table_id}/record").json()
        assert record["ending"] == {"by": "leaving", "seat": 1, "places": [1, 2]}
        assert [e["text"] for e in record["seat_events"]] == [logged[0]["text"]]
        # Leaving twice, or a game over, is refused plainly.
        again = players[1].post(f"/api/tables/{table_id}/leave")
        assert again.status_code == 409


def test_leaving_a_game_of_three_lets_a_bot_play_on_and_ranks_the_leaver_last(
    tmp_path: Path, database_url: str
) -> None:
    with RunningServer(_settings(tmp_path, database_url)) as server:
        ann, bob, cat = Player(server, "ann"), Player(server, "bob"), Player(server, "cat")
        for player in (ann, bob, cat):
            player.register()
        seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
        made = ann.post("/api/tables", {"game": "toy", "options": {}, "seats": seats})
        table_id = str(made.json()["id"])
        assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
        assert cat.post(f"/api/tables/{table_id}/join", {}).status_code == 200
        assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
        players = {0: ann, 1: bob, 2: cat}
        assert cat.post(f"/api/tables/{table_id}/leave").status_code == 200
        state = state_with_words(ann, table_id)
        assert state["status"] == "active" and state["left"] == [2]  # every seat sees who left
        table = ann.get(f"/api/tables/{table_id}").json()
        assert table["status"] == "active"
        refused = cat.post(f"/api/tables/{table_id}/seat-back")
        assert refused.status_code == 409 and refused.json()["error"] == "left"
        # Abandoning now needs only the two still playing; here ann resigns instead: both losers last.
        assert ann.post(f"/api/tables/{table_id}/resign").status_code == 200
        result = ann.get(f"/api/tables/{table_id}").json()["result"]
        assert result["left"] == [2] and result["places"][1] == 1 and sorted(result["places"][0::2]) in ([2, 3], [2, 2])
        assert {r["seat"] for r in result["ratings"]} == {0, 1, 2}
        logged = players[1].get(f"/api/tables/{table_id}/log").json()["table_events"]
        text = "cat left the game and loses; a bot (Thoughtful) plays the seat on."
        assert logged == [{"version": 0, "step": 0, "kind": "left", "seat": 2, "text": text}]


def test_a_left_seat_is_kept_through_a_restart(tmp_path: Path, database_url: str) -> None:
    settings = _settings(tmp_path, database_url)
    with RunningServer(settings) as server:
        ann, bob, cat = Player(server, "ann"), Player(server, "bob"), Player(server, "cat")
        for player in (ann, bob, cat):
            player.register()
        seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
        table_id = str(ann.post("/api/tables", {"game": "toy", "options": {}, "seats": seats}).json()["id"])
        assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
        assert cat.post(f"/api/tables/{table_id}/join", {}).status_code == 200
        assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
        assert bob.post(f"/api/tables/{table_id}/leave").status_code == 200
        cookies = (dict(ann.client.cookies), ann.csrf)
    with RunningServer(settings) as server:
        again = Player(server, "again")
        again.client.cookies.update(cookies[0])
        again.csrf = cookies[1]
        assert state_with_words(again, table_id)["left"] == [1]
        logged = again.get(f"/api/tables/{table_id}/log").json()["table_events"]
        assert [(e["kind"], e["seat"]) for e in logged] == [("left", 1)]


def test_absences_words_and_json() -> None:
    assert Absences.from_json(None) == Absences()
    kept = Absences([1], [{"version": 3, "kind": "left", "seat": 1, "text": "x"}])
    assert Absences.from_json(kept.to_json()) == kept
    assert leave_words("Ann", None) == "Ann left the game and loses; the game ends."
    assert leave_words("Ann", "beginner").startswith("Ann left the game and loses; a bot (")


#: A table at one's own pace with a day a move: the clocks a vacation pauses.
ASYNC: dict[str, Any] = {"pace": "async", "clock": True, "days_per_move": 1}


def _vacation(player: Player, on: bool) -> Any:
    return player.post("/api/me/vacation", {"on": on})


def test_a_vacation_pauses_async_clocks_for_every_seat_to_see(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_settings(tmp_path, database_url)) as server:
        table_id, players = two_seat_table(server, **ASYNC)
        leader = state_with_words(players[0], table_id)["to_move"][0]
        other = 1 - leader
        shown = players[leader].get("/api/me/vacation").json()
        assert shown["on"] is False and shown["allowance"] == 30 and shown["days_left"] == 30
        assert shown["words"] == "30 of 30 vacation days left this year." and "days per move" in shown["rule"]
        away = _vacation(players[leader], True)
        assert away.status_code == 200, away.text
        assert away.json()["on"] is True and away.json()["words"].startswith("On vacation")
        assert _vacation(players[leader], True).status_code == 409  # on vacation already
        seen = state_with_words(players[other], table_id)["clock"]  # the other seat sees it
        assert seen["paused"] == [leader] and seen["running"] == []
        assert seen["notes"][leader] == "on vacation: the clock waits"
        frozen = seen["remaining"][leader]
        assert state_with_words(players[other], table_id)["clock"]["remaining"][leader] == frozen  # it waits
        name = ["ann", "bob"][leader]
        profile = players[other].get(f"/api/users/{name}").json()
        assert profile["vacation"] == "On vacation: their clocks at tables with days per move wait."
        # Back: the clock runs again from what it had.
        assert _vacation(players[leader], False).json()["on"] is False
        assert _vacation(players[leader], False).status_code == 409
        again = state_with_words(players[other], table_id)["clock"]
        assert again["paused"] == [] and again["running"] == [leader] and again["remaining"][leader] <= frozen
        assert players[other].get(f"/api/users/{name}").json()["vacation"] is None
        logged = players[other].get(f"/api/tables/{table_id}/log").json()["table_events"]
        assert [(e["kind"], e["seat"]) for e in logged] == [("vacation", leader), ("back-from-vacation", leader)]
        assert logged[0]["text"].endswith("is on vacation; their clock waits until they are back.")
        assert logged[1]["text"].endswith("is back from vacation; their clock runs again.")
        assert players[leader].get("/api/me/vacation").json()["days_left"] < 30  # the days it took are used


def test_a_vacation_leaves_live_clocks_running(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_settings(tmp_path, database_url)) as server:
        table_id, players = two_seat_table(server, clock=True, base_minutes=5)
        leader = state_with_words(players[0], table_id)["to_move"][0]
        assert _vacation(players[leader], True).status_code == 200
        clock = state_with_words(players[0], table_id)["clock"]
        assert clock["paused"] == [] and clock["running"] == [leader]
        assert players[0].get(f"/api/tables/{table_id}/log").json().get("table_events") is None


def test_a_vacation_is_kept_through_a_restart_and_ends_when_its_days_run_out(tmp_path: Path, database_url: str) -> None:
    # A vacation allowance of a few seconds: it runs out while the test waits.
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false", vacation_days=0.0001)
    with RunningServer(settings) as server:
        table_id, players = two_seat_table(server, **ASYNC)
        leader = state_with_words(players[0], table_id)["to_move"][0]
        assert _vacation(players[leader], True).status_code == 200
        cookies = (dict(players[leader].client.cookies), players[leader].csrf)
    with RunningServer(settings) as server:
        again = Player(server, "again")
        again.client.cookies.update(cookies[0])
        again.csrf = cookies[1]
        assert state_with_words(again, table_id)["clock"]["paused"] == [leader]  # kept in the database

        def ended() -> bool:
            return again.get("/api/me/vacation").json()["on"] is False

        deadline = time.monotonic() + 60
        while not ended():
            assert time.monotonic() < deadline, "the vacation never ended"
            time.sleep(0.2)
        clock = state_with_words(again, table_id)["clock"]
        assert clock["paused"] == [] and clock["running"] == [leader]
        assert again.get("/api/me/vacation").json()["days_left"] == 0
        refused = _vacation(again, True)
        assert refused.status_code == 409 and refused.json()["error"] == "no-vacation-days"
