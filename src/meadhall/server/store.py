"""Reading and writing the database.

Writes go through one :class:`Writer` that commits in batches (group commit), on the
event loop (SQLite) or in a writer thread (a database server): every request waiting on
a write gets its answer only after the transaction holding its write has committed, so
an acknowledged action is on disk, and many concurrent moves share one fsync. Reads use
short connections from the pool in worker threads.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from meadhall.core.game import fresh_seed
from meadhall.server import db, ratings
from meadhall.server.errors import ApiError

T = TypeVar("T")
log = logging.getLogger("meadhall.store")


def now() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


@dataclass
class User:
    """A person: registered (with a password) or a guest."""

    id: int
    name: str
    display_name: str
    is_guest: bool

    def public(self) -> dict[str, Any]:
        """What anyone may see of this user."""
        return {"id": self.id, "name": self.name, "display_name": self.display_name, "guest": self.is_guest}


@dataclass
class Seat:
    """One seat of a table."""

    seat: int
    kind: str  # open, link, invite, user, bot
    user_id: int | None = None
    bot: str | None = None
    invited: str | None = None


@dataclass
class TableRow:
    """A table as stored (the seed stays on the server)."""

    id: str
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    status: str  # open, active, finished, abandoned
    join_code: str
    created_by: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    version: int
    to_move: list[int] | None
    result: dict[str, Any] | None
    seats: list[Seat]
    pace: str = "live"  # live or async (at one's own pace)
    confirm_turns: bool = False  # a seat's moves in its turn wait for its Confirm
    time_control: dict[str, Any] | None = None  # server.clocks.TimeControl as JSON; None: no clock
    clocks: dict[str, Any] | None = None  # server.clocks.Clocks as JSON (while the game runs)
    absences: dict[str, Any] | None = None  # server.clocks.Absences as JSON: seats that left

    @classmethod
    def new_open(
        cls,
        game: str,
        options: dict[str, Any],
        players: int,
        created_by: int,
        seats: list[Seat],
        pace: str = "live",
        confirm_turns: bool = False,
        time_control: dict[str, Any] | None = None,
    ) -> TableRow:
        """A table just made, open for players: a fresh id, seed and join code; its pace, confirm setting and clock."""
        return cls(
            id=secrets.token_urlsafe(6),
            game=game,
            options=options,
            players=players,
            seed=fresh_seed(),
            status="open",
            join_code=secrets.token_urlsafe(12),
            created_by=created_by,
            created_at=now(),
            started_at=None,
            finished_at=None,
            version=0,
            to_move=None,
            result=None,
            seats=seats,
            pace=pace,
            confirm_turns=confirm_turns,
            time_control=time_control,
        )


# The statements of every move, built once: SQLAlchemy then reuses their compiled form
# without rebuilding a cache key per move (a fifth of the server's CPU per move before).
_INSERT_ACTION = insert(db.actions)
_ADVANCE_TABLE = (
    update(db.game_tables)
    .where(and_(db.game_tables.c.id == bindparam("at_id"), db.game_tables.c.version == bindparam("at_version")))
    .values(version=bindparam("new_version"), to_move=bindparam("new_to_move"))
)


# A write, its waiter, and (inline writes) what to do the moment it has committed.
_Job = tuple[Callable[[Connection], Any], Future[Any] | asyncio.Future[Any], Callable[[Any], None] | None]


@dataclass(frozen=True)
class ActionWrite:
    """A write job: one accepted action and its table's new version (and result, if over).

    The writer stores a batch's unfinished moves with two statements for the whole
    batch rather than two per move.
    """

    table_id: str
    seq: int
    seat: int
    action: str
    to_move: list[int]
    finished: dict[str, Any] | None

    def _row(self, created: datetime) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "seq": self.seq,
            "seat": self.seat,
            "action": self.action,
            "created_at": created,
        }

    def _advance(self) -> dict[str, Any]:
        return {
            "at_id": self.table_id,
            "at_version": self.seq,
            "new_version": self.seq + 1,
            "new_to_move": self.to_move,
        }

    def __call__(self, connection: Connection) -> None:
        """Store this action alone."""
        created = now()
        connection.execute(_INSERT_ACTION, self._row(created))
        if self.finished is None:
            done = connection.execute(_ADVANCE_TABLE, self._advance())
        else:
            done = connection.execute(
                update(db.game_tables)
                .where(and_(db.game_tables.c.id == self.table_id, db.game_tables.c.version == self.seq))
                .values(version=self.seq + 1, to_move=self.to_move, status="finished")
                .values(finished_at=created, result=self.finished)
            )
        if done.rowcount != 1:
            raise RuntimeError(f"table {self.table_id} is not at version {self.seq}")

    @staticmethod
    def batchable(job: object) -> bool:
        """Whether ``job`` may be stored together with its neighbours by :meth:`store_many`."""
        return isinstance(job, ActionWrite) and job.finished is None

    @staticmethod
    def store_many(connection: Connection, writes: list[ActionWrite]) -> None:
        """Store several unfinished games' actions with one INSERT and one UPDATE."""
        if len(writes) == 1 or not connection.dialect.supports_sane_multi_rowcount:
            for write in writes:
                write(connection)
            return
        created = now()
        connection.execute(_INSERT_ACTION, [write._row(created) for write in writes])
        done = connection.execute(_ADVANCE_TABLE, [write._advance() for write in writes])
        if done.rowcount != len(writes):
            raise RuntimeError("a table is not at the version its action was chosen on")


