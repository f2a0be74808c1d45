"""Lobby races, for real: concurrent requests against the running server (SQLite and PostgreSQL).

Two joins at once by one user must take one seat; a start racing a leave must give
either a started game with every seat held or an open table with the seat free, never
a game waiting on an empty seat, before or after a restart. A database that such races
broke before the unique (table, user) index is repaired by migration 0002.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from meadhall.server import db
from meadhall.server.db import make_engine
from meadhall.server.migrate import HEAD, alembic_config, current_revision, upgrade
from tests.server.conftest import Player, RunningServer, make_settings

TRIES = 10


def _at_once(*calls: Callable[[], httpx.Response]) -> list[httpx.Response]:
    """Send the requests from threads released together."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait(timeout=30)
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(isinstance(a, httpx.Response) for a in answers), answers
    return answers


def _twin(player: Player, server: RunningServer) -> Player:
    """A second connection of the same signed-in browser (same cookies, same CSRF token)."""
    twin = Player(server, player.name)
    twin.client.cookies = httpx.Cookies(player.client.cookies)
    twin.csrf = player.csrf
    return twin


def _roomy(tmp_path: Path, database_url: str) -> Any:
    return make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false", open_tables_per_user=100)


def test_two_joins_at_once_by_one_user_take_one_seat(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_roomy(tmp_path, database_url)) as server:
        ann, bo = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bo.register()
        bo_id = bo.get("/api/auth/me").json()["user"]["id"]
        again = _twin(bo, server)
        for attempt in range(TRIES):
            seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
            table = ann.post("/api/tables", {"game": "voluspa", "seats": seats}).json()
            path = f"/api/tables/{table['id']}/join"
            # Two seats named (1 and 2), then "any free seat" twice.
            bodies = ({"seat": 1}, {"seat": 2}) if attempt % 2 == 0 else ({}, {})
            first, second = _at_once(partial(bo.post, path, bodies[0]), partial(again.post, path, bodies[1]))
            codes = sorted([first.status_code, second.status_code])
            assert codes == [200, 409], (first.text, second.text)
            refused = first if first.status_code == 409 else second
            assert refused.json()["error"] in ("seated", "seat-taken")
            shown = ann.get(f"/api/tables/{table['id']}").json()
            mine = [s["seat"] for s in shown["seats"] if s["kind"] == "user" and s["user"]["id"] == bo_id]
            assert len(mine) == 1, shown["seats"]


def _start_or_leave(server: RunningServer, ann: Player, bo: Player) -> tuple[str, httpx.Response, httpx.Response]:
    table = ann.post("/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "open"}]}).json()
    table_id = table["id"]
    assert bo.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    started, left = _at_once(
        lambda: ann.post(f"/api/tables/{table_id}/start"), lambda: bo.post(f"/api/tables/{table_id}/leave")
    )
    return table_id, started, left


def _check_table(player: Player, table_id: str, bo_id: int) -> str:
    """The table is either open with a free seat 2, or started with every seat held: returns its status.

    A table started before bob's leave arrived is finished: his leave was a loss, and one
    person cannot play on alone.
    """
    shown = player.get(f"/api/tables/{table_id}").json()
    if shown["status"] == "open":
        assert shown["seats"][1]["kind"] == "open"
        return "open"
    assert shown["status"] == "finished"
    assert [s["kind"] for s in shown["seats"]] == ["user", "user"]
    assert shown["seats"][1]["user"]["id"] == bo_id
    assert shown["left"] == [1]
    return "finished"


def test_a_start_racing_a_leave_never_starts_with_an_empty_seat(tmp_path: Path, database_url: str) -> None:
    settings = _roomy(tmp_path, database_url)
    outcomes: dict[str, str] = {}
    with RunningServer(settings) as server:
        ann, bo = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bo.register()
        bo_id = bo.get("/api/auth/me").json()["user"]["id"]
        for _ in range(TRIES):
            table_id, started, left = _start_or_leave(server, ann, bo)
            # Bob's leave always succeeds: before the start it frees his seat (and the start
            # is refused), after it it is a loss that ends a game of two.
            assert left.status_code == 200, left.text
            status = _check_table(ann, table_id, bo_id)
            assert status == ("finished" if started.status_code == 200 else "open")
            if status == "finished":
                # The game in memory seated bob too: his view is his seat's.
                assert bo.get(f"/api/tables/{table_id}/state").json()["seat"] == 1
            else:
                assert started.json()["error"] == "seats-empty"
            outcomes[table_id] = status
    # After a restart every table is as it was: open with seat 2 free, or finished with bob's loss.
    with RunningServer(settings) as server:
        ann = Player(server, "ann")
        answer = ann.post("/api/auth/login", {"name": ann.name, "password": "correct horse battery"})
        ann.csrf = answer.json()["csrf"]
        for table_id, status in outcomes.items():
            assert _check_table(ann, table_id, bo_id) == status


def test_migration_0002_repairs_what_the_races_broke(database_url: str) -> None:
    from alembic import command

    engine = make_engine(database_url)
    config = alembic_config(database_url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    created = datetime.now(UTC)
    with engine.begin() as connection:
        for user_id, name in ((1, "ann"), (2, "bob")):
            connection.execute(
                insert(db.users).values(
                    id=user_id, name=name, display_name=name, password_hash=None, is_guest=True, created_at=created
                )
            )
        tables = {"twice-open": "open", "twice-active": "active", "empty-active": "active", "fine-active": "active"}
        for table_id, table_status in tables.items():
            connection.execute(
                insert(db.game_tables).values(
                    id=table_id, game="voluspa", options={}, players=3, seed=1, status=table_status, join_code="x",
                    created_by=1, created_at=created, version=0,
                )
            )  # fmt: skip
        seats: dict[str, list[tuple[str, int | None]]] = {
            "twice-open": [("user", 1), ("user", 2), ("user", 2)],
            "twice-active": [("user", 1), ("user", 2), ("user", 2)],
            "empty-active": [("user", 1), ("open", None), ("bot", None)],
            "fine-active": [("user", 1), ("user", 2), ("bot", None)],
        }
        for table_id, held in seats.items():
            for seat, (kind, holder) in enumerate(held):
                connection.execute(
                    insert(db.seats).values(
                        table_id=table_id, seat=seat, kind=kind, user_id=holder, bot="easy" if kind == "bot" else None
                    )
                )
    upgrade(engine)
    assert current_revision(engine) == HEAD
    with engine.connect() as connection:
        status = dict(connection.execute(select(db.game_tables.c.id, db.game_tables.c.status)).all())
        kinds = {
            (r.table_id, r.seat): (r.kind, r.user_id)
            for r in connection.execute(
                select(db.seats.c.table_id, db.seats.c.seat, db.seats.c.kind, db.seats.c.user_id)
            )
        }
    assert status == {
        "twice-open": "open",  # bob keeps his first seat; the second is free again
        "twice-active": "abandoned",  # it waited forever on bob's second seat
        "empty-active": "abandoned",  # it waited forever on the empty seat
        "fine-active": "active",
    }
    assert kinds["twice-open", 1] == ("user", 2) and kinds["twice-open", 2] == ("open", None)
    with pytest.raises(IntegrityError), engine.begin() as connection:
        connection.execute(
            db.seats.update()
            .where((db.seats.c.table_id == "fine-active") & (db.seats.c.seat == 2))
            .values(kind="user", user_id=2, bot=None)
        )
    engine.dispose()
