"""Guided first games at the server: started from the lobby's API, played to the script's end, on the profile."""

from __future__ import annotations

import time
from typing import Any

from meadhall.core.registry import get_game
from tests.server.conftest import Player, RunningServer, state_with_words

VOLUSPA = get_game("voluspa")


def _wait_for_turn(player: Player, table_id: str, seat: int) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        state = state_with_words(player, table_id)
        if seat in state["to_move"]:
            return state
        assert time.monotonic() < deadline, "the guide's bot never answered"
        time.sleep(0.05)


def test_a_guided_game_is_played_to_its_end_and_recorded(server: RunningServer) -> None:
    guide = VOLUSPA.guide()
    assert guide is not None
    ann = Player(server, "ann")
    ann.register()
    listed = {game["name"]: game for game in ann.get("/api/games").json()["games"]}
    assert listed["voluspa"]["guide"] == {"title": guide.title, "steps": len(guide.steps)}
    assert ann.post("/api/guides/nogame").status_code == 404
    made = ann.post("/api/guides/voluspa")
    assert made.status_code == 201, made.text
    table = made.json()
    assert table["status"] == "active" and [seat.get("bot") for seat in table["seats"]] == [None, "guide"]
    table_id = table["id"]
    assert ann.get("/api/users/ann").json()["guides"] == []
    for index, step in enumerate(guide.steps):
        state = _wait_for_turn(ann, table_id, guide.seat)
        assert state["guide"]["step"] == index and not state["guide"]["done"]
        assert state["guide"]["target"] == (dict(step.target) if step.target is not None else None)
        if index == 0:
            assert state["guide"]["say"].startswith(guide.intro)
            refused = ann.post(f"/api/tables/{table_id}/actions", {"action": "OD@1,0", "version": state["version"]})
            assert refused.status_code == 422 and refused.json()["error"] == "guide", refused.text
        move = step.expect[0] if step.expect else state["legal"][0]
        played = ann.post(f"/api/tables/{table_id}/actions", {"action": move, "version": state["version"]})
        assert played.status_code == 200, played.text
    state = _wait_for_turn(ann, table_id, guide.seat)
    assert state["guide"]["done"] and state["guide"]["say"] == guide.done
    steps = ann.get(f"/api/tables/{table_id}/log").json()["steps"]
    played = [
        event["step"] for step in steps for event in step["events"] if event["kind"] == "placed" and event["seat"] == 1
    ]
    assert played[:3] == [answer for step in guide.steps for answer in step.then], "the bot answered as scripted"
    assert ann.get("/api/users/ann").json()["guides"] == [{"game": "voluspa", "title": VOLUSPA.info.title}]
