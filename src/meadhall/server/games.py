"""Tables being played: the in-memory game states, actions, bots and live updates.

One table, one lock: actions of a table are applied one at a time, each checked against
the version it was chosen on, applied to a clone, committed to the database, and only
then made the table's state and acknowledged. Every payload for a seat is built from
``state.view(seat)`` and the events that seat may see; spectators get ``view(None)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Collection, Coroutine, Generator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import Connection
from sqlalchemy.exc import InterfaceError, OperationalError

from meadhall.bots import thinking_seconds
from meadhall.core.content import ContentError, is_pack_reference, remember_pack_json, resolve_pack
from meadhall.core.errors import IllegalAction, MalformedAction
from meadhall.core.game import Event, Game, GameState
from meadhall.core.guide import progress as guide_progress
from meadhall.core.guide import refusal as guide_refusal
from meadhall.core.guide import reply as guide_reply
from meadhall.core.registry import get_game
from meadhall.core.undo import NOT_NOW, TakeBacks, take_back
from meadhall.core.undo import apply as apply_noting_takebacks
from meadhall.core.undo import replay as replay_noting_takebacks
from meadhall.core.words import TableWords, events_json, seat_label
from meadhall.server.clocks import (
    LEAVE_BOT,
    Absences,
    Clocks,
    TimeControl,
    comeback_words,
    leave_words,
    seat_events,
    seat_note,
    timeout_words,
    vacation_words,
)
from meadhall.server.errors import DATABASE_AWAY, ApiError
from meadhall.server.guides import GUIDE_BOT, guide_of, playing_spec
from meadhall.server.mail import Notifier
from meadhall.server.ratings import places_with_losers
from meadhall.server.store import Store, TableRow, User, now
from meadhall.server.thinking import BotWorkers

if TYPE_CHECKING:
    from meadhall.server.cluster import Cluster
    from meadhall.server.presence import SharedPresence

log = logging.getLogger("meadhall.games")


def encode(message: dict[str, Any]) -> str:
    """A WebSocket message as JSON text (encoded once, however many sockets receive it)."""
    return orjson.dumps(message).decode()


class _Resumed:
    """Awaiting this finishes a coroutine that was started by hand and then suspended."""

    def __init__(self, coroutine: Coroutine[Any, Any, Any], waiting_on: Any) -> None:
        self.coroutine = coroutine
        self.waiting_on = waiting_on

    def __await__(self) -> Generator[Any, Any, Any]:
        waiting_on = self.waiting_on
        while True:
            try:
                sent = yield waiting_on
            except BaseException as error:  # a cancellation goes on into the coroutine
                try:
                    waiting_on = self.coroutine.throw(error)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waiting_on = self.coroutine.send(sent)
                except StopIteration as done:
                    return done.value


@dataclass(eq=False)
class Listener:
    """One open WebSocket: who it is, how to send to it, and its queue of encoded messages.

    ``put`` sends at once when nothing is waiting before the message: the ASGI server's
    send only hands the bytes to the socket's transport (uvicorn's never waits), so a
    move's update leaves in the same turn of the event loop as its commit instead of a
    turn later through the sender task (under load, each turn of the loop is where the
    latency goes). A send that does wait is finished by a task, and the messages behind
    it queue, so the order never changes.
    """

    seat: int | None
    user_id: int | None
    words: bool = False  # the client asked for the game's words (``?words=1``: a page that draws the game)
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=256))
    send_now: Callable[[str], Coroutine[Any, Any, None]] | None = None
    sending: bool = False  # the sender task is in the middle of a send
    snapshot_version: int | None = None  # the version of the snapshot it has, while nothing was dropped
    unfinished: asyncio.Task[Any] | None = None  # a direct send that had to wait

    def put(self, text: str, version: int) -> None:
        """Send or queue an encoded message; a stuck client loses its backlog and is told to resync."""
        if self.send_now is not None and not self.sending and self.queue.empty() and self.unfinished is None:
            self._send_directly(self.send_now, text)
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.clear()
            self.snapshot_version = None  # its backlog is gone: the next resync gets a snapshot
            self.queue.put_nowait(encode({"type": "resync-needed", "version": version}))

    def _send_directly(self, send: Callable[[str], Coroutine[Any, Any, None]], text: str) -> None:
        coroutine = send(text)
        try:
            waiting_on = coroutine.send(None)
        except StopIteration:
            return
        except Exception:  # the client has gone: its socket's reader cleans up
            self.send_now = None
            return
        self.unfinished = asyncio.ensure_future(_Resumed(coroutine, waiting_on))
        self.unfinished.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self.unfinished = None
        if task.cancelled() or task.exception() is not None:
            self.send_now = None

    async def next_message(self) -> str:
        """The next queued message for the sender task, after any unfinished direct send.

        From the moment it is taken the message counts as being sent (``sending``): one
        put while it waits for the earlier send queues behind it instead of overtaking it.
        The sender task clears ``sending`` once it has sent the message.
        """
        text = await self.queue.get()
        self.sending = True
        if self.unfinished is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.unfinished)
        return text

    def clear(self) -> None:
        """Drop every queued message (a snapshot replaces them)."""
        while not self.queue.empty():
            self.queue.get_nowait()


@dataclass
class Held:
    """A seat's moves in its turn at a confirm-turn table, held until it confirms.

    Only that seat sees them: ``states[i]`` is the game after its first ``i + 1`` held
    actions (the table's committed state is unchanged), ``steps[i]`` that action's
    notation, its events and the seats to move after it. Each held action is one the
    seat could take back (core.undo): a move that reveals anything is never held. The
    held moves stand on the committed version ``base``; they are kept in memory only and
    a restart drops them (the seat plays its turn again).
    """

    base: int
    states: list[GameState[Any]] = field(default_factory=list)
    steps: list[tuple[str, list[Event], list[int]]] = field(default_factory=list)


class TableRuntime:
    """A started table in memory: its state, version, lock and listeners."""

    def __init__(self, row: TableRow, game: Game, state: GameState[Any], takebacks: TakeBacks | None = None) -> None:
        self.row = row
        self.game = game
        self.state = state
        #: Which latest actions their seat may take back now (core.undo).
        self.takebacks = takebacks or TakeBacks()
        self.version = row.version
        self.lock = asyncio.Lock()
        #: When a request last asked for the table here (the service's clock): an idle copy is dropped.
        self.used = 0.0
        self.packs = game.info.packs(row.options)  # canonical JSON by digest, for the bots' processes
        self.listeners: set[Listener] = set()
        self.bot_task: asyncio.Task[None] | None = None
        #: Users seated here who asked to abandon the game (a rated game under way ends only
        #: when every seated person asks; kept in memory: a restart forgets the requests).
        self.abandon_requests: set[int] = set()
        # Response windows open now: seat -> the loop time before which its answer is not applied.
        self.releases: dict[int, float] = {}
        self.answered: set[int] = set()  # seats that can only pass: the server answers for them
        self.answer_tasks: set[asyncio.Task[None]] = set()
        # (seat, words): (version, status, encoded)
        self._snapshots: dict[tuple[int | None, bool], tuple[int, str, str]] = {}
        words = game.words()  # None: a game without words (its payloads carry none)
        self.words = words.for_options(state.options) if words is not None else None
        self._table_words: tuple[int, TableWords] | None = None  # (version, words): a public table's, once per version
        #: Moves held until their seat confirms (confirm-turn tables), by seat.
        self.held: dict[int, Held] = {}
        #: The guided first game this table plays (server/guides.py), or None.
        self.guide = guide_of(row)
        #: The table's time control (None: no clock) and its seats' clocks (server.clocks).
        self.control = TimeControl.from_json(row.time_control)
        self.clocks = Clocks.from_json(row.clocks)
        #: Seats whose players left the game under way (each a loss; a bot plays it on).
        self.absences = Absences.from_json(row.absences)
        self.clock_task: asyncio.Task[None] | None = None  # waits for the first running clock to run out
        self.wall: Callable[[], float] = time.time  # the clocks' time (the service sets its own)
        #: Another server owns this table (several servers, docs/deploy.md): this is a read-only
        #: copy that follows the owner's updates and sends its moves there.
        self.mirror = False
        #: A write of this table failed (the database went away): it may or may not have been
        #: stored, so the table is read again before the next move here.
        self.unsure = False

    def held_by(self, seat: int | None) -> Held | None:
        """The moves ``seat`` holds now (``None``: none, or they stand on a version that has passed)."""
        if seat is None or self.row.status != "active":
            return None
        held = self.held.get(seat)
        if held is None or not held.steps:
            return None
        if held.base != self.version:  # the table moved on under them (a resignation, say): they are void
            del self.held[seat]
            return None
        return held

    def seat_version(self, seat: int | None) -> int:
        """The version ``seat`` sees: the table's, plus its held moves (each counts as one)."""
        held = self.held_by(seat)
        return self.version + (len(held.steps) if held is not None else 0)

    def snapshot(self, seat: int | None, words: bool = False) -> str:
        """The encoded ``snapshot`` message for ``seat`` now (encoded once per version, seat and ``words``)."""
        if self.held_by(seat) is not None or (self.clocks is not None and self.clocks.running):
            # Only its seat sees held moves, and a running clock's time is the time of sending: never cached.
            return encode({"type": "snapshot", **self.payload(seat, words=words)})
        cached = self._snapshots.get((seat, words))
        if cached is not None and cached[0] == self.version and cached[1] == self.row.status:
            return cached[2]
        text = encode({"type": "snapshot", **self.payload(seat, words=words)})
        self._snapshots[(seat, words)] = (self.version, self.row.status, text)
        return text

    def _bot_seats(self) -> set[int]:
        return {seat.seat for seat in self.row.seats if seat.bot}

    def taken_over(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` for its person (after a timeout, until they take it back)."""
        found = self.row.seats[seat] if seat < len(self.row.seats) else None
        return found is not None and found.kind == "user" and bool(found.bot)

    def losers(self) -> list[int]:
        """The seats that lose whatever the standing when the game ends: timed out (and still out), or left."""
        timed_out = self.clocks.timed_out if self.clocks is not None else []
        return sorted({*timed_out, *self.absences.left})

    def seat_event(self, kind: str, seat: int, text: str) -> dict[str, Any]:
        """A line for the log about ``seat`` (``kind``: timeout, seat-back, left, vacation, back-from-vacation).

        ``version``: the table's now (the log puts it after that step); ``step``: how many
        actions stand now (the replay shows it with that step).
        """
        return {"version": self.version, "step": len(self.state.history()), "kind": kind, "seat": seat, "text": text}

    def table_events(self) -> list[dict[str, Any]]:
        """What happened to seats (timeouts, comebacks, leaves), in the table's order, for the log and the replay."""
        return seat_events(self.clocks, self.absences)

    def clock_seats(self, to_move: list[int]) -> list[int]:
        """The seats among ``to_move`` whose clocks run: people's seats no bot plays."""
        return [
            s
            for s in to_move
            if s < len(self.row.seats) and self.row.seats[s].kind == "user" and not self.row.seats[s].bot
        ]

    def may_hold(self, seat: int, state: GameState[Any]) -> bool:
        """Whether ``seat``'s next move on ``state`` is held until it confirms (rather than committed).

        Only at a confirm-turn table, only a person's seat, and only while it is the one
        seat to move outside a response window (a simultaneous choice or a reaction is
        committed at once, so no seat waits on another's unconfirmed move).
        """
        return (
            self.row.confirm_turns
            and seat not in self._bot_seats()
            and tuple(state.to_move()) == (seat,)
            and not state.response_window(seat)
        )

    def seat_of(self, user: User | None) -> int | None:
        """The seat ``user`` holds at this table, if any."""
        if user is None:
            return None
        for seat in self.row.seats:
            if seat.kind == "user" and seat.user_id == user.id:
                return seat.seat
        return None

    def payload(self, seat: int | None, events: list[Event] | None = None, *, words: bool = False) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) receives: its view, and its legal actions.

        ``words``: with the game's words too (:mod:`meadhall.core.words`), for a client that
        asked for them: each event's ``text`` for this seat, each legal action's label, group
        and target (``actions``), and the words beside the board (``words``); see
        docs/server.md. They cost as much as the rest of the payload (a label for each of a
        hundred legal actions), so clients that only play (scripts, bots) go without.
        """
        held = self.held_by(seat)
        state = held.states[-1] if held is not None else self.state
        game_words = self.words if words else None
        playing = self.row.status == "active"  # a resigned or abandoned game waits for nobody
        view = state.view(seat)
        data: dict[str, Any] = {
            "version": self.seat_version(seat),
            "status": self.row.status,
            "seat": seat,
            "view": view,
            "to_move": list(state.to_move()) if playing else [],
        }
        if self.control is not None and self.clocks is not None:
            clock = data["clock"] = self.clocks.public(self.wall(), self.control)
            taken = [s.seat for s in self.row.seats if s.kind == "user" and s.bot]
            if taken:
                clock["bot_plays"] = taken  # people's seats a bot plays now (they may take them back)
            clock["notes"] = [seat_note(s, self.clocks, taken, self.absences.left) for s in range(self.row.players)]
            for seat_row in self.row.seats:
                if seat_row.kind == "bot":
                    clock["remaining"][seat_row.seat] = None  # a bot's seat has no clock
        if self.absences.left:
            data["left"] = list(self.absences.left)  # seats whose players left (a loss; a bot plays on)
        if events is not None:
            data["events"] = events_json(events, seat, game_words)
        legal = None
        if playing and seat is not None and seat in state.to_move() and not self.taken_over(seat):
            # (a seat a bot plays after a timeout has no moves for its person until they take it back)
            legal = data["legal"] = self.game.legal_notations(state, seat)
            if game_words is not None:
                data["actions"] = game_words.actions(view, legal)
            if seat in self.answered:
                data["answered"] = True  # only to this seat: the table answers for it, after the common pause
        if held is not None:
            # Only to its seat: what it holds (each move's notation and its events as it saw
            # them); undo drops the latest, confirm commits them all.
            data["held"] = [
                {"action": action, "events": events_json(events, seat, game_words)} for action, events, _ in held.steps
            ]
            data["undo"] = len(held.steps)
        elif playing and seat is not None and self.takebacks.public(seat):
            data["undo"] = self.takebacks.public(seat)  # only to its seat: how many of its moves it may take back
        if playing and seat is not None and self.row.confirm_turns and seat not in self._bot_seats():
            data["confirm_turns"] = True  # only to a person's seat: its moves in its turn wait for Confirm
        if self.guide is not None and seat == self.guide.seat:
            data["guide"] = guide_progress(self.guide, state)  # only to the learner: where the script stands
        if game_words is not None:
            if game_words.public_table and held is None:
                kept = self._table_words
                if kept is None or kept[0] != self.version:
                    kept = self._table_words = (self.version, game_words.table(view))
                table = kept[1]
                if legal:
                    table = table.copy()
                    table["prompt"] = game_words.prompt(view, legal)
            else:
                table = game_words.table(view, legal)
            data["words"] = table
        return data


def uniform_pause(shortest: float, longest: float) -> Callable[[], float]:
    """Pauses drawn uniformly from ``shortest`` to ``longest`` seconds (the system's randomness, not a game's)."""
    draw = random.SystemRandom()
    return lambda: draw.uniform(shortest, longest)


def _require_current(runtime: TableRuntime, version: int | None, asked: str, seat: int | None = None) -> None:
    """Refuse (409, nothing changed) a request on a game not being played, or chosen on an older version.

    ``seat``: the version is the one that seat sees (its held moves count, on a confirm-turn table).
    """
    if runtime.row.status != "active":
        raise ApiError(409, "not-active", "this game is not being played")
    current = runtime.seat_version(seat)
    if version is not None and version != current:
        raise ApiError(
            409,
            "stale",
            f"the game moved on (version {current}, {asked} on {version})",
            version=current,
        )


class GameService:
    """All tables being played on this server.

    Response windows (:meth:`GameState.response_window`) are paced so that their timing
    does not tell who holds something: when one opens for a seat, the service draws a
    pause from ``pause()`` (the same draw whatever the seat holds; a bot's seat adds its
    level's thinking time) and applies no answer of that seat before it has passed; a
    person who can only pass is answered by the server itself when it has. ``clock`` and
    ``sleep`` are the event loop's by default (tests give their own).
    """

    def __init__(
        self,
        store: Store,
        bots: BotWorkers | None,
        *,
        pause: Callable[[], float],
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Coroutine[Any, Any, Any]] | None = None,
        wall: Callable[[], float] | None = None,
    ):
        self.store = store
        self.bots = bots
        self.pause = pause
        self.clock = clock or time.monotonic
        self.sleep = sleep or asyncio.sleep
        #: The clocks' time: wall time, so a running clock goes on across a restart.
        self.wall = wall or time.time
        #: The tasks ending vacations when their days run out, by user id (server.vacations).
        self.vacation_endings: dict[int, asyncio.Task[None]] = {}
        self.runtimes: dict[str, TableRuntime] = {}
        self._loading: dict[str, asyncio.Lock] = {}  # a lock per table being read, while anyone wants it
        self._loaders: Counter[str] = Counter()  # (how many want it)
        self.moves = 0
        self.move_seconds: list[float] = []
        #: Told of turns and endings for e-mail (the app sets it; None: nobody is told).
        self.notifier: Notifier | None = None
        #: Told when a game ends, for the lobby's sockets on every server (the app sets it; None: nobody).
        self.lobby_changed: Callable[[TableRow], None] | None = None
        #: The other servers (several servers on one database and one Redis; None: this one is alone).
        self.cluster: Cluster | None = None
        #: Who has which table open on every server (with the cluster; None: this process's listeners).
        self.presence: SharedPresence | None = None
        #: How long a move sent to its table's owner waits for the answer (seconds).
        self.forward_seconds = 10.0
        self._background: set[asyncio.Task[Any]] = set()
        #: Versions other servers announced for tables being loaded here (their copy may have missed them).
        self._announced: dict[str, int] = {}
        #: The table sockets open on this server, per table (with the cluster: which tables it hears).
        self._sockets: Counter[str] = Counter()

    async def full_options(self, row: TableRow) -> dict[str, Any]:
        """The table's options with every content pack whole (stored tables name them by reference)."""
        options = dict(row.options)
        for name, value in row.options.items():
            if not is_pack_reference(value):
                continue
            try:
                options[name] = resolve_pack(value)  # known in this process already
                continue
            except ContentError:
                pass
            digest = value["sha256"]
            body = await self.store.aread(partial(Store.pack, digest=digest))
            if body is None:
                raise LookupError(f"table {row.id}: content pack {digest} is not stored")
            remember_pack_json(body)
            options[name] = resolve_pack(value)
        return options

    async def runtime(self, table_id: str) -> TableRuntime | None:
        """The table's runtime, loaded (replayed from its record) on first use."""
        runtime = self.runtimes.get(table_id)
        if runtime is not None:
            runtime.used = self.clock()
            return runtime
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        self._loaders[table_id] += 1
        try:
            async with lock:
                return await self._load(table_id)
        finally:
            self._loaders[table_id] -= 1
            if self._loaders[table_id] <= 0:  # nobody else waits to read it: its lock goes (ids are endless)
                del self._loaders[table_id]
                self._loading.pop(table_id, None)

    async def _load(self, table_id: str) -> TableRuntime | None:
        """:meth:`runtime`'s reading of a table not in memory (holding its loading lock)."""
        runtime = self.runtimes.get(table_id)
        if runtime is not None:
            runtime.used = self.clock()
            return runtime
        # Several servers: the lease first, then the record, so a new owner reads
        # everything the one before it committed.
        owned = await self.cluster.claim(table_id) if self.cluster is not None else True
        if self.cluster is not None and not owned:
            await self.cluster.hear(table_id)  # before reading: no later update passes this copy by
        found = await self.store.aread(lambda c: (Store.table(c, table_id), Store.table_actions(c, table_id)))
        row, actions = found
        if row is None or row.status not in ("active", "finished", "abandoned"):  # ended: for replays
            self._announced.pop(table_id, None)
            if owned and self.cluster is not None:
                await self.cluster.release(table_id)
            self._rehear(table_id)
            return None
        if owned and self.cluster is not None and row.status != "active":
            await self.cluster.release(table_id)  # an ended table needs no owner
        row.options = await self.full_options(row)
        game = get_game(row.game)
        state, takebacks = await asyncio.to_thread(
            replay_noting_takebacks, game, row.players, row.seed, row.options, actions
        )
        # The stored version counts taken-back actions and take-backs too (it only goes
        # up); only this runtime writes the table's actions, and it is not loaded yet.
        # The table may have been started (start()) while it replayed: keep that runtime,
        # or its listeners and this one's would never hear of each other's moves.
        runtime = self.runtimes.setdefault(table_id, TableRuntime(row, game, state, takebacks))
        runtime.used = self.clock()
        missed = self._announced.pop(table_id, -1)
        if runtime.state is state:  # this one is new
            runtime.wall = self.wall
            runtime.mirror = not owned and row.status == "active"
            if runtime.mirror:
                log.info("table %s is mirrored here (owned by another server)", table_id)
                if missed > runtime.version:  # the owner moved on while it was read here
                    self._keep(asyncio.get_running_loop().create_task(self._reload_locking(runtime)))
            else:
                self.pace_windows(runtime)
                self.schedule_clock(runtime)
        self._rehear(table_id)  # a game over, or one run here, needs hearing only for sockets
        return runtime

    def forget(self, table_id: str) -> None:
        """Drop a table from memory (it reloads from the database when needed)."""
        runtime = self.runtimes.pop(table_id, None)
        if runtime and runtime.bot_task:
            runtime.bot_task.cancel()
        if runtime and runtime.clock_task:
            runtime.clock_task.cancel()
        if runtime:
            for task in list(runtime.answer_tasks):
                task.cancel()
        if self.cluster is not None and table_id in self.cluster.owned:
            self._keep(asyncio.get_running_loop().create_task(self.cluster.release(table_id)))
        self._rehear(table_id)

    def forget_idle(self, idle_seconds: float) -> list[str]:
        """Drop the tables kept in memory that this server does not run and nobody used for ``idle_seconds``.

        A game over read for its replay or record, or a copy of a game another server
        runs (a mirror, which would hear its table until the game ended), is kept while
        it has a socket here or is in use, and read again from the database when next
        asked for. A game under way run here stays: its clocks, bots and response
        windows run here. The ids dropped.
        """
        now = self.clock()
        dropped = []
        for table_id, runtime in list(self.runtimes.items()):
            if runtime.row.status == "active" and not runtime.mirror:
                continue
            busy = (
                runtime.listeners
                or self._sockets[table_id] > 0
                or runtime.lock.locked()
                or any(not task.done() for task in runtime.answer_tasks)
                or (runtime.bot_task is not None and not runtime.bot_task.done())
            )
            if busy or now - runtime.used < idle_seconds:
                continue
            self.forget(table_id)
            dropped.append(table_id)
        if dropped:
            log.info("dropped %s tables nobody used for %s s from memory", len(dropped), idle_seconds)
        return dropped

    async def forget_idle_every(self, idle_seconds: float) -> None:
        """Drop idle tables (:meth:`forget_idle`) every half ``idle_seconds``, at most every minute, for ever."""
        while True:
            await asyncio.sleep(min(60.0, idle_seconds / 2))
            self.forget_idle(idle_seconds)

    # sockets -----------------------------------------------------------------------------

    async def open_socket(self, runtime: TableRuntime, listener: Listener) -> None:
        """Add a socket to the table and queue its snapshot.

        With several servers this server hears the table from then on, and from before
        the snapshot is taken: a copy here that was not heard until now (run here, or a
        game over) is first compared with the database and read again if it is behind
        (a resync by version), so the socket sees every later update, none missed.
        """
        table_id = runtime.row.id
        self._sockets[table_id] += 1  # first: the table stays heard while this waits
        try:
            if self.cluster is not None:
                fresh = table_id not in self.cluster.tables
                await self.cluster.hear(table_id)
                if fresh and (runtime.mirror or table_id not in self.cluster.owned):
                    await self._catch_up(runtime)
            async with runtime.lock:
                runtime.listeners.add(listener)
                listener.queue.put_nowait(runtime.snapshot(listener.seat, listener.words))
                listener.snapshot_version = runtime.seat_version(listener.seat)
        except BaseException:
            self._drop_socket(table_id)
            raise

    def close_socket(self, runtime: TableRuntime, listener: Listener) -> None:
        """Take a socket off the table (again: nothing); the last one here lets the table go unheard."""
        if listener in runtime.listeners:
            runtime.listeners.discard(listener)
            self._drop_socket(runtime.row.id)

    def _drop_socket(self, table_id: str) -> None:
        self._sockets[table_id] -= 1
        if self._sockets[table_id] <= 0:
            del self._sockets[table_id]
            self._rehear(table_id)

    # several servers ---------------------------------------------------------------------

    def join(self, cluster: Cluster, forward_seconds: float) -> None:
        """Share the tables with the other servers of ``cluster`` (started already): updates, moves, leases."""
        self.cluster = cluster
        self.forward_seconds = forward_seconds
        cluster.on_update = self._updated
        cluster.on_request = self._serve
        cluster.on_lost = self._lost
        cluster.on_reconnect = self._reconnected
        self._keep(asyncio.get_running_loop().create_task(self._watch_leases()))
        self._keep(asyncio.get_running_loop().create_task(self._run_the_unrun()))

    def _rehear(self, table_id: str) -> None:
        """Stop hearing a table this server no longer needs to (docs/deploy.md, "Several servers").

        It needs a table's updates while it holds a socket of it, or a copy of a game
        under way that another server runs (a mirror: its reads and forwarded moves rely
        on the copy being current). The owner needs nothing from the others but what its
        sockets are told, and a game over changes no more.
        """
        if self.cluster is None or table_id not in self.cluster.tables or self._sockets[table_id] > 0:
            return
        runtime = self.runtimes.get(table_id)
        if runtime is None or not runtime.mirror or runtime.row.status != "active":
            self.cluster.stop_hearing(table_id)

    async def _catch_up(self, runtime: TableRuntime) -> None:
        """Read a copy not heard until now again if the database is ahead of it (call while hearing the table)."""
        row = await self.store.aread(partial(Store.table, table_id=runtime.row.id))
        if row is not None and (row.version != runtime.version or row.status != runtime.row.status):
            log.info("table %s: caught up from version %s to %s", runtime.row.id, runtime.version, row.version)
            await self._reload_locking(runtime)

    async def _hear_and_catch_up(self, runtime: TableRuntime) -> None:
        """A table no longer run here is heard, and read again (another server may have moved it on meanwhile)."""
        assert self.cluster is not None
        await self.cluster.hear(runtime.row.id)
        await self._catch_up(runtime)

    def leave_cluster(self) -> None:
        """Stop watching the leases (the server is stopping)."""
        for task in list(self._background):
            task.cancel()

    def _keep(self, task: asyncio.Task[Any]) -> None:
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def announce(
        self, runtime: TableRuntime, steps: dict[str, Any] | None = None, say: dict[str, Any] | None = None
    ) -> None:
        """Tell the other servers the table changed: the steps stored (``steps``), or just its version now.

        ``steps`` is ``{"from": v, "to": v + n, "steps": [[seat, action], ...]}``; a mirror
        at ``from`` plays them itself, any other reads the table again. ``say``: the message
        this server's sockets got about the change (a timeout's, a resignation's), which
        the others' sockets get too, before their snapshots.
        """
        if self.cluster is None:
            return
        message = {"t": runtime.row.id, "node": self.cluster.node, "to": runtime.version, **(steps or {})}
        if say is not None:
            message["say"] = say
        log.debug("table %s: announcing version %s", runtime.row.id, message["to"])
        self.cluster.table_update(message)

    async def _updated(self, message: dict[str, Any]) -> None:
        """Another server changed a table: a mirror here plays its steps, or reads the table again."""
        assert self.cluster is not None
        if message.get("node") == self.cluster.node:
            return  # our own, heard back
        table_id = str(message.get("t"))
        runtime = self.runtimes.get(table_id)
        if "tell" in message or "hold" in message:  # a message for the sockets: the table itself is unchanged
            if runtime is not None:
                self._heard(runtime, message)
            return
        if runtime is None:
            if table_id in self._loading and self._loading[table_id].locked():  # being read here now
                self._announced[table_id] = max(self._announced.get(table_id, -1), int(message["to"]))
            return
        log.debug(
            "table %s: update %s -> %s heard at version %s (mirror: %s)",
            runtime.row.id,
            message.get("from"),
            message.get("to"),
            runtime.version,
            runtime.mirror,
        )
        steps = message.get("steps")
        async with runtime.lock:
            if steps is not None and runtime.mirror and int(message["to"]) <= runtime.version:
                return  # this copy has it already (it read the table after the owner stored it)
            if steps is not None and runtime.mirror and message.get("from") == runtime.version:
                try:
                    seen = int(message.get("seen", 0))
                    await self._play_steps(runtime, steps, int(message["to"]), seen, bool(message.get("confirmed")))
                    return
                except Exception:
                    log.exception("table %s: the owner's steps could not be followed; reading it again", runtime.row.id)
            await self._reload(runtime, message.get("say"))
        if not runtime.mirror:  # a change made on a mirror (a resignation, say) to a table run here
            if runtime.row.status != "active" and table_id in self.cluster.owned:
                await self.cluster.release(table_id)  # an ended table needs no owner
            self.pace_windows(runtime)
            self.schedule_clock(runtime)
            self.schedule_bots(runtime)
        self._rehear(table_id)  # a game over is heard only for its sockets

    def _heard(self, runtime: TableRuntime, message: dict[str, Any]) -> None:
        """Give this server's sockets of the table what another server's were told (:meth:`tell`, a held move)."""
        if "hold" in message:
            seat = int(message["hold"])
            payloads = [encode(payload) for payload in message["payloads"]]
            for listener in list(runtime.listeners):
                if listener.seat == seat:
                    listener.snapshot_version = None  # as on the owner: its seat's version is its own now
                    listener.put(payloads[int(listener.words)], int(message["version"]))
            return
        muted_by = {int(user_id) for user_id in message.get("muted_by") or ()}
        self.send_all(runtime, dict(message["tell"]), lambda listener: listener.user_id in muted_by)

    def tell(self, table_id: str, message: dict[str, Any], muted_by: Collection[int] = ()) -> None:
        """Send ``message`` to every socket of the table on every server, but to those of the users ``muted_by``.

        Chat, a rematch, a request to abandon: the table does not change, so any server may
        say it; the others hear it through the cluster in the order it was said here.
        """
        runtime = self.runtimes.get(table_id)
        if runtime is not None:
            self.send_all(runtime, message, lambda listener: listener.user_id in muted_by)
        if self.cluster is not None:
            self.cluster.table_update(
                {"t": table_id, "node": self.cluster.node, "tell": message, "muted_by": sorted(muted_by)}
            )

    async def _play_steps(
        self, runtime: TableRuntime, steps: list[list[Any]], to: int, seen: int = 0, confirmed: bool = False
    ) -> None:
        """Follow the owner's steps on this copy (the rules are deterministic) and send each socket its update.

        ``seen``: how many of the first steps were held moves their seat saw as it played
        them (its sockets get only the later steps' events, and ``confirmed`` as on the
        owner). Called holding the table's lock.
        """
        state = runtime.state.clone()
        takebacks = runtime.takebacks
        everything: list[Event] = []
        unseen: list[Event] = []
        for index, (seat, text) in enumerate(steps):
            events, refusal = apply_noting_takebacks(state, int(seat), runtime.game.parse_action(str(text)))
            takebacks = takebacks.then(int(seat), refusal)
            everything.extend(events)
            if index >= seen:
                unseen.extend(events)
        if state.is_terminal() or runtime.control is not None:
            # The result and the clocks are the owner's: read them as it stored them.
            row = await self.store.aread(partial(Store.table, table_id=runtime.row.id))
            if row is not None:
                row.options = runtime.row.options
                runtime.row = row
                runtime.clocks = Clocks.from_json(row.clocks)
                runtime.absences = Absences.from_json(row.absences)
        runtime.state = state
        runtime.takebacks = takebacks
        runtime.version = to
        runtime.row.version = to
        own = (int(steps[0][0]), unseen) if seen else None
        self.broadcast(runtime, everything, own=own, confirmed=confirmed)

    async def _reload(self, runtime: TableRuntime, say: dict[str, Any] | None = None) -> None:
        """Read the table again from the database and send every socket its snapshot (holding the table's lock).

        ``say``: a message every socket gets first (what happened, in the log's words).
        """
        table_id = runtime.row.id
        row, actions = await self.store.aread(lambda c: (Store.table(c, table_id), Store.table_actions(c, table_id)))
        if row is None:
            return
        row.options = await self.full_options(row)
        state, takebacks = await asyncio.to_thread(
            replay_noting_takebacks, runtime.game, row.players, row.seed, row.options, actions
        )
        runtime.row = row
        runtime.state = state
        runtime.takebacks = takebacks
        runtime.version = row.version
        runtime.control = TimeControl.from_json(row.time_control)
        runtime.clocks = Clocks.from_json(row.clocks)
        runtime.absences = Absences.from_json(row.absences)
        runtime.held = {}
        runtime._snapshots.clear()
        runtime._table_words = None
        log.debug("table %s: read again at version %s", table_id, runtime.version)
        said = encode(say) if say is not None else None
        for listener in list(runtime.listeners):
            listener.clear()
            if said is not None:
                listener.put(said, runtime.version)
            listener.put(runtime.snapshot(listener.seat, listener.words), runtime.version)
            listener.snapshot_version = runtime.seat_version(listener.seat)

    async def _reload_locking(self, runtime: TableRuntime) -> None:
        async with runtime.lock:
            await self._reload(runtime)

    async def forward(
        self,
        runtime: TableRuntime,
        op: str,
        seat: int,
        acknowledge: Callable[[int], None] | None = None,
        words: bool = False,
        **args: Any,
    ) -> Any:
        """Have the table's owner play ``op`` for ``seat`` (this server holds a mirror); its answer.

        The owner plays it as its own (the version guards a stale one) and stores and
        announces it before it answers, so this copy shows the new version when the
        answer arrives (both come in order over one connection); ``acknowledge`` is then
        called as :meth:`act` does. An owner that does not answer: :class:`ApiError` 503,
        nothing acknowledged. A table whose owner is gone is taken over and played here.
        """
        assert self.cluster is not None
        if not self.cluster.reachable:  # the owner cannot be asked: say so at once
            from meadhall.server.cluster import degraded

            raise degraded()
        table_id = runtime.row.id
        owner = await self.cluster.owner(table_id)
        if owner is None or owner == self.cluster.node:
            if await self.take_over(runtime):
                return await self._play(runtime, op, seat, acknowledge, words, args)
            owner = await self.cluster.owner(table_id)
            if owner is None:
                raise ApiError(503, "unanswered", "nobody holds this table just now; try again.")
        request = {"op": op, "t": table_id, "seat": seat, "words": words, "args": args}
        log.debug("table %s: %s for seat %s sent to %s", table_id, op, seat, owner)
        answer = await self._asked(owner, table_id, request)
        if not answer.get("ok"):
            raise ApiError(
                int(answer["status"]), str(answer["code"]), str(answer["message"]), **dict(answer.get("extra") or {})
            )
        version = int(answer["version"])
        if op in ("act", "undo", "confirm") and runtime.version < version and not answer.get("held"):
            log.warning("table %s: the owner answered version %s, here %s", table_id, version, runtime.version)
            async with runtime.lock:
                await self._reload(runtime)
        if acknowledge is not None:
            acknowledge(version)
        return answer.get("value")

    async def _asked(self, owner: str, table_id: str, request: dict[str, Any]) -> dict[str, Any]:
        """``owner``'s answer to a forwarded ``request`` about ``table_id``.

        :class:`ApiError` 503 ``unanswered`` after :attr:`forward_seconds`, or as soon as the
        table's lease lapses or passes to another server meanwhile: a dead owner's lease runs
        out long before the wait would, and the move is then tried again at once (the version
        guards it, should the owner have stored it before it died).
        """
        assert self.cluster is not None
        asking = asyncio.ensure_future(self.cluster.request(owner, request, self.forward_seconds))
        try:
            while True:
                done, _ = await asyncio.wait({asking}, timeout=self.cluster.lease_ms / 3000)
                if done:
                    return asking.result()
                try:
                    holder = await self.cluster.owner(table_id)
                except ApiError:  # Redis does not answer: the owner's answer may still come
                    continue
                if holder != owner:
                    raise ApiError(503, "unanswered", "the server holding this table stopped holding it; try again.")
        finally:
            asking.cancel()

    async def _play(
        self,
        runtime: TableRuntime,
        op: str,
        seat: int,
        acknowledge: Callable[[int], None] | None,
        words: bool,
        args: dict[str, Any],
    ) -> Any:
        """Play a move or a seat's request here (the owner): ``op`` is the method's name."""
        if op == "act":
            return await self.act(runtime, seat, args.get("version"), str(args["text"]), acknowledge, words=words)
        if op == "undo":
            return await self.undo(runtime, seat, args.get("version"), acknowledge, words=words)
        if op == "confirm":
            return await self.confirm(runtime, seat, args.get("version"), acknowledge, words=words)
        if op == "leave":
            return await self.leave(runtime, seat)
        if op == "take_seat_back":
            return await self.take_seat_back(runtime, seat)
        if op == "pause_seat":
            return await self.pause_seat(runtime, seat, bool(args["on"]))
        if op == "resign":
            return await self.resign(runtime, seat)
        if op == "abandon":
            mine = None if seat < 0 else seat
            return await self.abandon(runtime, int(args["user_id"]), mine, bool(args["rated"]))
        raise ApiError(400, "malformed", f"no such request between servers: {op}")

    async def _serve(self, request: dict[str, Any]) -> None:
        """Play a move another server sent here (this server owns its table) and answer it."""
        assert self.cluster is not None
        seat = int(request["seat"])
        try:
            runtime = await self.runtime(str(request["t"]))
            if runtime is None:
                raise ApiError(404, "no-game", "no game is being played at this table")
            if runtime.mirror:  # the lease passed on meanwhile: the asker tries again
                raise ApiError(503, "unanswered", "this table just moved to another server; try again.")
            value = await self._play(
                runtime, str(request["op"]), seat, None, bool(request.get("words")), dict(request.get("args") or {})
            )
            held = runtime.held_by(seat) is not None
            answer = {"ok": True, "version": runtime.seat_version(seat), "value": value, "held": held}
        except ApiError as refused:
            answer = {
                "ok": False,
                "status": refused.status,
                "code": refused.code,
                "message": refused.message,
                "extra": refused.extra,
            }
        except (OperationalError, InterfaceError) as error:  # the database is away: 503, as for a request here
            log.warning("a move sent from another server found no database: %s", error)
            answer = {"ok": False, "status": 503, "code": "database", "message": DATABASE_AWAY}
        except Exception:
            log.exception("a move sent from another server failed")
            answer = {"ok": False, "status": 500, "code": "failed", "message": "the move failed on its server"}
        self.cluster.reply(request, answer)

    async def take_over(self, runtime: TableRuntime) -> bool:
        """Make this server the owner of a mirrored table whose lease is free: read it again, then run it."""
        assert self.cluster is not None
        if not await self.cluster.claim(runtime.row.id):
            return False
        async with runtime.lock:
            if runtime.mirror:
                try:
                    await self._reload(runtime)  # everything the last owner committed
                except BaseException:
                    # Not read (the database is away): give the lease back, or this server
                    # would hold a table it does not run, and nobody would take it over.
                    await self.cluster.release(runtime.row.id)
                    raise
                runtime.mirror = False
                log.warning("took over table %s at version %s", runtime.row.id, runtime.version)
        self._rehear(runtime.row.id)
        self.pace_windows(runtime)
        self.schedule_clock(runtime)
        self.schedule_bots(runtime)
        return True

    async def _reconnected(self) -> None:
        """Redis is back: the updates sent meanwhile were lost, so every table held here is read again.

        A table whose lease ran out meanwhile is found lost at the next renewal, and
        taken over (here or elsewhere) from the database; an owner still holding its
        lease goes on.
        """
        for runtime in list(self.runtimes.values()):
            if runtime.row.status != "active":
                continue
            try:
                async with runtime.lock:
                    await self._reload(runtime)
            except Exception:
                log.exception("table %s: reading it again after Redis came back failed", runtime.row.id)
                continue
            if not runtime.mirror:
                self.pace_windows(runtime)
                self.schedule_clock(runtime)
                self.schedule_bots(runtime)
        log.info("read %s tables again after Redis came back", len(self.runtimes))

    async def _may_write(self, runtime: TableRuntime) -> None:
        """Check, before a move is stored here (holding the table's lock), that the table is ours and current.

        Refused with :class:`ApiError` 503 ``degraded`` once this server cannot be sure its
        lease still stands (Redis does not answer: another server may run the table by
        now). A table whose last write failed is read again first (that write may have
        been stored after all).
        """
        if self.cluster is not None and not self.cluster.sure(runtime.row.id):
            raise ApiError(
                503,
                "degraded",
                "this server cannot be sure it still runs this table (Redis does not answer); try again in a moment.",
            )
        if runtime.unsure:
            await self._reload(runtime)
            runtime.unsure = False

    def _lost(self, table_id: str) -> None:
        """The lease on a table run here was found gone: the table becomes a mirror (its bots and clocks stop here)."""
        runtime = self.runtimes.get(table_id)
        if runtime is None or runtime.mirror:
            return
        runtime.mirror = True
        for task in (runtime.bot_task, runtime.clock_task, *runtime.answer_tasks):
            if task is not None:
                task.cancel()
        log.warning("table %s: its lease was lost; mirrored here from now on", table_id)
        self._keep(asyncio.get_running_loop().create_task(self._hear_and_catch_up(runtime)))

    async def _watch_leases(self) -> None:
        """Every half lease, look at the leases of the tables mirrored here and take over a lost one."""
        assert self.cluster is not None
        while True:
            await asyncio.sleep(self.cluster.lease_ms / 2000)
            if not self.cluster.reachable:
                continue  # nobody can take a table over now
            for runtime in list(self.runtimes.values()):
                if runtime.row.status != "active":
                    continue
                table_id = runtime.row.id
                if not runtime.mirror:
                    if table_id not in self.cluster.owned:
                        # Run here without its lease (given back while the table was read
                        # again, after a failed write): a mirror from now on, heard and
                        # caught up, and taken over below like any other when free.
                        self._lost(table_id)
                    continue
                try:
                    if table_id in self.cluster.owned or await self.cluster.owner(table_id) is None:
                        await self.take_over(runtime)  # (held here yet mirrored: run it)
                except ApiError:  # Redis went away meanwhile (cluster.degraded): the next round
                    break
                except Exception:
                    log.exception("looking at the lease of table %s failed", runtime.row.id)

    async def _run_the_unrun(self) -> None:
        """Every lease, run here the tables with work of their own that no server runs.

        A server that dies hands its tables to the servers holding copies of them
        (:meth:`_watch_leases`); a table nobody else had open has no such copy. One that
        only waits for a person is run by the first server a request of it reaches, but
        one with a bot to move or a clock running would stand still: the first server to
        see its lease free takes it (docs/deploy.md, "Several servers").
        """
        assert self.cluster is not None
        while True:
            await asyncio.sleep(self.cluster.lease_ms / 1000)
            if not self.cluster.reachable:
                continue
            try:
                for row in await self.tables_with_work():
                    if row.id in self.runtimes or await self.cluster.owner(row.id) is not None:
                        continue  # run here or elsewhere, or a copy here takes it over (_watch_leases)
                    runtime = await self.runtime(row.id)  # (its lease claimed, its clock scheduled)
                    if runtime is not None and not runtime.mirror:
                        log.warning("took over table %s, which no server ran, at version %s", row.id, runtime.version)
                        self.schedule_bots(runtime)
            except (ApiError, OperationalError, InterfaceError) as away:  # Redis or the database: the next round
                log.warning("looking for tables that no server runs failed: %s", type(away).__name__)
            except Exception:
                log.exception("looking for tables that no server runs failed")

    async def tables_with_work(self) -> list[TableRow]:
        """The tables under way with work that no request starts: a bot to move, or a clock running."""
        table_ids = await self.store.aread(Store.active_table_ids)
        rows = await self.store.aread(lambda c: Store.tables(c, table_ids))
        return [row for row in rows if _has_work(row)]

    # response windows --------------------------------------------------------------------

    def pace_windows(self, runtime: TableRuntime) -> None:
        """After a change, time the response windows now open, and answer for people who can only pass.

        The pause is drawn before anything about the seat's hand is looked at, from the
        same ``pause()`` for every seat; a bot's seat waits its level's thinking time on
        top (a bot with a choice thinks that long), capped by its move's deadline.
        """
        runtime.releases = {}
        runtime.answered = set()
        state = runtime.state
        if runtime.row.status != "active" or runtime.mirror:  # the owner paces them
            return
        for seat in state.to_move():
            if not state.response_window(seat):
                continue
            wait = self.pause()
            spec = self._bot_spec(runtime, seat)
            if spec is not None:
                limit = self.bots.move_seconds if self.bots is not None else float("inf")
                wait += min(thinking_seconds(playing_spec(runtime.row, spec)), limit)
            runtime.releases[seat] = self.clock() + wait
            if spec is None:
                legal = state.legal_actions(seat)
                if len(legal) == 1:
                    runtime.answered.add(seat)
                    task = asyncio.get_running_loop().create_task(
                        self._answer_for(runtime, seat, runtime.version, str(legal[0]))
                    )
                    runtime.answer_tasks.add(task)
                    task.add_done_callback(runtime.answer_tasks.discard)

    async def _answer_for(self, runtime: TableRuntime, seat: int, version: int, text: str) -> None:
        """Play a seat's only action in a response window once its pause has passed (unless it moved first)."""
        with contextlib.suppress(ApiError):  # it answered itself, or the table went on
            await self.act(runtime, seat, version, text)

    @staticmethod
    def _bot_spec(runtime: TableRuntime, seat: int) -> str | None:
        seats = runtime.row.seats
        if seat < len(seats) and seats[seat].kind == "bot" and seats[seat].bot:
            return seats[seat].bot
        return None

    async def start(self, row: TableRow) -> TableRuntime:
        """Deal a table that has just been started (``row`` as committed) and make it live.

        If a request already loaded it from the database meanwhile, that runtime stays.
        """
        existing = self.runtimes.get(row.id)
        if existing is not None:
            self.schedule_bots(existing)
            return existing
        options = await self.full_options(row)
        existing = self.runtimes.get(row.id)  # (reading a stored pack may have let a loader in)
        if existing is not None:
            self.schedule_bots(existing)
            return existing
        owned = await self.cluster.claim(row.id) if self.cluster is not None else True
        existing = self.runtimes.get(row.id)  # (as may claiming the lease)
        if existing is not None:
            self.schedule_bots(existing)
            return existing
        row.options = options
        game = get_game(row.game)
        state = game.new_game(players=row.players, seed=row.seed, options=row.options)
        row.version = 0
        runtime = TableRuntime(row, game, state)
        runtime.wall = self.wall
        runtime.mirror = not owned
        runtime.used = self.clock()
        self.runtimes[row.id] = runtime
        if self.cluster is not None and owned:
            self.announce(runtime)  # a server that loaded it while it was open reads it again
        elif self.cluster is not None:  # started here, run by the server that claimed it first
            self._keep(asyncio.get_running_loop().create_task(self._hear_and_catch_up(runtime)))
        self.pace_windows(runtime)
        self.schedule_bots(runtime)
        self.schedule_clock(runtime)
        return runtime

    async def act(
        self,
        runtime: TableRuntime,
        seat: int,
        version: int | None,
        text: str,
        acknowledge: Callable[[int], None] | None = None,
        *,
        words: bool = False,
        by_bot: bool = False,
    ) -> dict[str, Any]:
        """Apply one action for ``seat``, chosen on ``version``; commit it, then broadcast it.

        Returns what ``seat`` receives (its payload with the events; with the game's words
        if ``words``). Raises
        :class:`ApiError` (nothing changes) if it is stale, out of turn, malformed or
        illegal. ``acknowledge(new_version)`` is called right after the broadcast has
        been queued, as soon as the commit is done (a WebSocket's ``acted`` answer goes
        out with the update, not a turn of the event loop later).

        At a confirm-turn table (:meth:`TableRuntime.may_hold`) a person's move in its
        turn is held instead: only its seat gets the update (its version counts the held
        moves), nothing is written or broadcast, until :meth:`confirm`. A move that could
        not be taken back (it reveals something) commits the held moves and itself at once.

        A person's seat a bot plays after a timeout is refused to the person (409
        ``taken-over``: they take the seat back first); ``by_bot``: the bot's own move,
        refused (409 ``taken-back``) once the person has taken the seat back.

        On a mirror (another server owns the table) the move is played by the owner
        (:meth:`forward`), and answered here once this copy shows it.
        """
        if runtime.mirror:
            answered: dict[str, Any] = await self.forward(
                runtime, "act", seat, acknowledge, words, version=version, text=text
            )
            return answered
        release = runtime.releases.get(seat)
        if release is not None and version in (None, runtime.version):
            wait = release - self.clock()
            if wait > 0:  # a response window's answer waits out the window's pause, whatever it is
                await self.sleep(wait)
        started = time.perf_counter()
        async with runtime.lock:
            await self._may_write(runtime)
            _require_current(runtime, version, "your move was chosen", seat)
            if runtime.taken_over(seat) and not by_bot:
                raise ApiError(
                    409, "taken-over", "a bot plays your seat since your time ran out: take the seat back first"
                )
            if by_bot and seat not in runtime._bot_seats():
                raise ApiError(409, "taken-back", "the player took the seat back")
            held = runtime.held_by(seat)
            state = held.states[-1] if held is not None else runtime.state
            if seat not in state.to_move():
                raise ApiError(409, "not-your-turn", "it is not your turn")
            try:
                action = runtime.game.parse_action(text)
            except MalformedAction as error:
                raise ApiError(400, "malformed", str(error)) from None
            if runtime.guide is not None:
                off_script = guide_refusal(runtime.guide, state, seat, str(action))
                if off_script is not None:
                    raise ApiError(422, "guide", off_script, rule="guide")
            after = state.clone()
            try:
                events, refusal = apply_noting_takebacks(after, seat, action)
            except IllegalAction as error:
                raise ApiError(422, "illegal", str(error), rule=error.rule) from None
            step = (str(action), events, list(after.to_move()))
            if refusal is None and runtime.may_hold(seat, state):
                if held is None:
                    held = runtime.held[seat] = Held(runtime.version)
                held.states.append(after)
                held.steps.append(step)
                answer = self._tell_holder(runtime, seat, events, words=words)
                if acknowledge is not None:
                    acknowledge(runtime.seat_version(seat))
                return answer
            steps = [*(held.steps if held is not None else []), step]
            answer = await self._commit(runtime, seat, steps, after, refusal, events, acknowledge, words=words)
        self.moves += 1
        self.move_seconds.append(time.perf_counter() - started)
        if len(self.move_seconds) > 10_000:
            del self.move_seconds[:5_000]
        self.schedule_bots(runtime)
        return answer

    async def confirm(
        self,
        runtime: TableRuntime,
        seat: int,
        version: int | None,
        acknowledge: Callable[[int], None] | None = None,
        *,
        words: bool = False,
    ) -> dict[str, Any]:
        """Commit the moves ``seat`` holds (chosen on ``version``, the seat's own) and broadcast them.

        Refused with :class:`ApiError` 409, nothing changed: ``not-active``, ``stale``, or
        ``nothing-held`` when the seat holds no moves. The others then get one ``update``
        with every held move's events they may see; the seat gets its payload (no events:
        it saw them as it played).
        """
        if runtime.mirror:
            answered: dict[str, Any] = await self.forward(runtime, "confirm", seat, acknowledge, words, version=version)
            return answered
        async with runtime.lock:
            await self._may_write(runtime)
            _require_current(runtime, version, "your confirmation was asked", seat)
            held = runtime.held_by(seat)
            if held is None:
                raise ApiError(409, "nothing-held", "you have no moves waiting to be confirmed")
            answer = await self._commit(
                runtime, seat, list(held.steps), held.states[-1], None, [], acknowledge, words=words, confirmed=True
            )
        self.schedule_bots(runtime)
        return answer

    def _tell_holder(
        self, runtime: TableRuntime, seat: int, events: list[Event], *, words: bool, taken_back: bool = False
    ) -> dict[str, Any]:
        """Send ``seat``'s sockets (and only them) its update after a held move or a dropped one; return its payload."""
        built: dict[bool, dict[str, Any]] = {}
        version = runtime.seat_version(seat)
        for listener in list(runtime.listeners):
            if listener.seat != seat:
                continue
            listener.snapshot_version = None  # its seat's version may go down (a dropped move): a resync always answers
            payload = built.get(listener.words)
            if payload is None:
                payload = built[listener.words] = {
                    "type": "update",
                    **runtime.payload(seat, events, words=listener.words),
                }
                if taken_back:
                    payload["taken_back"] = seat
            listener.put(encode(payload), version)
        for with_words in (False, True) if self.cluster is not None else (words,):
            if with_words not in built:
                built[with_words] = {"type": "update", **runtime.payload(seat, events, words=with_words)}
                if taken_back:
                    built[with_words]["taken_back"] = seat
        if self.cluster is not None:  # the holder's sockets on other servers see its held moves too
            message = {"t": runtime.row.id, "node": self.cluster.node, "hold": seat, "version": version}
            self.cluster.table_update({**message, "payloads": [built[False], built[True]]})
        return built[words]

    async def _commit(
        self,
        runtime: TableRuntime,
        seat: int,
        steps: list[tuple[str, list[Event], list[int]]],
        after: GameState[Any],
        refusal: IllegalAction | None,
        own_events: list[Event],
        acknowledge: Callable[[int], None] | None,
        *,
        words: bool,
        confirmed: bool = False,
    ) -> dict[str, Any]:
        """Write ``seat``'s ``steps`` (held ones, then the last) in one transaction; ``after`` becomes the state.

        ``refusal`` is why the last step may not be taken back (the held ones may). The
        others get every step's events they may see; ``seat`` gets ``own_events`` (those
        it has not seen yet), with ``confirmed`` when this is its confirmation (its version
        stays what its held moves made it). Called holding the table's lock.
        """
        finished = None
        clocks = self._clocks_after(runtime, seat, list(after.to_move()))
        if after.is_terminal():
            losers = runtime.losers() if clocks is None else sorted({*clocks.timed_out, *runtime.absences.left})
            finished = {"scores": after.scores(), "places": places_with_losers(after.ranking(), losers)}
            timed_out = [s for s in losers if s not in runtime.absences.left]
            if timed_out:
                finished["timed_out"] = timed_out
            if runtime.absences.left:
                finished["left"] = list(runtime.absences.left)
            if clocks is not None:
                clocks.running = []
        seq = runtime.version
        count = len(steps)
        everything = [event for _, events, _ in steps for event in events]
        answers: list[dict[str, Any]] = []
        movers_before = list(runtime.state.to_move())

        def committed(_: None) -> None:
            # Runs the moment the actions are on disk (we still hold the table's lock).
            runtime.held.pop(seat, None)
            runtime.state = after
            takebacks = runtime.takebacks
            for index in range(count):
                takebacks = takebacks.then(seat, refusal if index == count - 1 else None)
            runtime.takebacks = takebacks
            runtime.version = seq + count
            runtime.row.version = seq + count
            self._set_clocks(runtime, clocks)
            if finished is not None:
                runtime.row.status = "finished"
                runtime.row.result = finished
            self.pace_windows(runtime)
            payloads = self.broadcast(runtime, everything, own=(seat, own_events), confirmed=confirmed)
            answers.append(
                payloads.get((seat, words)) or {"type": "update", **runtime.payload(seat, own_events, words=words)}
            )
            if confirmed:
                answers[0]["confirmed"] = True
            if self.cluster is not None:
                stored: dict[str, Any] = {"from": seq, "to": seq + count, "steps": [[seat, a] for a, _, _ in steps]}
                seen = count if confirmed else count - 1  # the held steps: their seat saw them as it played
                if seen:
                    stored.update(seen=seen, confirmed=confirmed)
                self.announce(runtime, stored)
            if acknowledge is not None:
                acknowledge(seq + count)
            if self.notifier is not None:
                present = {listener.seat for listener in runtime.listeners if listener.seat is not None}
                elsewhere = self.presence.open_seats if self.presence is not None else None
                self.notifier.table_moved(runtime.row, movers_before, after.to_move(), present, elsewhere)
            if finished is not None:
                self._game_ended(runtime.row)

        writes = [
            Store.append_action(
                runtime.row.id, seq + index, seat, action, to_move, finished if index == count - 1 else None
            )
            for index, (action, _, to_move) in enumerate(steps)
        ]
        # One move alone stays a batchable ActionWrite (the writer stores many tables' moves at once).
        write: Callable[[Connection], None] = writes[0] if count == 1 else Store.together(*writes)
        if clocks is not None:
            write = Store.together(write, Store.set_clocks(runtime.row.id, clocks.to_json()))
        if finished is not None:
            write = Store.together(write, Store.rate_finished(runtime.row, finished["places"], finished))
        try:
            await self.store.writer.run(write, committed)
        except asyncio.CancelledError:
            # The write may still commit: the table reloads from the database, which
            # is the truth, rather than go on from a state that may be one move behind.
            self.forget(runtime.row.id)
            raise
        except Exception:
            # Not stored, as far as we know (the database went away mid-commit, say): the
            # table is read again before its next move, in case it was stored after all.
            runtime.unsure = True
            raise
        return answers[0]

    async def undo(
        self,
        runtime: TableRuntime,
        seat: int,
        version: int | None,
        acknowledge: Callable[[int], None] | None = None,
        *,
        words: bool = False,
    ) -> dict[str, Any]:
        """Take back ``seat``'s latest action (chosen on ``version``): replay without it, commit, broadcast.

        Refused with :class:`ApiError`, nothing changed: 409 when the game is not being
        played, the version is stale, or the latest action is not the seat's (another seat
        acted since, or nothing was played); 422 with the rules' words when the seat's
        latest action may not be taken back (it drew on chance or showed something hidden).
        Everyone gets an ``update`` with ``taken_back`` (the seat) and no events; the state
        is the replay of the record without the action, so every view and the generator
        are exactly as before it.

        While the seat holds moves (a confirm-turn table), undo drops the latest held one:
        nothing is written and only the seat's sockets hear of it.
        """
        if runtime.mirror:
            answered: dict[str, Any] = await self.forward(runtime, "undo", seat, acknowledge, words, version=version)
            return answered
        async with runtime.lock:
            await self._may_write(runtime)
            _require_current(runtime, version, "your undo was asked", seat)
            held = runtime.held_by(seat)
            if held is not None:
                held.states.pop()
                held.steps.pop()
                answer = self._tell_holder(runtime, seat, [], words=words, taken_back=True)
                if acknowledge is not None:
                    acknowledge(runtime.seat_version(seat))
                return answer
            refusal = runtime.takebacks.refusal_for(seat)
            if refusal is not None:
                status = 409 if refusal.rule in NOT_NOW else 422
                raise ApiError(status, "not-undoable", str(refusal), rule=refusal.rule)
            state, takebacks = await asyncio.to_thread(take_back, runtime.game, runtime.state, seat, runtime.takebacks)
            seq = runtime.version
            answers: list[dict[str, Any]] = []
            clocks = self._clocks_after(runtime, None, list(state.to_move()))

            def committed(_: None) -> None:
                runtime.state = state
                runtime.takebacks = takebacks
                self._set_clocks(runtime, clocks)
                runtime.version = seq + 1
                runtime.row.version = seq + 1
                self.pace_windows(runtime)
                payloads = self.broadcast(runtime, [], taken_back=seat)
                answers.append(
                    payloads.get((seat, words))
                    or {"type": "update", "taken_back": seat, **runtime.payload(seat, [], words=words)}
                )
                self.announce(runtime)
                if acknowledge is not None:
                    acknowledge(seq + 1)

            try:
                write = Store.take_back(runtime.row.id, seq, 1, list(state.to_move()))
                if clocks is not None:
                    write = Store.together(write, Store.set_clocks(runtime.row.id, clocks.to_json()))
                await self.store.writer.run(write, committed)
            except asyncio.CancelledError:
                self.forget(runtime.row.id)
                raise
            except Exception:
                runtime.unsure = True  # as in _commit
                raise
            answer = answers[0]
        self.schedule_bots(runtime)
        return answer

    # clocks ------------------------------------------------------------------------------

    def starting_clocks(self, row: TableRow, to_move: list[int]) -> dict[str, Any] | None:
        """The clocks of a table starting now (as stored), the first movers' running; None without a time control."""
        control = TimeControl.from_json(row.time_control)
        if control is None:
            return None
        clocks = Clocks.starting(control, row.players)
        running = [s for s in to_move if row.seats[s].kind == "user" and not row.seats[s].bot]
        return Clocks(clocks.remaining, running, self.wall()).to_json()

    def _clocks_after(self, runtime: TableRuntime, mover: int | None, to_move: list[int]) -> Clocks | None:
        """The table's clocks after ``mover`` acted (``None``: a take-back), ``to_move`` to move next."""
        if runtime.control is None or runtime.clocks is None:
            return None
        return runtime.clocks.after(runtime.control, self.wall(), mover, runtime.clock_seats(to_move))

    def _set_clocks(self, runtime: TableRuntime, clocks: Clocks | None) -> None:
        """Make ``clocks`` the table's (committed) and wait for the next one to run out."""
        if clocks is None:
            return
        runtime.clocks = clocks
        runtime.row.clocks = clocks.to_json()
        self.schedule_clock(runtime)

    def schedule_clock(self, runtime: TableRuntime) -> None:
        """Wait for the first running clock to run out (a task replacing the one waiting before)."""
        if runtime.clock_task is not None and runtime.clock_task is not asyncio.current_task():
            runtime.clock_task.cancel()
        runtime.clock_task = None
        if runtime.row.status != "active" or runtime.mirror or runtime.control is None or runtime.clocks is None:
            return
        first = runtime.clocks.first_out(self.wall())
        if first is None:
            return
        runtime.clock_task = asyncio.get_running_loop().create_task(self._wait_clock(runtime, first[0]))

    async def _wait_clock(self, runtime: TableRuntime, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))
        try:
            await self.time_out(runtime)
        except Exception:
            log.exception("timing out a seat at table %s failed", runtime.row.id)

    async def time_out(self, runtime: TableRuntime) -> int | None:
        """Apply the table's timeout rule to a seat whose clock has run out; returns it (``None``: none has).

        The seat's clock stops at zero and a bot of the table's level plays it (stored with
        the clocks in one transaction); under the ``lose`` rule, and under ``bot`` until the
        player takes the seat back, the timeout counts as a loss when the game ends. Every
        seat and spectator gets a ``timeout`` message (the log's words) and then its snapshot.
        """
        async with runtime.lock:
            control, clocks = runtime.control, runtime.clocks
            if runtime.row.status != "active" or control is None or clocks is None:
                return None
            now = self.wall()
            first = clocks.first_out(now)
            if first is None or first[0] > 0:
                self.schedule_clock(runtime)
                return None
            seat = first[1]
            left = clocks.left(now)
            left[seat] = 0.0
            text = timeout_words(await self.seat_name(runtime, seat), control)
            event = runtime.seat_event("timeout", seat, text)
            out = Clocks(
                left,
                [s for s in clocks.running if s != seat],
                now,
                sorted({*clocks.timed_out, seat}),
                [*clocks.events, event],
                list(clocks.paused),
            )
            write = Store.together(
                Store.set_seat_bot(runtime.row.id, seat, control.bot), Store.set_clocks(runtime.row.id, out.to_json())
            )
            try:
                await self.store.writer.run(write)
            except asyncio.CancelledError:
                self.forget(runtime.row.id)  # the write may still commit: the database is the truth
                raise
            runtime.row.seats[seat].bot = control.bot
            self._set_clocks(runtime, out)
            self._table_event(runtime, "timeout", seat, text)
            if self.notifier is not None:
                self.notifier.table_timed_out(runtime.row, seat, text)
        self.schedule_bots(runtime)
        return seat

    async def take_seat_back(self, runtime: TableRuntime, seat: int) -> None:
        """The person of ``seat`` plays it again: the bot stops, their clock runs again if it is their turn.

        Under the ``bot`` rule their timeout no longer counts as a loss. Refused (409
        ``not-taken-over``) when no bot plays the seat.
        """
        if runtime.mirror:
            await self.forward(runtime, "take_seat_back", seat)
            return
        async with runtime.lock:
            control, clocks = runtime.control, runtime.clocks
            if runtime.row.status != "active" or not runtime.taken_over(seat):
                raise ApiError(409, "not-taken-over", "no bot plays your seat: it is yours")
            if seat in runtime.absences.left:
                raise ApiError(409, "left", "you left this game: your seat stays with the bot")
            text = comeback_words(await self.seat_name(runtime, seat))
            runtime.row.seats[seat].bot = None
            back = None
            if control is not None and clocks is not None:
                now = self.wall()
                left = clocks.left(now)
                left[seat] = control.comeback()
                timed_out = (
                    clocks.timed_out if control.on_timeout == "lose" else [s for s in clocks.timed_out if s != seat]
                )
                event = runtime.seat_event("seat-back", seat, text)
                back = Clocks(
                    left,
                    runtime.clock_seats(list(runtime.state.to_move())),
                    now,
                    timed_out,
                    [*clocks.events, event],
                    list(clocks.paused),
                )
            write = Store.set_seat_bot(runtime.row.id, seat, None)
            if back is not None:
                write = Store.together(write, Store.set_clocks(runtime.row.id, back.to_json()))
            try:
                await self.store.writer.run(write)
            except BaseException:
                runtime.row.seats[seat].bot = control.bot if control is not None else None
                raise
            if runtime.bot_task is not None and self.bot_seat(runtime) is None:
                runtime.bot_task.cancel()
            self._set_clocks(runtime, back)
            self._table_event(runtime, "seat-back", seat, text)

    async def leave(self, runtime: TableRuntime, seat: int) -> dict[str, Any] | None:
        """The person of ``seat`` leaves the game under way: a loss for them, whatever the standing.

        With two or more people still playing (not left, not out on time), a bot plays the
        seat on (the table's timeout level, or :data:`LEAVE_BOT`) and the game goes on;
        otherwise it ends now, rated like a resignation (the leavers last). Every seat
        gets a ``left`` message (the log's words); returns the result when the game ended.
        """
        if runtime.mirror:
            left: dict[str, Any] | None = await self.forward(runtime, "leave", seat)
            return left
        async with runtime.lock:
            if runtime.row.status != "active":
                raise ApiError(409, "not-active", "only a game under way can be left")
            if seat in runtime.absences.left:
                raise ApiError(409, "left", "you left this game already")
            losers = {*runtime.losers(), seat}
            playing = [s.seat for s in runtime.row.seats if s.kind == "user" and s.seat not in losers]
            bot = None if len(playing) < 2 else runtime.control.bot if runtime.control is not None else LEAVE_BOT
            text = leave_words(await self.seat_name(runtime, seat), bot)
            event = runtime.seat_event("left", seat, text)
            absences = Absences(sorted({*runtime.absences.left, seat}), [*runtime.absences.events, event])
            write = Store.set_absences(runtime.row.id, absences.to_json())
            clocks = runtime.clocks
            result: dict[str, Any] | None = None
            if bot is None:
                places = places_with_losers(runtime.state.ranking(), sorted(losers))
                result = {"scores": runtime.state.scores(), "places": places, "left": absences.left, "leaver": seat}
                timed_out = [s for s in sorted(losers) if s not in absences.left]
                if timed_out:
                    result["timed_out"] = timed_out
                if clocks is not None:
                    clocks = Clocks(
                        clocks.left(self.wall()), [], self.wall(), clocks.timed_out, clocks.events, clocks.paused
                    )
                    write = Store.together(write, Store.set_clocks(runtime.row.id, clocks.to_json()))
                write = Store.together(
                    write,
                    Store.set_status(
                        runtime.row.id, "finished", ("active",), finished_at=now(), result=result, to_move=[]
                    ),
                    Store.rate_finished(runtime.row, places, result),
                )
            else:
                write = Store.together(write, Store.set_seat_bot(runtime.row.id, seat, bot))
                if clocks is not None and runtime.control is not None:
                    # Its clock stops: a bot plays the seat.
                    running = [s for s in runtime.clock_seats(list(runtime.state.to_move())) if s != seat]
                    clocks = clocks.after(runtime.control, self.wall(), None, running)
                    write = Store.together(write, Store.set_clocks(runtime.row.id, clocks.to_json()))
            try:
                await self.store.writer.run(write)
            except ValueError:
                raise ApiError(409, "not-active", "only a game under way can be left") from None
            except asyncio.CancelledError:
                self.forget(runtime.row.id)  # the write may still commit: the database is the truth
                raise
            runtime.absences = absences
            runtime.row.absences = absences.to_json()
            if result is not None:
                runtime.row.status = "finished"
                runtime.row.result = result
                if runtime.bot_task is not None:
                    runtime.bot_task.cancel()
                if clocks is not None:
                    runtime.clocks = clocks
                    runtime.row.clocks = clocks.to_json()
                self.schedule_clock(runtime)  # the game is over: its clocks stop
            else:
                runtime.row.seats[seat].bot = bot
                self._set_clocks(runtime, clocks)
            self._table_event(runtime, "left", seat, text, **({"result": result} if result is not None else {}))
            if result is not None:
                self._game_ended(runtime.row)
        if result is None:
            self.schedule_bots(runtime)
        return result

    async def pause_seat(self, runtime: TableRuntime, seat: int, on: bool) -> bool:
        """Pause (``on``: its player went on vacation) or restart ``seat``'s async clock; whether it changed.

        Only a table with days per move pauses (live clocks do not). The clock keeps what
        it had left; a turn that starts meanwhile still gets its days afresh. Every seat
        gets a ``vacation`` or ``back-from-vacation`` message (the log's words).
        """
        if runtime.mirror:
            return bool(await self.forward(runtime, "pause_seat", seat, on=on))
        async with runtime.lock:
            control, clocks = runtime.control, runtime.clocks
            if runtime.row.status != "active" or control is None or clocks is None or control.kind != "async":
                return False
            if (seat in clocks.paused) == on:
                return False
            kind = "vacation" if on else "back-from-vacation"
            text = vacation_words(await self.seat_name(runtime, seat), on)
            out = clocks.pausing(self.wall(), seat, on, runtime.seat_event(kind, seat, text))
            try:
                await self.store.writer.run(Store.set_clocks(runtime.row.id, out.to_json()))
            except asyncio.CancelledError:
                self.forget(runtime.row.id)  # the write may still commit: the database is the truth
                raise
            self._set_clocks(runtime, out)
            self._table_event(runtime, kind, seat, text)
        return True

    async def resign(self, runtime: TableRuntime, seat: int) -> None:
        """``seat`` concedes: the game ends now, a loss for it, the others placed by the standing.

        Every seat and spectator, on every server, gets ``{"type": "resigned", "seat": S,
        "result": ...}``, then the ended game. Refused with :class:`ApiError` 409
        ``not-active`` once the game is over. On a mirror the owner plays it (:meth:`forward`).
        """
        if runtime.mirror:
            await self.forward(runtime, "resign", seat)
            return
        async with runtime.lock:
            await self._may_write(runtime)
            if runtime.row.status != "active":
                raise ApiError(409, "not-active", "only a game under way can be resigned")
            others = [s for s in runtime.losers() if s != seat]
            places = places_with_losers(runtime.state.ranking(), [seat, *others])
            result: dict[str, Any] = {"scores": runtime.state.scores(), "places": places, "resigned": seat}
            timed_out = [s for s in others if s not in runtime.absences.left]
            if timed_out:
                result["timed_out"] = timed_out
            if runtime.absences.left:
                result["left"] = list(runtime.absences.left)
            try:
                await self.store.writer.run(
                    Store.together(
                        Store.set_status(
                            runtime.row.id, "finished", ("active",), finished_at=now(), result=result, to_move=[]
                        ),
                        Store.rate_finished(runtime.row, places, result),
                    )
                )
            except ValueError:
                raise ApiError(409, "not-active", "only a game under way can be resigned") from None
            runtime.row.status = "finished"
            runtime.row.result = result
            if runtime.bot_task is not None:
                runtime.bot_task.cancel()
            self.schedule_clock(runtime)  # the game is over: its clocks stop
            log.info("table %s: seat %s resigned", runtime.row.id, seat)
            resigned = {"type": "resigned", "seat": seat, "result": result}
            self.send_all(runtime, resigned, lambda listener: False)
            self.announce(runtime, say=resigned)  # other servers holding the table read it again
            self._game_ended(runtime.row)
        if self.cluster is not None and runtime.row.id in self.cluster.owned:
            await self.cluster.release(runtime.row.id)  # an ended table needs no owner

    async def abandon(self, runtime: TableRuntime, user_id: int, seat: int | None, rated: bool) -> list[int] | None:
        """End the table without a result; at a ``rated`` game under way only once every seated person asked.

        ``seat``: the asker's (``None``: not seated; the caller checked the asker may end
        it). Returns the seats that have asked while some have not (each socket, on every
        server, gets ``abandon-requested``), or ``None`` once it is abandoned (each gets
        ``abandoned``, then the ended table). The owner keeps the requests: a mirror
        sends the request there (:meth:`forward`).
        """
        if runtime.mirror:
            asked: list[int] | None = await self.forward(
                runtime, "abandon", -1 if seat is None else seat, user_id=user_id, rated=rated
            )
            return asked
        table_id = runtime.row.id
        async with runtime.lock:
            if runtime.row.status != "active":
                raise ApiError(409, "over", "this game is over already")
            if rated and runtime.version > 0 and seat is not None:
                runtime.abandon_requests.add(user_id)
                people = {
                    s.seat: s.user_id
                    for s in runtime.row.seats
                    if s.kind == "user" and s.user_id is not None and s.seat not in runtime.absences.left
                }
                waiting = sorted(s for s, person in people.items() if person in runtime.abandon_requests)
                if len(waiting) < len(people):
                    self.tell(table_id, {"type": "abandon-requested", "seats": waiting})
                    return waiting
            await self._may_write(runtime)
            try:
                await self.store.writer.run(Store.set_status(table_id, "abandoned", ("active",), finished_at=now()))
            except ValueError:
                raise ApiError(409, "over", "this game is over already") from None
            runtime.row.status = "abandoned"
            self.send_all(runtime, {"type": "abandoned"}, lambda listener: False)
            self.announce(runtime, say={"type": "abandoned"})  # other servers holding it read it again
            self._game_ended(runtime.row, mail=False)  # an abandoned game sends no e-mail
        self.forget(table_id)
        return None

    def _game_ended(self, row: TableRow, *, mail: bool = True) -> None:
        """A game ended here (its owner): e-mail its players (with ``mail``), show it on its people's lobbies."""
        if mail and self.notifier is not None:
            self.notifier.table_ended(row)
        if self.lobby_changed is not None:
            self.lobby_changed(row)

    async def seat_name(self, runtime: TableRuntime, seat: int) -> str:
        """A person's seat's name for the log's words: its player's display name (``Seat N`` if gone)."""
        user_id = runtime.row.seats[seat].user_id
        user = None if user_id is None else await self.store.aread(partial(Store.user_by_id, user_id=user_id))
        return user.display_name if user is not None else seat_label(seat)

    def _table_event(self, runtime: TableRuntime, kind: str, seat: int, text: str, **more: Any) -> None:
        """Tell every seat and spectator what happened to a seat (the log's ``text``), then resend their snapshots."""
        runtime._snapshots.clear()
        message = {"type": kind, "seat": seat, "text": text, **more}
        self.announce(runtime, say=message)
        self.send_all(runtime, message, lambda listener: False)
        for listener in list(runtime.listeners):
            listener.put(runtime.snapshot(listener.seat, listener.words), runtime.version)

    # live updates ------------------------------------------------------------------------

    def broadcast(
        self,
        runtime: TableRuntime,
        events: list[Event],
        *,
        taken_back: int | None = None,
        own: tuple[int, list[Event]] | None = None,
        confirmed: bool = False,
    ) -> dict[tuple[int | None, bool], dict[str, Any]]:
        """Queue the update for every listener: each gets its own seat's view and events.

        ``taken_back``: the update is a take-back by that seat (``taken_back`` in the message).
        ``own``: (seat, events): that seat gets these events instead (confirmed moves it saw
        held), and ``confirmed`` in its message when ``confirmed`` (only that seat's).

        Each seat's update (spectators: one for all), with or without the game's words,
        is built and encoded once, however many sockets receive it. Returns the payloads
        built, by seat and words.
        """
        built: dict[tuple[int | None, bool], dict[str, Any]] = {}
        encoded: dict[tuple[int | None, bool], str] = {}
        version = runtime.version
        for listener in list(runtime.listeners):
            key = (listener.seat, listener.words)
            text = encoded.get(key)
            if text is None:
                seen = own[1] if own is not None and listener.seat == own[0] else events
                payload = {"type": "update", **runtime.payload(listener.seat, seen, words=key[1])}
                if confirmed and own is not None and listener.seat == own[0]:
                    payload["confirmed"] = True
                if taken_back is not None:
                    payload["taken_back"] = taken_back
                built[key] = payload
                text = encoded[key] = encode(payload)
            listener.put(text, version)
        return built

    def send_all(self, runtime: TableRuntime, message: dict[str, Any], skip: Callable[[Listener], bool]) -> None:
        """Queue ``message`` for every listener but those ``skip`` rejects (chat)."""
        text = encode(message)
        for listener in list(runtime.listeners):
            if not skip(listener):
                with contextlib.suppress(asyncio.QueueFull):
                    listener.queue.put_nowait(text)

    # bots ------------------------------------------------------------------------------------

    def bot_seat(self, runtime: TableRuntime) -> tuple[int, str] | None:
        """The bot that must move now, if any."""
        if runtime.row.status != "active":
            return None
        for seat in runtime.state.to_move():
            spec = runtime.row.seats[seat].bot if seat < len(runtime.row.seats) else None
            if spec:  # a bot's seat, or a person's a bot plays after a timeout
                return seat, spec
        return None

    def schedule_bots(self, runtime: TableRuntime) -> None:
        """Let the bot whose turn it is think, without blocking the server (a search for a version gone by stops)."""
        if self.bots is not None:
            self.bots.moved_on(runtime.row.id, runtime.version)
        if self.bots is None or runtime.mirror or self.bot_seat(runtime) is None:
            return
        if runtime.bot_task is not None and not runtime.bot_task.done():
            return
        runtime.bot_task = asyncio.create_task(self._bot_turns(runtime))

    async def _bot_turns(self, runtime: TableRuntime) -> None:
        while True:
            found = self.bot_seat(runtime)
            if found is None:
                return
            seat, spec = found
            version = runtime.version
            view = runtime.state.view(seat)
            legal = [str(a) for a in runtime.state.legal_actions(seat)]
            seed = (runtime.row.seed * 1_000_003 + version * 7919 + seat) & ((1 << 63) - 1)
            guide = guide_of(runtime.row) if spec == GUIDE_BOT else None
            scripted = guide_reply(guide, runtime.state, seat) if guide is not None else None
            try:
                assert self.bots is not None
                if scripted is not None:
                    text = scripted
                else:
                    thought = await self.bots.choose(
                        runtime.row.id,
                        version,
                        seat,
                        runtime.row.game,
                        playing_spec(runtime.row, spec),
                        view,
                        legal,
                        seed,
                        runtime.packs,
                    )
                    text = thought.action
            except Exception:
                log.exception("bot %s failed at table %s", spec, runtime.row.id)
                return
            try:
                await self.act(runtime, seat, version, text, by_bot=True)
            except (OperationalError, InterfaceError):
                await self.sleep(1.0)  # the database is away (docs/deploy.md): the bot plays when it is back
                continue
            except ApiError as refused:
                if refused.code == "taken-back":  # the player took the seat back meanwhile
                    continue
                if refused.status == 503:  # Redis away, this server unsure of its lease: try again shortly
                    await self.sleep(1.0)
                    continue
                if refused.code != "stale":
                    log.error("bot %s chose a refused action %s: %s", spec, text, refused.message)
                    return


def _has_work(row: TableRow) -> bool:
    """Whether a table under way has work of its own: a bot to move, or a clock running."""
    movers = row.to_move or []
    clock_runs = bool(row.clocks and row.clocks.get("running"))
    return clock_runs or any(row.seats[s].bot for s in movers if s < len(row.seats))
