"""Table chat, muting, ratings, the leaderboard and profiles."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from meadhall.core.errors import MeadhallError
from meadhall.core.registry import get_game
from meadhall.server import vacations
from meadhall.server.clocks import ON_VACATION
from meadhall.server.deps import Acting, OptionalUser, SignedIn, services
from meadhall.server.errors import ApiError
from meadhall.server.guides import finished_guides
from meadhall.server.store import Store
from meadhall.server.tables import describe, load_table, names_of
from meadhall.server.text import Text

router = APIRouter(prefix="/api", tags=["social"])


class ChatMessage(BaseModel):
    """A line of table chat."""

    text: Text = Field(min_length=1, max_length=500)


class Vacation(BaseModel):
    """Go on vacation (``on``) or come back."""

    on: bool


class Mute(BaseModel):
    """Mute or unmute a user."""

    mute: bool = True


@router.get("/tables/{table_id}/chat")
async def chat(table_id: str, request: Request, user: OptionalUser) -> dict[str, Any]:
    """The table's chat (without the people I muted)."""
    svc = services(request)
    await load_table(svc, table_id)
    messages = await svc.store.aread(lambda c: Store.chat(c, table_id))
    if user is not None:
        muted = await svc.store.aread(lambda c: Store.muted(c, user.id))
        messages = [m for m in messages if m["user_id"] not in muted]
    return {"messages": messages}


@router.post("/tables/{table_id}/chat", status_code=201)
async def say(table_id: str, body: ChatMessage, request: Request, user: Acting) -> dict[str, Any]:
    """Say something at a table (seats and spectators see it)."""
    svc = services(request)
    await load_table(svc, table_id)
    text = " ".join(body.text.split())
    if not text:
        raise ApiError(422, "invalid", "say something")
    retry = await svc.limits.check("chat_rate", str(user.id))
    if retry:
        raise ApiError(429, "rate-limited", "you are sending messages too fast; wait a little", retry_after=retry)
    message = await svc.store.writer.run(Store.add_chat(table_id, user.id, text))
    message["name"] = user.display_name
    message["user_name"] = user.name
    if table_id in svc.games.runtimes or svc.games.cluster is not None:  # sockets here, or maybe on another server
        muted_by = await svc.store.aread(lambda c: _muters(c, user.id))
        svc.games.tell(table_id, {"type": "chat", "message": message}, muted_by)
    return message


def _muters(connection: Any, user_id: int) -> set[int]:
    from sqlalchemy import select

    from meadhall.server import db

    rows = connection.execute(select(db.mutes.c.user_id).where(db.mutes.c.muted_id == user_id))
    return {int(r[0]) for r in rows}


@router.post("/users/{name}/mute")
async def mute(name: str, body: Mute, request: Request, user: Acting) -> dict[str, Any]:
    """Mute (or unmute) another user's chat for me."""
    svc = services(request)
    found = await svc.store.aread(lambda c: Store.user_by_name(c, name))
    if found is None:
        raise ApiError(404, "no-user", f"there is no user called {name!r}")
    if found[0].id == user.id:
        raise ApiError(422, "invalid", "you cannot mute yourself")
    await svc.store.writer.run(Store.set_mute(user.id, found[0].id, body.mute))
    return {"user": found[0].public(), "muted": body.mute}


@router.get("/leaderboard/{game}")
async def leaderboard(game: str, request: Request) -> dict[str, Any]:
    """The best-rated registered players of a game (404 for a game there is not)."""
    svc = services(request)
    try:
        info = get_game(game).info
    except MeadhallError as error:
        raise ApiError(404, "no-game", str(error)) from None
    name = info.name
    return {"game": name, "title": info.title, "players": await svc.store.aread(lambda c: Store.leaderboard(c, name))}


def _title(game: str) -> str:
    """A game's title for people (the name itself if the game is no longer installed)."""
    try:
        return get_game(game).info.title
    except MeadhallError:
        return game


@router.get("/users/{name}")
async def profile(name: str, request: Request, user: OptionalUser) -> dict[str, Any]:
    """A player's ratings (by game: its title, Elo and rated games), recent games, and ``vacation`` (words or None)."""
    svc = services(request)
    found = await svc.store.aread(lambda c: Store.user_by_name(c, name))
    if found is None:
        raise ApiError(404, "no-user", f"there is no user called {name!r}")
    person = found[0]

    def query(connection: Any) -> tuple[dict[str, Any], list[Any], list[str], bool]:
        from sqlalchemy import select

        from meadhall.server import db

        rows = connection.execute(select(db.ratings).where(db.ratings.c.user_id == person.id)).mappings()
        rated = {
            r["game"]: {"title": _title(r["game"]), "elo": round(float(r["elo"])), "games": r["games"]} for r in rows
        }
        tables = Store.tables(connection, Store.user_tables(connection, person.id, person.name, limit=30))
        away = Store.vacation(connection, person.id)
        return rated, tables, finished_guides(connection, person.id), away is not None and away[2] is not None

    rated, tables, guides, away = await svc.store.aread(query)
    users = await names_of(svc, tables)
    shown = [describe(t, users, user) for t in tables if t.status in ("finished", "active")]
    shown.sort(key=lambda t: t["created_at"], reverse=True)
    learned = [{"game": name, "title": _title(name)} for name in guides]  # guided first games played to their end
    data: dict[str, Any] = {"user": person.public(), "ratings": rated, "games": shown, "guides": learned}
    data["vacation"] = ON_VACATION if away else None  # every visitor sees a player on vacation
    return data


@router.get("/me/vacation")
async def my_vacation(request: Request, user: SignedIn) -> dict[str, Any]:
    """My vacation for async play: ``on``, ``since`` (wall time), ``allowance``, ``days_left`` this year, words."""
    return await vacations.status(services(request), user)


@router.post("/me/vacation")
async def set_vacation(body: Vacation, request: Request, user: Acting) -> dict[str, Any]:
    """Go on vacation (my clocks at tables with days per move wait) or come back; answers as GET.

    409 ``on-vacation`` / ``not-on-vacation`` when already so, ``no-vacation-days`` when
    the year's days are used up; 403 for a guest.
    """
    svc = services(request)
    if body.on:
        return await vacations.start(svc, user)
    await vacations.end(svc, user.id)
    return await vacations.status(svc, user)
