"""The database: schema (SQLAlchemy Core, portable across SQLite and PostgreSQL) and engine.

Alembic migrations in ``migrations/`` create and change this schema; the server runs
them on start. SQLite runs in WAL mode with ``synchronous=FULL`` so that an acknowledged
action survives a crash.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    make_url,
)
from sqlalchemy import false as sa_false
from sqlalchemy.exc import ArgumentError

from meadhall.core.errors import MeadhallError
from meadhall.extras import MissingExtra

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(40), nullable=False, unique=True),
    Column("display_name", String(40), nullable=False),
    Column("password_hash", String(200), nullable=True),
    Column("is_guest", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("csrf_token", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

game_tables = Table(
    "game_tables",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("join_code", String(32), nullable=False),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("version", Integer, nullable=False, default=0),
    Column("to_move", JSON, nullable=True),
    Column("result", JSON, nullable=True),
    # How the table is played (live: all at the table at once; async: each at their own
    # pace) and whether a seat's moves in its turn wait for its Confirm (server/games.py).
    Column("pace", String(8), nullable=False, server_default="live"),
    Column("confirm_turns", Boolean, nullable=False, server_default=sa_false()),
    Column("time_control", JSON, nullable=True),  # server.clocks.TimeControl; NULL: no clock
    Column("clocks", JSON, nullable=True),  # server.clocks.Clocks: each seat's, through restarts
    Column("absences", JSON, nullable=True),  # server.clocks.Absences: seats that left, and the log's lines
    Index("ix_game_tables_status", "status"),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(16), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("bot", String(40), nullable=True),
    Column("invited", String(40), nullable=True),
    Index("ix_seats_user_id", "user_id"),
    # One seat per user and table (empty seats and bots have no user: NULLs do not collide).
    Index("uq_seats_table_id_user_id", "table_id", "user_id", unique=True),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(16), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(80), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # When its seat took it back (core.undo); NULL: it stands. Taken-back actions stay in
    # the record, marked, and no replay, log or export applies them.
    Column("taken_back_at", DateTime(timezone=True), nullable=True),
)

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", String(16), ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_chat_messages_table_id", "table_id"),
)

mutes = Table(
    "mutes",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("muted_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
)

ratings = Table(
    "ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("elo", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

content_packs = Table(
    "content_packs",
    metadata,
    Column("sha256", String(64), primary_key=True),  # of the pack's canonical JSON
    Column("game", String(40), nullable=False),
    Column("body", Text, nullable=False),  # the canonical JSON
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# E-mail notifications (docs/server.md, "E-mail"): one row per user who gave an address.
# Nothing is sent to an address before its owner followed the confirmation link.
email_settings = Table(
    "email_settings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("email", String(254), nullable=False),
    Column("confirmed", Boolean, nullable=False, default=False),
    Column("turns", Boolean, nullable=False, default=True),  # a table at one's own pace waits for you
    Column("invitations", Boolean, nullable=False, default=True),
    Column("endings", Boolean, nullable=False, default=True),  # a game you played ended
    Column("digest", Boolean, nullable=False, default=False),  # turns once a day, in one e-mail
    Column("last_digest_at", DateTime(timezone=True), nullable=True),
)

# Vacation days for async play (server.clocks): a year's days used, and since when (wall
# time) the user is on vacation (NULL: not now). No row: no day used this year.
vacations = Table(
    "vacations",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("year", Integer, nullable=False),
    Column("used_days", Float, nullable=False),
    Column("since", Float, nullable=True),
)


def require_driver(url: str) -> None:
    """Load the database driver of ``url`` now: a missing one is a plain message, before serving.

    Raises :class:`MissingExtra` for PostgreSQL through psycopg (``meadhall[postgres]``) and
    :class:`MeadhallError` for a URL SQLAlchemy cannot use.
    """
    try:
        dialect = make_url(url).get_dialect()
    except ArgumentError as error:
        raise MeadhallError(f"cannot use the database URL: {error}") from None
    try:
        dialect.import_dbapi()
    except ModuleNotFoundError as error:
        if dialect.driver == "psycopg":
            raise MissingExtra("a PostgreSQL database", "psycopg", "postgres") from None
        raise MeadhallError(
            f"the database URL needs the Python package {error.name!r}, which is not installed "
            "(for PostgreSQL write postgresql+psycopg://... and pip install 'meadhall[postgres]')"
        ) from None


#: libpq's link settings for PostgreSQL: connecting, and how long sent data may stay unacknowledged
#: (``tcp_user_timeout``, ms) or a silent connection alive (keepalives) before the connection is dropped.
PG_LINK: dict[str, Any] = {
    "connect_timeout": 5,
    "tcp_user_timeout": 5000,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 2,
}


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite gets WAL, full sync and foreign keys."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **kwargs)

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    if url.startswith("postgresql"):
        # A database cut off (a partition, not a refusal) must fail a query in seconds, not
        # when TCP gives up (about 15 min): the request gets its 503 and the table is read
        # again (``unsure``), instead of a commit hanging and perhaps landing long after
        # this server's lease on the table ran out.
        kwargs.setdefault("connect_args", PG_LINK)
    return create_engine(url, pool_pre_ping=True, **kwargs)
