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

from meadhall.core.registry import get_game
from meadhall.server.db import make_engine
from meadhall.server.games import GameService
from meadhall.server.migrate import upgrade
from meadhall.server.store import Store
from tests.server.test_writer import _table


def test_a_table_started_while_a_socket_loads_it_keeps_one_runtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'runtimes.sqlite3'}")
    upgrade(engine)
    store = Store(engine, inline_writes=True)
    game = get_game("voluspa")
    replaying, go_on = threading.Event(), threading.Event()
    replay = game.replay

    def slow_replay(*args: Any, **kwargs: Any) -> Any:
        replaying.set()
        assert go_on.wait(30), "the test did not let the replay go on"
        return replay(*args, **kwargs)

    monkeypatch.setattr(game, "replay", slow_replay)

    async def scenario() -> None:
        user = await store.writer.run(Store.create_user("ann", "Ann", None, True))
        row = _table("t1", user)  # the start has committed: the table is active in the database
        await store.writer.run(Store.create_table(row))
        games = GameService(store, None, pause=lambda: 0.0)
        loading = asyncio.ensure_future(games.runtime("t1"))  # a socket opens as the table starts
        while not replaying.is_set():
            await asyncio.sleep(0.01)
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
