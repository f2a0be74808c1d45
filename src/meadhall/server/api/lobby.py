"""The lobby: games on offer, tables to create, join, leave, start and abandon, my games."""

from __future__ import annotations

import secrets
from functools import partial
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from meadhall.bots import LEVELS
from meadhall.core.errors import InvalidOptions, MeadhallError
from meadhall.core.game import fresh_seed
from meadhall.core.registry import all_games, get_game
from meadhall.server.api import Acting, OptionalUser, SignedIn
from meadhall.server.app import ApiError, Services, services
from meadhall.server.store import Seat, Store, TableRow, User, now

router = APIRouter(prefix="/api", tags=["lobby"])


class SeatRequest(BaseModel):
    """One seat of a new table."""

    kind: Literal["me", "open", "link", "invite", "bot"]
    name: str | None = Field(None, max_length=40, description="the invited user's name (kind invite)")
    bot: str | None = Field(None, max_length=40, description="a bot level: beginner, easy, medium, hard or expert")


class CreateTable(BaseModel):
    """A new table."""

    game: str = "voluspa"
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(min_length=1, max_length=8)


class Join(BaseModel):
    """Which seat to take (any free one by default), with the invitation code for link seats."""

    seat: int | None = None
    code: str | None = Field(None, max_length=64)


@router.get("/games")
async def games() -> dict[str, Any]:
    """The games, their presets and options, and the bot levels."""
    return {
        "games": [
            {
                "name": game.info.name,
                "title": game.info.title,
                "summary": game.info.summary,
                "min_players": game.info.min_players,
                "max_players": game.info.max_players,
                "presets": [
                    {"name": name, "title": game.info.preset_titles.get(name, name)} for name in game.info.presets
                ],
                "default_preset": game.info.default_preset,
                "options": [
                    {"name": o.name, "kind": o.kind, "default": o.default, "help": o.help, "choices": list(o.choices)}
                    for o in game.info.options
                ],
            }
            for game in all_games()
        ],
        "bot_levels": [{"name": name, "bot": spec} for name, spec in LEVELS.items()],
    }


@router.get("/games/{game}/content")
async def content(game: str) -> dict[str, Any]:
    """A game's component data (Völuspá: the tile table) for the browser."""
    try:
        found = get_game(game)
    except MeadhallError as error:
        raise ApiError(404, "no-game", str(error)) from None
    return {"game": found.info.name, **found.content()}


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


def describe(row: TableRow, users: dict[int, dict[str, Any]], viewer: User | None) -> dict[str, Any]:
    """A table as the lobby shows it (never the seed; the join code only to its creator)."""
    seats = []
    for seat in row.seats:
        item: dict[str, Any] = {"seat": seat.seat, "kind": seat.kind}
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
        "options": get_game(row.game).info.public_options(row.options),  # a pack by reference: GET .../content
        "players": row.players,
        "status": row.status,
        "version": row.version,
        "to_move": row.to_move,
        "result": row.result,
        "created_by": users.get(row.created_by),
        "created_at": row.created_at.isoformat(),
        "seats": seats,
    }
    if viewer is not None:
        data["my_seat"] = next((s.seat for s in row.seats if s.kind == "user" and s.user_id == viewer.id), None)
        data["my_turn"] = bool(
            row.status == "active" and data["my_seat"] is not None and row.to_move and data["my_seat"] in row.to_move
        )
        if viewer.id == row.created_by:
            data["join_code"] = row.join_code
    return data


async def load_table(svc: Services, table_id: str) -> TableRow:
    """The table, or 404."""
    row = await svc.store.aread(lambda c: Store.table(c, table_id))
    if row is None:
        raise ApiError(404, "no-table", f"there is no table {table_id!r}")
    return row


