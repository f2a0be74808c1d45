"""What people call a bot seat: a Norse name of its own per seat, and what plays it.

Every interface names bot seats with :func:`bot_seat_name` (the server's lobby, tables,
replays and exported records; the terminal's ``meadhall play``), so two bots of one level
at a table never share a name, and a seat has the same name wherever it is shown.
"""

from __future__ import annotations

#: One name per seat, in seat order (a game has at most this many seats).
BOT_NAMES = ("Astrid", "Bjorn", "Sigrid", "Ulf", "Gudrun", "Halvar", "Ingrid", "Ragnar")


def bot_seat_name(seat: int, spec: str) -> str:
    """The name of the bot in ``seat`` (from 0) played by ``spec``: ``Bjorn the easy bot``.

    ``spec`` is a strength level (``easy``) or a bot spec (``ismcts:1s``), shown as given.
    The name depends on the seat alone, so the seats of one table are told apart.
    """
    return f"{BOT_NAMES[seat % len(BOT_NAMES)]} the {spec} bot"
