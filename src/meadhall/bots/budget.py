"""How long a bot may think: a number of iterations or a time per decision."""

from __future__ import annotations

import re
import time
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


class BudgetClock:
    """Counts iterations or watches the time for one decision."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.iterations = 0
        self.now = time.thread_time if budget.cpu else time.perf_counter
        self.started = self.now()
        self.deadline = self.started + budget.seconds if budget.seconds is not None else 0.0

    def more(self) -> bool:
        """True while the budget lasts; call once per iteration."""
        if self.budget.iterations is not None:
            return self.iterations < self.budget.iterations
        # Always think at least once, even on a slow machine.
        return self.iterations == 0 or self.now() < self.deadline

    def tick(self) -> None:
        """One iteration done."""
        self.iterations += 1

    def elapsed(self) -> float:
        """Seconds since the decision started (processor seconds for a ``cpu`` budget)."""
        return self.now() - self.started
