"""E-mail: the server's notices, sent over SMTP when the server has one (``smtp_host``).

A user gives an address and chooses what to get on their profile
(``PUT /api/me/notifications``); nothing goes to an address before its owner followed the
confirmation link sent to it. Then the server writes when a table at one's own pace waits
for them (or, with the daily digest, once a day about every such table), when they are
invited to a table, and when a game they played ends. Every notice carries a link that
stops them all (``List-Unsubscribe``, one click, RFC 8058). Without ``smtp_host`` nothing is
sent and the profile says so.

Sending never holds up a move: notices go out in tasks of their own, through the standard
library's ``smtplib`` in a worker thread, and a failure is logged, not raised.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import smtplib
import ssl
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from meadhall.core.registry import get_game
from meadhall.server import db
from meadhall.server.settings import Settings
from meadhall.server.store import Store, TableRow, now

log = logging.getLogger("meadhall.mail")

#: What a user may choose to get: the columns of ``email_settings``.
KINDS = ("turns", "invitations", "endings", "digest")
#: How long a daily digest waits after the last one.
DIGEST_EVERY = timedelta(hours=24)


def sign(secret: str, purpose: str, *parts: object) -> str:
    """A token proving the server wrote this link (``purpose`` and ``parts`` are what it is for)."""
    text = "\x1f".join([purpose, *map(str, parts)]).encode()
    digest = hmac.new(secret.encode(), text, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


def signed(secret: str, token: str, purpose: str, *parts: object) -> bool:
    """Whether ``token`` is :func:`sign`'s for these ``purpose`` and ``parts``."""
    return hmac.compare_digest(token.encode(), sign(secret, purpose, *parts).encode())


