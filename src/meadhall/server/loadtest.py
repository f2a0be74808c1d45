"""Load test of a running server: moves per second, move latency, WebSocket fan-out.

Used by ``meadhall bench-server`` (figures in docs/performance.md). Every table has two
registered players, each with a WebSocket like the browser's; a player moves when its
WebSocket says it is its turn, sending the first legal action with the version as the
browser does: over that WebSocket (``via="ws"``, the default) or as
``POST /api/tables/{id}/actions`` (``via="http"``, the API for scripts). Extra spectator
sockets bring the number of open WebSockets up to ``--sockets``.

When a table's game ends a new one starts in its place, between the same two players,
so the load holds for runs of any length.

Measured: accepted moves per second (closed loop, as fast as the server takes them), the
latency of each move (until the ``acted`` answer, or the POST's response), and the time
from sending a move until each seat's WebSocket has the update (fan-out). ``window`` is
told when the measured window opens (``True``) and closes (``False``), so a caller can
read CPU counters around exactly those seconds.
"""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    import httpx

# httpx and websockets come with the ``bench`` extra: they are imported where the load is
# made, so that importing this module never needs them (``meadhall bench-server`` checks
# the extra first and says how to install it).

_UPDATE_PREFIX = '{"type":"update","version":'


def _update_version(text: str) -> int | None:
    """The version of an ``update`` message, read without decoding the whole view."""
    if text.startswith(_UPDATE_PREFIX):
        end = text.find(",", len(_UPDATE_PREFIX))
        return int(text[len(_UPDATE_PREFIX) : end])
    message = orjson.loads(text)
    return message["version"] if message.get("type") == "update" else None


@dataclass
class Results:
    """What one run measured."""

    moves: int = 0
    seconds: float = 0.0
    move_ms: list[float] = field(default_factory=list)
    fanout_ms: list[float] = field(default_factory=list)
    client_lag_ms: list[float] = field(default_factory=list)
    new_games: int = 0
    errors: int = 0
    refused: dict[str, int] = field(default_factory=dict)  # refused moves by the server's error code
    table_ids: list[str] = field(default_factory=list)  # the tables in play when the load stopped

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
            "move_p50_ms": q(self.move_ms, 0.5),
            "move_p99_ms": q(self.move_ms, 0.99),
            "fanout_p50_ms": q(self.fanout_ms, 0.5),
            "fanout_p99_ms": q(self.fanout_ms, 0.99),
            "fanout_mean_ms": round(statistics.fmean(self.fanout_ms), 2) if self.fanout_ms else 0.0,
            "client_lag_p99_ms": q(self.client_lag_ms, 0.99),
            "games_started_meanwhile": self.new_games,
            "errors": self.errors,
            "refused": dict(sorted(self.refused.items())),
        }


class Pace:
    """When each table's next move is due, for a total of ``rate`` moves per second.

    ``even``: each table (slot) moves on a beat of its own, ``tables / rate`` seconds
    apart, and the slots' beats are evenly staggered. A move that comes late (its update
    arrived after the beat, or a new game was being set up) waits for the slot's next
    beat: sent at once, late moves would go together and their tables stay in step from
    then on, turning an even load into bursts. ``random``: each slot's next move is due
    after an exponential pause of the same mean (seeded), so the moves of different
    tables bunch up by chance, as independent players' do.
    """

    def __init__(self, tables: int, rate: float, start: float, arrivals: str = "even", seed: int = 20261201) -> None:
        if arrivals not in ("even", "random"):
            raise ValueError(f"arrivals must be 'even' or 'random', not {arrivals!r}")
        self.interval = tables / rate  # between two moves of one slot
        self.arrivals = arrivals
        self.pauses = random.Random(seed)
        # The slot's last due time (its players share it); staggered over one interval.
        self.last = [start + self.interval * (i / tables - 1) for i in range(tables)]

    def due(self, slot: int, now: float) -> float:
        """When ``slot``'s next move goes, asked at ``now`` (never before ``now``)."""
        if self.arrivals == "random":
            due = max(self.last[slot] + self.pauses.expovariate(1 / self.interval), now)
        else:
            due = self.last[slot] + self.interval
            if due < now:
                due += self.interval * math.ceil((now - due) / self.interval)
        self.last[slot] = due
        return due


