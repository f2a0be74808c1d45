"""Bots as a pool of their own: bots' moves asked through a Redis stream, thought by ``meadhall bot-pool``.

Used with ``redis_url`` and ``bot_pool = true`` (docs/deploy.md, "A pool of bots"). Every name
below starts with the site's ``redis_prefix`` (:class:`~meadhall.server.redisnames.RedisNames`):
servers and pools agree on it through the same setting. Two sides:

- **The table's owner** (:class:`PoolBots`, the game service's ``bots``) puts a request
  for each bot move on the stream ``<prefix>:bots``: the table, its version, the seat,
  the bot, a deadline, and what that seat may see (its view and its legal moves, made by
  the owner as for its own processes: the bot stays honest). It also sets the request's
  *live key*, ``<prefix>:bot:<request>``, and deletes it when it stops waiting: the
  answer came, the table moved on, ended or was dropped here (the bot's task is
  cancelled), or the deadline passed. Past the deadline (``bot_pool_seconds``) the owner
  thinks itself, in its own ``bot_workers`` processes, so a table never hangs on a pool
  that is not there. The answer comes back on the owner's stream
  ``<prefix>:bot-answers:<node>`` and is played through :meth:`GameService.act`, as
  its own bot's move: the version guards it, so a stale answer is refused.
- **The pool** (:class:`BotPool`, ``meadhall bot-pool --workers N``) reads the stream in
  the consumer group ``<prefix>:bot-pool``: N moves at a time, each thought in one of N
  processes (:class:`~meadhall.server.thinking.BotWorkers`, with its deadline and stop
  flag). Before thinking it drops a request whose live key is gone or whose deadline has
  passed; while thinking it stops the search when the live key goes; after, it answers
  only if the key is still there. It claims the requests it holds again every third of
  ``claim_ms`` (``XCLAIM``: their idle time starts again), and takes over any request
  left idle longer than ``claim_ms`` (``XAUTOCLAIM``): one held by a pool that was killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import signal
import socket
import time
from typing import Any

import orjson

from meadhall.extras import require
from meadhall.server.redisnames import RedisNames
from meadhall.server.thinking import BotWorkers, Thought

log = logging.getLogger("meadhall.botpool")

#: About how many requests the stream keeps (answered ones are deleted at once).
STREAM_LENGTH = 10_000
#: How long an owner's answers stream outlives its last answer (seconds): a dead owner's goes away.
ANSWERS_TTL = 3600


def stream(names: RedisNames) -> str:
    """The stream of bot moves to think."""
    return names("bots")


def group(names: RedisNames) -> str:
    """The consumer group every pool reads the stream in."""
    return names("bot-pool")


def live_key(names: RedisNames, request: str) -> str:
    """The key that exists while a request's owner still waits for its answer."""
    return names("bot", request)


def answers_stream(names: RedisNames, node: str) -> str:
    """The stream a node's bot moves are answered on."""
    return names("bot-answers", node)


