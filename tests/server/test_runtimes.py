"""One table, one runtime: a table started while a socket is loading it is not loaded twice.

Two runtimes for one table would split it: moves through one, the other's listeners never
told (a page that shows no change after an accepted move).
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from meadhall.core.undo import replay as undo_replay
from meadhall.server.db import make_engine
from meadhall.server.games import GameService
from meadhall.server.migrate import upgrade
from meadhall.server.store import Seat, Store
from tests.server.test_writer import _table


def test_a_table_started_while_a_socket_loads_it_keeps_one_runtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'runtimes.sqlite3'}")
    upgrade(engine)
    store = Store(engine, inline_writes=True)
    replaying, go_on = threading.Event(), threading.Event()
    replay = undo_replay  # how a runtime replays its record (imported by the server as replay_noting_takebacks)

    def slow_replay(*args: Any, **kwargs: Any) -> Any:
        replaying.set()
        assert go_on.wait(30), "the test did not let the replay go on"
        return replay(*args, **kwargs)

    monkeypatch.setattr("meadhall.server.games.replay_noting_takebacks", slow_replay)

    async def scenario() -> None:
        user = await store.writer.run(Store.create_user("ann", "Ann", None, True))
        row = _table("t1", user)  # the start has committed: the table is active in the database
        await store.writer.run(Store.create_table(row))
        games = GameService(store, None, pause=lambda: 0.0)
        loading = asyncio.ensure_future(games.runtime("t1"))  # a socket opens as the table starts
        for _ in range(3000):  # a load that never replays fails here rather than hanging the suite
            if replaying.is_set():
                break
            await asyncio.sleep(0.01)
        assert replaying.is_set(), "loading the runtime did not replay the record"
        started = await games.start(row)  # the start request goes on
        go_on.set()
        loaded = await loading
        assert loaded is started and games.runtimes["t1"] is started

    try:
        asyncio.run(scenario())
    finally:
        go_on.set()
        store.close()
        engine.dispose()


def test_a_finished_game_is_rated_in_the_write_that_finishes_it(tmp_path: Path) -> None:
    """The moment a game shows as finished, its ratings are stored (one transaction, nothing to wait for)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'rated.sqlite3'}")
    upgrade(engine)
    store = Store(engine, inline_writes=True)
    seen: list[dict[int, tuple[float, int]]] = []

    async def scenario() -> None:
        ann = await store.writer.run(Store.create_user("ann", "Ann", None, False))
        bob = await store.writer.run(Store.create_user("bob", "Bob", None, False))
        row = _table("t1", ann)
        row.seats = [Seat(0, "user", ann), Seat(1, "user", bob)]
        await store.writer.run(Store.create_table(row))
        games = GameService(store, None, pause=lambda: 0.0)
        runtime = await games.runtime("t1")
        assert runtime is not None
        while not runtime.state.is_terminal():
            seat = runtime.state.to_move()[0]
            action = str(runtime.state.legal_actions(seat)[0])
            last = runtime.state.clone()
            last.apply(seat, runtime.game.parse_action(action))

            def visible(_version: int, finishing: bool = last.is_terminal()) -> None:
                # called as the move is published: read the ratings then and there
                if finishing:
                    with engine.connect() as connection:
                        seen.append(Store.ratings_of(connection, [ann, bob], "voluspa"))

            await games.act(runtime, seat, runtime.version, action, visible)

    try:
        asyncio.run(scenario())
    finally:
        store.close()
        engine.dispose()
    assert len(seen) == 1 and {games for _elo, games in seen[0].values()} == {1}, seen
