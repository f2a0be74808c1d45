"""Fixed, versioned encodings of a game for learning programs: action indices, masks, tensors.

A game that offers them returns a :class:`GameSpaces` from ``Game.spaces(players, options)``
(``None`` by default: a game without spaces still plays everywhere else). It holds:

* an :class:`ActionSpace`: a dense index ``0 .. size-1`` for every action of the game,
  ``index(action)`` and ``action(index)`` both ways, and ``legal_mask(state, seat)``, one
  byte per index (1: legal now). Most games enumerate their actions from their content
  (:class:`EnumeratedActions`); a game whose actions depend on the position (an open
  board) passes the state to ``index`` and ``action``.
* an :class:`ObservationSpace`: named blocks of fixed shapes; ``encode(view)`` turns what a
  seat sees (``GameState.view(seat)``) into one flat list of floats, seat-relative (the
  seat itself first, then the others in turn order). Built from the view alone, so a
  seat's observation cannot show what the view hides.
  It may offer ``fast`` (:class:`FastObservations`): the same observations written
  straight from the state into a buffer, only what changed, for vectorised environments.
* optionally ``vector``: a factory of a fast backend stepping many games at once
  (:class:`VectorBackend`, writing into the caller's buffers; ``meadhall.rl.VectorEnv``
  steps games through the two spaces above when a game offers none).
* :class:`InformationState`: perfect recall for one seat, fed the events that seat was
  shown and the actions it took; its string is the whole record, its tensor the current
  observation plus fixed-size counts of what it recalls.

Pure Python lists and bytes: the rules packages stay free of numpy; ``meadhall.rl`` turns
these into arrays.
"""

from __future__ import annotations

import json
import zlib
from array import array
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import prod
from typing import Any, Protocol, Self

from meadhall.core.game import Event, GameState

#: Buckets that event kinds are counted in (by a stable hash of the kind) in the information-state tensor.
EVENT_BUCKETS = 64


class OutsideSpace(ValueError):
    """An action (or index) that the space does not hold: an encoding that is out of date or misused."""


class ActionSpace(Protocol):
    """A dense, versioned index of a game's actions."""

    @property
    def size(self) -> int:
        """Number of indices (every index below it names an action)."""
        ...

    @property
    def version(self) -> str:
        """Changes whenever an index may mean another action."""
        ...

    def index(self, action: Hashable, state: GameState[Any] | None = None) -> int:
        """The index of ``action`` (``state``: for spaces whose index depends on the position)."""
        ...

    def action(self, index: int, state: GameState[Any] | None = None) -> Hashable:
        """The action at ``index``."""
        ...

    def legal_mask(self, state: GameState[Any], seat: int) -> bytes:
        """One byte per index: 1 where the action is legal for ``seat`` now."""
        ...


class EnumeratedActions:
    """An action space listing every action once: its position is its index."""

    def __init__(self, actions: Iterable[Hashable], version: str) -> None:
        self._actions: tuple[Hashable, ...] = tuple(dict.fromkeys(actions))
        self._index = {action: number for number, action in enumerate(self._actions)}
        self._version = version

    @property
    def size(self) -> int:
        """Number of actions."""
        return len(self._actions)

    @property
    def version(self) -> str:
        """The space's version."""
        return self._version

    def index(self, action: Hashable, state: GameState[Any] | None = None) -> int:
        """The index of ``action``; :class:`OutsideSpace` if the space does not hold it."""
        del state
        try:
            return self._index[action]
        except KeyError:
            raise OutsideSpace(f"action {action} has no index in this action space ({self._version})") from None

    def action(self, index: int, state: GameState[Any] | None = None) -> Hashable:
        """The action at ``index``."""
        del state
        if not 0 <= index < len(self._actions):
            raise OutsideSpace(f"index {index} is outside 0..{len(self._actions) - 1}")
        return self._actions[index]

    def legal_indices(self, state: GameState[Any], seat: int) -> list[int]:
        """The indices of the seat's legal actions now, each once, in index order."""
        try:  # the lookups by map, in C: this runs once per step of every vectorised game
            return sorted(set(map(self._index.__getitem__, state.legal_actions(seat))))
        except KeyError as error:
            raise OutsideSpace(f"action {error.args[0]} has no index in this action space ({self._version})") from None

    def legal_mask(self, state: GameState[Any], seat: int) -> bytes:
        """One byte per action: 1 for the seat's legal actions now."""
        mask = bytearray(len(self._actions))
        for number in self.legal_indices(state, seat):
            mask[number] = 1
        return bytes(mask)


