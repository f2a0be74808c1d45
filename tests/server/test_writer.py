"""The database writer: moves batched into one transaction, inline on the loop or in a thread.

A batch that one bad job spoils is retried job by job, so the good moves still commit and
only the bad one fails; a move for a version the table is not at, or a second move for
the same version, is refused and stores nothing.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from meadhall.server.db import make_engine
from meadhall.server.migrate import upgrade
from meadhall.server.settings import Settings
from meadhall.server.store import ActionWrite, Seat, Store, TableRow


def _table(table_id: str, user_id: int) -> TableRow:
    now = datetime.now(UTC)
    return TableRow(
        id=table_id, game="voluspa", options={}, players=2, seed=7, status="active", join_code=f"code-{table_id}",
        created_by=user_id, created_at=now, started_at=now, finished_at=None, version=0, to_move=[0], result=None,
        seats=[Seat(0, "user", user_id), Seat(1, "open")],
    )  # fmt: skip


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "thread"])
def test_a_batch_of_moves_commits_together_and_a_bad_move_fails_alone(
    database_url: str, inline: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches: list[int] = []
    store_many = ActionWrite.store_many

    def spy(connection: Connection, writes: list[ActionWrite]) -> None:
        batches.append(len(writes))
        store_many(connection, writes)

    monkeypatch.setattr(ActionWrite, "store_many", staticmethod(spy))
    engine = make_engine(database_url)
    upgrade(engine)
    store = Store(engine, inline_writes=inline)

    async def scenario() -> list[object]:
        user = await store.writer.run(Store.create_user("ann", "Ann", None, True))
        for table_id in ("t1", "t2", "t3"):
            await store.writer.run(Store.create_table(_table(table_id, user)))
        # Submitted together, so they share a batch; the third is for a version t1 is not at.
        jobs = [
            store.writer.run(Store.append_action("t1", 0, 0, "OD@0,1", [1], None)),
            store.writer.run(Store.append_action("t2", 0, 0, "FE@0,1", [1], None)),
            store.writer.run(Store.append_action("t1", 5, 0, "SK@0,1", [1], None)),
            store.writer.run(Store.append_action("t3", 0, 0, "TR@0,1", [1], {"scores": [3, 1], "places": [0, 1]})),
        ]
        results = await asyncio.gather(*jobs, return_exceptions=True)
        again = await asyncio.gather(
            store.writer.run(Store.append_action("t2", 0, 0, "HE@0,1", [1], None)), return_exceptions=True
        )
        return [*results, *again]

    try:
        results = asyncio.run(scenario())
        assert results[0] is None and results[1] is None and results[3] is None
        assert isinstance(results[2], RuntimeError) and "not at version 5" in str(results[2])
        assert isinstance(results[4], (IntegrityError, RuntimeError))  # a second move for version 0
        if inline:  # one loop turn: the three unfinished moves went to the database together
            assert batches[0] == 3
        assert store.read(lambda c: Store.table_actions(c, "t1")) == [(0, "OD@0,1")]
        assert store.read(lambda c: Store.table_actions(c, "t2")) == [(0, "FE@0,1")]
        t1, t3 = store.read(lambda c: Store.table(c, "t1")), store.read(lambda c: Store.table(c, "t3"))
        assert t1 is not None and t1.version == 1 and t1.to_move == [1] and t1.status == "active"
        assert t3 is not None and t3.version == 1 and t3.status == "finished"
        assert t3.result == {"scores": [3, 1], "places": [0, 1]}
    finally:
        store.close()


def _settings(tmp_path: Path, **values: Any) -> Settings:
    return Settings(data_dir=tmp_path, **values)


def test_db_writes_setting_chooses_where_commits_run(tmp_path: Path) -> None:
    server = "postgresql+psycopg://x@h/db"
    assert _settings(tmp_path).inline_db_writes  # SQLite by default: on the loop
    assert not _settings(tmp_path, database_url=server).inline_db_writes
    assert _settings(tmp_path, database_url=server, db_writes="inline").inline_db_writes
    assert not _settings(tmp_path, db_writes="THREAD").inline_db_writes
    with pytest.raises(ValueError, match="db_writes is auto, inline or thread"):
        _settings(tmp_path, db_writes="sometimes")


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "thread"])
def test_then_runs_after_the_commit_and_before_the_waiter_wakes(database_url: str, inline: bool) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    store = Store(engine, inline_writes=inline)
    seen: list[str] = []

    def committed(_: None) -> None:
        # The action is already stored when ``then`` runs.
        seen.append(f"then {store.read(lambda c: Store.table_actions(c, 't1'))}")

    async def scenario() -> None:
        user = await store.writer.run(Store.create_user("ann", "Ann", None, True))
        await store.writer.run(Store.create_table(_table("t1", user)))
        await store.writer.run(Store.append_action("t1", 0, 0, "OD@0,1", [1], None), committed)
        seen.append("woke")
        with pytest.raises(RuntimeError, match="not at version 7"):  # a failed write: no ``then``
            await store.writer.run(Store.append_action("t1", 7, 0, "FE@0,1", [1], None), committed)

    try:
        asyncio.run(scenario())
        assert seen == ["then [(0, 'OD@0,1')]", "woke"]
    finally:
        store.close()


def test_an_inline_write_whose_waiter_has_gone_still_commits_but_skips_then(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    store = Store(engine, inline_writes=True)
    seen: list[str] = []

    async def scenario() -> None:
        user = await store.writer.run(Store.create_user("ann", "Ann", None, True))
        await store.writer.run(Store.create_table(_table("t1", user)))
        waiter = asyncio.ensure_future(
            store.writer.run(Store.append_action("t1", 0, 0, "OD@0,1", [1], None), lambda _: seen.append("then"))
        )
        await asyncio.sleep(0)  # the write is queued for the end of this loop turn
        waiter.cancel()
        await asyncio.sleep(0.01)

    try:
        asyncio.run(scenario())
        assert seen == []
        assert store.read(lambda c: Store.table_actions(c, "t1")) == [(0, "OD@0,1")]
    finally:
        store.close()
