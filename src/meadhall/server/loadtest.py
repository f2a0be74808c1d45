"""Load test of a running server: moves per second, move latency, WebSocket fan-out.

Used by ``meadhall bench-server`` (figures in docs/performance.md). Every table has two
registered players, each with a WebSocket like the browser's; a player moves when its
WebSocket says it is its turn, by POSTing the first legal action with the version. Extra
spectator sockets bring the number of open WebSockets up to ``--sockets``.

Measured: accepted moves per second (closed loop, as fast as the server takes them), the
latency of each POST, and the time from sending a move until each seat's WebSocket has
the update (fan-out). ``window`` is told when the measured window opens (``True``) and
closes (``False``), so a caller can read CPU counters around exactly those seconds.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets


@dataclass
class Results:
    """What one run measured."""

    moves: int = 0
    seconds: float = 0.0
    post_ms: list[float] = field(default_factory=list)
    fanout_ms: list[float] = field(default_factory=list)
    errors: int = 0

    def summary(self) -> dict[str, Any]:
        """Throughput and latency quantiles."""

        def q(values: list[float], quantile: float) -> float:
            if not values:
                return 0.0
            ordered = sorted(values)
            return round(ordered[min(len(ordered) - 1, int(quantile * len(ordered)))], 2)

        return {
            "moves": self.moves,
            "seconds": round(self.seconds, 2),
            "moves_per_s": round(self.moves / self.seconds, 1) if self.seconds else 0.0,
            "post_p50_ms": q(self.post_ms, 0.5),
            "post_p99_ms": q(self.post_ms, 0.99),
            "fanout_p50_ms": q(self.fanout_ms, 0.5),
            "fanout_p99_ms": q(self.fanout_ms, 0.99),
            "fanout_mean_ms": round(statistics.fmean(self.fanout_ms), 2) if self.fanout_ms else 0.0,
            "errors": self.errors,
        }


class Seat:
    """One player at one table: an HTTP client and a WebSocket."""

    def __init__(self, http: httpx.AsyncClient, csrf: str, cookie: str) -> None:
        self.http = http
        self.csrf = csrf
        self.cookie = cookie


async def make_user(base: str, name: str) -> Seat:
    """Register a user; returns its seat handle (cookies kept in the client)."""
    http = httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=4))
    response = await http.post("/api/auth/register", json={"name": name, "password": "load test password"})
    response.raise_for_status()
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    return Seat(http, response.json()["csrf"], cookie)


async def make_table(a: Seat, b: Seat, options: dict[str, Any]) -> tuple[str, Seat, Seat]:
    """A started table between two users."""
    created = await a.http.post(
        "/api/tables",
        json={"options": options, "seats": [{"kind": "me"}, {"kind": "open"}]},
        headers={"X-CSRF-Token": a.csrf},
    )
    created.raise_for_status()
    table_id = created.json()["id"]
    (await b.http.post(f"/api/tables/{table_id}/join", json={}, headers={"X-CSRF-Token": b.csrf})).raise_for_status()
    (await a.http.post(f"/api/tables/{table_id}/start", json={}, headers={"X-CSRF-Token": a.csrf})).raise_for_status()
    return table_id, a, b


async def run(
    base: str,
    tables: int = 50,
    sockets: int = 0,
    seconds: float = 10.0,
    rate: float | None = None,
    options: dict[str, Any] | None = None,
    window: Callable[[bool], None] | None = None,
) -> Results:
    """Play ``tables`` games for ``seconds``; ``rate`` caps total moves per second."""
    options = options or {"preset": "all"}
    results = Results()
    pairs = [(await make_user(base, f"load{i}a"), await make_user(base, f"load{i}b")) for i in range(min(tables, 10))]
    made = []
    for index in range(tables):
        a, b = pairs[index % len(pairs)]
        made.append(await make_table(a, b, options))
    ws_base = base.replace("http://", "ws://")
    sent_at: dict[tuple[str, int], float] = {}
    stop = asyncio.Event()
    interval = tables / rate if rate else 0.0
    open_sockets: list[Any] = []

    async def spectator(table_id: str) -> None:
        async with websockets.connect(f"{ws_base}/ws/tables/{table_id}", max_size=None) as socket:
            open_sockets.append(socket)
            async for raw in socket:
                message = json.loads(raw)
                if message.get("type") == "update":
                    started = sent_at.get((table_id, message["version"]))
                    if started is not None:
                        results.fanout_ms.append((time.perf_counter() - started) * 1000)
                if stop.is_set():
                    return

    async def player(table_id: str, seat: Seat) -> None:
        headers = {"Cookie": seat.cookie}
        next_time = time.perf_counter()
        async with websockets.connect(
            f"{ws_base}/ws/tables/{table_id}", additional_headers=headers, max_size=None
        ) as socket:
            open_sockets.append(socket)
            async for raw in socket:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "update":
                    started = sent_at.get((table_id, message["version"]))
                    if started is not None:
                        results.fanout_ms.append((time.perf_counter() - started) * 1000)
                if kind not in ("snapshot", "update") or stop.is_set():
                    if stop.is_set():
                        return
                    continue
                legal = message.get("legal")
                if not legal or message["view"]["finished"]:
                    if message["view"]["finished"]:
                        return
                    continue
                if interval:
                    next_time = max(next_time + interval, time.perf_counter())
                    await asyncio.sleep(max(0.0, next_time - time.perf_counter()))
                version = message["version"]
                started = time.perf_counter()
                sent_at[(table_id, version + 1)] = started
                response = await seat.http.post(
                    f"/api/tables/{table_id}/actions",
                    json={"action": legal[0], "version": version},
                    headers={"X-CSRF-Token": seat.csrf},
                )
                if response.status_code == 200:
                    results.post_ms.append((time.perf_counter() - started) * 1000)
                    results.moves += 1
                else:
                    results.errors += 1

    extra = max(0, sockets - 2 * tables)
    spectators = [spectator(made[i % tables][0]) for i in range(extra)]
    tasks = [asyncio.create_task(coro) for coro in spectators]
    await asyncio.sleep(0.5 if extra else 0)
    if window:
        window(True)
    began = time.perf_counter()
    tasks += [asyncio.create_task(player(t, seat)) for t, a, b in made for seat in (a, b)]
    await asyncio.sleep(seconds)
    stop.set()
    results.seconds = time.perf_counter() - began
    if window:
        window(False)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for a, b in pairs:
        await a.http.aclose()
        await b.http.aclose()
    return results
