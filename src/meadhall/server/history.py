"""What a table's history shows (the game log, a replay step, the record), off the event loop.

Replaying a game applies every action again: tens of milliseconds for a long game, and
these routes are open to anyone. So the replay runs in a worker thread, once per table
and version, however many clients ask at the same moment (they wait for the same
work); its result is kept (a few dozen tables, least recently used first out). A game
that moved on extends the kept replay by its new actions instead of starting again.
A replay step restarts from the nearest kept state (one every :data:`CHECKPOINT_EVERY`
steps), so no request replays a whole game.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from meadhall.core.game import Event, Game, GameState
from meadhall.core.words import GameWords, events_json

T = TypeVar("T")

#: A replay step starts from a state kept every this many steps.
CHECKPOINT_EVERY = 32


@dataclass
class Book:
    """A table's history at one version: each step's events, and states to restart from.

    Never changed once built (a later version is a new book), so threads may read it.
    """

    game: Game
    version: int
    actions: tuple[tuple[int, Any], ...]
    dealt: tuple[Event, ...]  # what setting the game up showed (step 0)
    events: tuple[list[Event], ...]  # what each action did (steps 1, 2, ...)
    checkpoints: tuple[GameState[Any], ...]  # after 0, CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY, ... steps
    final: GameState[Any]  # after every step; only ever cloned
    _logs: dict[int | None, bytes] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def logged(self, seat: int | None, version: int | None = None) -> bytes | None:
        """The encoded game log for ``seat`` if it was already built (see :meth:`log`)."""
        with self._lock:
            steps = self._logs.get(seat)
        return None if steps is None else self._logged(steps, version)

    def _logged(self, steps: bytes, version: int | None) -> bytes:
        # The table's version counts take-backs too (core.undo), so it is given, not the steps'.
        number = self.version if version is None else version
        return b'{"version":' + str(number).encode() + b',"steps":' + steps + b"}"

    def words(self) -> GameWords | None:
        """The game's words for this game's options (None: a game without words)."""
        words = self.game.words()
        return words.for_options(self.checkpoints[0].options) if words is not None else None

    def log(self, seat: int | None, version: int | None = None) -> bytes:
        """The encoded game log for ``seat`` (``None``: a spectator): each step's events it may see.

        Each event carries its ``text`` for that seat where the game has words. ``version``
        is the table's version the log is at (by default, the number of steps).
        """
        with self._lock:
            found = self._logs.get(seat)
        if found is None:
            words = self.words()
            steps = [
                {"version": step, "events": events_json(events, seat, words)}
                for step, events in enumerate(self.events, start=1)
            ]
            if self.dealt:
                steps.insert(0, {"version": 0, "events": events_json(self.dealt, seat, words)})
            found = orjson.dumps(steps)
            with self._lock:
                self._logs[seat] = found
        return self._logged(found, version)

    def step(self, step: int) -> bytes:
        """The encoded public view after ``step`` actions, with what that step did (0 <= step <= version).

        Where the game has words, the events carry the spectators' ``text`` and ``words``
        holds the words beside the board (as a live spectator's payload).
        """
        start = step - step % CHECKPOINT_EVERY
        state = self.checkpoints[start // CHECKPOINT_EVERY].clone()
        for seat, action in self.actions[start:step]:
            state.apply(seat, action)
        last = self.actions[step - 1] if step else None
        events = self.events[step - 1] if step else self.dealt
        words = self.words()
        view = state.view(None)
        data: dict[str, Any] = {
            "step": step,
            "steps": self.version,
            "action": None if last is None else {"seat": last[0], "action": str(last[1])},
            "events": events_json(events, None, words),
            "view": view,
        }
        if words is not None:
            data["words"] = words.table(view)
        return orjson.dumps(data)


def build_book(
    game: Game, players: int, seed: int, options: Any, actions: Sequence[tuple[int, Any]], base: Book | None
) -> Book:
    """Replay ``actions`` (from ``base``'s end when given: its actions are the first ones)."""
    if base is not None:
        state = base.final.clone()
        dealt = base.dealt
        events = list(base.events)
        checkpoints = list(base.checkpoints)
        done = base.version
    else:
        state, setup = game.deal(players=players, seed=seed, options=options)
        dealt = tuple(setup)
        events = []
        checkpoints = [state.clone()]
        done = 0
    for index in range(done, len(actions)):
        seat, action = actions[index]
        events.append(state.apply(seat, action))
        if (index + 1) % CHECKPOINT_EVERY == 0:
            checkpoints.append(state.clone())
    return Book(game, len(actions), tuple(actions), dealt, tuple(events), tuple(checkpoints), state)


class HistoryCache:
    """Kept results of history work, computed once in a worker thread each."""

    def __init__(self, size: int = 48) -> None:
        self.size = size
        self._kept: OrderedDict[Any, Any] = OrderedDict()
        self._working: dict[Any, asyncio.Future[Any]] = {}
        self.computed = 0  # how many results were worked out (the rest were kept or shared)

    def kept(self, key: Any) -> Any:
        """The kept result for ``key``, if any."""
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    async def get(self, key: Any, compute: Callable[[], T]) -> T:
        """The result for ``key``: kept, being worked out for another request, or ``compute()`` in a thread."""
        found = self.kept(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        working = self._working.get(key)
        if working is None:
            self.computed += 1
            working = asyncio.ensure_future(asyncio.to_thread(compute))
            self._working[key] = working
            working.add_done_callback(lambda done: self._done(key, done))
        return await asyncio.shield(working)

    def _done(self, key: Any, done: asyncio.Future[Any]) -> None:
        self._working.pop(key, None)
        if done.cancelled() or done.exception() is not None:
            return
        self._kept[key] = done.result()
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    async def book(self, table_id: str, game: Game, row: Any, actions: list[tuple[int, Any]]) -> Book:
        """The table's book at ``len(actions)`` (extending an older kept book of the table)."""
        version = len(actions)
        played = tuple(actions)
        latest = self.kept(("book", table_id))
        if isinstance(latest, Book) and latest.actions == played:
            return latest
        # A kept book is extended only if its actions begin these: a seat may have taken
        # actions back (core.undo) and played others, so a count alone names no history.
        base = (
            latest
            if isinstance(latest, Book) and latest.version < version and played[: latest.version] == latest.actions
            else None
        )
        key = ("book", table_id, version, hash(played))
        book = await self.get(key, lambda: build_book(game, row.players, row.seed, row.options, actions, base))
        newest = self.kept(("book", table_id))
        if not isinstance(newest, Book) or newest.version <= book.version:
            self._kept[("book", table_id)] = book
            self._kept.pop(key, None)
        return book
