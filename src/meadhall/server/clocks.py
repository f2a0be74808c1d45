"""Time controls and the seats' clocks, kept by the server (and in the database).

A table's time control is chosen at creation: none (the default), a live one (a base
time and an increment per move) or an async one (days per move). Each seat held by a
person has a clock: its remaining time, and, while it runs, since when (wall time, so a
clock goes on across a server restart). On timeout the table's rule applies: a bot of a
named level takes the seat for the rest of the game (``bot``: the timeout counts as a
loss unless the player takes the seat back before the end), or the seat loses and a bot
plays it on (``lose``: the loss stands). The words people read about clocks are here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meadhall.bots import LEVEL_WORDS

#: A day, in seconds (async time controls count days per move).
DAY = 86_400.0
#: A player who takes their seat back after a live timeout gets this much time (or the
#: base time, if shorter): enough for a move, not a fresh game's worth.
RETURN_SECONDS = 60.0

#: The timeout rules a table may choose, in words for people (the new-table form shows them).
TIMEOUT_RULES = {
    "bot": "a bot takes the seat for the rest of the game (no loss if the player takes it back)",
    "lose": "the seat loses and a bot plays it on",
}


@dataclass(frozen=True)
class TimeControl:
    """A table's time control: live (``base`` and ``increment`` seconds) or async (``days`` per move)."""

    kind: str  # live or async
    base: float = 0.0
    increment: float = 0.0
    days: float = 0.0
    on_timeout: str = "bot"  # bot or lose
    bot: str = "medium"  # the level of the bot that takes a timed-out seat

    def to_json(self) -> dict[str, Any]:
        """As stored with the table and shown by the API."""
        return {
            "kind": self.kind,
            "base": self.base,
            "increment": self.increment,
            "days": self.days,
            "on_timeout": self.on_timeout,
            "bot": self.bot,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TimeControl | None:
        """The stored time control (``None``: the table has none)."""
        if not data:
            return None
        return cls(
            kind=str(data["kind"]),
            base=float(data.get("base", 0)),
            increment=float(data.get("increment", 0)),
            days=float(data.get("days", 0)),
            on_timeout=str(data.get("on_timeout", "bot")),
            bot=str(data.get("bot", "medium")),
        )

    def per_move(self) -> float | None:
        """The time each move gets afresh (async), or ``None`` (live: the base plus increments)."""
        return self.days * DAY if self.kind == "async" else None

    def start(self) -> float:
        """A clock's time when the game starts."""
        allowance = self.per_move()
        return allowance if allowance is not None else self.base

    def comeback(self) -> float:
        """The time of a player who takes their seat back after a timeout."""
        allowance = self.per_move()
        return allowance if allowance is not None else min(self.base, RETURN_SECONDS)

    def words(self) -> str:
        """The time control in words (the lobby's summary)."""
        if self.kind == "async":
            days = _number(self.days)
            clock = f"{days} day{'s' if days != '1' else ''} a move"
        else:
            clock = f"{_number(self.base / 60)} min + {_number(self.increment)} s a move"
        level = LEVEL_WORDS.get(self.bot, (self.bot,))[0]
        rule = "a timed-out seat loses" if self.on_timeout == "lose" else "a timed-out seat goes to a bot"
        return f"clock {clock}; {rule} ({level})"


def _number(value: float) -> str:
    return f"{value:g}"


@dataclass
class Clocks:
    """Every seat's clock: remaining seconds as of ``since`` (wall time), and whose run.

    ``timed_out``: seats whose timeout counts as a loss when the game ends; ``events``:
    what happened to seats (``{"version", "kind": "timeout"|"seat-back", "seat", "text"}``,
    ``version``: the table's when it happened), for the log.
    """

    remaining: list[float]
    running: list[int] = field(default_factory=list)
    since: float = 0.0
    timed_out: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """As stored with the table."""
        return {
            "remaining": self.remaining,
            "running": self.running,
            "since": self.since,
            "timed_out": self.timed_out,
            "events": self.events,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Clocks | None:
        """The stored clocks (``None``: the table has none)."""
        if not data:
            return None
        return cls(
            remaining=[float(x) for x in data["remaining"]],
            running=[int(x) for x in data.get("running", [])],
            since=float(data.get("since", 0.0)),
            timed_out=[int(x) for x in data.get("timed_out", [])],
            events=list(data.get("events", [])),
        )

    @classmethod
    def starting(cls, control: TimeControl, players: int) -> Clocks:
        """Every seat's clock at the start, none running yet."""
        return cls(remaining=[control.start()] * players)

    def left(self, now: float) -> list[float]:
        """Each seat's remaining seconds at ``now`` (a running clock has gone down since ``since``)."""
        spent = max(0.0, now - self.since)
        return [max(0.0, r - spent) if seat in self.running else r for seat, r in enumerate(self.remaining)]

    def after(self, control: TimeControl, now: float, mover: int | None, running: list[int]) -> Clocks:
        """The clocks after ``mover`` acted (``None``: no move, the running seats changed), now ``running``.

        Live: the running clocks are charged, the mover gets the increment. Async: a seat
        whose clock starts (or the mover, still to move) gets its days per move afresh.
        """
        left = self.left(now)
        allowance = control.per_move()
        if mover is not None and allowance is None:
            left[mover] += control.increment
        if allowance is not None:
            for seat in running:
                if seat not in self.running or seat == mover:
                    left[seat] = allowance
        return Clocks(left, sorted(running), now, list(self.timed_out), list(self.events))

    def first_out(self, now: float) -> tuple[float, int] | None:
        """The running clock that runs out first: (seconds until then, seat); ``None`` when none runs."""
        if not self.running:
            return None
        left = self.left(now)
        seat = min(self.running, key=lambda s: left[s])
        return left[seat], seat

    def public(self, now: float, control: TimeControl) -> dict[str, Any]:
        """What every seat and spectator sees: remaining seconds now, whose clocks run, who timed out."""
        return {
            "kind": control.kind,
            "remaining": [round(x, 2) for x in self.left(now)],
            "running": list(self.running),
            "timed_out": list(self.timed_out),
            "on_timeout": control.on_timeout,
        }


def seat_note(seat: int, clocks: Clocks, bot_plays: list[int]) -> str:
    """A word beside a seat's clock: a bot plays it, it lost on time, or nothing."""
    if seat in bot_plays:
        return "out of time: a bot plays this seat"
    if seat in clocks.timed_out:
        return "lost on time"
    return ""


def timeout_words(seat_name: str, control: TimeControl) -> str:
    """What the log says when a seat's clock runs out."""
    level = LEVEL_WORDS.get(control.bot, (control.bot,))[0]
    if control.on_timeout == "lose":
        return f"{seat_name} ran out of time and loses; a bot ({level}) plays the seat on."
    return f"{seat_name} ran out of time; a bot ({level}) takes the seat for the rest of the game."


def comeback_words(seat_name: str) -> str:
    """What the log says when a player takes their seat back from the bot."""
    return f"{seat_name} is back and takes the seat again; the bot stops."
