"""The end of a game: who won, the places and scores, the game's score breakdown, rating changes, a rematch."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import orjson
from fastapi import APIRouter, Request

from meadhall.core.registry import get_game
from meadhall.core.words import standings
from meadhall.server import vacations
from meadhall.server.api.lobby import _write
from meadhall.server.clocks import Absences, Clocks, seat_events
from meadhall.server.deps import Acting, OptionalUser, Services, services
from meadhall.server.errors import ApiError
from meadhall.server.games import TableRuntime
from meadhall.server.lobbyfeed import tell_lobby
from meadhall.server.store import Seat, Store, TableRow, now
from meadhall.server.tables import describe, load_table, names_of, seat_called

router = APIRouter(prefix="/api/tables", tags=["end"])

ENDED = ("finished", "abandoned")


def _not_ended(row: TableRow) -> ApiError:
    what = "has not started yet" if row.status == "open" else "is still being played"
    return ApiError(409, "not-ended", f"the game {what}: its end is shown once it is over")


def _game_end(runtime: TableRuntime, places: list[int] | None) -> bytes:
    """The game's own part of the end (its words for the standings and notes, its breakdown), as JSON.

    Worked out in a thread (the breakdown replays the game) and kept per table: a
    finished game's end never changes. A game ended by a resignation before its rules
    ended it is placed by the table's ``places`` (the resigner last): its standings keep
    the game's words for each score, and its rules' tie-break notes and breakdown, which
    do not apply, are left out.
    """
    state = runtime.state.clone()
    words = runtime.game.words()
    data: dict[str, Any] = {"result": None, "breakdown": None}
    if words is not None:
        result = words.for_options(state.options).result(state.view(None))
        if not state.is_terminal() and places is not None:
            score = {standing["seat"]: standing["score"] for standing in result["standings"]}
            result = {"standings": standings(places, lambda seat: score[seat]), "notes": []}
        data["result"] = result
    if state.is_terminal():
        data["breakdown"] = runtime.game.breakdown(state)
    return orjson.dumps(data)


@router.get("/{table_id}/end")
async def game_end(table_id: str, request: Request, user: OptionalUser) -> dict[str, Any]:
    """The end of an ended game: winners, places, scores, the game's breakdown, rating changes and links.

    404 if there is no such table, 409 (``not-ended``) while it is open or being played.
    ``breakdown`` is the game's score table (:mod:`meadhall.core.breakdown`; ``None`` for
    a game without one, or a game ended by a resignation before its rules ended it);
    ``result`` the game's words for the standings and tie-breaks (seat placeholders, as
    every game text). ``rematch``: the id of the table made to play it again, once asked.
    """
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.status not in ENDED:
        raise _not_ended(row)
    users = await names_of(svc, [row])
    names = [seat_called(seat, users) for seat in row.seats]
    result = row.result or {}
    places: list[int] | None = result.get("places")
    scores: list[int] | None = result.get("scores")
    rated = {int(entry["seat"]): entry for entry in result.get("ratings") or []}
    seats = []
    for seat in row.seats:
        rating = rated.get(seat.seat)
        seats.append(
            {
                "seat": seat.seat,
                "name": names[seat.seat],
                "kind": seat.kind,
                "place": places[seat.seat] if places else None,
                "score": scores[seat.seat] if scores else None,
                "rating": None
                if rating is None
                else {
                    "before": rating["before"],
                    "after": rating["after"],
                    "change": round(rating["after"] - rating["before"], 1),
                },
            }
        )
    ending = (
        "abandoned"
        if row.status == "abandoned"
        else "resigned"
        if "resigned" in result
        else "left"
        if "leaver" in result
        else "finished"
    )
    data: dict[str, Any] = {
        "table": row.id,
        "game": row.game,
        "title": get_game(row.game).info.title,
        "status": row.status,
        "ending": ending,
        "resigned": result.get("resigned"),
        # Timeouts, comebacks, vacations and leaves: the log's lines, in the server's words.
        "seat_events": [
            event["text"] for event in seat_events(Clocks.from_json(row.clocks), Absences.from_json(row.absences))
        ],
        "names": names,
        "winners": [s for s, place in enumerate(places) if place == 1] if places else [],
        "seats": seats,
        "rated": bool(rated),
        "my_seat": next((s.seat for s in row.seats if user is not None and s.user_id == user.id), None),
        "rematch": result.get("rematch"),
        "links": {
            "table": f"/t/{row.id}",
            "replay": f"/replay/{row.id}",
            "export": f"/api/tables/{row.id}/record",
        },
        "result": None,
        "breakdown": None,
    }
    if row.status == "finished":
        runtime = await svc.games.runtime(table_id)
        if runtime is not None:
            body = await svc.history.get(("end", table_id), lambda: _game_end(runtime, places))
            data.update(orjson.loads(body))
    return data


def _rematch_seats(row: TableRow, me: int, users: dict[int, dict[str, Any]]) -> list[Seat]:
    """The rematch's seats: the same places; bots keep their level, I keep mine, the other people are invited."""
    seats = []
    for seat in row.seats:
        if seat.kind == "bot":
            seats.append(Seat(seat.seat, "bot", bot=seat.bot))
        elif seat.user_id == me:
            seats.append(Seat(seat.seat, "user", user_id=me))
        elif seat.user_id is not None and seat.user_id in users:
            seats.append(Seat(seat.seat, "invite", invited=str(users[seat.user_id]["name"])))
        else:
            seats.append(Seat(seat.seat, "open"))
    return seats


