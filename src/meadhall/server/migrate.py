"""Run the database migrations (Alembic) to the newest schema.

Starting is fast when the schema is current: one query compares the database's revision
with :data:`HEAD`, and Alembic is only imported when there is something to migrate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

MIGRATIONS = Path(__file__).parent / "migrations"

#: The newest revision in ``migrations/versions`` (tests/server/test_migrations.py checks it).
HEAD = "0008"


def alembic_config(url: str) -> Any:
    """An Alembic configuration for the packaged migrations and ``url``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None`` for an empty database)."""
    with engine.connect() as connection:
        try:
            value = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except DBAPIError:
            return None
    return None if value is None else str(value)


def upgrade(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest schema."""
    if current_revision(engine) == HEAD:
        return
    from alembic import command

    config = alembic_config(str(engine.url.render_as_string(hide_password=False)))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
