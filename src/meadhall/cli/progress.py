"""A one-line progress bar on standard error, for commands that play many games."""

from __future__ import annotations

import sys
import time
from typing import Any


class Progress:
    """Call it with each finished game and the count done; it redraws the bar."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.started = time.perf_counter()
        self.tty = sys.stderr.isatty()
        self.last_percent = -1

    def __call__(self, result: Any, done: int) -> None:
        """Show that ``done`` games have finished."""
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        width = 30
        filled = int(width * done / self.total)
        line = (
            f"[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games"
            f"  {rate:.2f} games/s  ETA {int(left // 60)}m{int(left % 60):02d}s"
        )
        if self.tty:
            sys.stderr.write("\r" + line)
            if done == self.total:
                sys.stderr.write("\n")
        else:
            percent = 10 * done // self.total
            if percent != self.last_percent:
                self.last_percent = percent
                sys.stderr.write(line + "\n")
        sys.stderr.flush()
