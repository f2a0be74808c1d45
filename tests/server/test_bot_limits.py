"""Bots within bounds: named levels only through the API, a deadline per move, and a search
that stops when its table is abandoned, so that other tables' bots do not wait behind it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from meadhall.bots import Budget, thinking_limit
from meadhall.bots.ismcts import IsmctsBot
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.server import db
from meadhall.server.db import make_engine
from tests.server.conftest import Player, RunningServer, make_settings

HOG = "ismcts:86400s"  # a day per move: what a table could ask for before levels were enforced


def test_a_search_stops_at_its_deadline_or_when_told_and_still_answers_a_legal_move() -> None:
    game = get_game("voluspa")
    state = game.new_game(players=2, seed=11)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    for deadline, stop, reason in ((time.monotonic() - 1, None, "deadline"), (None, lambda: True, "stopped")):
        bot = IsmctsBot(Budget(seconds=86_400))
        with thinking_limit(deadline, stop) as limit:
            action = bot.choose(game, state.view(seat), legal, Rng(3))
        assert action in legal
        assert limit.reason == reason
        assert bot.last["iterations"] == 1  # it thought once, then honoured the limit
    bot = IsmctsBot(Budget(iterations=5))
    with thinking_limit(None, lambda: False) as limit:
        bot.choose(game, state.view(seat), legal, Rng(3))
    assert limit.reason is None and bot.last["iterations"] == 5


def test_bot_seats_take_only_the_named_levels(server: RunningServer) -> None:
    ann = Player(server, "ann")
    ann.register()
    for spec in (HOG, "ismcts:1000000000", "random", "greedy", "ismcts:1s", "hard!pass"):
        made = ann.post("/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "bot", "bot": spec}]})
        assert made.status_code == 422, (spec, made.text)
        assert made.json()["error"] == "bad-bot" and "beginner, easy, medium, hard" in made.json()["message"]
    made = ann.post("/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "bot", "bot": " Hard "}]})
    assert made.status_code == 201, made.text
    assert made.json()["seats"][1]["bot"] == "hard"


def _metric(player: Player, name: str) -> float:
    for line in player.get("/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"no metric {name}")


def _bot_table(player: Player, level: str) -> str:
    made = player.post(
        "/api/tables",
        {"game": "voluspa", "seats": [{"kind": "bot", "bot": level}, {"kind": "bot", "bot": level}]},
    )
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _make_hog(server: RunningServer, table_id: str) -> None:
    """Give a table's bots a day per move, as a table stored before levels were enforced could have."""
    engine = make_engine(server.settings.sqlalchemy_url)
    with engine.begin() as connection:
        connection.execute(update(db.seats).where(db.seats.c.table_id == table_id).values(bot=HOG))
    engine.dispose()


def _wait(check: Any, what: str, guard: float = 90.0) -> None:
    hang_guard = time.monotonic() + guard  # only against a hang: nothing here measures time
    while not check():
        assert time.monotonic() < hang_guard, what
        time.sleep(0.05)


@pytest.fixture
def patient_server(tmp_path: Path) -> Iterator[RunningServer]:
    """One bot worker whose moves may take an hour: only a stop can end a hog's search."""
    settings = make_settings(
        tmp_path,
        f"sqlite:///{tmp_path / 'bots.sqlite3'}",
        login_rate=1000,
        cookie_secure="false",
        bot_move_seconds=3600,
    )
    with RunningServer(settings) as running:
        yield running


def test_an_abandoned_tables_search_stops_and_other_tables_bots_move(patient_server: RunningServer) -> None:
    ann = Player(patient_server, "ann")
    ann.register()
    hog = _bot_table(ann, "hard")
    _make_hog(patient_server, hog)
    assert ann.post(f"/api/tables/{hog}/start").status_code == 200
    _wait(lambda: _metric(ann, "meadhall_bots_thinking") == 1, "the hog's bot never started thinking")
    assert ann.post(f"/api/tables/{hog}/abandon").status_code == 200
    other = _bot_table(ann, "beginner")
    assert ann.post(f"/api/tables/{other}/start").status_code == 200
    _wait(
        lambda: ann.get(f"/api/tables/{other}/state").json()["version"] >= 3,
        "another table's beginner bots waited behind the abandoned table's search",
    )
    assert ann.get(f"/api/tables/{hog}").json()["version"] == 0  # the stopped search played nothing


def test_a_bot_move_that_reaches_its_deadline_plays_its_best_move_so_far(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path, f"sqlite:///{tmp_path / 'deadline.sqlite3'}", login_rate=1000, cookie_secure="false",
        bot_move_seconds=0.2,
    )  # fmt: skip
    with RunningServer(settings) as server:
        ann = Player(server, "ann")
        ann.register()
        hog = _bot_table(ann, "hard")
        _make_hog(server, hog)
        assert ann.post(f"/api/tables/{hog}/start").status_code == 200
        _wait(
            lambda: ann.get(f"/api/tables/{hog}/state").json()["version"] >= 2,
            "a bot with a day's budget did not move at its deadline",
        )


def test_a_bot_whose_move_found_the_database_away_plays_it_when_the_database_is_back(tmp_path: Path) -> None:
    """The database away when a bot's move is stored (docs/deploy.md): the bot tries again, the table does not stall."""
    from sqlalchemy.exc import OperationalError

    from meadhall.server.store import ActionWrite

    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'bots.sqlite3'}", login_rate=1000, cookie_secure="false")
    with RunningServer(settings) as server:
        writer = server.app.state.services.store.writer
        run = writer.run
        refused: list[int] = []

        async def away_for_the_bot(job: Any, then: Any = None) -> Any:
            if isinstance(job, ActionWrite) and job.seat == 1 and len(refused) < 2:
                refused.append(job.seq)  # as if the database were restarting: nothing stored
                raise OperationalError("INSERT", {}, Exception("the database is restarting"))
            return await run(job, then)

        writer.run = away_for_the_bot
        ann = Player(server, "ann")
        ann.register()
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}]
        made = ann.post("/api/tables", {"game": "voluspa", "seats": seats})
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
        deadline = time.monotonic() + 60  # a guard against a stall, no speed asserted
        while True:
            state = ann.get(f"/api/tables/{table_id}/state").json()
            if len(refused) == 2 and state["version"] > refused[-1]:
                break  # the bot's move is stored after its two refused tries
            if 0 in state["to_move"] and state["status"] == "active":
                moved = ann.post(
                    f"/api/tables/{table_id}/actions", {"action": state["legal"][-1], "version": state["version"]}
                )
                assert moved.status_code in (200, 409), moved.text
            assert time.monotonic() < deadline, f"the bot never played after the database came back: {refused}, {state}"
            time.sleep(0.05)
        assert refused[0] == refused[1]  # the same move tried again, not skipped