class PoolBots(BotWorkers):
    """A table owner's bots: each move asked of the pool first, thought here if no pool answers by the deadline."""

    def __init__(
        self, workers: int, move_seconds: float, redis: Any, node: str, wait_seconds: float, names: RedisNames
    ) -> None:
        super().__init__(workers, move_seconds)
        self.redis = redis
        self.names = names
        self.node = node
        self.wait_seconds = wait_seconds
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._asked: dict[str, tuple[str, int]] = {}  # request -> its table and version, while waited for
        self._reader: asyncio.Task[None] | None = None
        self._dropping: set[asyncio.Task[Any]] = set()

    def start(self) -> None:
        """Read this node's answers from now on."""
        self._reader = asyncio.get_running_loop().create_task(self._read_answers())

    async def close(self) -> None:
        """Stop reading answers (the moves still waiting are thought here)."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def _read_answers(self) -> None:
        answers, last = answers_stream(self.names, self.node), "0-0"
        while True:
            try:
                found = await self.redis.xread({answers: last}, count=100, block=1000)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: the moves waiting are thought here at their deadlines
                log.debug("reading the bot pool's answers failed: %s", error)
                await asyncio.sleep(1.0)
                continue
            for entry in (found or {}).get(answers, ()):
                last = entry.identifier
                answer = dict(entry.field_values)
                future = self._waiting.get(answer.get("rid", ""))
                if future is not None and not future.done():
                    future.set_result(answer)

    def moved_on(self, table_id: str, version: int) -> None:
        """The table is at ``version`` now: a request for an older version is dropped, and its wait ends."""
        super().moved_on(table_id, version)
        for request, (table, asked_on) in list(self._asked.items()):
            future = self._waiting.get(request)
            if table == table_id and asked_on != version and future is not None and not future.done():
                future.set_result({"rid": request, "stopped": "moved on"})

    def _drop(self, request: str) -> None:
        """The owner waits no more: the pool drops the request (before thinking, or its answer after)."""

        async def delete() -> None:
            with contextlib.suppress(Exception):
                await self.redis.delete([live_key(self.names, request)])

        task = asyncio.get_running_loop().create_task(delete())
        self._dropping.add(task)
        task.add_done_callback(self._dropping.discard)

    async def choose(
        self,
        table_id: str,
        version: int,
        seat: int,
        game: str,
        spec: str,
        view: dict[str, Any],
        legal: list[str],
        seed: int,
        packs: dict[str, str] | None = None,
        seconds: float | None = None,
    ) -> Thought:
        """The bot's action, from the pool within ``wait_seconds``, else thought here.

        Cancelling the awaiting task (the table moved on, ended or was dropped) drops the
        request: the pool does not think it, or stops, and its answer is not sent.
        """
        from coredis.tokens import PureToken

        request = f"{self.node}-{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request] = future
        self._asked[request] = (table_id, version)
        deadline = time.time() + self.wait_seconds
        fields = {
            "rid": request,
            "reply": self.node,
            "table": table_id,
            "version": str(version),
            "seat": str(seat),
            "bot": spec,
            "deadline": f"{deadline:.3f}",
            "seconds": str(self.move_seconds if seconds is None else min(seconds, self.move_seconds)),
            "seen": orjson.dumps({"game": game, "view": view, "legal": legal, "seed": seed, "packs": packs}),
        }
        try:
            try:
                await self.redis.set(live_key(self.names, request), table_id, px=int(self.wait_seconds * 1000) + 1000)
                await self.redis.xadd(
                    stream(self.names),
                    fields,
                    trim_strategy=PureToken.MAXLEN,
                    threshold=STREAM_LENGTH,
                    trim_operator=PureToken.APPROXIMATELY,
                )
            except Exception as error:  # Redis away: think here at once
                log.warning("the bot pool cannot be asked (%s): thinking here", error, extra={"ctx_table": table_id})
                return await super().choose(table_id, version, seat, game, spec, view, legal, seed, packs, seconds)
            try:
                answer = await asyncio.wait_for(future, self.wait_seconds)
            except TimeoutError:
                self._drop(request)
                log.warning(
                    "no bot pool answered table %s (version %d, seat %d) within %.1f s: thinking here",
                    table_id,
                    version,
                    seat,
                    self.wait_seconds,
                    extra={"ctx_table": table_id, "ctx_bot": spec},
                )
                return await super().choose(table_id, version, seat, game, spec, view, legal, seed, packs, seconds)
            self._drop(request)  # answered or moved on: a copy taken again by another pool is not thought
            if "stopped" in answer:  # as a search stopped before it began: the version guard refuses it
                return Thought(legal[0], "stopped", 0.0)
            return Thought(str(answer["action"]), answer.get("cut") or None, float(answer.get("seconds", 0.0)))
        except asyncio.CancelledError:
            self._drop(request)
            raise
        finally:
            self._waiting.pop(request, None)
            self._asked.pop(request, None)


class BotPool:
    """``meadhall bot-pool``: thinks the bots' moves the servers put on the stream, ``workers`` at a time."""

    def __init__(self, url: str, workers: int, claim_ms: int, names: RedisNames, consumer: str | None = None) -> None:
        coredis = require("coredis", "redis", "a pool of bots (meadhall bot-pool)")
        self.redis: Any = coredis.Redis.from_url(url, decode_responses=True)
        self.names = names
        self.stream, self.group = stream(names), group(names)
        logging.getLogger("coredis.retry").setLevel(logging.WARNING)
        self.workers = workers
        self.claim_ms = claim_ms
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
        # The most a move may think: each request's deadline cuts it shorter.
        self.bots = BotWorkers(workers, move_seconds=3600.0)
        self.held: dict[str, str] = {}  # stream entry id -> request id, while thought here
        self.stopping = asyncio.Event()
        self.answered = 0

    async def run(self) -> None:
        """Think until :meth:`stop`; then finish the moves under way (each within its deadline)."""
        from coredis.exceptions import StreamDuplicateConsumerGroupError

        with contextlib.suppress(StreamDuplicateConsumerGroupError):  # another pool made it
            await self.redis.xgroup_create(self.stream, self.group, identifier="0", mkstream=True)
        log.info("bot pool %s: %d workers on %s", self.consumer, self.workers, self.stream)
        beating = asyncio.get_running_loop().create_task(self._beat())
        serving: set[asyncio.Task[None]] = set()
        try:
            while not self.stopping.is_set():
                free = self.workers - len(serving)
                if free <= 0:
                    await asyncio.wait(serving, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
                    continue
                try:
                    entries = await self._take(free)
                except Exception as error:
                    log.warning("bot pool: Redis does not answer (%s); trying again", error)
                    await asyncio.sleep(1.0)
                    continue
                for entry in entries:
                    task = asyncio.get_running_loop().create_task(self._serve(entry.identifier, entry.field_values))
                    serving.add(task)
                    task.add_done_callback(serving.discard)
            if serving:
                await asyncio.wait(serving)
        finally:
            beating.cancel()
            self.bots.shutdown()

    def stop(self) -> None:
        """Take no more requests (the moves under way are finished)."""
        self.stopping.set()

    async def _take(self, count: int) -> tuple[Any, ...]:
        """Up to ``count`` requests: first any left idle by a pool that died, else new ones (waiting up to 1 s)."""
        claimed = await self.redis.xautoclaim(self.stream, self.group, self.consumer, self.claim_ms, "0-0", count=count)
        stale = tuple(entry for entry in claimed[1] if entry.field_values)
        if stale:
            for entry in stale:
                log.info(
                    "bot pool %s: took over request %s of table %s (its pool stopped answering)",
                    self.consumer,
                    entry.field_values.get("rid"),
                    entry.field_values.get("table"),
                )
            return stale
        found = await self.redis.xreadgroup(self.group, self.consumer, {self.stream: ">"}, count=count, block=1000)
        return tuple((found or {}).get(self.stream, ()))

    async def _beat(self) -> None:
        """Claim the requests held here again and again: their idle time starts over, nobody takes them."""
        while True:
            await asyncio.sleep(self.claim_ms / 3000)
            if self.held:
                with contextlib.suppress(Exception):
                    await self.redis.xclaim(self.stream, self.group, self.consumer, 0, list(self.held), justid=True)

    async def _live(self, request: str) -> bool:
        return bool(await self.redis.exists([live_key(self.names, request)]))

    def _dropped(self, request: str, table: str) -> None:
        log.info("bot pool %s: dropped request %s of table %s (the table moved on)", self.consumer, request, table)

    async def _serve(self, entry: str, fields: dict[str, str]) -> None:
        """Think one request and answer its owner, unless it was dropped; then acknowledge it."""
        request, table = fields["rid"], fields["table"]
        try:
            left = float(fields["deadline"]) - time.time()
            if left <= 0 or not await self._live(request):
                self._dropped(request, table)
                return
            self.held[entry] = request
            seen = orjson.loads(fields["seen"])
            # A margin for the answer's way back before the owner stops waiting.
            seconds = min(float(fields["seconds"]), max(0.05, left - 0.5))
            log.info(
                "bot pool %s: thinking for table %s (version %s, seat %s, %s)",
                self.consumer,
                table,
                fields["version"],
                fields["seat"],
                fields["bot"],
            )
            thinking = asyncio.get_running_loop().create_task(
                self.bots.choose(
                    table,
                    int(fields["version"]),
                    int(fields["seat"]),
                    seen["game"],
                    fields["bot"],
                    seen["view"],
                    seen["legal"],
                    int(seen["seed"]),
                    seen["packs"],
                    seconds,
                )
            )
            while not thinking.done():
                await asyncio.wait([thinking], timeout=0.25)
                if not thinking.done() and not await self._live(request):
                    thinking.cancel()  # its search sees the stop flag and ends
            if thinking.cancelled() or not await self._live(request):
                self._dropped(request, table)
                return
            thought = thinking.result()
            answers = answers_stream(self.names, fields["reply"])
            await self.redis.xadd(
                answers,
                {
                    "rid": request,
                    "action": thought.action,
                    "cut": thought.cut_short or "",
                    "seconds": str(thought.seconds),
                },
            )
            await self.redis.expire(answers, ANSWERS_TTL)
            self.answered += 1
            log.info(
                "bot pool %s: answered request %s of table %s (version %s): %s",
                self.consumer,
                request,
                table,
                fields["version"],
                thought.action,
            )
        except Exception:
            log.exception("bot pool %s: request %s of table %s failed", self.consumer, request, table)
        finally:
            self.held.pop(entry, None)
            with contextlib.suppress(Exception):
                await self.redis.xack(self.stream, self.group, [entry])
                await self.redis.xdel(self.stream, [entry])


def run_pool(url: str, prefix: str, workers: int, claim_ms: int) -> int:
    """Run a pool until SIGINT or SIGTERM (the moves under way are finished first); the exit status.

    ``prefix`` is the site's ``redis_prefix``, the servers' (the stream they ask on is named with it).

    Raises :class:`OSError` when Redis does not answer at the start.
    """

    async def main() -> None:
        pool = BotPool(url, workers, claim_ms, RedisNames(prefix))
        try:
            await asyncio.wait_for(pool.redis.ping(), 10)
        except Exception as error:  # coredis' own connection errors are not OSErrors
            pool.bots.shutdown()
            raise OSError(f"cannot reach Redis at {url}: {type(error).__name__}: {error}") from None
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, pool.stop)
        await pool.run()

    asyncio.run(main())
    return 0
