"""The lobby: games on offer, tables to create, join, leave, start and abandon, my games."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Request
from pydantic import AfterValidator, BaseModel, Field
from sqlalchemy.exc import IntegrityError

from meadhall.bots import LEVEL_WORDS, LEVELS
from meadhall.core.errors import MeadhallError
from meadhall.core.registry import all_games, get_game
from meadhall.core.words import seat_label
from meadhall.server import vacations
from meadhall.server.clocks import TimeControl
from meadhall.server.deps import Acting, OptionalUser, Services, SignedIn, services
from meadhall.server.errors import ApiError
from meadhall.server.guides import GUIDE_BOT, describe_guide
from meadhall.server.lobbyfeed import tell_lobby
from meadhall.server.plugins import rules_link
from meadhall.server.store import Seat, Store, TableRow, User, now
from meadhall.server.tables import describe, games_of, load_table, names_of, open_tables
from meadhall.server.text import Text, refuse_control_in_json

router = APIRouter(prefix="/api", tags=["lobby"])
log = logging.getLogger("meadhall.lobby")
T = TypeVar("T")


class SeatRequest(BaseModel):
    """One seat of a new table."""

    kind: Literal["me", "open", "link", "invite", "bot"]
    name: Text | None = Field(None, max_length=40, description="the invited user's name (kind invite)")
    bot: Text | None = Field(None, max_length=40, description="a bot level: beginner, easy, medium, hard or expert")


class CreateTable(BaseModel):
    """A new table."""

    game: Text | None = Field(None, max_length=40, description="the game, by name or alias (GET /api/games lists them)")
    options: Annotated[dict[str, Any], AfterValidator(refuse_control_in_json)] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(min_length=1, max_length=8)
    pace: Literal["live", "async"] = Field(
        "live", description="live: everyone at the table at once; async: each plays at their own pace"
    )
    confirm_turns: bool | None = Field(
        None, description="a seat's moves in its turn wait for its Confirm (default: on for async tables)"
    )
    clock: bool = Field(False, description="a time control: each person's seat has a clock the server keeps")
    base_minutes: float = Field(10, gt=0, le=600, description="live tables with a clock: each seat's time at the start")
    increment_seconds: float = Field(5, ge=0, le=600, description="live tables with a clock: added after each move")
    days_per_move: float = Field(3, gt=0, le=30, description="async tables with a clock: the time each move gets")
    on_timeout: Literal["bot", "lose"] = Field(
        "bot",
        description="bot: a bot takes a timed-out seat (no loss if its player takes it back); "
        "lose: the seat loses, a bot plays on",
    )
    timeout_bot: Text = Field("medium", max_length=40, description="the level of the bot that takes a timed-out seat")


class Join(BaseModel):
    """Which seat to take (any free one by default), with the invitation code for link seats."""

    seat: int | None = None
    code: Text | None = Field(None, max_length=64)


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
                # The seats' labels in the form that seats a new table (words are the server's).
                "seat_labels": [seat_label(seat) for seat in range(game.info.max_players)],
                "presets": [
                    {"name": name, "title": game.info.preset_titles.get(name, name)} for name in game.info.presets
                ],
                "default_preset": game.info.default_preset,
                "options": [o.describe() for o in game.info.options],
                "rules": rules_link(game.info.name),
                "guide": describe_guide(game.guide()),  # a guided first game: POST /api/guides/{game}
            }
            for game in all_games()
        ],
        "bot_levels": [
            {"name": name, "bot": spec, "label": LEVEL_WORDS[name][0], "strength": LEVEL_WORDS[name][1]}
            for name, spec in LEVELS.items()
        ],
    }


@router.get("/games/{game}/content")
async def content(game: str) -> dict[str, Any]:
    """A game's component data (tiles, cards, ...) for the browser."""
    try:
        found = get_game(game)
    except MeadhallError as error:
        raise ApiError(404, "no-game", str(error)) from None
    return {"game": found.info.name, **found.content()}