@dataclass(frozen=True)
class Block:
    """One named block of an observation: its shape and how it is read from a view.

    ``encode(view, seat)`` returns ``prod(shape)`` floats (row-major).
    """

    name: str
    shape: tuple[int, ...]
    encode: Callable[[Mapping[str, Any], int], list[float]]

    @property
    def length(self) -> int:
        """How many floats the block holds."""
        return prod(self.shape)


class ObservationWriter(Protocol):
    """Keeps one game's observations up to date in a buffer of floats, writing only what changed.

    Made by :attr:`FastObservations.writer` for one buffer (a writable buffer of
    :attr:`FastObservations.size` float32, e.g. a ``memoryview`` cast to ``"f"``). The
    buffer holds what every seat may see, by absolute seat, and each seat's own hidden part
    beside the others' (the "canonical" form); a seat's observation is the gather
    ``buffer[gather(seat)]``, which picks only that seat's hidden part. A writer remembers
    what it wrote: hand it one game's successive states (a new game: a new writer).
    """

    def write(self, state: GameState[Any]) -> None:
        """Bring the buffer up to date with ``state`` (the first call writes it all)."""
        ...


@dataclass(frozen=True)
class FastObservations:
    """A game's fast path to its observations (:attr:`ObservationSpace.fast`), equal to its encoded views.

    ``size`` floats in the canonical buffer (its last float is always 0: the padding of
    seat slots beyond the players), ``gather(seat)`` the place in it of each float of that
    seat's observation, ``writer(buffer)`` a writer for one buffer (:class:`ObservationWriter`).
    """

    size: int
    gather: Callable[[int], list[int]]
    writer: Callable[[Any], ObservationWriter]

    def observation(self, state: GameState[Any], seat: int) -> list[float]:
        """The observation of ``seat`` through the fast path, as a list (for tests and checks)."""
        buffer = array("f", bytes(4 * self.size))
        self.writer(memoryview(buffer)).write(state)
        return [buffer[place] for place in self.gather(seat)]


@dataclass(frozen=True)
class ObservationSpace:
    """A fixed-size observation: blocks in order, flattened into one list of floats.

    ``fast`` (optional): the same observations written straight from the state, only what
    changed between steps (:class:`FastObservations`), for vectorised environments.
    """

    blocks: tuple[Block, ...]
    version: str
    fast: FastObservations | None = field(default=None, compare=False)

    @property
    def size(self) -> int:
        """Floats in one observation."""
        return sum(block.length for block in self.blocks)

    def layout(self) -> list[tuple[str, tuple[int, ...], int]]:
        """Each block's name, shape and offset in the flat observation."""
        found = []
        offset = 0
        for block in self.blocks:
            found.append((block.name, block.shape, offset))
            offset += block.length
        return found

    def encode(self, view: Mapping[str, Any], seat: int) -> list[float]:
        """The observation of ``seat`` from its view (``GameState.view(seat)``)."""
        values: list[float] = []
        for block in self.blocks:
            part = block.encode(view, seat)
            if len(part) != block.length:
                raise OutsideSpace(f"block {block.name!r} gave {len(part)} values, not {block.length}")
            values.extend(part)
        return values

    def observation(self, state: GameState[Any], seat: int) -> list[float]:
        """The observation of ``seat`` in ``state`` (read from its view only)."""
        return self.encode(state.view(seat), seat)


