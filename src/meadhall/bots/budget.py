"""How long a bot may think: a number of iterations or a time per decision."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """A thinking budget per decision: ``iterations`` or ``seconds`` (exactly one).

    An iteration budget makes a bot's decision reproducible from its seed; a time budget
    depends on the machine.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if (self.iterations is None) == (self.seconds is None):
            raise ValueError("a budget is a number of iterations or a time, not both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a budget needs at least one iteration")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a time budget must be positive")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Read ``1s``, ``250ms``, ``0.5s``, ``2000`` or ``2000it``."""
        value = text.strip().lower()
        match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)", value)
        if match:
            number = float(match[1])
            return cls(seconds=number / 1000 if match[2] == "ms" else number)
        match = re.fullmatch(r"(\d+)(?:it|i|iterations)?", value)
        if match:
            return cls(iterations=int(match[1]))
        raise ValueError(f"cannot read the budget {text!r}: write e.g. 1s, 250ms or 2000 (iterations)")

    def __str__(self) -> str:
        if self.iterations is not None:
            return f"{self.iterations}"
        assert self.seconds is not None
        return f"{self.seconds:g}s" if self.seconds >= 1 else f"{self.seconds * 1000:g}ms"

    def clock(self) -> BudgetClock:
        """Start spending this budget."""
        return BudgetClock(self)


class BudgetClock:
    """Counts iterations or watches the time for one decision."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.iterations = 0
        self.started = time.perf_counter()
        self.deadline = self.started + budget.seconds if budget.seconds is not None else 0.0

    def more(self) -> bool:
        """True while the budget lasts; call once per iteration."""
        if self.budget.iterations is not None:
            return self.iterations < self.budget.iterations
        # Always think at least once, even on a slow machine.
        return self.iterations == 0 or time.perf_counter() < self.deadline

    def tick(self) -> None:
        """One iteration done."""
        self.iterations += 1

    def elapsed(self) -> float:
        """Seconds since the decision started."""
        return time.perf_counter() - self.started
