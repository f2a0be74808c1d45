"""Playing: a seat's state, sending actions, records and replays of ended games."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from meadhall.core.preview import preview_target
from meadhall.core.record import GameRecord
from meadhall.core.registry import get_game
from meadhall.core.words import events_json
from meadhall.server.clocks import Absences, Clocks, seat_events
from meadhall.server.deps import Acting, OptionalUser, Services, SignedIn, services
from meadhall.server.errors import ApiError
from meadhall.server.games import TableRuntime
from meadhall.server.responses import FastJSON
from meadhall.server.store import Store, User
from meadhall.server.tables import load_table, names_of, seat_called
from meadhall.server.text import Text

router = APIRouter(prefix="/api/tables", tags=["play"])
log = logging.getLogger("meadhall.play")


class ActionRequest(BaseModel):
    """An action in the game's notation, with the version it was chosen on."""

    action: Text = Field(min_length=1, max_length=80)
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
    """The components this table plays with (a game's default, or the content pack it chose).

    With the game's words, ``components`` gives each kind's name, face value, facts and
    text for legends and hover texts.
    """
    svc = services(request)
    row = await load_table(svc, table_id)
    game = get_game(row.game)
    options = await svc.games.full_options(row)
    data = {"game": row.game, **game.content(options)}
    words = game.words()
    if words is not None:
        data["components"] = words.components(options)
    return data


@router.get("/{table_id}/state")
async def state(table_id: str, request: Request, user: OptionalUser, words: bool = False) -> FastJSON:
    """The game as my seat sees it (spectators: the public view), with my legal actions.

    ``words=true``: with the game's words (action labels, event texts, the words beside the board).
    """
    svc = services(request)
    runtime = await live(svc, table_id)
    # a Response: no second pass over the view
    return FastJSON(runtime.payload(runtime.seat_of(user), words=words))


async def seated(svc: Services, table_id: str, user: User) -> tuple[TableRuntime, int]:
    """The table being played and ``user``'s seat at it; 403 ``not-seated`` if it has none."""
    runtime = await live(svc, table_id)
    seat = runtime.seat_of(user)
    if seat is None:
        raise ApiError(403, "not-seated", "you do not hold a seat at this table")
    return runtime, seat


@router.post("/{table_id}/actions")
async def act(table_id: str, body: ActionRequest, request: Request, user: Acting, words: bool = False) -> FastJSON:
    """Play one action, chosen on ``version``.

    Stale (409), out of turn (409), malformed (400) or illegal (422, with the engine's
    reason and rule) actions change nothing; an accepted one is committed before this
    answer (``words=true``: with the game's words, as ``/state``).
    """
    svc = services(request)
    runtime, seat = await seated(svc, table_id, user)
    return FastJSON(await svc.games.act(runtime, seat, body.version, body.action, words=words))


@router.post("/{table_id}/seat-back", status_code=204)
async def seat_back(table_id: str, request: Request, user: Acting) -> Response:
    """Take my seat back from the bot that plays it since my time ran out: the bot stops, I play on.

    409 ``not-taken-over`` when no bot plays my seat. Every seat gets a ``seat-back``
    message with the log's words, then its snapshot.
    """
    svc = services(request)
    runtime, seat = await seated(svc, table_id, user)
    await svc.games.take_seat_back(runtime, seat)
    return Response(status_code=204)


class UndoRequest(BaseModel):
    """A take-back of my latest move, asked on the version the table showed."""

    version: int = Field(ge=0)


@router.post("/{table_id}/undo")
async def undo(table_id: str, body: UndoRequest, request: Request, user: Acting, words: bool = False) -> FastJSON:
    """Take back my latest move, while nothing new was revealed by it and nobody has acted since.

    Answers my payload after it (``taken_back`` names my seat; ``undo`` in a payload says
    how many moves its seat may take back). Refused, nothing changed: 409 (``stale``,
    ``not-active``, or ``not-undoable`` when the latest move is not mine) or 422
    (``not-undoable``: the rules keep that move, in their words, with the ``rule``).
    """
    svc = services(request)
    runtime, seat = await seated(svc, table_id, user)
    return FastJSON(await svc.games.undo(runtime, seat, body.version, words=words))