class Mailer:
    """Sends e-mail through the configured SMTP server (see :class:`Settings`: ``smtp_*``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @property
    def enabled(self) -> bool:
        """Whether this server sends e-mail at all."""
        return bool(self.settings.smtp_host)

    def _deliver(self, message: EmailMessage) -> None:
        settings = self.settings
        connect: Callable[..., smtplib.SMTP] = smtplib.SMTP_SSL if settings.smtp_security == "tls" else smtplib.SMTP
        with connect(settings.smtp_host, settings.smtp_port, timeout=30) as smtp:
            if settings.smtp_security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if settings.smtp_user:
                smtp.login(settings.smtp_user, settings.smtp_password)
            smtp.send_message(message)

    async def send(self, to: str, subject: str, body: str, unsubscribe: str | None = None) -> bool:
        """Send one e-mail; whether the SMTP server took it (a failure is logged)."""
        if not self.enabled:
            return False
        message = EmailMessage()
        message["From"] = self.settings.smtp_from
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain="meadhall")
        if unsubscribe is not None:
            message["List-Unsubscribe"] = f"<{unsubscribe}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(body)
        try:
            await asyncio.to_thread(self._deliver, message)
        except (OSError, smtplib.SMTPException) as error:
            log.warning("could not send an e-mail", extra={"ctx_subject": subject, "ctx_error": str(error)})
            return False
        return True


class Notifier:
    """Decides who gets which notice, writes it, and sends it in the background."""

    def __init__(self, settings: Settings, store: Store, secret: str, mailer: Mailer | None = None) -> None:
        self.settings = settings
        self.store = store
        self.secret = secret
        self.mailer = mailer or Mailer(settings)
        self._tasks: set[asyncio.Task[Any]] = set()

    # links ---------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """Where people reach this server (``public_url``, or the address it serves)."""
        if self.settings.public_url:
            return self.settings.public_url.rstrip("/")
        return f"http://{self.settings.host}:{self.settings.port}"

    def unsubscribe_url(self, user_id: int) -> str:
        """The link that stops every e-mail to ``user_id``."""
        return f"{self.base_url}/email/stop/{user_id}/{sign(self.secret, 'stop', user_id)}"

    def confirm_url(self, user_id: int, email: str) -> str:
        """The link that confirms ``email`` as ``user_id``'s address."""
        return f"{self.base_url}/email/confirm/{user_id}/{sign(self.secret, 'confirm', user_id, email.lower())}"

    # what to send ------------------------------------------------------------------------

    def _later(self, job: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for every notice under way (tests, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def confirm_address(self, user_id: int, display_name: str, email: str) -> bool:
        """Send the confirmation link to a newly given address."""
        body = (
            f"Hello {display_name},\n\n"
            f"Someone, probably you, gave this address for meadhall's notices. To get them, confirm it:\n\n"
            f"{self.confirm_url(user_id, email)}\n\n"
            "If it was not you, ignore this e-mail: nothing more will come.\n"
        )
        return await self.mailer.send(email, "Confirm your address for meadhall", body)

    def table_moved(
        self,
        row: TableRow,
        before: Iterable[int],
        after: Iterable[int],
        present: set[int],
        elsewhere: Callable[[str], Awaitable[set[int]]] | None = None,
    ) -> None:
        """After a move (or the start): tell each seat it made to move, at a table at one's own pace.

        ``before`` and ``after``: the seats to move before and after it; ``present``: the
        seats with the table open now, who see it there and get no e-mail; ``elsewhere``
        (several servers): the seats with the table open on any server, asked before sending.
        """
        if not self.mailer.enabled or row.pace != "async" or row.status != "active":
            return
        fresh = set(after) - set(before) - present
        seats = {
            seat.seat: seat.user_id
            for seat in row.seats
            if seat.seat in fresh and seat.kind == "user" and seat.user_id is not None and not seat.bot
        }
        if seats:
            self._later(self._turns_unless_open(row, seats, elsewhere))

    async def _turns_unless_open(
        self, row: TableRow, seats: dict[int, int], elsewhere: Callable[[str], Awaitable[set[int]]] | None
    ) -> None:
        if elsewhere is not None:
            open_seats = await elsewhere(row.id)
            seats = {seat: user for seat, user in seats.items() if seat not in open_seats}
        if seats:
            await self._turns(row, list(seats.values()))

    def table_timed_out(self, row: TableRow, seat: int, text: str) -> None:
        """After a seat's clock ran out: tell its player (what the log says, and how to come back).

        Sent to those who want turn notices, as they come (never in the digest).
        """
        user_id = row.seats[seat].user_id
        if self.mailer.enabled and user_id is not None:
            self._later(self._timed_out(row, user_id, text))

    def table_ended(self, row: TableRow) -> None:
        """After a game ended: tell everyone who played it."""
        users = [seat.user_id for seat in row.seats if seat.kind == "user" and seat.user_id is not None]
        if self.mailer.enabled and users:
            self._later(self._ended(row, users))

    def table_invited(self, row: TableRow) -> None:
        """After a table was made: tell the users it invites by name."""
        names = [seat.invited for seat in row.seats if seat.kind == "invite" and seat.invited]
        if self.mailer.enabled and names:
            self._later(self._invited(row, names))

    # writing and sending -----------------------------------------------------------------

    def _title(self, row: TableRow) -> str:
        return get_game(row.game).info.title

    async def _send(self, recipient: dict[str, Any], subject: str, lines: list[str]) -> bool:
        settings_link = f"{self.base_url}/u/{recipient['name']}#notifications"
        body = (
            f"Hello {recipient['display_name']},\n\n"
            + "\n".join(lines)
            + "\n\n-- \nmeadhall. What e-mail you get: "
            + settings_link
            + "\nStop all e-mail from meadhall: "
            + self.unsubscribe_url(recipient["user_id"])
            + "\n"
        )
        return await self.mailer.send(recipient["email"], subject, body, self.unsubscribe_url(recipient["user_id"]))

    async def _turns(self, row: TableRow, users: list[int]) -> None:
        for recipient in await self.store.aread(lambda c: recipients(c, users, "turns")):
            title = self._title(row)
            await self._send(
                recipient,
                f"Your turn: {title}",
                [f"Your {title} table is waiting for your move:", f"{self.base_url}/t/{row.id}"],
            )

    async def _timed_out(self, row: TableRow, user_id: int, text: str) -> None:
        for recipient in await self.store.aread(lambda c: recipients(c, [user_id], "turns")):
            title = self._title(row)
            await self._send(
                recipient,
                f"Out of time: {title}",
                [text, "You may take your seat back at the table:", f"{self.base_url}/t/{row.id}"],
            )

    async def _ended(self, row: TableRow, users: list[int]) -> None:
        places = (row.result or {}).get("places") or []
        for recipient in await self.store.aread(lambda c: recipients(c, users, "endings")):
            title = self._title(row)
            seat = next(s.seat for s in row.seats if s.user_id == recipient["user_id"])
            place = f"You finished {_ordinal(places[seat])} of {row.players}." if seat < len(places) else ""
            await self._send(
                recipient,
                f"Game over: {title}",
                [
                    f"Your game of {title} has ended. {place}".rstrip(),
                    "The result, the replay and a rematch:",
                    f"{self.base_url}/t/{row.id}",
                ],
            )

    async def _invited(self, row: TableRow, names: list[str]) -> None:
        def query(connection: Connection) -> list[dict[str, Any]]:
            ids = [found[0].id for name in names if (found := Store.user_by_name(connection, name))]
            maker = Store.user_by_id(connection, row.created_by)
            host = maker.display_name if maker else "Someone"
            return [{**r, "host": host} for r in recipients(connection, ids, "invitations")]

        for recipient in await self.store.aread(query):
            title = self._title(row)
            await self._send(
                recipient,
                f"{recipient['host']} invites you to {title}",
                [
                    f"{recipient['host']} invites you to a table of {title}. Join it here:",
                    f"{self.base_url}/t/{row.id}",
                ],
            )

    async def send_digests(self, at: datetime | None = None) -> int:
        """Send each daily digest that is due at ``at`` (now by default); how many were sent."""
        if not self.mailer.enabled:
            return 0
        moment = at or now()
        sent = 0
        for recipient, tables in await self.store.aread(lambda c: digests_due(c, moment)):
            lines = ["These tables are waiting for your move:"]
            for table_id, game in tables:
                lines.append(f"- {get_game(game).info.title}: {self.base_url}/t/{table_id}")
            count = len(tables)
            subject = f"{count} table{'s' * (count != 1)} waiting for your move"
            if await self._send(recipient, subject, lines):
                sent += 1
                await self.store.writer.run(digest_sent(recipient["user_id"], moment))
        return sent

    async def digests_every(self, seconds: float) -> None:
        """Send the due digests every ``seconds``, for as long as the server runs."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.send_digests()
            except Exception:  # a bad row or a database hiccup must not stop the loop
                log.exception("daily digests failed; trying again later")


def _ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


# storage -------------------------------------------------------------------------------------


def email_settings(connection: Connection, user_id: int) -> dict[str, Any] | None:
    """A user's address and choices, or ``None`` when they gave no address."""
    row = connection.execute(select(db.email_settings).where(db.email_settings.c.user_id == user_id)).mappings().first()
    return dict(row) if row else None


def save_email_settings(user_id: int, values: dict[str, Any]) -> Callable[[Connection], bool]:
    """A write job storing a user's address and choices; whether the address is new (then unconfirmed)."""

    def job(connection: Connection) -> bool:
        current = email_settings(connection, user_id)
        if values.get("email") is None:
            connection.execute(db.email_settings.delete().where(db.email_settings.c.user_id == user_id))
            return False
        fresh = current is None or current["email"].lower() != values["email"].lower()
        row = {**values, "confirmed": False if fresh else current["confirmed"]}  # type: ignore[index]
        if current is None:
            connection.execute(db.email_settings.insert().values(user_id=user_id, **row))
        else:
            connection.execute(update(db.email_settings).where(db.email_settings.c.user_id == user_id).values(**row))
        return fresh

    return job


def confirm_email(user_id: int, secret: str, token: str) -> Callable[[Connection], bool]:
    """A write job confirming the user's address if ``token`` was sent to it; whether it did."""

    def job(connection: Connection) -> bool:
        current = email_settings(connection, user_id)
        if current is None or not signed(secret, token, "confirm", user_id, current["email"].lower()):
            return False
        connection.execute(
            update(db.email_settings).where(db.email_settings.c.user_id == user_id).values(confirmed=True)
        )
        return True

    return job


def stop_email(user_id: int) -> Callable[[Connection], None]:
    """A write job turning every notice of a user off."""

    def job(connection: Connection) -> None:
        connection.execute(
            update(db.email_settings)
            .where(db.email_settings.c.user_id == user_id)
            .values(**dict.fromkeys(KINDS, False))
        )

    return job


def recipients(connection: Connection, user_ids: Iterable[int], kind: str) -> list[dict[str, Any]]:
    """The users among ``user_ids`` with a confirmed address who want ``kind`` (turns: not as a digest)."""
    ids = list(user_ids)
    if not ids:
        return []
    table = db.email_settings
    query = (
        select(table.c.user_id, table.c.email, db.users.c.name, db.users.c.display_name)
        .join(db.users, db.users.c.id == table.c.user_id)
        .where(table.c.user_id.in_(ids), table.c.confirmed, table.c[kind])
    )
    if kind == "turns":
        query = query.where(~table.c.digest)
    return [dict(row) for row in connection.execute(query).mappings()]


def digests_due(connection: Connection, at: datetime) -> list[tuple[dict[str, Any], list[tuple[str, str]]]]:
    """Who gets a digest at ``at``, each with the (table, game) pairs waiting for them."""
    table = db.email_settings
    rows = connection.execute(
        select(table.c.user_id, table.c.email, table.c.last_digest_at, db.users.c.name, db.users.c.display_name)
        .join(db.users, db.users.c.id == table.c.user_id)
        .where(table.c.confirmed, table.c.digest)
    ).mappings()
    due = []
    for row in rows:
        last = row["last_digest_at"]
        if last is not None and last.tzinfo is None:  # SQLite gives naive times back
            last = last.replace(tzinfo=at.tzinfo)
        if last is not None and at - last < DIGEST_EVERY:
            continue
        waiting = []
        found = connection.execute(
            select(db.game_tables.c.id, db.game_tables.c.game, db.game_tables.c.to_move, db.seats.c.seat)
            .join(db.seats, db.seats.c.table_id == db.game_tables.c.id)
            .where(
                db.seats.c.user_id == row["user_id"],
                db.game_tables.c.status == "active",
                db.game_tables.c.pace == "async",
            )
        )
        for table_id, game, to_move, seat in found:
            if seat in (to_move or []):
                waiting.append((str(table_id), str(game)))
        if waiting:
            recipient = {key: row[key] for key in ("user_id", "email", "name", "display_name")}
            due.append((recipient, sorted(waiting)))
    return due


def digest_sent(user_id: int, at: datetime) -> Callable[[Connection], None]:
    """A write job noting that ``user_id``'s digest went out at ``at``."""

    def job(connection: Connection) -> None:
        connection.execute(
            update(db.email_settings).where(db.email_settings.c.user_id == user_id).values(last_digest_at=at)
        )

    return job