class Writer:
    """Runs write jobs in batches, one transaction per batch, in one of two places.

    ``inline``: on the event loop. The jobs queued while the loop works on its ready
    callbacks commit together at the end of that turn. No thread hand-over: on a
    two-core machine shared with other work, waking a writer thread and getting the
    answer back cost more milliseconds than a SQLite commit (WAL, one sync) itself.
    Otherwise a writer thread commits, so a slow database server never stalls the loop.
    """

    def __init__(self, engine: Engine, batch: int = 256, inline: bool = False) -> None:
        self.engine = engine
        self.batch = batch
        self.inline = inline
        self._pending: list[_Job] = []
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        if not inline:
            self._thread = threading.Thread(target=self._run, name="meadhall-db-writer", daemon=True)
            self._thread.start()

    def submit(self, job: Callable[[Connection], T]) -> Future[T]:
        """Queue a write for the writer thread; the future resolves after its transaction commits."""
        if self._thread is None:
            raise RuntimeError("this writer commits on the event loop: await run() instead")
        future: Future[T] = Future()
        self._queue.put((job, future, None))
        return future

    async def run(self, job: Callable[[Connection], T], then: Callable[[T], None] | None = None) -> T:
        """Await a write job; ``then(value)`` runs on the event loop once it has committed.

        Inline, ``then`` runs inside the batch's commit step, before the waiter wakes:
        what must follow a commit at once (a move's broadcast) does not wait for
        another turn of a busy event loop. It is skipped if the waiter has gone (then
        nothing may rely on the write having been seen).
        """
        if self.inline:
            loop = asyncio.get_running_loop()
            future: asyncio.Future[T] = loop.create_future()
            self._pending.append((job, future, then))
            if len(self._pending) == 1:
                loop.call_soon(self._flush)
            return await future
        value = await asyncio.wrap_future(self.submit(job))
        if then is not None:
            then(value)
        return value

    def _flush(self) -> None:
        jobs, self._pending = self._pending, []
        for start in range(0, len(jobs), self.batch):
            self._commit(jobs[start : start + self.batch])

    def close(self) -> None:
        """Finish queued writes and stop the thread."""
        if self._pending:
            self._flush()
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            jobs = [item]
            stop = False
            while len(jobs) < self.batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                jobs.append(more)
            self._commit(jobs)
            if stop:
                return

    def _commit(self, jobs: list[_Job]) -> None:
        try:
            with self.engine.begin() as connection:
                values = self._execute(connection, [job for job, _, _ in jobs])
        except Exception as error:
            if len(jobs) == 1:
                self._fail(jobs[0][1], error)
                return
            # One job spoiled the batch: run each alone so the others still commit.
            for job in jobs:
                self._commit([job])
            return
        for (_, future, then), value in zip(jobs, values, strict=True):
            if future.done():  # an inline job's waiter may have gone; its write stands
                continue
            if then is not None:
                try:
                    then(value)
                except Exception as error:
                    log.exception("after a committed write")
                    future.set_exception(error)
                    continue
            future.set_result(value)

    @staticmethod
    def _execute(connection: Connection, jobs: list[Callable[[Connection], Any]]) -> list[Any]:
        """Run a batch's jobs in order; runs of moves go to the database together."""
        values: list[Any] = []
        index = 0
        while index < len(jobs):
            end = index
            while end < len(jobs) and ActionWrite.batchable(jobs[end]):
                end += 1
            if end > index:
                ActionWrite.store_many(connection, [job for job in jobs[index:end] if isinstance(job, ActionWrite)])
                values += [None] * (end - index)
                index = end
            else:
                values.append(jobs[index](connection))
                index += 1
        return values

    @staticmethod
    def _fail(future: Future[Any] | asyncio.Future[Any], error: Exception) -> None:
        if not isinstance(error, (ApiError, ValueError, RuntimeError, IntegrityError)):
            log.exception("database write failed")
        if not future.done():
            future.set_exception(error)