async def _start_if_full(svc: Services, row: TableRow) -> TableRow:
    """Start a rematch once every seat holds a person or a bot (its creator starts it, as the lobby does)."""
    if row.status != "open" or any(seat.kind not in ("user", "bot") for seat in row.seats):
        return row
    options = await svc.games.full_options(row)
    to_move = list(get_game(row.game).new_game(players=row.players, seed=row.seed, options=options).to_move())
    try:
        clocks = svc.games.starting_clocks(row, to_move)  # a rematch with a clock starts its clocks
        committed = await _write(svc, Store.start_table(row.id, row.created_by, to_move, now(), clocks))
    except ApiError as error:
        if error.code in ("started", "seats-empty"):  # another request started it, or a seat emptied
            return row
        raise
    runtime = await svc.games.start(committed)
    await vacations.table_started(svc, runtime)  # players on vacation: their async clocks wait
    svc.notifier.table_moved(runtime.row, [], to_move, set())
    return committed


@router.post("/{table_id}/rematch")
async def rematch(table_id: str, request: Request, user: Acting) -> dict[str, Any]:
    """Play an ended game again with the same game, options and seats (a new table; the answer describes it).

    Only a player who sat at the game may ask. The first to ask makes the table: bots keep
    their level and their seat, the asker takes their own seat, and every other person is
    invited to theirs; everyone at the old table hears of it on the socket
    (``{"type": "rematch", "table": ID, "by": SEAT}``). A player who asks after that takes
    their invited seat in the same table. The rematch starts by itself once every seat is
    taken (at once, against bots alone).
    """
    svc = services(request)
    row = await load_table(svc, table_id)
    if row.status not in ENDED:
        raise _not_ended(row)
    mine = next((s.seat for s in row.seats if s.user_id == user.id), None)
    if mine is None:
        raise ApiError(403, "not-seated", "only a player of this game can ask for a rematch")
    users = await names_of(svc, [row])
    new = TableRow.new_open(
        row.game,
        dict(row.options),  # as stored: a content pack by reference, already kept
        row.players,
        user.id,
        _rematch_seats(row, user.id, users),
        pace=row.pace,  # a rematch is played as the game was
        confirm_turns=row.confirm_turns,
        time_control=row.time_control,  # and with the same clock
    )
    stale_before = new.created_at - timedelta(hours=svc.settings.open_table_hours)
    made = await _write(svc, Store.rematch(table_id, new, svc.settings.open_tables_per_user, stale_before))
    if made == new.id:
        svc.games.tell(table_id, {"type": "rematch", "table": made, "by": mine})  # on every server
    else:
        found = await load_table(svc, made)
        invited = next(
            (s for s in found.seats if s.kind == "invite" and (s.invited or "").lower() == user.name.lower()), None
        )
        if found.status == "open" and invited is not None:

            def choose(locked: TableRow) -> Seat:
                seat = locked.seats[invited.seat]
                if seat.kind != "invite":
                    raise ApiError(409, "no-seat", "your seat at the rematch was taken")
                return Seat(seat.seat, "user", user_id=user.id, invited=seat.invited)

            await _write(svc, Store.take_seat(made, user.id, choose))
    table = await _start_if_full(svc, await load_table(svc, made))
    tell_lobby(svc, table)
    return describe(table, await names_of(svc, [table]), user)