class Seat:
    """One player at one table: an HTTP client and a WebSocket."""

    def __init__(self, http: httpx.AsyncClient, csrf: str, cookie: str) -> None:
        self.http = http
        self.csrf = csrf
        self.cookie = cookie


async def make_user(base: str, name: str) -> Seat:
    """Register a user; returns its seat handle (cookies kept in the client)."""
    import httpx

    http = httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=4))
    response = await http.post("/api/auth/register", json={"name": name, "password": "load test password"})
    response.raise_for_status()
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    return Seat(http, response.json()["csrf"], cookie)


async def make_table(a: Seat, b: Seat, game: str, options: dict[str, Any]) -> tuple[str, Seat, Seat]:
    """A started table of ``game`` between two users."""
    created = await a.http.post(
        "/api/tables",
        json={"game": game, "options": options, "seats": [{"kind": "me"}, {"kind": "open"}]},
        headers={"X-CSRF-Token": a.csrf},
    )
    created.raise_for_status()
    table_id = created.json()["id"]
    (await b.http.post(f"/api/tables/{table_id}/join", json={}, headers={"X-CSRF-Token": b.csrf})).raise_for_status()
    (await a.http.post(f"/api/tables/{table_id}/start", json={}, headers={"X-CSRF-Token": a.csrf})).raise_for_status()
    return table_id, a, b