@router.post("/{table_id}/confirm")
async def confirm(table_id: str, body: UndoRequest, request: Request, user: Acting, words: bool = False) -> FastJSON:
    """Confirm my turn at a confirm-turn table: the moves I hold are committed and shown to everyone.

    ``version`` is the one my payload shows (it counts my held moves). Answers my payload
    after it. Refused, nothing changed: 409 (``stale``, ``not-active``, or ``nothing-held``
    when I hold no moves).
    """
    svc = services(request)
    runtime, seat = await seated(svc, table_id, user)
    return FastJSON(await svc.games.confirm(runtime, seat, body.version, words=words))


@router.get("/{table_id}/preview")
async def preview(
    table_id: str, request: Request, user: SignedIn, target: str = Query(min_length=2, max_length=400)
) -> dict[str, Any]:
    """What a target on the board (``target``: the JSON object an action's words carry) would do for my seat.

    ``preview``: the game's words (:class:`~meadhall.core.words.Preview`): title, lines,
    points or cost of a legal target; the engine's refusal and rule for an illegal one; for a
    place on the board with no move of mine (a region, a god's area), what it is and why nothing
    can be done there (:meth:`~meadhall.core.words.GameWords.place`); null for a target that
    names nothing of the game (or a game without words). Computed from my seat's
    view (a refusal: the engine's check, the same in every world my view allows).
    """
    svc = services(request)
    retry = await svc.limits.check("preview_rate", str(user.id))
    if retry:
        raise ApiError(429, "rate-limited", "too many previews; wait a little", retry_after=retry)
    try:
        wanted = orjson.loads(target)
    except orjson.JSONDecodeError:
        wanted = None
    if not isinstance(wanted, dict):
        raise ApiError(400, "malformed", "target: a JSON object such as an action's target")
    runtime, seat = await seated(svc, table_id, user)
    found = None
    if runtime.words is not None:
        held = runtime.held_by(seat)  # a seat holding moves previews from where they left it
        state = held.states[-1] if held is not None else runtime.state
        playing = runtime.row.status == "active" and seat in state.to_move()
        legal = runtime.game.legal_notations(state, seat) if playing else []
        found = preview_target(runtime.words, state, seat, wanted, legal)
    return {"version": runtime.seat_version(seat), "preview": found}


async def _history_limit(request: Request) -> None:
    """Count a history request (log, record, replay) against the client's address."""
    svc = services(request)
    retry = await svc.limits.check("history_rate", request.client.host if request.client else "unknown")
    if retry:
        raise ApiError(429, "rate-limited", "too many requests for game histories; wait a little", retry_after=retry)


def _json(body: bytes, headers: dict[str, str] | None = None) -> Response:
    return Response(body, media_type="application/json", headers=headers)


@router.get("/{table_id}/log")
async def game_log(table_id: str, request: Request, user: OptionalUser) -> Response:
    """Every step so far with the events my seat may see (spectators: public events).

    Step 0 holds the events of the deal (what setting the game up showed), if any.
    """
    await _history_limit(request)
    svc = services(request)
    runtime = await live(svc, table_id)
    seat = runtime.seat_of(user)
    async with runtime.lock:
        actions = list(runtime.state.history())
        row = runtime.row
        version = runtime.version  # counts take-backs too: what the table's updates say
        held = runtime.held_by(seat)
        steps = list(held.steps) if held is not None else []
        table_events = runtime.table_events()
    book = await svc.history.book(table_id, runtime.game, row, actions)
    body = book.logged(seat, version)
    if body is None:
        body = await asyncio.to_thread(book.log, seat, version)
    if steps:
        # Only the seat holding moves (a confirm-turn table) finds them in its log, after
        # the committed steps, at the versions its own payloads showed.
        data = orjson.loads(body)
        for index, (_, events, _) in enumerate(steps, start=1):
            data["steps"].append({"version": version + index, "events": events_json(events, seat, runtime.words)})
        data["version"] = version + len(steps)
        body = orjson.dumps(data)
    if table_events:
        # Timeouts, comebacks and leaves: each after the step of its version.
        data = orjson.loads(body)
        data["table_events"] = table_events
        body = orjson.dumps(data)
    return _json(body)