@router.post("/tables", status_code=201)
async def create_table(body: CreateTable, request: Request, user: Acting) -> dict[str, Any]:
    """Create a table: game, options (preset or tile kinds), and who sits where."""
    svc = services(request)
    try:
        game = get_game(body.game)
    except MeadhallError as error:
        raise ApiError(422, "no-game", str(error)) from None
    players = len(body.seats)
    try:
        options = game.validate_options(body.options, players=players)
    except InvalidOptions as error:
        raise ApiError(422, "bad-options", str(error)) from None
    seats: list[Seat] = []
    mine = 0
    for index, request_seat in enumerate(body.seats):
        if request_seat.kind == "me":
            mine += 1
            seats.append(Seat(index, "user", user_id=user.id))
        elif request_seat.kind == "bot":
            # Only the named levels: a spec with its own budget could keep a bot worker busy for hours.
            spec = (request_seat.bot or "medium").strip().lower()
            if spec not in LEVELS:
                raise ApiError(
                    422, "bad-bot", f"seat {index + 1}: a bot plays at one of the levels {', '.join(LEVELS)}"
                )
            seats.append(Seat(index, "bot", bot=spec))
        elif request_seat.kind == "invite":
            if not request_seat.name:
                raise ApiError(422, "invalid", f"seat {index + 1}: an invitation needs a user name")
            invited = request_seat.name.strip()
            found = await svc.store.aread(partial(Store.user_by_name, name=invited))
            if found is None:
                raise ApiError(422, "no-user", f"seat {index + 1}: there is no user called {invited!r}")
            seats.append(Seat(index, "invite", invited=found[0].name))
        else:
            seats.append(Seat(index, request_seat.kind))
    if mine > 1:
        raise ApiError(422, "invalid", "you can take only one seat")
    row = TableRow(
        id=secrets.token_urlsafe(6),
        game=game.info.name,
        options=options,
        players=players,
        seed=fresh_seed(),
        status="open",
        join_code=secrets.token_urlsafe(12),
        created_by=user.id,
        created_at=now(),
        started_at=None,
        finished_at=None,
        version=0,
        to_move=None,
        result=None,
        seats=seats,
    )
    # The table names its content pack by reference; the pack is stored once, by digest.
    packs = game.info.packs(options)
    row.options = game.info.public_options(options)
    await svc.store.writer.run(Store.create_table(row, packs))
    return describe(row, await names_of(svc, [row]), user)


@router.get("/tables")
async def list_tables(request: Request, user: OptionalUser) -> dict[str, Any]:
    """Tables waiting for players."""
    svc = services(request)
    rows = await svc.store.aread(lambda c: Store.tables(c, Store.open_tables(c)))
    rows.sort(key=lambda r: r.created_at, reverse=True)
    users = await names_of(svc, rows)
    return {"tables": [describe(row, users, user) for row in rows]}


@router.get("/me/games")
async def my_games(request: Request, user: SignedIn) -> dict[str, Any]:
    """My tables: those where it is my turn first, then running, open and finished ones."""
    svc = services(request)
    rows = await svc.store.aread(lambda c: Store.tables(c, Store.user_tables(c, user.id, user.name)))
    users = await names_of(svc, rows)
    described = [describe(row, users, user) for row in rows]
    order = {"active": 1, "open": 2, "finished": 3, "abandoned": 4}
    described.sort(key=lambda t: (0 if t.get("my_turn") else order.get(t["status"], 5), t["created_at"]), reverse=False)
    return {"tables": described, "my_turn": sum(1 for t in described if t.get("my_turn"))}


@router.get("/tables/{table_id}")
async def table(table_id: str, request: Request, user: OptionalUser) -> dict[str, Any]:
    """One table as the lobby shows it."""
    svc = services(request)
    row = await load_table(svc, table_id)
    return describe(row, await names_of(svc, [row]), user)


