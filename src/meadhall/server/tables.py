"""Tables as the pages and the API show them: seats' names, the lobby's description, loading one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from meadhall.bots.names import bot_seat_name
from meadhall.core.registry import get_game
from meadhall.core.words import seat_label
from meadhall.server.clocks import LEAVE_RULE, Absences, TimeControl
from meadhall.server.deps import Services
from meadhall.server.errors import ApiError
from meadhall.server.plugins import has_style, rules_link
from meadhall.server.ratings import rating_note
from meadhall.server.store import Seat, Store, TableRow, User, now


async def names_of(svc: Services, rows: list[TableRow]) -> dict[int, dict[str, Any]]:
    """Public info of every user seated at these tables."""
    ids = {seat.user_id for row in rows for seat in row.seats if seat.user_id is not None}
    ids |= {row.created_by for row in rows}

    def query(connection: Any) -> dict[int, dict[str, Any]]:
        found = {}
        for user_id in ids:
            user = Store.user_by_id(connection, user_id)
            if user is not None:
                found[user_id] = user.public()
        return found

    return await svc.store.aread(query)


def seat_name(seat: Seat, users: dict[int, dict[str, Any]]) -> str | None:
    """What people call a seat: its player's display name, or the bot's name; None while free."""
    if seat.user_id is not None:
        user = users.get(seat.user_id)
        return str(user["display_name"]) if user else None
    if seat.kind == "bot" and seat.bot:
        return bot_seat_name(seat.seat, seat.bot)
    return None


def seat_called(seat: Seat, users: dict[int, dict[str, Any]]) -> str:
    """What people call a seat: :func:`seat_name`, or its :func:`~meadhall.core.words.seat_label` while free."""
    return seat_name(seat, users) or seat_label(seat.seat)


def describe(row: TableRow, users: dict[int, dict[str, Any]], viewer: User | None) -> dict[str, Any]:
    """A table as the lobby shows it (never the seed; the join code only to its creator).

    Each seat has a ``name`` (None while nobody holds it) and a ``label`` (``Seat 2``: what
    people call it by its place, and its name while free): every page shows these words.
    """
    data = describe_for_anyone(row, users)
    if viewer is not None:
        data.update(viewer_part(row, viewer))
    return data


def describe_for_anyone(row: TableRow, users: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """What :func:`describe` shows everyone alike (the lobby's socket makes it once for all its viewers)."""
    control = TimeControl.from_json(row.time_control)
    seats = []
    for seat in row.seats:
        item: dict[str, Any] = {
            "seat": seat.seat,
            "kind": seat.kind,
            "name": seat_name(seat, users),
            "label": seat_label(seat.seat),
        }
        if seat.user_id is not None:
            item["user"] = users.get(seat.user_id)
        if seat.bot:
            item["bot"] = seat.bot
        if seat.invited:
            item["invited"] = seat.invited
        seats.append(item)
    data: dict[str, Any] = {
        "id": row.id,
        "game": row.game,
        "title": get_game(row.game).info.title,
        "board_style": has_style(row.game),  # the page links /games/<game>/plugin.css beside the plugin
        "rules": rules_link(row.game),  # the game's rules page, one click from the table (None: none installed)
        "options": get_game(row.game).info.public_options(row.options),  # a pack by reference: GET .../content
        # The summary's words: the options not at their default, and the pace when not live.
        "setup": get_game(row.game).info.setup_words(row.options)
        + (["at one's own pace"] * (row.pace == "async"))
        + ([control.words()] if control is not None else []),
        "players": row.players,
        "status": row.status,
        "version": row.version,
        "to_move": row.to_move,
        "result": row.result,
        "created_by": users.get(row.created_by),
        "created_at": row.created_at.isoformat(),
        "seats": seats,
        "rating": _rating_note(row, users),
        "pace": row.pace,  # live or async (at one's own pace)
        "confirm_turns": row.confirm_turns,  # a seat's moves wait for its Confirm
        "time_control": control.to_json() if control is not None else None,  # server.clocks; None: no clock
        "left": Absences.from_json(row.absences).left,  # seats whose players left the game under way
    }
    if row.status == "active":
        data["leave_rule"] = LEAVE_RULE  # what leaving a game under way means (the Leave button asks it)
    return data


def viewer_part(row: TableRow, viewer: User) -> dict[str, Any]:
    """What :func:`describe` adds for a signed-in viewer: their seat, whether it is their turn, their join code."""
    seat = next((s.seat for s in row.seats if s.kind == "user" and s.user_id == viewer.id), None)
    data: dict[str, Any] = {
        "my_seat": seat,
        "my_turn": bool(
            row.status == "active"
            and seat is not None
            and row.to_move
            and seat in row.to_move
            and not row.seats[seat].bot  # a bot plays my seat since my time ran out
        ),
    }
    if viewer.id == row.created_by:
        data["join_code"] = row.join_code
    return data


def _rating_note(row: TableRow, users: dict[int, dict[str, Any]]) -> str:
    """Whether the table will be rated (ratings.rating_note), from who sits at it now."""
    registered = sum(
        1
        for seat in row.seats
        if seat.user_id is not None and not (users.get(seat.user_id) or {"guest": True})["guest"]
    )
    free = sum(1 for seat in row.seats if seat.kind in ("open", "link", "invite")) if row.status == "open" else 0
    return rating_note(registered, free)


async def open_tables(svc: Services) -> tuple[list[TableRow], dict[int, dict[str, Any]]]:
    """The tables waiting for players, newest first, and their people's public info (for :func:`describe`)."""
    since = now() - timedelta(hours=svc.settings.open_table_hours)
    rows = await svc.store.aread(lambda c: Store.tables(c, Store.open_tables(c, since=since)))
    rows.sort(key=lambda r: r.created_at, reverse=True)
    return rows, await names_of(svc, rows)


async def games_of(svc: Services, user: User) -> dict[str, Any]:
    """A user's tables (``tables``): those where it is their turn first, then running, open and finished ones."""
    rows = await svc.store.aread(lambda c: Store.tables(c, Store.user_tables(c, user.id, user.name)))
    users = await names_of(svc, rows)
    described = [describe(row, users, user) for row in rows]
    order = {"active": 1, "open": 2, "finished": 3, "abandoned": 4}
    described.sort(key=lambda t: (0 if t.get("my_turn") else order.get(t["status"], 5), t["created_at"]), reverse=False)
    return {"tables": described, "my_turn": sum(1 for t in described if t.get("my_turn"))}


async def load_table(svc: Services, table_id: str) -> TableRow:
    """The table, or 404."""
    row = await svc.store.aread(lambda c: Store.table(c, table_id))
    if row is None:
        raise ApiError(404, "no-table", f"there is no table {table_id!r}")
    return row
