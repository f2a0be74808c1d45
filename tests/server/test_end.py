"""The end of a game on a real server: GET /api/tables/{id}/end and POST /api/tables/{id}/rematch."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from meadhall.core.breakdown import mismatches
from tests.server.conftest import Player, RunningServer, make_settings
from tests.server.test_api import play_to_the_end
from tests.server.test_live_and_leaks import HANG_GUARD, Listener


@pytest.fixture
def sqlite_server(tmp_path: Any) -> Iterator[RunningServer]:
    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'end.sqlite3'}", login_rate=1000, cookie_secure="false")
    with RunningServer(settings) as running:
        yield running


def _rated_table(ann: Player, bob: Player) -> str:
    made = ann.post(
        "/api/tables",
        {
            "game": "voluspa",
            "options": {"preset": "base"},
            "seats": [{"kind": "me"}, {"kind": "invite", "name": "bob"}, {"kind": "bot", "bot": "beginner"}],
        },
    )
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def _wait_for_message(listener: Listener, kind: str) -> dict[str, Any]:
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        for message in list(listener.messages):
            if message.get("type") == kind:
                return message
        time.sleep(0.02)
    raise AssertionError(f"no {kind} message; got {[m.get('type') for m in listener.messages]}")


def test_end_of_a_rated_game_and_a_rematch_with_the_same_seats(sqlite_server: RunningServer) -> None:
    ann, bob, cy = Player(sqlite_server, "ann"), Player(sqlite_server, "bob"), Player(sqlite_server, "cyd")
    ann.register()
    bob.register()
    cy.register()
    table_id = _rated_table(ann, bob)

    early = ann.get(f"/api/tables/{table_id}/end")
    assert early.status_code == 409 and early.json()["error"] == "not-ended"
    assert ann.get("/api/tables/nosuchtable/end").status_code == 404
    assert ann.post(f"/api/tables/{table_id}/rematch").status_code == 409

    final = play_to_the_end(table_id, {0: ann, 1: bob})
    scores = [seat["score"] for seat in final["view"]["seats"]]
    places = final["view"]["places"]

    end = bob.get(f"/api/tables/{table_id}/end")
    assert end.status_code == 200, end.text
    data = end.json()
    assert data["status"] == "finished" and data["ending"] == "finished" and data["my_seat"] == 1
    assert [seat["score"] for seat in data["seats"]] == scores
    assert [seat["place"] for seat in data["seats"]] == places
    assert data["winners"] == [seat for seat, place in enumerate(places) if place == 1]
    assert data["names"][:2] == ["ann", "bob"]
    assert data["links"] == {
        "table": f"/t/{table_id}",
        "replay": f"/replay/{table_id}",
        "export": f"/api/tables/{table_id}/record",
    }
    assert ann.get(data["links"]["export"]).status_code == 200
    assert ann.get(data["links"]["replay"]).status_code == 200

    breakdown = data["breakdown"]
    assert breakdown["totals"] == scores and not mismatches(breakdown)
    assert [part["title"] for part in breakdown["sections"]] == ["Points by kind of line", "Points by round"]
    assert data["result"]["standings"][0]["place"] == 1

    # Ratings: the two registered players, before and after, as the leaderboard has them; the bot is not rated.
    assert data["rated"] is True
    rated = {seat["seat"]: seat["rating"] for seat in data["seats"] if seat["rating"]}
    assert set(rated) == {0, 1} and data["seats"][2]["rating"] is None
    board = {p["name"]: p["elo"] for p in ann.get("/api/leaderboard/voluspa").json()["players"]}
    for seat, name in ((0, "ann"), (1, "bob")):
        assert rated[seat]["before"] == 1500.0
        assert rated[seat]["after"] == pytest.approx(board[name], abs=0.1)
        assert rated[seat]["change"] == pytest.approx(rated[seat]["after"] - 1500.0, abs=0.11)
    if places[0] != places[1]:
        better, worse = (0, 1) if places[0] < places[1] else (1, 0)
        assert rated[better]["change"] > 0 > rated[worse]["change"]

    # Rematch: only a player of the game may ask; everyone at the table hears of it.
    listener = Listener(sqlite_server, table_id, bob)
    try:
        assert cy.post(f"/api/tables/{table_id}/rematch").status_code == 403
        asked = ann.post(f"/api/tables/{table_id}/rematch")
        assert asked.status_code == 200, asked.text
        rematch = asked.json()
        assert rematch["id"] != table_id and rematch["status"] == "open" and rematch["game"] == "voluspa"
        assert rematch["options"] == ann.get(f"/api/tables/{table_id}").json()["options"]
        seats = rematch["seats"]
        assert seats[0]["kind"] == "user" and seats[0]["name"] == "ann"
        assert seats[1]["kind"] == "invite" and seats[1]["invited"] == "bob"
        assert seats[2]["kind"] == "bot" and seats[2]["bot"] == "beginner"
        heard = _wait_for_message(listener, "rematch")
        assert heard["table"] == rematch["id"] and heard["by"] == 0
    finally:
        listener.close()
    assert ann.get(f"/api/tables/{table_id}/end").json()["rematch"] == rematch["id"]
    # Asking again gives the same table; bob's asking seats him, and the full table starts.
    assert ann.post(f"/api/tables/{table_id}/rematch").json()["id"] == rematch["id"]
    joined = bob.post(f"/api/tables/{table_id}/rematch")
    assert joined.status_code == 200, joined.text
    assert joined.json()["id"] == rematch["id"] and joined.json()["status"] == "active"
    assert [seat["kind"] for seat in joined.json()["seats"]] == ["user", "user", "bot"]


def test_a_game_against_bots_ends_unrated_and_its_rematch_starts_at_once(sqlite_server: RunningServer) -> None:
    guest = Player(sqlite_server, "Gus")
    guest.guest()
    made = guest.post(
        "/api/tables",
        {"game": "voluspa", "options": {"preset": "base"}, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "easy"}]},
    )
    table_id = str(made.json()["id"])
    assert guest.post(f"/api/tables/{table_id}/start").status_code == 200
    play_to_the_end(table_id, {0: guest})
    data = guest.get(f"/api/tables/{table_id}/end").json()
    assert data["rated"] is False and all(seat["rating"] is None for seat in data["seats"])
    assert not mismatches(data["breakdown"])
    again = guest.post(f"/api/tables/{table_id}/rematch").json()
    assert again["status"] == "active" and again["seats"][1]["bot"] == "easy"


def test_a_resigned_game_ends_without_a_breakdown(sqlite_server: RunningServer) -> None:
    ann, bob = Player(sqlite_server, "ann"), Player(sqlite_server, "bob")
    ann.register()
    bob.register()
    table_id = _rated_table(ann, bob)
    resigned = bob.post(f"/api/tables/{table_id}/resign")
    assert resigned.status_code == 200, resigned.text
    data = ann.get(f"/api/tables/{table_id}/end").json()
    assert data["ending"] == "resigned" and data["resigned"] == 1
    assert data["seats"][1]["place"] == 3 and data["breakdown"] is None
    # The game's words for each score, placed as the resignation placed them; no tie-break notes.
    assert data["result"]["standings"][-1] == {"seat": 1, "place": 3, "score": "0 points"}
    assert data["result"]["notes"] == []
    assert {seat["seat"] for seat in data["seats"] if seat["rating"]} == {0, 1}


def test_an_abandoned_table_has_an_end_without_winners(sqlite_server: RunningServer) -> None:
    ann = Player(sqlite_server, "ann")
    ann.register()
    made = ann.post("/api/tables", {"game": "valda", "seats": [{"kind": "me"}, {"kind": "open"}]})
    table_id = str(made.json()["id"])
    assert ann.post(f"/api/tables/{table_id}/abandon").status_code == 200
    data = ann.get(f"/api/tables/{table_id}/end").json()
    assert data["ending"] == "abandoned" and data["winners"] == [] and data["breakdown"] is None


def test_a_rematch_is_a_new_table_within_the_open_tables_limit(tmp_path: Any) -> None:
    settings = make_settings(
        tmp_path,
        f"sqlite:///{tmp_path / 'limit.sqlite3'}",
        login_rate=1000,
        cookie_secure="false",
        open_tables_per_user=1,
    )
    with RunningServer(settings) as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bob.register()
        table_id = _rated_table(ann, bob)
        assert bob.post(f"/api/tables/{table_id}/resign").status_code == 200
        waiting = ann.post("/api/tables", {"game": "valda", "seats": [{"kind": "me"}, {"kind": "open"}]})
        assert waiting.status_code == 201
        refused = ann.post(f"/api/tables/{table_id}/rematch")
        assert refused.status_code == 409 and refused.json()["error"] == "too-many-tables"
        assert ann.get(f"/api/tables/{table_id}/end").json()["rematch"] is None  # nothing was made
        made = bob.post(f"/api/tables/{table_id}/rematch")  # bob has no open table
        assert made.status_code == 200 and made.json()["seats"][0]["invited"] == "ann"