async def run(
    base: str,
    game: str,
    tables: int = 50,
    sockets: int = 0,
    seconds: float = 10.0,
    rate: float | None = None,
    options: dict[str, Any] | None = None,
    window: Callable[[bool], None] | None = None,
    via: str = "ws",
    arrivals: str = "even",
    words: bool = False,
) -> Results:
    """Play ``tables`` two-player games of ``game`` for ``seconds``; ``rate`` caps total moves per second.

    ``via`` is how players send moves: ``"ws"`` (over their WebSocket, as the browser
    does) or ``"http"`` (``POST /api/tables/{id}/actions``). With a ``rate``,
    ``arrivals`` spreads the moves: ``"even"``, each table on its own fixed beat, the
    tables' beats evenly staggered; ``"random"``, each table's next move after a random
    (exponential) pause of the same mean, so moves of different tables bunch up by
    chance as independent players' do (seeded: runs are comparable). ``words``: every
    socket asks for the game's words (``?words=1``), as the table page does.
    """
    import websockets

    if via not in ("ws", "http"):
        raise ValueError(f"via must be 'ws' or 'http', not {via!r}")
    if arrivals not in ("even", "random"):
        raise ValueError(f"arrivals must be 'even' or 'random', not {arrivals!r}")
    options = options or {}
    results = Results()
    pairs = [(await make_user(base, f"load{i}a"), await make_user(base, f"load{i}b")) for i in range(min(tables, 10))]
    # A slot is one table's place in the load: when its game ends, a new game starts
    # there between the same two players, so the load holds however long the run is.
    current: list[str] = []
    for index in range(tables):
        a, b = pairs[index % len(pairs)]
        current.append((await make_table(a, b, game, options))[0])
    ws_base = base.replace("http://", "ws://")
    query = "?words=1" if words else ""
    sent_at: dict[tuple[str, int], float] = {}
    stop = asyncio.Event()
    pace: Pace | None = None
    moving: set[asyncio.Task[None]] = set()

    def arrived(table_id: str, version: int | None) -> None:
        started = sent_at.get((table_id, version)) if version is not None else None
        if started is not None:
            results.fanout_ms.append((time.perf_counter() - started) * 1000)

    async def spectator(slot: int) -> None:
        while not stop.is_set():
            table_id = current[slot]
            async with websockets.connect(f"{ws_base}/ws/tables/{table_id}{query}", max_size=None) as socket:
                async for raw in socket:
                    text = str(raw)
                    arrived(table_id, _update_version(text))
                    if stop.is_set() or '"finished":true' in text:
                        break
            while current[slot] == table_id and not stop.is_set():
                await asyncio.sleep(0.05)

    async def play_slot(slot: int) -> None:
        a, b = pairs[slot % len(pairs)]
        while not stop.is_set():
            table_id = current[slot]
            await asyncio.gather(player(slot, table_id, a), player(slot, table_id, b))
            if not stop.is_set():
                current[slot] = (await make_table(a, b, game, options))[0]
                results.new_games += 1

    async def player(slot: int, table_id: str, seat: Seat) -> None:
        headers = {"Cookie": seat.cookie}
        waiting: set[int] = set()  # versions this player moved on and awaits the answer to
        over = False
        async with websockets.connect(
            f"{ws_base}/ws/tables/{table_id}{query}", additional_headers=headers, max_size=None
        ) as socket:
            async for raw in socket:
                message = orjson.loads(raw)
                kind = message.get("type")
                if kind == "acted" or kind == "refused":
                    waiting.discard(message["id"])
                    started = sent_at.get((table_id, message["id"] + 1))
                    if kind == "refused":
                        code = str(message.get("error"))
                        results.refused[code] = results.refused.get(code, 0) + 1
                    if kind == "refused" or started is None:
                        results.errors += 1
                    else:
                        results.move_ms.append((time.perf_counter() - started) * 1000)
                        results.moves += 1
                elif kind in ("snapshot", "update"):
                    if kind == "update":
                        arrived(table_id, message["version"])
                    over = over or bool(message["view"]["finished"])
                    legal = message.get("legal")
                    if legal and not over and not stop.is_set():
                        version = message["version"]
                        delay = 0.0
                        if pace is not None:
                            now = time.perf_counter()
                            delay = pace.due(slot, now) - now
                        if via == "ws":  # a POST is answered to its own task, not on this socket
                            waiting.add(version)
                        # Moving is a task of its own: this socket keeps reading meanwhile,
                        # so a paced move never delays the messages queued behind it.
                        task = asyncio.create_task(move(table_id, seat, socket, version, legal[0], delay, waiting))
                        moving.add(task)
                        task.add_done_callback(moving.discard)
                if stop.is_set() or (over and not waiting):
                    return

    async def move(
        table_id: str, seat: Seat, socket: Any, version: int, action: str, delay: float, waiting: set[int]
    ) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if stop.is_set():
            return
        started = time.perf_counter()
        sent_at[(table_id, version + 1)] = started
        if via == "ws":
            act = {"type": "act", "id": version, "action": action, "version": version}
            await socket.send(orjson.dumps(act).decode())
            return
        response = await seat.http.post(
            f"/api/tables/{table_id}/actions",
            json={"action": action, "version": version},
            headers={"X-CSRF-Token": seat.csrf},
        )
        if response.status_code == 200:
            results.move_ms.append((time.perf_counter() - started) * 1000)
            results.moves += 1
        else:
            results.errors += 1
            code = str(response.status_code)
            results.refused[code] = results.refused.get(code, 0) + 1

    async def lag_probe() -> None:
        # How late this load generator's own event loop wakes: latency it adds itself.
        while not stop.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(0.005)
            results.client_lag_ms.append((time.perf_counter() - asked - 0.005) * 1000)

    extra = max(0, sockets - 2 * tables)
    tasks = [asyncio.create_task(spectator(i % tables)) for i in range(extra)]
    await asyncio.sleep(0.5 if extra else 0)
    if window:
        window(True)
    began = time.perf_counter()
    if rate:
        pace = Pace(tables, rate, began, arrivals)
    tasks += [asyncio.create_task(play_slot(slot)) for slot in range(tables)]
    tasks.append(asyncio.create_task(lag_probe()))
    await asyncio.sleep(seconds)
    stop.set()
    results.seconds = time.perf_counter() - began
    if window:
        window(False)
    tasks += moving
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for a, b in pairs:
        await a.http.aclose()
        await b.http.aclose()
    results.table_ids = list(current)
    return results
