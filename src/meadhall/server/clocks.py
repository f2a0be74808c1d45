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

from collections.abc import Sequence
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
    what happened to seats (``{"version", "step", "kind", "seat", "text"}``, ``version``:
    the table's when it happened), for the log; ``paused``: seats whose players are on
    vacation (an async clock only): their clocks may be running but do not go down.
    """

    remaining: list[float]
    running: list[int] = field(default_factory=list)
    since: float = 0.0
    timed_out: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    paused: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """As stored with the table."""
        return {
            "remaining": self.remaining,
            "running": self.running,
            "since": self.since,
            "timed_out": self.timed_out,
            "events": self.events,
            "paused": self.paused,
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
            paused=[int(x) for x in data.get("paused", [])],
        )

    @classmethod
    def starting(cls, control: TimeControl, players: int) -> Clocks:
        """Every seat's clock at the start, none running yet."""
        return cls(remaining=[control.start()] * players)

    def left(self, now: float) -> list[float]:
        """Each seat's remaining seconds at ``now`` (a running clock has gone down since ``since``)."""
        spent = max(0.0, now - self.since)
        return [max(0.0, r - spent) if self.ticks(seat) else r for seat, r in enumerate(self.remaining)]

    def ticks(self, seat: int) -> bool:
        """Whether ``seat``'s clock goes down now: it runs, and its player is not on vacation."""
        return seat in self.running and seat not in self.paused

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
        return Clocks(left, sorted(running), now, list(self.timed_out), list(self.events), list(self.paused))

    def pausing(self, now: float, seat: int, paused: bool, event: dict[str, Any]) -> Clocks:
        """The clocks when ``seat``'s player goes on vacation (``paused``) or comes back: charged until ``now``."""
        seats = sorted({*self.paused, seat}) if paused else [s for s in self.paused if s != seat]
        return Clocks(self.left(now), list(self.running), now, list(self.timed_out), [*self.events, event], seats)

    def first_out(self, now: float) -> tuple[float, int] | None:
        """The running clock that runs out first: (seconds until then, seat); ``None`` when none runs."""
        ticking = [s for s in self.running if self.ticks(s)]
        if not ticking:
            return None
        left = self.left(now)
        seat = min(ticking, key=lambda s: left[s])
        return left[seat], seat

    def public(self, now: float, control: TimeControl) -> dict[str, Any]:
        """What every seat and spectator sees: remaining seconds now, whose clocks run, who timed out."""
        return {
            "kind": control.kind,
            "remaining": [round(x, 2) for x in self.left(now)],
            "running": [s for s in self.running if self.ticks(s)],
            "paused": list(self.paused),  # seats on vacation: their clocks wait
            "timed_out": list(self.timed_out),
            "on_timeout": control.on_timeout,
        }


def seat_note(seat: int, clocks: Clocks, bot_plays: list[int], left: Sequence[int] = ()) -> str:
    """A word beside a seat's clock: its player left, a bot plays it, it lost on time, or nothing."""
    if seat in left:
        return "left the game: a bot plays this seat"
    if seat in clocks.paused:
        return "on vacation: the clock waits"
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


#: The level of the bot that plays on a seat whose player left a table without a time control.
LEAVE_BOT = "medium"


@dataclass
class Absences:
    """Seats whose players left the game under way (each a loss), and the log's lines about them.

    ``events``: as :attr:`Clocks.events` (``{"version", "kind": "left", "seat", "text"}``).
    """

    left: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """As stored with the table."""
        return {"left": self.left, "events": self.events}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Absences:
        """The stored absences (none when ``data`` is empty)."""
        if not data:
            return cls()
        return cls([int(x) for x in data.get("left", [])], list(data.get("events", [])))


def seat_events(clocks: Clocks | None, absences: Absences) -> list[dict[str, Any]]:
    """What happened to seats (timeouts, comebacks, vacations, leaves) in the table's order: the log's lines.

    The log, the replay, the end of the game and the exported record all show these
    (each ``{"version", "kind", "seat", "text"}``, after the step of its version).
    """
    clock_events = clocks.events if clocks is not None else []
    return sorted([*clock_events, *absences.events], key=lambda event: int(event["version"]))


def leave_words(seat_name: str, bot: str | None) -> str:
    """What the log says when a player leaves a game under way (``bot``: the level playing on, ``None``: it ends)."""
    if bot is None:
        return f"{seat_name} left the game and loses; the game ends."
    level = LEVEL_WORDS.get(bot, (bot,))[0]
    return f"{seat_name} left the game and loses; a bot ({level}) plays the seat on."


#: Leaving a game under way, in words for people (the table's Leave button asks this).
LEAVE_RULE = (
    "Leave this game? It counts as a loss for you (last place); a bot plays your seat on for the others, "
    "or the game ends when fewer than two players are left."
)


#: Vacation for async play, in words for people (the profile shows it): the allowance
#: itself is the server's ``vacation_days`` setting, counted per calendar year (UTC).
VACATION_RULE = (
    "On vacation, your clocks at tables with days per move wait (live clocks do not). "
    "You have {days} vacation days a year; a vacation ends when you end it or your days run out."
)


def vacation_words(seat_name: str, on: bool) -> str:
    """What the log says when a player goes on vacation (``on``) or comes back."""
    if on:
        return f"{seat_name} is on vacation; their clock waits until they are back."
    return f"{seat_name} is back from vacation; their clock runs again."


def vacation_status_words(on: bool, days_left: float, allowance: float) -> str:
    """Where a player's vacation stands, for their profile."""
    left = f"{days_left:.1f}".removesuffix(".0")
    days = f"{left} of {allowance:g} vacation days left this year."
    return f"On vacation: your clocks at tables with days per move wait. {days}" if on else days


#: What everyone sees on the profile of a player on vacation.
ON_VACATION = "On vacation: their clocks at tables with days per move wait."
