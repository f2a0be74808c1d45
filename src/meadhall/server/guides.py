"""Guided first games at the server: a table whose other seats are the guide's scripted bot.

A guided table (``POST /api/guides/{game}``, "Learn to play" in the lobby and on a rules
page) is an ordinary table dealt with the guide's players, options and seed, the learner in
the guide's seat and every other seat a bot of spec :data:`GUIDE_BOT`. That spec is the
table's mark, in the existing schema: the game service plays the script's answers for it
(:func:`meadhall.core.guide.reply`) and, once the script is over, the guide's own bot
(:func:`playing_spec`); a learner's move that the step does not ask for is refused with the
step's words; each payload for the learner carries where the guide stands (``guide``).
Finishing a guide is recorded by the table itself: a user's profile lists the games whose
guided table they played to the script's end (:func:`finished_guides`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from meadhall.core.errors import MeadhallError
from meadhall.core.guide import Guide, played_through
from meadhall.core.registry import get_game
from meadhall.server import db
from meadhall.server.store import TableRow

#: The bot spec of a guided table's other seats: the script's answers, then the guide's bot.
GUIDE_BOT = "guide"


def guide_of(row: TableRow) -> Guide | None:
    """The guide a table plays (its bots are :data:`GUIDE_BOT`), or None for any other table."""
    if not any(seat.kind == "bot" and seat.bot == GUIDE_BOT for seat in row.seats):
        return None
    try:
        return get_game(row.game).guide()
    except MeadhallError:  # the game is no longer installed
        return None


def playing_spec(row: TableRow, spec: str) -> str:
    """The bot spec that thinks for a seat of ``spec``: the guide's bot for :data:`GUIDE_BOT`."""
    if spec != GUIDE_BOT:
        return spec
    guide = guide_of(row)
    return guide.bot if guide is not None else "random"


def finished_guides(connection: Connection, user_id: int) -> list[str]:
    """The games whose guided first game ``user_id`` played to the script's end (names, sorted)."""
    guided = select(db.seats.c.table_id).where(db.seats.c.kind == "bot", db.seats.c.bot == GUIDE_BOT)
    mine = (
        select(db.game_tables.c.id, db.game_tables.c.game, db.seats.c.seat)
        .join(db.seats, db.seats.c.table_id == db.game_tables.c.id)
        .where(db.seats.c.user_id == user_id, db.game_tables.c.id.in_(guided))
    )
    done: set[str] = set()
    for table_id, game_name, seat in connection.execute(mine).all():
        if game_name in done:
            continue
        try:
            guide = get_game(game_name).guide()
        except MeadhallError:
            continue
        if guide is None or seat != guide.seat:
            continue
        moves = connection.execute(
            select(db.actions.c.seat, db.actions.c.action)
            .where(db.actions.c.table_id == table_id, db.actions.c.taken_back_at.is_(None))
            .order_by(db.actions.c.seq)
        ).all()
        if played_through(get_game(game_name), guide, [(int(who), str(text)) for who, text in moves]):
            done.add(game_name)
    return sorted(done)


def describe_guide(guide: Guide | None) -> dict[str, Any] | None:
    """What ``GET /api/games`` says of a game's guide: its title, or None without one."""
    return None if guide is None else {"title": guide.title, "steps": len(guide.steps)}
