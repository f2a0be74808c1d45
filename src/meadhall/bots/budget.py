"""How long a bot may think: a number of iterations or a time per decision."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """A thinking budget per decision: ``iterations`` or ``seconds`` (exactly one).

    An iteration budget makes a bot's decision reproducible from its seed; a time budget
    depends on the machine. A time budget counts wall-clock seconds (what a player
    waits), or with ``cpu`` the seconds of processor time the deciding thread gets: the
    same on an idle core, but unchanged when other work shares the machine, so that an
    arena measures the same bot whatever else runs beside it.
    """

    iterations: int | None = None
    seconds: float | None = None
    cpu: bool = False

    def __post_init__(self) -> None:
        if (self.iterations is None) == (self.seconds is None):
            raise ValueError("a budget is a number of iterations or a time, not both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a budget needs at least one iteration")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a time budget must be positive")
        if self.cpu and self.seconds is None:
            raise ValueError("only a time budget can count processor time")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Read ``1s``, ``250ms``, ``0.5s``, ``1s-cpu``, ``250ms-cpu``, ``2000`` or ``2000it``."""
        value = text.strip().lower()
        match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)(-cpu)?", value)
        if match:
            number = float(match[1])
            return cls(seconds=number / 1000 if match[2] == "ms" else number, cpu=bool(match[3]))
        match = re.fullmatch(r"(\d+)(?:it|i|iterations)?", value)
        if match:
            return cls(iterations=int(match[1]))
        raise ValueError(f"cannot read the budget {text!r}: write e.g. 1s, 250ms, 1s-cpu or 2000 (iterations)")

    def __str__(self) -> str:
        if self.iterations is not None:
            return f"{self.iterations}"
        assert self.seconds is not None
        time_text = f"{self.seconds:g}s" if self.seconds >= 1 else f"{self.seconds * 1000:g}ms"
        return f"{time_text}-cpu" if self.cpu else time_text

    def clock(self) -> BudgetClock:
        """Start spending this budget."""
        return BudgetClock(self)


class ThinkingLimit:
    """A bound above every budget spent inside :func:`thinking_limit`: a deadline, a stop signal.

    ``reason`` says what cut a search short: ``"deadline"``, ``"stopped"`` or ``None``
    (the budget ran out first). A search cut short still answers with its best action so
    far, which is an honest legal move: only shallower.
    """

    def __init__(self, deadline: float | None, stop: Callable[[], bool] | None) -> None:
        self.deadline = deadline
        self.stop = stop
        self.reason: str | None = None

    def reached(self) -> bool:
        """Whether the search must stop now (remembering why)."""
        if self.stop is not None and self.stop():
            self.reason = "stopped"
            return True
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.reason = "deadline"
            return True
        return False


_LIMIT: ContextVar[ThinkingLimit | None] = ContextVar("meadhall_thinking_limit", default=None)


@contextlib.contextmanager
def thinking_limit(deadline: float | None = None, stop: Callable[[], bool] | None = None) -> Iterator[ThinkingLimit]:
    """Bound every budget spent inside the block, whatever the bot's own budget says.

    ``deadline`` is a :func:`time.monotonic` time (the same clock in every process of the
    machine); ``stop`` is asked once per iteration and ends the search when true (a
    server's table has gone). Yields the limit, whose ``reason`` tells afterwards whether
    it cut the search short.
    """
    limit = ThinkingLimit(deadline, stop)
    token = _LIMIT.set(limit)
    try:
        yield limit
    finally:
        _LIMIT.reset(token)


class BudgetClock:
    """Counts iterations or watches the time for one decision (within any :func:`thinking_limit`)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.iterations = 0
        self.now = time.thread_time if budget.cpu else time.perf_counter
        self.started = self.now()
        self.deadline = self.started + budget.seconds if budget.seconds is not None else 0.0
        self.limit = _LIMIT.get()

    def more(self) -> bool:
        """True while the budget lasts; call once per iteration."""
        # Always think at least once, even on a slow machine or past a deadline.
        if self.iterations == 0:
            return True
        if self.limit is not None and self.limit.reached():
            return False
        if self.budget.iterations is not None:
            return self.iterations < self.budget.iterations
        return self.now() < self.deadline

    def tick(self) -> None:
        """One iteration done."""
        self.iterations += 1

    def elapsed(self) -> float:
        """Seconds since the decision started (processor seconds for a ``cpu`` budget)."""
        return self.now() - self.started
