"""Migrations: HEAD is the newest revision, and migrating twice changes nothing."""

from __future__ import annotations

from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from meadhall.server.db import make_engine, metadata
from meadhall.server.migrate import HEAD, alembic_config, current_revision, upgrade


def test_head_constant_is_the_newest_revision() -> None:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert script.get_current_head() == HEAD


def test_upgrade_builds_the_schema_once(tmp_path: Path, database_url: str) -> None:
    engine = make_engine(database_url)
    assert current_revision(engine) is None
    upgrade(engine)
    assert current_revision(engine) == HEAD
    upgrade(engine)
    tables = set(inspect(engine).get_table_names())
    assert set(metadata.tables) <= tables
    engine.dispose()