@router.post("/tables", status_code=201)
async def create_table(body: CreateTable, request: Request, user: Acting) -> dict[str, Any]:
    """Create a table: game, options (preset or tile kinds), and who sits where."""
    svc = services(request)
    if body.game is None:  # no game is the default: the hall may host any
        names = ", ".join(game.info.name for game in all_games())
        raise ApiError(422, "no-game", f"name the game of the table: one of {names}")
    try:
        game = get_game(body.game)
    except MeadhallError as error:
        raise ApiError(422, "no-game", str(error)) from None
    players = len(body.seats)
    try:
        options = game.validate_options(body.options, players=players)
    except MeadhallError as error:  # InvalidOptions, and any other refusal of the options
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
    control = None
    if body.clock:
        if body.timeout_bot not in LEVELS:
            raise ApiError(422, "bad-bot", f"timeout_bot: a bot plays at one of the levels {', '.join(LEVELS)}")
        control = TimeControl(
            body.pace,
            base=body.base_minutes * 60 if body.pace == "live" else 0.0,
            increment=body.increment_seconds if body.pace == "live" else 0.0,
            days=body.days_per_move if body.pace == "async" else 0.0,
            on_timeout=body.on_timeout,
            bot=body.timeout_bot,
        ).to_json()
    row = TableRow.new_open(
        game.info.name,
        options,
        players,
        user.id,
        seats,
        pace=body.pace,
        confirm_turns=body.pace == "async" if body.confirm_turns is None else body.confirm_turns,
        time_control=control,
    )
    stale_before = row.created_at - timedelta(hours=svc.settings.open_table_hours)
    # The table names its content pack by reference; the pack is stored once, by digest.
    packs = game.info.packs(options)
    row.options = game.info.public_options(options)
    await _write(svc, Store.create_table(row, svc.settings.open_tables_per_user, stale_before, packs))
    svc.notifier.table_invited(row)
    tell_lobby(svc, row)
    return describe(row, await names_of(svc, [row]), user)


@router.get("/tables")
async def list_tables(request: Request, user: OptionalUser) -> dict[str, Any]:
    """Tables waiting for players."""
    rows, users = await open_tables(services(request))
    return {"tables": [describe(row, users, user) for row in rows]}


@router.get("/me/games")
async def my_games(request: Request, user: SignedIn) -> dict[str, Any]:
    """My tables: those where it is my turn first, then running, open and finished ones."""
    return await games_of(services(request), user)


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

    def choose(row: TableRow) -> Seat:
        # Runs in the writing transaction, on the locked row.
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
        return Seat(taken.seat, "user", user_id=user.id, invited=taken.invited)

    row = await _write(svc, Store.take_seat(table_id, user.id, choose))
    tell_lobby(svc, row)
    return describe(row, await names_of(svc, [row]), user)


@router.post("/tables/{table_id}/leave")
async def leave(table_id: str, request: Request, user: Acting) -> dict[str, Any]:
    """Give up my seat: before the start, freely; in a game under way, as a loss for me.

    Leaving a game under way (docs/server.md, "Leaving a game") places me last whatever
    the standing, rated like any finished game; a bot plays my seat on for the others,
    or the game ends when fewer than two people would still play it.
    """
    svc = services(request)
    current = await load_table(svc, table_id)
    if current.status == "active":
        return await _leave_under_way(svc, table_id, user)
    try:
        row = await _write(svc, Store.leave_seat(table_id, user.id))
    except ApiError as error:
        if error.code != "started":
            raise
        return await _leave_under_way(svc, table_id, user)  # the creator started it meanwhile
    tell_lobby(svc, row, also=[user.id])
    return describe(row, await names_of(svc, [row]), user)


async def _leave_under_way(svc: Services, table_id: str, user: User) -> dict[str, Any]:
    """Leave a game under way: a loss for the leaver (:meth:`GameService.leave`)."""
    runtime = await svc.games.runtime(table_id)
    seat = runtime.seat_of(user) if runtime is not None else None
    if runtime is None or seat is None:
        raise ApiError(409, "not-seated", "you do not sit at this table")
    await svc.games.leave(runtime, seat)
    return describe(runtime.row, await names_of(svc, [runtime.row]), user)


@router.post("/tables/{table_id}/start")
async def start(table_id: str, request: Request, user: Acting) -> dict[str, Any]:
    """Start the game (the creator, once every seat holds a person or a bot)."""
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.created_by != user.id:
        raise ApiError(403, "not-creator", "only the table's creator can start it")
    if row.status != "open":
        raise ApiError(409, "started", "this table has started already")
    options = await svc.games.full_options(row)
    to_move = list(get_game(row.game).new_game(players=row.players, seed=row.seed, options=options).to_move())
    # The seats are checked in the transaction that starts the table, and the game in
    # memory is built from the row that transaction committed (a player who left
    # meanwhile is not seated in it).
    clocks = svc.games.starting_clocks(row, to_move)
    committed = await _write(svc, Store.start_table(table_id, user.id, to_move, now(), clocks))
    runtime = await svc.games.start(committed)
    await vacations.table_started(svc, runtime)  # players on vacation: their async clocks wait
    starter = {seat.seat for seat in committed.seats if seat.user_id == user.id}
    svc.notifier.table_moved(runtime.row, [], to_move, starter)
    tell_lobby(svc, committed)
    return describe(committed, await names_of(svc, [committed]), user)


