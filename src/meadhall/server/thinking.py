"""Bots think in worker processes, each move within a deadline, and stop when their table goes.

A process pool's task cannot be interrupted once it runs, so every job gets a slot in two
small arrays of shared memory: the server raises the job's *stop* flag when the table it
thinks for is abandoned or dropped, and the search (through
:func:`meadhall.bots.thinking_limit`) looks at the flag once per iteration and ends. The
worker marks the slot *running* while it thinks (``/metrics`` counts them). Every move
also has a deadline (``bot_move_seconds``): a search that reaches it answers with its best
action so far, an honest legal move, and the server logs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, NamedTuple

log = logging.getLogger("meadhall.bots")

#: Jobs that can be stopped at once (one per table whose bot is thinking or queued).
SLOTS = 4096

_stop_flags: Any = None  # in a worker: the shared flags
_running_flags: Any = None


def _init_worker(stop_flags: Any, running_flags: Any) -> None:
    global _stop_flags, _running_flags
    _stop_flags, _running_flags = stop_flags, running_flags


class Thought(NamedTuple):
    """A bot's answer: the action's notation, and what cut its search short (if anything)."""

    action: str
    cut_short: str | None  # "deadline", "stopped" or None
    seconds: float


def think(
    game_name: str,
    spec: str,
    view: dict[str, Any],
    legal: list[str],
    seed: int,
    slot: int,
    seconds: float,
    packs: dict[str, str] | None = None,
) -> Thought:
    """Choose a bot's action in a worker process, within ``seconds`` and until the slot's stop flag.

    ``packs`` are the table's content packs (canonical JSON by digest): the view names
    them by reference, and this process learns them here.
    """
    from meadhall.bots import make_bot, thinking_limit
    from meadhall.core.content import remember_pack_json
    from meadhall.core.registry import get_game
    from meadhall.core.rng import Rng

    started = time.monotonic()
    flags = _stop_flags
    if flags is not None:
        _running_flags[slot] = 1
    try:
        if flags is not None and flags[slot]:
            return Thought(legal[0], "stopped", 0.0)
        for body in (packs or {}).values():
            remember_pack_json(body)
        game = get_game(game_name)
        actions = [game.parse_action(text) for text in legal]
        bot = make_bot(spec)
        stop = (lambda: flags[slot] != 0) if flags is not None else None
        with thinking_limit(started + seconds, stop) as limit:
            choice = bot.choose(game, view, actions, Rng(seed))
        return Thought(str(choice), limit.reason, time.monotonic() - started)
    finally:
        if flags is not None:
            _running_flags[slot] = 0


class BotWorkers:
    """The processes that think for bots, with a stop flag per job."""

    def __init__(self, workers: int, move_seconds: float) -> None:
        context = multiprocessing.get_context("spawn")
        self.move_seconds = move_seconds
        self._stop = context.RawArray("b", SLOTS)
        self._running = context.RawArray("b", SLOTS)
        self._free = list(range(SLOTS - 1, -1, -1))
        self._jobs: dict[int, tuple[str, int]] = {}  # slot -> the table and version it thinks for
        self.pool = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_init_worker, initargs=(self._stop, self._running)
        )

    def thinking(self) -> int:
        """How many bots are thinking in a worker right now."""
        return bytes(self._running).count(1)

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
        """The action of the bot in ``seat`` at ``version`` of the table; cancelling the awaiting task stops the search.

        (A queued job is dropped.) ``seconds``: its deadline, when shorter than ``move_seconds``.
        """
        budget = self.move_seconds if seconds is None else min(seconds, self.move_seconds)
        loop = asyncio.get_running_loop()
        while not self._free:  # as many tables think at once as there are slots: wait for one
            await asyncio.sleep(0.05)
        slot = self._free.pop()
        self._stop[slot] = 0
        self._jobs[slot] = (table_id, version)
        future: Future[Thought] = self.pool.submit(think, game, spec, view, legal, seed, slot, budget, packs)

        def free() -> None:
            self._jobs.pop(slot, None)
            self._free.append(slot)

        def finished(_: Future[Thought]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
                loop.call_soon_threadsafe(free)

        future.add_done_callback(finished)
        try:
            thought = await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            # Queued: the job is dropped. Running: its search sees the flag and ends.
            future.cancel()
            self._stop[slot] = 1
            raise
        if thought.cut_short == "deadline":
            log.warning(
                "a bot's search reached its deadline; it plays its best move so far",
                extra={
                    "ctx_table": table_id,
                    "ctx_version": version,
                    "ctx_seat": seat,
                    "ctx_bot": spec,
                    "ctx_seconds": round(thought.seconds, 3),
                },
            )
        return thought

    def moved_on(self, table_id: str, version: int) -> None:
        """The table is at ``version`` now: a search for an older version stops (its answer would be stale)."""
        for slot, (table, thought_on) in list(self._jobs.items()):
            if table == table_id and thought_on != version:
                self._stop[slot] = 1

    def shutdown(self) -> None:
        """Stop every search and the workers."""
        for slot in range(SLOTS):
            self._stop[slot] = 1
        self.pool.shutdown(wait=False, cancel_futures=True)
