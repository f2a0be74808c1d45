"""Playing: a seat's state, sending actions, records and replays of finished games."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from meadhall.core.record import GameRecord
from meadhall.core.registry import get_game
from meadhall.server.api import Acting, OptionalUser
from meadhall.server.api.lobby import load_table
from meadhall.server.app import ApiError, FastJSON, Services, services
from meadhall.server.games import TableRuntime
from meadhall.server.store import Store

router = APIRouter(prefix="/api/tables", tags=["play"])
log = logging.getLogger("meadhall.play")


class ActionRequest(BaseModel):
    """An action in the game's notation, with the version it was chosen on."""

    action: str = Field(min_length=1, max_length=80)
    version: int = Field(ge=0)


async def live(svc: Services, table_id: str) -> TableRuntime:
    """The running (or finished) table's runtime, or an error saying why there is none."""
    runtime = await svc.games.runtime(table_id)
    if runtime is None:
        row = await load_table(svc, table_id)
        if row.status == "open":
            raise ApiError(409, "not-started", "the game has not started yet")
        raise ApiError(409, "not-active", f"this table is {row.status}")
    return runtime


@router.get("/{table_id}/content")
async def table_content(table_id: str, request: Request) -> dict[str, Any]:
    """The components this table plays with (a game's default, or the content pack it chose)."""
    svc = services(request)
    row = await load_table(svc, table_id)
    return {"game": row.game, **get_game(row.game).content(await svc.games.full_options(row))}


@router.get("/{table_id}/state")
async def state(table_id: str, request: Request, user: OptionalUser) -> FastJSON:
    """The game as my seat sees it (spectators: the public view), with my legal actions."""
    svc = services(request)
    runtime = await live(svc, table_id)
    return FastJSON(runtime.payload(runtime.seat_of(user)))  # a Response: no second pass over the view


@router.post("/{table_id}/actions")
async def act(table_id: str, body: ActionRequest, request: Request, user: Acting) -> FastJSON:
    """Play one action, chosen on ``version``.

    Stale (409), out of turn (409), malformed (400) or illegal (422) actions change
    nothing; an accepted one is committed before this answer.
    """
    svc = services(request)
    runtime = await live(svc, table_id)
    seat = runtime.seat_of(user)
    if seat is None:
        raise ApiError(403, "not-seated", "you do not hold a seat at this table")
    return FastJSON(await svc.games.act(runtime, seat, body.version, body.action))


@router.get("/{table_id}/log")
async def game_log(table_id: str, request: Request, user: OptionalUser) -> dict[str, Any]:
    """Every step so far with the events my seat may see (spectators: public events)."""
    svc = services(request)
    runtime = await live(svc, table_id)
    seat = runtime.seat_of(user)
    async with runtime.lock:
        history = runtime.state.history()
        row = runtime.row
    game = get_game(row.game)
    state = game.new_game(players=row.players, seed=row.seed, options=row.options)
    steps = []
    for version, (actor, action) in enumerate(history, start=1):
        events = state.apply(actor, action)
        steps.append({"version": version, "events": [e.to_json() for e in events if e.visible_to(seat)]})
    return {"version": len(history), "steps": steps}


def _finished(runtime: TableRuntime) -> None:
    if runtime.row.status not in ("finished", "abandoned"):
        raise ApiError(403, "still-playing", "records and replays open when the game is over")


@router.get("/{table_id}/record")
async def record(table_id: str, request: Request) -> JSONResponse:
    """The finished game's record (options, seed, every action) as JSON."""
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.status not in ("finished", "abandoned"):
        raise ApiError(403, "still-playing", "records and replays open when the game is over")
    actions = await svc.store.aread(lambda c: Store.table_actions(c, table_id))
    names = await _seat_names(svc, table_id)
    options = await svc.games.full_options(row)  # a record holds its pack whole: it replays anywhere
    game_record = GameRecord(game=row.game, options=options, seed=row.seed, players=names, actions=actions)
    state = game_record.replay()
    return JSONResponse(
        game_record.to_dict(result=state),
        headers={"Content-Disposition": f'attachment; filename="meadhall-{row.game}-{table_id}.json"'},
    )


@router.get("/{table_id}/replay/{step}")
async def replay(table_id: str, step: int, request: Request) -> dict[str, Any]:
    """A finished game after ``step`` actions: the public view and what that step did."""
    svc = services(request)
    runtime = await live(svc, table_id)
    _finished(runtime)
    history = runtime.state.history()
    if not 0 <= step <= len(history):
        raise ApiError(404, "no-step", f"steps go from 0 to {len(history)}")
    game = get_game(runtime.row.game)
    state = game.new_game(players=runtime.row.players, seed=runtime.row.seed, options=runtime.row.options)
    events: list[Any] = []
    for seat, action in history[:step]:
        events = state.apply(seat, action)
    last = history[step - 1] if step else None
    return {
        "step": step,
        "steps": len(history),
        "action": None if last is None else {"seat": last[0], "action": str(last[1])},
        "events": [e.to_json() for e in events if e.visible_to(None)],
        "view": state.view(None),
    }


async def _seat_names(svc: Services, table_id: str) -> list[str]:
    row = await load_table(svc, table_id)

    def query(connection: Any) -> list[str]:
        names = []
        for seat in row.seats:
            if seat.kind == "user" and seat.user_id is not None:
                user = Store.user_by_id(connection, seat.user_id)
                names.append(user.display_name if user else f"Seat {seat.seat + 1}")
            elif seat.kind == "bot":
                names.append(f"{seat.bot} bot")
            else:
                names.append(f"Seat {seat.seat + 1}")
        return names

    return await svc.store.aread(query)


async def resume_bots(svc: Services) -> None:
    """After a (re)start, let bots whose turn it is think again."""
    table_ids = await svc.store.aread(Store.active_table_ids)
    rows = await svc.store.aread(lambda c: Store.tables(c, table_ids))
    for row in rows:
        movers = row.to_move or []
        if any(row.seats[s].kind == "bot" for s in movers if s < len(row.seats)):
            runtime = await svc.games.runtime(row.id)
            if runtime is not None:
                svc.games.schedule_bots(runtime)
