"""Counters and latencies the server keeps for ``/metrics``."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field


@dataclass
class Metrics:
    """Counters and latencies for ``/metrics``."""

    started: float = field(default_factory=time.time)
    requests: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    websockets: int = 0
    loop_lag: list[float] = field(default_factory=list)

    async def probe_loop_lag(self) -> None:
        """Measure, every 20 ms, how late the event loop wakes a sleeper (its lag)."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.02)
            self.loop_lag.append(time.perf_counter() - asked - 0.02)
            if len(self.loop_lag) > 2_000:
                del self.loop_lag[:1_000]

    def observe(self, status: int, seconds: float) -> None:
        """Count one request."""
        key = f"{status // 100}xx"
        self.requests[key] = self.requests.get(key, 0) + 1
        self.latencies.append(seconds)
        if len(self.latencies) > 20_000:
            del self.latencies[:10_000]
