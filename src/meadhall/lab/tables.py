"""Tables and numbers as the lab's reports print them, as plain text or Markdown."""

from __future__ import annotations

import math
from collections.abc import Sequence


def table(header: Sequence[str], lines: Sequence[Sequence[str]], markdown: bool = False) -> str:
    """Rows as an aligned text table (first column left, the rest right) or a Markdown table."""
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        out.extend("| " + " | ".join(line) + " |" for line in lines)
        return "\n".join(out)
    widths = [max(len(header[i]), *(len(line[i]) for line in lines)) for i in range(len(header))]
    out = ["  ".join(h.ljust(widths[i]) if i == 0 else h.rjust(widths[i]) for i, h in enumerate(header))]
    for line in lines:
        out.append("  ".join(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(line)))
    return "\n".join(out)


def percent(value: float) -> str:
    """A proportion as a percentage with one decimal: ``25.0%``."""
    return f"{100 * value:.1f}%"


def count(value: float) -> str:
    """A count that may be fractional (a seat split between tied keys): ``12`` or ``12.5``."""
    return f"{value:.0f}" if value == round(value) else f"{value:.1f}"


def points(value: float) -> str:
    """A difference of proportions in percentage points, signed: ``+3.2``."""
    return f"{100 * value:+.1f}"


def rating(value: float) -> str:
    """An Elo rating, or an unbounded interval end: ``1500``, ``∞``, ``-∞``."""
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return f"{value:.0f}"