@router.post("/tables/{table_id}/join")
async def join(table_id: str, body: Join, request: Request, user: Acting) -> dict[str, Any]:
    """Take a free seat: an open one, one I am invited to, or a link seat with its code."""
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.status != "open":
        raise ApiError(409, "started", "this table has started; you can watch it")
    if any(s.kind == "user" and s.user_id == user.id for s in row.seats):
        raise ApiError(409, "seated", "you already sit at this table")
    code_ok = body.code is not None and secrets.compare_digest(body.code, row.join_code)

    def can_take(seat: Seat) -> bool:
        if seat.kind == "open":
            return True
        if seat.kind == "link":
            return code_ok
        if seat.kind == "invite":
            return (seat.invited or "").lower() == user.name.lower() or code_ok
        return False

    candidates = [s for s in row.seats if can_take(s)]
    if body.seat is not None:
        candidates = [s for s in candidates if s.seat == body.seat]
    if not candidates:
        reason = "no free seat you may take" + ("" if code_ok or body.code is None else " (wrong invitation code)")
        raise ApiError(409, "no-seat", reason)
    taken = candidates[0]
    seat = Seat(taken.seat, "user", user_id=user.id, invited=taken.invited)
    try:
        await svc.store.writer.run(Store.set_seat(table_id, seat, ("open", "link", "invite")))
    except ValueError as error:
        raise ApiError(409, "seat-taken", str(error)) from None
    row.seats[taken.seat] = seat
    return describe(row, await names_of(svc, [row]), user)


@router.post("/tables/{table_id}/leave")
async def leave(table_id: str, request: Request, user: Acting) -> dict[str, Any]:
    """Give up my seat before the game starts."""
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.status != "open":
        raise ApiError(409, "started", "the game has started: you cannot leave, but the creator can abandon it")
    mine = next((s for s in row.seats if s.kind == "user" and s.user_id == user.id), None)
    if mine is None:
        raise ApiError(409, "not-seated", "you do not sit at this table")
    freed = Seat(mine.seat, "invite" if mine.invited else "open", invited=mine.invited)
    try:
        await svc.store.writer.run(Store.set_seat(table_id, freed, ("user",), expect_user=user.id))
    except ValueError as error:
        raise ApiError(409, "started", str(error)) from None
    row.seats[mine.seat] = freed
    return describe(row, await names_of(svc, [row]), user)


@router.post("/tables/{table_id}/start")
async def start(table_id: str, request: Request, user: Acting) -> dict[str, Any]:
    """Start the game (the creator, once every seat holds a person or a bot)."""
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.created_by != user.id:
        raise ApiError(403, "not-creator", "only the table's creator can start it")
    if row.status != "open":
        raise ApiError(409, "started", "this table has started already")
    empty = [s.seat + 1 for s in row.seats if s.kind not in ("user", "bot")]
    if empty:
        raise ApiError(409, "seats-empty", f"seats {', '.join(map(str, empty))} are still empty")
    row.status = "active"
    row.started_at = now()
    row.options = await svc.games.full_options(row)
    state_to_move = list(get_game(row.game).new_game(players=row.players, seed=row.seed, options=row.options).to_move())
    row.to_move = state_to_move
    try:
        await svc.store.writer.run(
            Store.set_status(table_id, "active", ("open",), started_at=row.started_at, to_move=state_to_move)
        )
    except ValueError:
        raise ApiError(409, "started", "this table has started already") from None
    await svc.games.start(row)
    return describe(row, await names_of(svc, [row]), user)


@router.post("/tables/{table_id}/abandon")
async def abandon(table_id: str, request: Request, user: Acting) -> dict[str, Any]:
    """End the table without a result (its creator)."""
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.created_by != user.id:
        raise ApiError(403, "not-creator", "only the table's creator can abandon it")
    if row.status in ("finished", "abandoned"):
        raise ApiError(409, "over", "this game is over already")
    runtime = svc.games.runtimes.get(table_id)
    if runtime is not None:
        async with runtime.lock:
            try:
                await svc.store.writer.run(Store.set_status(table_id, "abandoned", ("active",), finished_at=now()))
            except ValueError:
                raise ApiError(409, "over", "this game is over already") from None
            runtime.row.status = "abandoned"
        svc.games.send_all(runtime, {"type": "abandoned"}, lambda listener: False)
        svc.games.forget(table_id)
    else:
        try:
            await svc.store.writer.run(Store.set_status(table_id, "abandoned", ("open", "active"), finished_at=now()))
        except ValueError:
            raise ApiError(409, "over", "this game is over already") from None
    row.status = "abandoned"
    return describe(row, await names_of(svc, [row]), user)
