"""Self-play: seeded games between bots, one loop for every user (arena, balance reports, tests).

A :class:`Series` says what to play: the game, the bots rotated over the seats, how many
games, players, options, seed and processes. Each game of a series is a :class:`Match`
(the deal's seed, the bot of each seat and each bot's random stream): the arena plays
every deal once per seat rotation (:func:`rotated_match`), a balance report deals anew
every game (:func:`dealt_match`). :func:`play` plays a match to the end through
:func:`play_out`, the loop itself; :func:`run_games` plays many in parallel processes.

Game ``i`` of a series is always the same match, whichever process plays it and when,
so results are the same in one process and in several, and a stopped run can resume::

    from meadhall.lab.selfplay import Series, play, rotated_match

    series = Series(game, ("random", "greedy"), games=2, seed=5)  # game: a name `meadhall games` lists
    outcome = play(rotated_match(series, 0))  # the first game: outcome.state, .decisions, .error
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, Protocol, TypeVar

from meadhall.bots import Bot, make_bot
from meadhall.core.errors import MeadhallError
from meadhall.core.game import MAX_DECISIONS, Action, Event, GameState, events_for
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng


@dataclass(frozen=True)
class Series:
    """What to play: the game, the bot specs rotated over the seats, how many games and how."""

    game: str
    bots: tuple[str, ...]
    games: int
    players: int = 2
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 1
    jobs: int = 1
    #: modules imported to register outside bots (``meadhall arena --bot-module``), kept so the run can be played again
    bot_modules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    """One game of a series: everything that decides how it goes."""

    index: int  #: its number in the series
    game: str
    options: Mapping[str, Any]
    seed: int  #: the deal
    lineup: tuple[str, ...]  #: the bot spec of each seat
    streams: tuple[int, ...]  #: the seed of each seat's bot's random stream


def lineup(index: int, bots: Sequence[str], players: int) -> list[str]:
    """The bots by seat for rotation ``index``: rotated so each bot takes each seat in turn."""
    return [bots[(index + seat) % len(bots)] for seat in range(players)]


def rotations(series: Series) -> int:
    """How many games of an arena share one deal: one per seat rotation."""
    return max(series.players, len(series.bots))


def deal_seed(series: Series, index: int) -> int:
    """The deal of arena game ``index``: the same deal for every seat rotation."""
    return series.seed * 1_000_003 + index // rotations(series)


def rotated_match(series: Series, index: int) -> Match:
    """Arena game ``index``: each deal is played once per seat rotation, every bot in every seat."""
    rotation = index % rotations(series)
    deal = deal_seed(series, index)
    return Match(
        index,
        series.game,
        series.options,
        deal,
        tuple(lineup(rotation, series.bots, series.players)),
        tuple(deal * 7919 + rotation * 101 + seat for seat in range(series.players)),
    )


def game_seed(series: Series, index: int) -> int:
    """The deal of balance game ``index`` (derived like :func:`deal_seed`, one deal per game)."""
    return series.seed * 1_000_003 + index


def dealt_match(series: Series, index: int) -> Match:
    """Balance game ``index``: a new deal every game, the bots rotated over the seats as in the arena."""
    seed = game_seed(series, index)
    return Match(
        index,
        series.game,
        series.options,
        seed,
        tuple(lineup(index, series.bots, series.players)),
        tuple(seed * 7919 + seat for seat in range(series.players)),
    )


def bot_specs(text: str) -> tuple[str, ...]:
    """The bots to rotate over the seats: ``ismcts:1s,greedy*3`` is one ISMCTS and three greedy."""
    specs: list[str] = []
    for item in text.split(","):
        spec, star, count = item.strip().partition("*")
        spec = spec.strip()
        if not spec:
            continue
        if star:
            if not count.strip().isdigit() or int(count) < 1:
                raise ValueError(f"{item.strip()!r}: write BOT*N with N a positive whole number, e.g. greedy*3")
            specs += [spec] * int(count)
        else:
            specs.append(spec)
    if not specs:
        raise ValueError("give at least one bot")
    return tuple(specs)


# The loop ------------------------------------------------------------------------------

#: Told of each decision before it is applied: ``before(decisions so far, seat, action, state)``.
Before = Callable[[int, int, Action, GameState[Any]], None]


@dataclass
class Turns:
    """The decisions made so far by each seat, and the seat deciding now (to report a failure)."""

    made: list[int]
    deciding: int | None = None


def play_out(
    state: GameState[Any],
    bots: Sequence[Bot],
    rngs: Sequence[Rng],
    before: Before | None = None,
    turns: Turns | None = None,
) -> None:
    """Play ``state`` to the end: the first seat to move asks its bot, whose action is applied.

    Each bot sees its seat's view and legal actions only. ``before`` is told of each
    action about to be applied; ``turns`` counts the decisions (it stays right when the
    game breaks). A game still going after :data:`~meadhall.core.game.MAX_DECISIONS`
    decisions raises :class:`MeadhallError`. A bot with the optional hooks of the bot
    protocol (docs/bots.md) is told the events its seat may see after each action
    (``observe(events)``) and, at the end, its seat's last view (``game_over(view)``).
    """
    game = state.game
    counted = turns if turns is not None else Turns([0] * len(bots))
    observers = [(seat, hook) for seat, bot in enumerate(bots) if callable(hook := getattr(bot, "observe", None))]
    while not state.is_terminal():
        made = sum(counted.made)
        if made >= MAX_DECISIONS:
            raise MeadhallError(f"the game did not end in {MAX_DECISIONS} decisions")
        seat = counted.deciding = state.to_move()[0]
        action = bots[seat].choose(game, state.view(seat), state.legal_actions(seat), rngs[seat])
        if before is not None:
            before(made, seat, action, state)
        events = state.apply(seat, action)
        counted.made[seat] += 1
        tell(observers, events)
    for seat, bot in enumerate(bots):
        hook = getattr(bot, "game_over", None)
        if callable(hook):
            hook(state.view(seat))


def tell(observers: Sequence[tuple[int, Callable[[list[Event]], object]]], events: Sequence[Event]) -> None:
    """Give each observing bot the events its seat may see (none: not called)."""
    for seat, observe in observers:
        seen = events_for(events, seat)
        if seen:
            observe(seen)


@dataclass
class Outcome:
    """A match played: its first and last positions, the bots, the decisions and any failure."""

    match: Match
    first: GameState[Any]  #: the position dealt
    state: GameState[Any]  #: the position at the end (or where the game broke)
    bots: list[Bot]
    decisions: list[int]  #: decisions made, per seat
    seconds: float
    error: str | None = None  #: what broke, where, and who was deciding

    @property
    def places(self) -> list[int]:
        """The places of the finished game (1 = first)."""
        return self.state.ranking()


def describe_failure(failure: BaseException, turns: Turns) -> str:
    """What broke, in which file and line, the seat deciding and the decisions made."""
    where = traceback.extract_tb(failure.__traceback__)[-1]
    what = f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__
    place = f"{Path(where.filename).name}, line {where.lineno}"
    return f"{what} (in {place}; seat {turns.deciding} deciding, after {sum(turns.made)} decisions)"


def play(match: Match, before: Before | None = None) -> Outcome:
    """Play a match to the end with its bots. A failure (a bot or the engine raising) ends it, and is reported."""
    game = get_game(match.game)
    players = len(match.lineup)
    state, dealt = game.deal(players=players, seed=match.seed, options=dict(match.options))
    first = state.clone()
    bots = [make_bot(spec) for spec in match.lineup]
    for seat, bot in enumerate(bots):  # the bot protocol's optional hooks: a new game, and what its deal showed
        reset = getattr(bot, "reset", None)
        if callable(reset):
            reset(game, seat)
    tell([(seat, hook) for seat, bot in enumerate(bots) if callable(hook := getattr(bot, "observe", None))], dealt)
    rngs = [Rng(seed) for seed in match.streams]
    turns = Turns([0] * players)
    started = time.perf_counter()
    error = None
    try:
        play_out(state, bots, rngs, before, turns)
    except Exception as failure:  # a failure ends this game, not the run: the record says what broke
        error = describe_failure(failure, turns)
    return Outcome(match, first, state, bots, turns.made, time.perf_counter() - started, error)


# Processes -----------------------------------------------------------------------------


class Indexed(Protocol):
    """A game's result: it knows which game it was."""

    @property
    def index(self) -> int:
        """The game's number in the run."""
        ...


R = TypeVar("R", bound=Indexed)
C = TypeVar("C")


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
    play_one, config, index = work
    return play_one(config, index)


def run_games(
    play_one: Callable[[C, int], R],
    config: C,
    games: int | Iterable[int],
    jobs: int,
    progress: Callable[[R, int], None] | None = None,
) -> tuple[list[R], bool]:
    """Play games ``0 .. games - 1`` (or the given game numbers) in ``jobs`` processes.

    Each game is ``play_one(config, index)``, a module-level function (so that worker
    processes can receive it); ``progress(result, done)`` is called as each finishes.
    Returns the results in index order and whether Ctrl-C, or SIGTERM (``kill``, a
    service manager stopping it, a run under ``nohup`` where Ctrl-C is ignored), stopped
    the run: then the results are the games that finished.
    """
    indices = range(games) if isinstance(games, int) else games
    work = [(play_one, config, index) for index in indices]
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