@dataclass(frozen=True)
class VectorBuffers:
    """The arrays a vector backend writes, as writable C-contiguous buffers (numpy arrays in ``meadhall.rl``).

    For ``n`` games, ``A`` action indices, ``O`` floats of observation and ``P`` seats:
    ``masks`` uint8 ``(n, A)`` (the legal mask of the seat to move), ``observations``
    float32 ``(n, O)`` of that seat (``None``: not wanted), ``to_play`` int32 ``(n,)``,
    ``rewards`` float32 ``(n, P)`` and ``dones`` bool ``(n,)``. ``seed`` is the seed the
    games' seeds derive from (:func:`episode_seed`). ``dense`` False: nothing reads
    ``masks`` (the env reads the legal indices from the backend's ``legal_indices``, as
    ``meadhall.rl.VectorEnv(masks=False)`` does), so a backend that has that method, and
    ``illegal(actions)`` (the first game whose action index is not legal, or -1: the env's
    check before a step), may leave them unwritten; a backend without them writes them as ever.
    """

    n: int
    seed: int
    masks: Any
    observations: Any | None
    to_play: Any
    rewards: Any
    dones: Any
    dense: bool = True


class VectorBackend(Protocol):
    """``n`` games stepped together: ``meadhall.rl.VectorEnv``'s engine (see :class:`VectorBuffers`).

    After :meth:`reset` and after each :meth:`step` the buffers hold every game's seat to
    move, its mask and (if wanted) its observation. A step that ends a game writes that
    game's rewards (:func:`final_rewards`) and its done flag, and deals the slot's next
    game at once (the ``episode``-th game of slot ``slot`` has seed
    ``episode_seed(seed, slot, episode)``); every other game's rewards and flag are zero.
    """

    def reset(self, seed: int | None) -> None:
        """Deal every slot a new game: from ``seed``'s first games, or (``None``) each slot's next game."""
        ...

    def step(self, actions: Any) -> None:
        """Apply one legal action index per game (an int64 buffer of ``n``) for its seat to move."""
        ...

    def random_actions(self, uniforms: Any, out: Any) -> None:
        """Write a legal index per game into ``out`` (int64): the ``k``-th set byte of its mask, in index order.

        ``k`` is ``floor(uniforms[i] * legal count)`` (``uniforms``: float64 in ``[0, 1)``), so
        every backend picks the same index from the same mask and uniforms.
        """
        ...


#: Makes a game's fast vector backend for its buffers, or ``None`` where it cannot (its C engine not built).
VectorFactory = Callable[[VectorBuffers], "VectorBackend | None"]


_MASK64 = (1 << 64) - 1


def episode_seed(seed: int, slot: int, episode: int) -> int:
    """The seed of slot ``slot``'s ``episode``-th game in a vector of games seeded ``seed`` (a 63-bit mix)."""
    value = (seed * 0x9E3779B97F4A7C15 + slot * 0xBF58476D1CE4E5B9 + episode * 0x94D049BB133111EB) & _MASK64
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (value ^ (value >> 31)) >> 1


def final_rewards(state: GameState[Any]) -> list[float]:
    """A finished game's reward per seat: +1 for first place, -1 for last, evenly between.

    From the game's ranking; seats that tie share the mean of the places they span (two
    seats tied for first of two get 0), so the rewards of a game always sum to zero.
    """
    return rank_rewards(state.ranking())


def rank_rewards(places: Sequence[int]) -> list[float]:
    """:func:`final_rewards` from a ranking (each seat's place, 1 first; ties share a place)."""
    players = len(places)
    if players < 2:
        return [0.0] * players
    found = []
    for place in places:
        tied = list(places).count(place)
        spanned = [1.0 - 2.0 * (position - 1) / (players - 1) for position in range(place, place + tied)]
        found.append(sum(spanned) / tied)
    return found


