"""Vacation days for async play: a yearly allowance; while on vacation a player's async clocks wait.

The allowance is the ``vacation_days`` setting, counted per calendar year (UTC): days
used are charged when a vacation ends (by the player, or when the year's days run out,
which the server watches, through restarts). Starting a vacation pauses the player's
clock at every table with days per move they sit at (and at such tables that start while
they are away); ending it restarts them. Live clocks never wait. The words are in
:mod:`meadhall.server.clocks`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime
from functools import partial
from typing import Any

from meadhall.server.clocks import DAY, VACATION_RULE, vacation_status_words
from meadhall.server.deps import Services
from meadhall.server.errors import ApiError
from meadhall.server.games import TableRuntime
from meadhall.server.store import Store, User

log = logging.getLogger(__name__)


def _year(wall: float) -> int:
    return datetime.fromtimestamp(wall, UTC).year


def _days_used(found: tuple[int, float, float | None] | None, wall: float) -> tuple[float, float | None]:
    """(days used this year, counting a vacation under way until ``wall``; since when on vacation, or ``None``)."""
    if found is None:
        return 0.0, None
    year, used, since = found
    used = used if year == _year(wall) else 0.0
    if since is not None:
        used += max(0.0, wall - since) / DAY
    return used, since


async def status(svc: Services, user: User) -> dict[str, Any]:
    """The user's vacation: whether on it, since when, the year's allowance and the days left."""
    wall = time.time()
    found = await svc.store.aread(lambda c: Store.vacation(c, user.id))
    used, since = _days_used(found, wall)
    allowance = svc.settings.vacation_days
    days_left = max(0.0, allowance - used)
    return {
        "on": since is not None,
        "since": since,
        "allowance": allowance,
        "days_left": days_left,
        "words": vacation_status_words(since is not None, days_left, allowance),
        "rule": VACATION_RULE.format(days=f"{allowance:g}"),
    }


async def start(svc: Services, user: User) -> dict[str, Any]:
    """Go on vacation: the user's async clocks wait. 409 when on vacation already, or no day is left."""
    if user.is_guest:
        raise ApiError(403, "guest", "guests have no vacation days: register to keep your games")
    wall = time.time()
    found = await svc.store.aread(lambda c: Store.vacation(c, user.id))
    used, since = _days_used(found, wall)
    if since is not None:
        raise ApiError(409, "on-vacation", "you are on vacation already")
    left = svc.settings.vacation_days - used
    if left <= 0:
        raise ApiError(409, "no-vacation-days", "you have no vacation days left this year")
    await svc.store.writer.run(Store.set_vacation(user.id, _year(wall), used, wall))
    _watch(svc, user.id, left * DAY)
    for runtime, seat in await _async_seats(svc, user.id):
        await svc.games.pause_seat(runtime, seat, True)
    return await status(svc, user)


async def end(svc: Services, user_id: int) -> None:
    """End the user's vacation (the days it took are used): their async clocks run again. 409 if not on one."""
    wall = time.time()
    found = await svc.store.aread(lambda c: Store.vacation(c, user_id))
    used, since = _days_used(found, wall)
    if since is None:
        raise ApiError(409, "not-on-vacation", "you are not on vacation")
    task = svc.games.vacation_endings.pop(user_id, None)
    if task is not None and task is not asyncio.current_task():
        task.cancel()
    for runtime, seat in await _async_seats(svc, user_id):  # the clocks first: back means they run
        await svc.games.pause_seat(runtime, seat, False)
    await svc.store.writer.run(Store.set_vacation(user_id, _year(wall), min(used, svc.settings.vacation_days), None))


async def table_started(svc: Services, runtime: TableRuntime) -> None:
    """A table with days per move started: the clocks of its players on vacation wait from the start."""
    if runtime.control is None or runtime.control.kind != "async":
        return
    away = await svc.store.aread(Store.on_vacation)
    for seat in runtime.row.seats:
        if seat.kind == "user" and seat.user_id in away:
            await svc.games.pause_seat(runtime, seat.seat, True)


async def resume(svc: Services) -> None:
    """After a (re)start, watch the vacations under way: each ends when its year's days run out."""
    wall = time.time()
    for user_id in await svc.store.aread(Store.on_vacation):
        found = await svc.store.aread(partial(Store.vacation, user_id=user_id))
        used, _ = _days_used(found, wall)
        _watch(svc, user_id, (svc.settings.vacation_days - used) * DAY)


def _watch(svc: Services, user_id: int, seconds: float) -> None:
    """End ``user_id``'s vacation in ``seconds`` (when their days run out)."""
    old = svc.games.vacation_endings.pop(user_id, None)
    if old is not None:
        old.cancel()
    svc.games.vacation_endings[user_id] = asyncio.get_running_loop().create_task(_end_later(svc, user_id, seconds))


async def _end_later(svc: Services, user_id: int, seconds: float) -> None:
    await asyncio.sleep(max(0.0, seconds))
    try:
        await end(svc, user_id)
    except ApiError:
        pass  # ended meanwhile
    except Exception:
        log.exception("ending the vacation of user %s failed", user_id)


async def _async_seats(svc: Services, user_id: int) -> list[tuple[TableRuntime, int]]:
    """The user's seats at tables under way with days per move."""

    def query(connection: Any) -> list[str]:
        rows = Store.tables(connection, Store.active_tables_seating(connection, user_id))
        return [
            row.id
            for row in rows
            if row.status == "active"
            and (row.time_control or {}).get("kind") == "async"
            and any(s.kind == "user" and s.user_id == user_id for s in row.seats)
        ]

    found = []
    for table_id in await svc.store.aread(query):
        runtime = await svc.games.runtime(table_id)
        if runtime is not None:
            for seat in runtime.row.seats:
                if seat.kind == "user" and seat.user_id == user_id:
                    found.append((runtime, seat.seat))
    return found