@router.post("/guides/{game}", status_code=201)
async def start_guide(game: str, request: Request, user: Acting) -> dict[str, Any]:
    """Start the game's guided first game (server/guides.py): me as the learner, the guide's bot elsewhere."""
    svc = services(request)
    try:
        found = get_game(game)
    except MeadhallError as error:
        raise ApiError(404, "no-game", str(error)) from None
    guide = found.guide()
    if guide is None:
        raise ApiError(404, "no-guide", f"{found.info.title} has no guided game yet")
    options = found.validate_options(dict(guide.options), players=guide.players)
    seats = [
        Seat(index, "user", user_id=user.id) if index == guide.seat else Seat(index, "bot", bot=GUIDE_BOT)
        for index in range(guide.players)
    ]
    row = TableRow.new_open(found.info.name, found.info.public_options(options), guide.players, user.id, seats)
    row.seed = guide.seed
    stale_before = row.created_at - timedelta(hours=svc.settings.open_table_hours)
    packs = found.info.packs(options)
    await _write(svc, Store.create_table(row, svc.settings.open_tables_per_user, stale_before, packs))
    to_move = list(found.new_game(players=guide.players, seed=guide.seed, options=options).to_move())
    committed = await _write(svc, Store.start_table(row.id, user.id, to_move, now()))
    await svc.games.start(committed)
    tell_lobby(svc, committed)
    return describe(committed, await names_of(svc, [committed]), user)


async def _write(svc: Services, job: Callable[[Any], T]) -> T:
    """Run a write job; the unique seat index, if it refuses the job, becomes the error answer."""
    try:
        return await svc.store.writer.run(job)
    except IntegrityError:
        raise ApiError(409, "seated", "you already sit at this table") from None


async def expire_open_tables(svc: Services) -> int:
    """Abandon the open tables older than ``open_table_hours``; returns how many."""
    stale_before = now() - timedelta(hours=svc.settings.open_table_hours)
    expired = await svc.store.writer.run(Store.expire_open_tables(stale_before))
    if expired:
        log.info("open tables expired", extra={"ctx_tables": expired})
        tell_lobby(svc, None)
    return expired


async def expire_open_tables_every(svc: Services, seconds: float) -> None:
    """Expire stale open tables every ``seconds`` (a task for the server's life; it also expires them at start)."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await expire_open_tables(svc)
        except Exception:
            log.exception("expiring open tables failed")


def rated(row: TableRow, users: dict[int, dict[str, Any]]) -> bool:
    """Whether the game changes ratings: two or more registered (not guest) people are seated."""
    seated = {s.user_id for s in row.seats if s.kind == "user" and s.user_id is not None}
    return sum(1 for user_id in seated if user_id in users and not users[user_id]["guest"]) >= 2


@router.post("/tables/{table_id}/abandon")
async def abandon(table_id: str, request: Request, user: Acting) -> dict[str, Any]:
    """End the table without a result.

    Before the start, or before the first move, or in a game nobody is rated in, its
    creator ends it at once. A rated game under way ends only when every seated person
    has asked (each sends this); until then the answer lists who has asked
    (``abandon_requests``, seats). A player who wants out of a rated game resigns instead.
    """
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.status in ("finished", "abandoned"):
        raise ApiError(409, "over", "this game is over already")
    users = await names_of(svc, [row])
    runtime = await svc.games.runtime(table_id) if row.status == "active" else None
    seat = runtime.seat_of(user) if runtime is not None else None
    is_rated = runtime is not None and runtime.version > 0 and rated(row, users)
    if is_rated and seat is None:
        raise ApiError(
            409,
            "rated-game",
            "a rated game under way ends when every seated player asks to abandon it, or when a player resigns",
        )
    if not is_rated and row.created_by != user.id:
        raise ApiError(403, "not-creator", "only the table's creator can abandon it")
    if runtime is not None:  # played by the table's owner, wherever it runs
        asked = await svc.games.abandon(runtime, user.id, seat, is_rated)
        if asked is not None:
            return {**describe(runtime.row, users, user), "abandon_requests": asked}
    else:
        try:
            await svc.store.writer.run(Store.set_status(table_id, "abandoned", ("open",), finished_at=now()))
        except ValueError:
            raise ApiError(409, "over", "this game is over already") from None
        tell_lobby(svc, row)
    row.status = "abandoned"
    return describe(row, users, user)


@router.post("/tables/{table_id}/resign")
async def resign(table_id: str, request: Request, user: Acting) -> dict[str, Any]:
    """Concede the game: it ends now, a loss for me (last place), the others placed by the standing.

    Ratings change as for any finished game (when it is rated). Only a seated player of a
    game under way may resign.
    """
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.status != "active":
        raise ApiError(409, "not-active", "only a game under way can be resigned")
    runtime = await svc.games.runtime(table_id)
    if runtime is None:
        raise ApiError(409, "not-active", "only a game under way can be resigned")
    seat = runtime.seat_of(user)
    if seat is None:
        raise ApiError(403, "not-seated", "you do not hold a seat at this table")
    await svc.games.resign(runtime, seat)  # played by the table's owner, wherever it runs
    return describe(runtime.row, await names_of(svc, [runtime.row]), user)