class Store:
    """Everything the server keeps: users, sessions, tables, seats, actions, chat, ratings."""

    def __init__(self, engine: Engine, inline_writes: bool = False) -> None:
        self.engine = engine
        self.writer = Writer(engine, inline=inline_writes)

    def close(self) -> None:
        """Stop the writer and release connections."""
        self.writer.close()
        self.engine.dispose()

    # reads ------------------------------------------------------------------------------

    def read(self, query: Callable[[Connection], T]) -> T:
        """Run a read-only function on a fresh connection."""
        with self.engine.connect() as connection:
            return query(connection)

    async def aread(self, query: Callable[[Connection], T]) -> T:
        """Run a read in a worker thread."""
        return await asyncio.to_thread(self.read, query)

    # users and sessions ------------------------------------------------------------------

    @staticmethod
    def user_by_name(connection: Connection, name: str) -> tuple[User, str | None] | None:
        """The user called ``name`` (case-insensitive) and their password hash."""
        row = connection.execute(select(db.users).where(func.lower(db.users.c.name) == name.lower())).mappings().first()
        if row is None:
            return None
        return _user(row), row["password_hash"]

    @staticmethod
    def user_by_id(connection: Connection, user_id: int) -> User | None:
        """The user with this id."""
        row = connection.execute(select(db.users).where(db.users.c.id == user_id)).mappings().first()
        return _user(row) if row else None

    @staticmethod
    def create_user(
        name: str, display_name: str, password_hash: str | None, guest: bool
    ) -> Callable[[Connection], int]:
        """A write job creating a user; raises ``ValueError`` if the name is taken."""

        def job(connection: Connection) -> int:
            taken = connection.execute(select(db.users.c.id).where(func.lower(db.users.c.name) == name.lower())).first()
            if taken:
                raise ValueError(f"the name {name!r} is taken")
            try:
                result = connection.execute(
                    insert(db.users).values(
                        name=name,
                        display_name=display_name,
                        password_hash=password_hash,
                        is_guest=guest,
                        created_at=now(),
                    )
                )
            except IntegrityError:
                raise ValueError(f"the name {name!r} is taken") from None
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

        return job

    @staticmethod
    def create_session(token_hash: str, user_id: int, csrf: str, days: int) -> Callable[[Connection], None]:
        """A write job storing a session."""

        def job(connection: Connection) -> None:
            connection.execute(
                insert(db.sessions).values(
                    token_hash=token_hash,
                    user_id=user_id,
                    csrf_token=csrf,
                    created_at=now(),
                    expires_at=now() + timedelta(days=days),
                )
            )

        return job

    @staticmethod
    def delete_session(token_hash: str) -> Callable[[Connection], None]:
        """A write job ending a session."""

        def job(connection: Connection) -> None:
            connection.execute(delete(db.sessions).where(db.sessions.c.token_hash == token_hash))

        return job

    @staticmethod
    def session(connection: Connection, token_hash: str) -> tuple[User, str] | None:
        """The live session with this token hash: its user and CSRF token."""
        row = (
            connection.execute(
                select(db.sessions.c.csrf_token, db.sessions.c.expires_at, db.users)
                .join(db.users, db.users.c.id == db.sessions.c.user_id)
                .where(db.sessions.c.token_hash == token_hash)
            )
            .mappings()
            .first()
        )
        if row is None:
            return None
        expires = row["expires_at"]
        if expires.tzinfo is None:
            expires = expires.replace(tzinfo=UTC)
        if expires < now():
            return None
        return _user(row), row["csrf_token"]

    # tables ------------------------------------------------------------------------------

    @staticmethod
    def table(connection: Connection, table_id: str) -> TableRow | None:
        """A table with its seats."""
        row = connection.execute(select(db.game_tables).where(db.game_tables.c.id == table_id)).mappings().first()
        if row is None:
            return None
        seat_rows = connection.execute(
            select(db.seats).where(db.seats.c.table_id == table_id).order_by(db.seats.c.seat)
        ).mappings()
        return _table(row, [_seat(s) for s in seat_rows])

    @staticmethod
    def tables(connection: Connection, table_ids: list[str]) -> list[TableRow]:
        """Several tables with their seats."""
        if not table_ids:
            return []
        rows = connection.execute(select(db.game_tables).where(db.game_tables.c.id.in_(table_ids))).mappings().all()
        seat_rows = (
            connection.execute(select(db.seats).where(db.seats.c.table_id.in_(table_ids)).order_by(db.seats.c.seat))
            .mappings()
            .all()
        )
        by_table: dict[str, list[Seat]] = {}
        for seat in seat_rows:
            by_table.setdefault(seat["table_id"], []).append(_seat(seat))
        return [_table(row, by_table.get(row["id"], [])) for row in rows]

    @staticmethod
    def open_tables(connection: Connection, limit: int = 100, since: datetime | None = None) -> list[str]:
        """Ids of tables waiting for players (created after ``since``: the others expire), newest first."""
        condition = db.game_tables.c.status == "open"
        if since is not None:
            condition = and_(condition, db.game_tables.c.created_at >= since)
        rows = connection.execute(
            select(db.game_tables.c.id).where(condition).order_by(db.game_tables.c.created_at.desc()).limit(limit)
        )
        return [r[0] for r in rows]

    @staticmethod
    def user_tables(connection: Connection, user_id: int, user_name: str, limit: int = 200) -> list[str]:
        """Ids of the tables a user sits at, is invited to, or created."""
        seat_query = select(db.seats.c.table_id).where(
            or_(db.seats.c.user_id == user_id, func.lower(db.seats.c.invited) == user_name.lower())
        )
        rows = connection.execute(
            select(db.game_tables.c.id)
            .where(or_(db.game_tables.c.id.in_(seat_query), db.game_tables.c.created_by == user_id))
            .order_by(db.game_tables.c.created_at.desc())
            .limit(limit)
        )
        return [r[0] for r in rows]

    @staticmethod
    def active_tables_seating(connection: Connection, user_id: int) -> list[str]:
        """Ids of every table under way at which a user holds a seat (no limit: a vacation pauses them all)."""
        seat_query = select(db.seats.c.table_id).where(db.seats.c.user_id == user_id)
        rows = connection.execute(
            select(db.game_tables.c.id).where(
                and_(db.game_tables.c.id.in_(seat_query), db.game_tables.c.status == "active")
            )
        )
        return [r[0] for r in rows]

    @staticmethod
    def active_table_ids(connection: Connection) -> list[str]:
        """Tables being played (the server resumes their bots after a restart)."""
        return [
            r[0] for r in connection.execute(select(db.game_tables.c.id).where(db.game_tables.c.status == "active"))
        ]

    @staticmethod
    def table_actions(connection: Connection, table_id: str) -> list[tuple[int, str]]:
        """The actions of a table in order, as ``(seat, notation)``; those taken back are left out."""
        rows = connection.execute(
            select(db.actions.c.seat, db.actions.c.action)
            .where(and_(db.actions.c.table_id == table_id, db.actions.c.taken_back_at.is_(None)))
            .order_by(db.actions.c.seq)
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    @staticmethod
    def create_table(
        row: TableRow,
        open_limit: int | None = None,
        stale_before: datetime | None = None,
        packs: dict[str, str] | None = None,
    ) -> Callable[[Connection], None]:
        """A write job storing a new table and its seats, and its content ``packs`` (canonical JSON by digest).

        A pack is stored once, whichever tables use it; the table's options name it by
        reference. With ``open_limit``, raises :class:`~meadhall.server.errors.ApiError` if its creator already has
        that many open tables (those created before ``stale_before`` are expiring and not
        counted).
        """

        def job(connection: Connection) -> None:
            if open_limit is not None:
                # Lock the creator's row: two creations at once by one user count one after the other.
                connection.execute(select(db.users.c.id).where(db.users.c.id == row.created_by).with_for_update())
                condition = and_(db.game_tables.c.created_by == row.created_by, db.game_tables.c.status == "open")
                if stale_before is not None:
                    condition = and_(condition, db.game_tables.c.created_at >= stale_before)
                count = connection.execute(select(func.count()).select_from(db.game_tables).where(condition)).scalar()
                if int(count or 0) >= open_limit:
                    raise ApiError(
                        409,
                        "too-many-tables",
                        f"you have {count} tables waiting for players (at most {open_limit}): "
                        "start or abandon one first",
                    )
            for digest, body in (packs or {}).items():
                # Two tables made at once with one new pack: the second insert finds the
                # first one's row and leaves it (a plain insert would fail the request).
                connection.execute(
                    _insert_new(connection, db.content_packs, "sha256").values(
                        sha256=digest, game=row.game, body=body, created_at=now()
                    )
                )
            connection.execute(
                insert(db.game_tables).values(
                    id=row.id,
                    game=row.game,
                    options=row.options,
                    players=row.players,
                    seed=row.seed,
                    status=row.status,
                    join_code=row.join_code,
                    created_by=row.created_by,
                    created_at=row.created_at,
                    version=0,
                    pace=row.pace,
                    confirm_turns=row.confirm_turns,
                    time_control=row.time_control,
                )
            )
            connection.execute(
                insert(db.seats),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "user_id": s.user_id,
                        "bot": s.bot,
                        "invited": s.invited,
                    }
                    for s in row.seats
                ],
            )

        return job

    @staticmethod
    def pack(connection: Connection, digest: str) -> str | None:
        """A stored content pack's canonical JSON."""
        found = connection.execute(select(db.content_packs.c.body).where(db.content_packs.c.sha256 == digest)).first()
        return None if found is None else str(found[0])

    @staticmethod
    def _lock_table(connection: Connection, table_id: str) -> TableRow:
        """The table, its row locked until the transaction ends (PostgreSQL; SQLite has one writer)."""
        found = connection.execute(
            select(db.game_tables.c.id).where(db.game_tables.c.id == table_id).with_for_update()
        ).first()
        row = Store.table(connection, table_id) if found else None
        if row is None:
            raise ApiError(404, "no-table", f"there is no table {table_id!r}")
        return row

    @staticmethod
    def take_seat(table_id: str, user_id: int, choose: Callable[[TableRow], Seat]) -> Callable[[Connection], TableRow]:
        """A write job seating ``user_id`` at an open table, in the seat ``choose(row)`` picks.

        Everything is checked in the transaction that writes (the table is open, the user
        does not sit at it yet, the seat is free), and the unique (table, user) index
        stands behind it. ``choose`` gets the locked row and returns the seat to take
        (the new occupant's) or raises :class:`~meadhall.server.errors.ApiError`. Returns the table as committed.
        """

        def job(connection: Connection) -> TableRow:
            row = Store._lock_table(connection, table_id)
            if row.status != "open":
                raise ApiError(409, "started", "this table has started; you can watch it")
            if any(s.kind == "user" and s.user_id == user_id for s in row.seats):
                raise ApiError(409, "seated", "you already sit at this table")
            seat = choose(row)
            taken = row.seats[seat.seat]
            try:
                done = connection.execute(
                    update(db.seats)
                    .where(
                        and_(
                            db.seats.c.table_id == table_id,
                            db.seats.c.seat == seat.seat,
                            db.seats.c.kind == taken.kind,
                            db.seats.c.user_id.is_(None),
                        )
                    )
                    .values(kind=seat.kind, user_id=seat.user_id, bot=seat.bot, invited=seat.invited)
                )
            except IntegrityError:
                raise ApiError(409, "seated", "you already sit at this table") from None
            if done.rowcount != 1:
                raise ApiError(409, "seat-taken", "that seat was just taken")
            row.seats[seat.seat] = seat
            return row

        return job

    @staticmethod
    def leave_seat(table_id: str, user_id: int) -> Callable[[Connection], TableRow]:
        """A write job freeing ``user_id``'s seat at an open table; returns the table as committed."""

        def job(connection: Connection) -> TableRow:
            row = Store._lock_table(connection, table_id)
            if row.status != "open":
                raise ApiError(409, "started", "the game has started: leaving it now is a loss")
            mine = next((s for s in row.seats if s.kind == "user" and s.user_id == user_id), None)
            if mine is None:
                raise ApiError(409, "not-seated", "you do not sit at this table")
            freed = Seat(mine.seat, "invite" if mine.invited else "open", invited=mine.invited)
            connection.execute(
                update(db.seats)
                .where(and_(db.seats.c.table_id == table_id, db.seats.c.seat == mine.seat))
                .values(kind=freed.kind, user_id=None, bot=None, invited=freed.invited)
            )
            row.seats[mine.seat] = freed
            return row

        return job

    @staticmethod
    def start_table(
        table_id: str, user_id: int, to_move: list[int], started_at: datetime, clocks: dict[str, Any] | None = None
    ) -> Callable[[Connection], TableRow]:
        """A write job starting an open table whose every seat holds a person or a bot, its ``clocks`` running.

        Checked in the transaction that writes; returns the table as committed, from
        which the game in memory is built.
        """

        def job(connection: Connection) -> TableRow:
            row = Store._lock_table(connection, table_id)
            if row.created_by != user_id:
                raise ApiError(403, "not-creator", "only the table's creator can start it")
            if row.status != "open":
                raise ApiError(409, "started", "this table has started already")
            empty = [s.seat + 1 for s in row.seats if s.kind not in ("user", "bot")]
            if empty:
                raise ApiError(409, "seats-empty", f"seats {', '.join(map(str, empty))} are still empty")
            connection.execute(
                update(db.game_tables)
                .where(and_(db.game_tables.c.id == table_id, db.game_tables.c.status == "open"))
                .values(status="active", started_at=started_at, to_move=to_move, clocks=clocks)
            )
            row.status, row.started_at, row.to_move, row.version = "active", started_at, to_move, 0
            row.clocks = clocks
            return row

        return job

    @staticmethod
    def expire_open_tables(stale_before: datetime) -> Callable[[Connection], int]:
        """A write job abandoning the open tables created before ``stale_before``; returns how many."""

        def job(connection: Connection) -> int:
            done = connection.execute(
                update(db.game_tables)
                .where(and_(db.game_tables.c.status == "open", db.game_tables.c.created_at < stale_before))
                .values(status="abandoned", finished_at=now())
            )
            return int(done.rowcount)

        return job

    @staticmethod
    def set_status(
        table_id: str, status: str, expect_status: tuple[str, ...] | None = None, **values: Any
    ) -> Callable[[Connection], None]:
        """A write job changing a table's status (and other columns).

        With ``expect_status``, raises ``ValueError`` unless the table was in one of them.
        """

        def job(connection: Connection) -> None:
            condition = db.game_tables.c.id == table_id
            if expect_status is not None:
                condition = and_(condition, db.game_tables.c.status.in_(expect_status))
            done = connection.execute(update(db.game_tables).where(condition).values(status=status, **values))
            if done.rowcount != 1:
                raise ValueError("the table changed meanwhile")

        return job

    @staticmethod
    def append_action(
        table_id: str, seq: int, seat: int, action: str, to_move: list[int], finished: dict[str, Any] | None
    ) -> ActionWrite:
        """A write job storing action ``seq`` and the table's new version, in one transaction.

        The primary key (table, seq) refuses a second action for the same version.
        """
        return ActionWrite(table_id, seq, seat, action, to_move, finished)

    @staticmethod
    def take_back(table_id: str, version: int, count: int, to_move: list[int]) -> Callable[[Connection], None]:
        """A write job marking the table's latest ``count`` standing actions taken back, at ``version``.

        The actions stay in the table (marked with the time); the table's version goes one
        up (a taken-back action's ``seq`` is never used again), guarded like an action.
        """

        def job(connection: Connection) -> None:
            latest = [
                row[0]
                for row in connection.execute(
                    select(db.actions.c.seq)
                    .where(and_(db.actions.c.table_id == table_id, db.actions.c.taken_back_at.is_(None)))
                    .order_by(db.actions.c.seq.desc())
                    .limit(count)
                )
            ]
            done = connection.execute(
                update(db.game_tables)
                .where(and_(db.game_tables.c.id == table_id, db.game_tables.c.version == version))
                .values(version=version + 1, to_move=to_move)
            )
            if done.rowcount != 1 or len(latest) != count:
                raise RuntimeError(f"table {table_id} is not at version {version}")
            connection.execute(
                update(db.actions)
                .where(and_(db.actions.c.table_id == table_id, db.actions.c.seq.in_(latest)))
                .values(taken_back_at=now())
            )

        return job

    @staticmethod
    def set_clocks(table_id: str, clocks: dict[str, Any]) -> Callable[[Connection], None]:
        """A write job storing a table's clocks (with the move, timeout or return that changed them)."""

        def job(connection: Connection) -> None:
            connection.execute(update(db.game_tables).where(db.game_tables.c.id == table_id).values(clocks=clocks))

        return job

    @staticmethod
    def set_absences(table_id: str, absences: dict[str, Any]) -> Callable[[Connection], None]:
        """A write job storing which seats left a table's game (with the seat's bot, in one transaction)."""

        def job(connection: Connection) -> None:
            connection.execute(update(db.game_tables).where(db.game_tables.c.id == table_id).values(absences=absences))

        return job

    @staticmethod
    def set_seat_bot(table_id: str, seat: int, bot: str | None) -> Callable[[Connection], None]:
        """A write job letting a bot of level ``bot`` play a person's seat (``None``: the person plays it again)."""

        def job(connection: Connection) -> None:
            connection.execute(
                update(db.seats)
                .where(and_(db.seats.c.table_id == table_id, db.seats.c.seat == seat, db.seats.c.kind == "user"))
                .values(bot=bot)
            )

        return job

    # vacations -----------------------------------------------------------------------------

    @staticmethod
    def vacation(connection: Connection, user_id: int) -> tuple[int, float, float | None] | None:
        """A user's vacation: (year, days used that year, since when on vacation or ``None``); ``None``: no row."""
        found = connection.execute(select(db.vacations).where(db.vacations.c.user_id == user_id)).mappings().first()
        if found is None:
            return None
        since = found["since"]
        return int(found["year"]), float(found["used_days"]), None if since is None else float(since)

    @staticmethod
    def on_vacation(connection: Connection) -> dict[int, float]:
        """The users on vacation now, and since when (wall time)."""
        query = select(db.vacations.c.user_id, db.vacations.c.since).where(db.vacations.c.since.isnot(None))
        rows = connection.execute(query)
        return {int(r[0]): float(r[1]) for r in rows}

    @staticmethod
    def set_vacation(user_id: int, year: int, used_days: float, since: float | None) -> Callable[[Connection], None]:
        """A write job storing a user's vacation days used in ``year`` and since when they are on vacation."""

        def job(connection: Connection) -> None:
            values = {"year": year, "used_days": used_days, "since": since}
            done = connection.execute(update(db.vacations).where(db.vacations.c.user_id == user_id).values(**values))
            if done.rowcount == 0:
                connection.execute(insert(db.vacations).values(user_id=user_id, **values))

        return job

    # chat ----------------------------------------------------------------------------------

    @staticmethod
    def add_chat(table_id: str, user_id: int, text: str) -> Callable[[Connection], dict[str, Any]]:
        """A write job storing a chat message."""

        def job(connection: Connection) -> dict[str, Any]:
            created = now()
            result = connection.execute(
                insert(db.chat_messages).values(table_id=table_id, user_id=user_id, text=text, created_at=created)
            )
            key = result.inserted_primary_key
            assert key is not None
            return {"id": int(key[0]), "user_id": user_id, "text": text, "at": created.isoformat()}

        return job

    @staticmethod
    def chat(connection: Connection, table_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The latest chat messages of a table, oldest first, with the authors' names."""
        rows = (
            connection.execute(
                select(db.chat_messages, db.users.c.display_name, db.users.c.name)
                .join(db.users, db.users.c.id == db.chat_messages.c.user_id)
                .where(db.chat_messages.c.table_id == table_id)
                .order_by(db.chat_messages.c.id.desc())
                .limit(limit)
            )
            .mappings()
            .all()
        )
        return [
            {
                "id": r["id"],
                "user_id": r["user_id"],
                "name": r["display_name"],
                "user_name": r["name"],
                "text": r["text"],
                "at": r["created_at"].isoformat(),
            }
            for r in reversed(rows)
        ]

    @staticmethod
    def muted(connection: Connection, user_id: int) -> set[int]:
        """The users ``user_id`` has muted."""
        rows = connection.execute(select(db.mutes.c.muted_id).where(db.mutes.c.user_id == user_id))
        return {int(r[0]) for r in rows}

    @staticmethod
    def set_mute(user_id: int, muted_id: int, mute: bool) -> Callable[[Connection], None]:
        """A write job muting or unmuting a user."""

        def job(connection: Connection) -> None:
            connection.execute(
                delete(db.mutes).where(and_(db.mutes.c.user_id == user_id, db.mutes.c.muted_id == muted_id))
            )
            if mute:
                connection.execute(insert(db.mutes).values(user_id=user_id, muted_id=muted_id))

        return job

    # ratings ---------------------------------------------------------------------------------

    @staticmethod
    def ratings_of(connection: Connection, user_ids: list[int], game: str) -> dict[int, tuple[float, int]]:
        """Elo and games played per user for ``game``."""
        if not user_ids:
            return {}
        rows = connection.execute(
            select(db.ratings).where(and_(db.ratings.c.user_id.in_(user_ids), db.ratings.c.game == game))
        ).mappings()
        return {int(r["user_id"]): (float(r["elo"]), int(r["games"])) for r in rows}

    @staticmethod
    def save_ratings(game: str, values: dict[int, tuple[float, int]]) -> Callable[[Connection], None]:
        """A write job storing new ratings."""

        def job(connection: Connection) -> None:
            for user_id, (elo, games) in values.items():
                existing = connection.execute(
                    select(db.ratings.c.user_id).where(and_(db.ratings.c.user_id == user_id, db.ratings.c.game == game))
                ).first()
                if existing:
                    connection.execute(
                        update(db.ratings)
                        .where(and_(db.ratings.c.user_id == user_id, db.ratings.c.game == game))
                        .values(elo=elo, games=games)
                    )
                else:
                    connection.execute(insert(db.ratings).values(user_id=user_id, game=game, elo=elo, games=games))

        return job

    @staticmethod
    def together(*jobs: Callable[[Connection], Any]) -> Callable[[Connection], None]:
        """One write job running ``jobs`` in order, in one transaction."""

        def job(connection: Connection) -> None:
            for each in jobs:
                each(connection)

        return job

    @staticmethod
    def rate_finished(
        row: TableRow, places: list[int], result: dict[str, Any] | None = None
    ) -> Callable[[Connection], None]:
        """A write job updating the Elo ratings of a finished game's registered players.

        It runs in the same transaction as the write that finishes the game, so a game is
        never seen finished with its ratings still to come, and a crash loses neither.
        With ``result`` (the table's result, written before this job in the transaction),
        each rated seat's rating before and after is added to it as ``ratings`` and the
        table's result stored again: the end of the game shows the change.
        """
        seat_of = {s.user_id: s.seat for s in row.seats if s.kind == "user" and s.user_id is not None}

        def job(connection: Connection) -> None:
            players = [
                user_id
                for user_id in seat_of
                if (person := Store.user_by_id(connection, user_id)) is not None and not person.is_guest
            ]
            if not ratings.is_rated(len(players)):
                return
            current = Store.ratings_of(connection, players, row.game)
            before = {p: current.get(p, (ratings.START, 0))[0] for p in players}
            after = ratings.update(before, {p: places[seat_of[p]] for p in players})
            values = {p: (after[p], current.get(p, (ratings.START, 0))[1] + 1) for p in players}
            Store.save_ratings(row.game, values)(connection)
            if result is not None:
                result["ratings"] = [
                    {"seat": seat_of[p], "before": round(before[p], 1), "after": round(after[p], 1)}
                    for p in sorted(players, key=lambda p: seat_of[p])
                ]
                connection.execute(update(db.game_tables).where(db.game_tables.c.id == row.id).values(result=result))

        return job

    @staticmethod
    def rematch(
        table_id: str, new: TableRow, open_limit: int | None = None, stale_before: datetime | None = None
    ) -> Callable[[Connection], str]:
        """A write job giving finished table ``table_id`` its rematch: ``new`` is stored unless it has one already.

        Returns the rematch's id (``new``'s, or the one an earlier request made: one
        rematch per table, however many players ask at once). The table's result names it.
        ``open_limit`` and ``stale_before``: as :meth:`create_table` (a rematch is a new table).
        """

        def job(connection: Connection) -> str:
            found = connection.execute(
                select(db.game_tables.c.result).where(db.game_tables.c.id == table_id).with_for_update()
            ).first()
            result = dict(found[0] or {}) if found is not None else {}
            if result.get("rematch"):
                return str(result["rematch"])
            Store.create_table(new, open_limit, stale_before)(connection)
            result["rematch"] = new.id
            connection.execute(update(db.game_tables).where(db.game_tables.c.id == table_id).values(result=result))
            return new.id

        return job

    @staticmethod
    def leaderboard(connection: Connection, game: str, limit: int = 100) -> list[dict[str, Any]]:
        """The best-rated registered users of ``game``."""
        rows = connection.execute(
            select(db.ratings.c.elo, db.ratings.c.games, db.users.c.name, db.users.c.display_name)
            .join(db.users, db.users.c.id == db.ratings.c.user_id)
            .where(db.ratings.c.game == game)
            .order_by(db.ratings.c.elo.desc())
            .limit(limit)
        ).mappings()
        return [
            {"name": r["name"], "display_name": r["display_name"], "elo": round(float(r["elo"])), "games": r["games"]}
            for r in rows
        ]


def _user(row: Any) -> User:
    return User(int(row["id"]), str(row["name"]), str(row["display_name"]), bool(row["is_guest"]))


def _seat(row: Any) -> Seat:
    return Seat(int(row["seat"]), str(row["kind"]), row["user_id"], row["bot"], row["invited"])


def _table(row: Any, seats: list[Seat]) -> TableRow:
    return TableRow(
        id=row["id"],
        game=row["game"],
        options=dict(row["options"]),
        players=int(row["players"]),
        seed=int(row["seed"]),
        status=row["status"],
        join_code=row["join_code"],
        created_by=int(row["created_by"]),
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        version=int(row["version"]),
        to_move=row["to_move"],
        result=row["result"],
        seats=seats,
        pace=row["pace"],
        confirm_turns=bool(row["confirm_turns"]),
        time_control=row["time_control"],
        clocks=row["clocks"],
        absences=row["absences"],
    )


def _insert_new(connection: Connection, table: Any, key: str) -> Any:
    """An INSERT that does nothing when a row with the same ``key`` exists already."""
    from sqlalchemy.dialects import postgresql, sqlite

    if connection.dialect.name == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing(index_elements=[key])
    if connection.dialect.name == "sqlite":
        return sqlite.insert(table).on_conflict_do_nothing(index_elements=[key])
    raise NotImplementedError(f"meadhall stores on SQLite or PostgreSQL, not {connection.dialect.name}")