def _finished(runtime: TableRuntime) -> None:
    if runtime.row.status not in ("finished", "abandoned"):
        raise ApiError(403, "still-playing", "records and replays open when the game is over")


@router.get("/{table_id}/record")
async def record(table_id: str, request: Request) -> Response:
    """An ended game's record (options, seed, every action) as JSON: finished, resigned or abandoned."""
    await _history_limit(request)
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.status not in ("finished", "abandoned"):
        raise ApiError(403, "still-playing", "records and replays open when the game is over")
    actions = await svc.store.aread(lambda c: Store.table_actions(c, table_id))
    names = await _seat_names(svc, table_id)
    options = await svc.games.full_options(row)  # a record holds its pack whole: it replays anywhere
    ending: dict[str, Any] | None = None
    if row.status == "abandoned":
        ending = {"by": "abandonment"}
    elif row.result and row.result.get("resigned") is not None:
        ending = {"by": "resignation", "seat": row.result["resigned"], "places": row.result["places"]}
    elif row.result and row.result.get("leaver") is not None:
        ending = {"by": "leaving", "seat": row.result["leaver"], "places": row.result["places"]}
    game_record = GameRecord(
        game=row.game, options=options, seed=row.seed, players=names, actions=actions, ending=ending
    )

    lines = seat_events(Clocks.from_json(row.clocks), Absences.from_json(row.absences))

    def export() -> bytes:
        data = game_record.to_dict(result=game_record.replay())
        if lines:
            data["seat_events"] = lines  # timeouts, comebacks, vacations, leaves: the log's lines
        return orjson.dumps(data)

    body = await svc.history.get(("record", table_id, len(actions), tuple(names)), export)
    return _json(body, {"Content-Disposition": f'attachment; filename="meadhall-{row.game}-{table_id}.json"'})


@router.get("/{table_id}/replay/{step}")
async def replay(table_id: str, step: int, request: Request) -> Response:
    """An ended game (finished, resigned or abandoned) after ``step`` actions.

    The public view then, and what that step did (step 0: the deal).
    """
    await _history_limit(request)
    svc = services(request)
    runtime = await live(svc, table_id)
    _finished(runtime)
    async with runtime.lock:
        actions = list(runtime.state.history())
        lines = [e for e in runtime.table_events() if _event_step(e, actions) == step]
    if not 0 <= step <= len(actions):
        raise ApiError(404, "no-step", f"steps go from 0 to {len(actions)}")
    book = await svc.history.book(table_id, runtime.game, runtime.row, actions)
    body = await asyncio.to_thread(book.step, step)
    if lines:
        # What happened to seats after this step (timeouts, comebacks, vacations, leaves): the log's lines.
        data = orjson.loads(body)
        data["seat_events"] = lines
        body = orjson.dumps(data)
    return _json(body)


def _event_step(event: dict[str, Any], actions: list[Any]) -> int:
    """The replay step a seat's event follows (events kept before steps were noted: their version, at most the end)."""
    return int(event.get("step", min(int(event["version"]), len(actions))))


async def _seat_names(svc: Services, table_id: str) -> list[str]:
    """The seats' names as every page shows them (``Seat N`` for a seat nobody held)."""
    row = await load_table(svc, table_id)
    users = await names_of(svc, [row])
    return [seat_called(seat, users) for seat in row.seats]


async def resume_bots(svc: Services) -> None:
    """After a (re)start, let bots whose turn it is think again, and running clocks run out."""
    for row in await svc.games.tables_with_work():
        runtime = await svc.games.runtime(row.id)
        if runtime is not None:
            svc.games.schedule_bots(runtime)
