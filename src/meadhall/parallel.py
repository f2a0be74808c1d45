"""Seeded games in parallel processes, for the arena and the balance report.

Each game is ``play(config, index)``, a module-level function (so worker processes can
receive it); results come back in index order. Ctrl-C, or SIGTERM (``kill``, a service
manager stopping it, a run under ``nohup`` where Ctrl-C is ignored), stops the run and
returns the games that finished. A run can skip games it already has (a resumed arena run).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from types import FrameType
from typing import Any, Protocol, TypeVar


class Indexed(Protocol):
    """A game's result: it knows which game it was."""

    @property
    def index(self) -> int:
        """The game's number in the run."""
        ...


R = TypeVar("R", bound=Indexed)


def _worker_init() -> None:
    # Ctrl-C goes to the parent, which stops the pool and reports what finished; the
    # parent's SIGTERM handler is not for workers: the pool ends them with SIGTERM.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While running, SIGTERM stops the run as Ctrl-C does (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _call(work: tuple[Callable[[Any, int], Any], Any, int]) -> Any:
    play, config, index = work
    return play(config, index)


def run_games(
    play: Callable[[Any, int], R],
    config: Any,
    games: int | Iterable[int],
    jobs: int,
    progress: Callable[[R, int], None] | None = None,
) -> tuple[list[R], bool]:
    """Play games ``0 .. games - 1`` (or the given game numbers) in ``jobs`` processes.

    Returns the results and whether Ctrl-C (or SIGTERM) stopped the run.
    """
    indices = range(games) if isinstance(games, int) else games
    work = [(play, config, index) for index in indices]
    with _sigterm_stops():
        return _run(work, jobs, progress)


def _run(
    work: list[tuple[Callable[[Any, int], R], Any, int]],
    jobs: int,
    progress: Callable[[R, int], None] | None,
) -> tuple[list[R], bool]:
    results: list[R] = []
    interrupted = False
    if jobs <= 1:
        try:
            for item in work:
                results.append(_call(item))
                if progress:
                    progress(results[-1], len(results))
        except KeyboardInterrupt:
            interrupted = True
        return sorted(results, key=lambda r: r.index), interrupted
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    pool = context.Pool(jobs, initializer=_worker_init)
    try:
        for result in pool.imap_unordered(_call, work):
            results.append(result)
            if progress:
                progress(result, len(results))
        pool.close()
    except KeyboardInterrupt:
        interrupted = True
        pool.terminate()
    finally:
        pool.join()
    return sorted(results, key=lambda r: r.index), interrupted