@dataclass(frozen=True)
class GameSpaces:
    """A game's encodings for one number of players and one set of options.

    ``vector`` (optional) makes a fast backend stepping many games at once
    (:class:`VectorBackend`), equal to stepping them through the two spaces.
    ``source`` is how to build them again, ``(game name, players, options)``, when they
    came from :func:`spaces_of`: they then pickle as that (their encoders are functions
    made per game, which pickle cannot write), and come back built anew.
    """

    actions: ActionSpace
    observations: ObservationSpace
    vector: VectorFactory | None = field(default=None, compare=False)
    source: tuple[str, int, Mapping[str, Any] | None] | None = field(default=None, compare=False)

    @property
    def version(self) -> str:
        """Both versions, as one string (store it beside a trained policy)."""
        return f"{self.actions.version}+{self.observations.version}"

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickle and copy by :attr:`source` when known (the encodings themselves otherwise)."""
        if self.source is None:
            return super().__reduce_ex__(protocol)
        return spaces_of, self.source


def spaces_of(game: str, players: int, options: Mapping[str, Any] | None = None) -> GameSpaces | None:
    """``get_game(game).spaces(players, options)``, knowing its source (so that it pickles), or ``None``."""
    from meadhall.core.registry import get_game

    found = get_game(game).spaces(players, options)
    if found is None:
        return None
    return replace(found, source=(game, players, None if options is None else dict(options)))


def _bucket(kind: str) -> int:
    """A stable bucket of an event kind (the same in every process, unlike ``hash``)."""
    return zlib.crc32(kind.encode("utf-8")) % EVENT_BUCKETS


@dataclass
class InformationState:
    """What one seat recalls: every event it was shown and every action it took, in order.

    Feed it the deal's and each action's events (:meth:`saw`; those the seat may not see
    are dropped here) and the seat's own actions (:meth:`acted`). :meth:`string` is the
    perfect-recall record; :meth:`tensor` is the seat's current observation followed by
    ``EVENT_BUCKETS`` counts of the event kinds it saw and one count per action index it
    took (a fixed size; the string is what keeps the order).
    """

    spaces: GameSpaces
    seat: int
    record: list[str] = field(default_factory=list)
    kinds: list[float] = field(default_factory=lambda: [0.0] * EVENT_BUCKETS)
    taken: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.taken:
            self.taken = [0.0] * self.spaces.actions.size

    @property
    def size(self) -> int:
        """Floats in the tensor."""
        return self.spaces.observations.size + EVENT_BUCKETS + self.spaces.actions.size

    def copy(self) -> Self:
        """An independent copy sharing the (immutable) spaces."""
        return type(self)(self.spaces, self.seat, list(self.record), list(self.kinds), list(self.taken))

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.copy()

    def saw(self, events: Iterable[Event]) -> None:
        """Remember the events of ``events`` that this seat may see."""
        for event in events:
            if event.visible_to(self.seat):
                self.record.append(json.dumps(event.to_json(), sort_keys=True, separators=(",", ":")))
                self.kinds[_bucket(event.kind)] += 1.0

    def acted(self, action: Hashable, index: int) -> None:
        """Remember that this seat took ``action`` (at ``index`` of the action space)."""
        self.record.append(f"> {action}")
        self.taken[index] += 1.0

    def string(self) -> str:
        """The whole record, one line per event or action: equal strings, equal information."""
        return "\n".join([f"seat {self.seat}", *self.record])

    def tensor(self, view: Mapping[str, Any]) -> list[float]:
        """The seat's observation now (from its ``view``) and the counts of what it recalls."""
        return [*self.spaces.observations.encode(view, self.seat), *self.kinds, *self.taken]


# Helpers the games' encodings share ------------------------------------------------------------


def one_hot(value: Any, choices: Sequence[Any]) -> list[float]:
    """1.0 at ``value``'s place among ``choices`` (all zeros if it is none of them)."""
    return [1.0 if value == choice else 0.0 for choice in choices]


@lru_cache(maxsize=256)
def _places(vocabulary: tuple[Any, ...]) -> dict[Any, int]:
    """Each word's place in ``vocabulary`` (kept: the encoders count over the same few vocabularies)."""
    return {word: number for number, word in enumerate(vocabulary)}


def counts(items: Iterable[Any], vocabulary: Sequence[Any], scale: float = 1.0) -> list[float]:
    """How many times each word of ``vocabulary`` occurs in ``items``, divided by ``scale``."""
    place = _places(tuple(vocabulary))
    found = [0.0] * len(vocabulary)
    for item in items:
        number = place.get(item)
        if number is not None:
            found[number] += 1.0 / scale
    return found


def seat_order(seat: int, players: int, slots: int) -> list[int | None]:
    """Seats seat-relative: ``seat`` first, then the next ones; ``None`` for slots beyond the players."""
    return [(seat + offset) % players if offset < players else None for offset in range(slots)]


def relative(other: int | None, seat: int, players: int, slots: int) -> list[float]:
    """A seat as a one-hot over ``slots`` places counted from ``seat`` (all zeros for none)."""
    found = [0.0] * slots
    if other is not None and 0 <= other < players:
        found[(other - seat) % players] = 1.0
    return found
