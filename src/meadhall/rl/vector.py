"""Many games stepped at once: :class:`VectorEnv`, its arrays written in place.

``VectorEnv("valda", n=64, seed=1, players=2)`` holds ``n`` games. Each game has one seat
to move (the first seat that must decide, as in the PettingZoo environment), and the
arrays always describe that seat:

* ``masks``: uint8 ``(n, num_actions)``, its legal-action mask (with ``masks=False``
  there is none to read: :meth:`VectorEnv.legal_indices` gives the legal actions);
* ``observations``: float32 ``(n, observation_size)``, its seat-relative observation
  (the game's observation space), or ``None`` when built with ``observations=False``;
* ``to_play``: int32 ``(n,)``, the seat;
* ``rewards``: float32 ``(n, players)``, the last step's rewards: a finished game's
  outcome (+1 first place, -1 last, :func:`meadhall.core.spaces.final_rewards`) in the
  step that ended it, 0 otherwise;
* ``dones``: bool ``(n,)``, True where the last step ended a game. That slot already holds
  its next game (automatic reset): ``masks``, ``observations`` and ``to_play`` describe the
  new game, ``rewards`` the one that ended.

``step(actions)`` takes one action index per game (int64 ``(n,)``) and updates the arrays
in place; it returns ``None`` (read the arrays). ``legal_indices()`` gives the masks in
sparse form (each game's legal indices); a learner that reads only those builds the env
with ``masks=False``, and a backend that knows the indices (a fast one that keeps them)
then skips writing the dense masks: the same games, rewards, observations and legal
indices, step for step, without them. An index outside a game's mask raises
:class:`~meadhall.core.errors.IllegalAction` before any game moves. The games' seeds
derive from the env's seed (:func:`meadhall.core.spaces.episode_seed`: slot ``i``'s
``k``-th game), so a seed replays the same games under the same actions, whatever the
backend.

Backends: a game whose spaces offer a fast one (``GameSpaces.vector``, e.g. Valda's in C)
gets it; every game with spaces can use the Python backend (:class:`PythonBackend`, the
game's own states stepped through its action and observation spaces), which
``backend="python"`` asks for. The two give the same arrays for the same seeds and
actions (tests/rl/test_vector.py).
"""

from __future__ import annotations

import itertools
import multiprocessing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from meadhall.core import spaces as core
from meadhall.core.errors import IllegalAction
from meadhall.core.game import GameState
from meadhall.extras import missing
from meadhall.rl.spaces import Spaces

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as error:  # without the extra: one line naming it, not a traceback
    raise missing(error, "rl", "meadhall.rl.vector", {"numpy"}) from None

Backend = Literal["auto", "fast", "python"]


class PythonBackend:
    """``n`` of the game's own states, stepped through its action and observation spaces (any game with spaces).

    Each slot remembers its legal indices: a step clears the last ones from the mask and
    sets the new ones, and :meth:`random_actions` picks from them. Where the game's
    observation space has a fast path (``ObservationSpace.fast``), each slot keeps a
    canonical buffer that a writer updates from the state (only what changed) and the
    seat's observation is gathered from it; otherwise the observation is encoded from the
    seat's view. Both give the same arrays (tests/rl/test_vector.py).
    """

    def __init__(self, spaces: Spaces, buffers: core.VectorBuffers, first: int = 0) -> None:
        self.spaces = spaces
        self.buffers = buffers
        self.first = first  # the slot number of buffers' first game in the whole vector (a worker's slice)
        self.seed = buffers.seed
        self.episodes = [0] * buffers.n
        self.states: list[GameState[Any]] = []
        self.legal: list[list[int]] = [[] for _ in range(buffers.n)]
        self.mask_rows = [memoryview(buffers.masks[slot]) for slot in range(buffers.n)]
        observations = buffers.observations
        fast = spaces.observations.fast if observations is not None else None
        self.fast = fast
        if fast is not None and observations is not None:
            self.canonical = np.zeros((buffers.n, fast.size), dtype=np.float32)
            self.gathers = [np.asarray(fast.gather(seat), dtype=np.intp) for seat in range(spaces.players)]
            self.writers: list[core.ObservationWriter | None] = [None] * buffers.n
            # each slot's canonical buffer and observation row as views made once (not per step)
            self.canonical_rows = list(self.canonical)
            self.observation_rows = list(observations)

    def _legal_indices(self, state: GameState[Any], seat: int) -> list[int]:
        actions = self.spaces.actions
        if isinstance(actions, core.EnumeratedActions):
            return actions.legal_indices(state, seat)
        mask = np.frombuffer(actions.legal_mask(state, seat), dtype=np.uint8)
        found: list[int] = np.flatnonzero(mask).tolist()
        return found

    def _deal(self, slot: int) -> GameState[Any]:
        seed = core.episode_seed(self.seed, self.first + slot, self.episodes[slot])
        self.episodes[slot] += 1
        state = self.spaces.game.new_game(players=self.spaces.players, seed=seed, options=self.spaces.options)
        if self.fast is not None:
            self.writers[slot] = self.fast.writer(memoryview(self.canonical[slot]))
        return state

    def _show(self, slot: int) -> None:
        """Write the slot's seat to move, its mask and (if wanted) its observation."""
        state = self.states[slot]
        seat = state.to_move()[0]
        buffers = self.buffers
        buffers.to_play[slot] = seat
        indices = self._legal_indices(state, seat)
        row = self.mask_rows[slot]
        for number in self.legal[slot]:
            row[number] = 0
        for number in indices:
            row[number] = 1
        self.legal[slot] = indices
        if buffers.observations is not None:
            writer = self.writers[slot] if self.fast is not None else None
            if writer is not None:
                writer.write(state)
                # the gather's places are all inside the buffer: "clip" skips numpy's bounds check
                self.canonical_rows[slot].take(self.gathers[seat], out=self.observation_rows[slot], mode="clip")
            else:
                buffers.observations[slot] = self.spaces.observations.observation(state, seat)

    def reset(self, seed: int | None) -> None:
        """Deal every slot a new game (``seed``: start again from that seed's first games)."""
        if seed is not None:
            self.seed = seed
            self.episodes = [0] * self.buffers.n
        self.states = [self._deal(slot) for slot in range(self.buffers.n)]
        self.buffers.rewards[:] = 0.0
        self.buffers.dones[:] = False
        self.buffers.masks[:] = 0
        self.legal = [[] for _ in range(self.buffers.n)]
        for slot in range(self.buffers.n):
            self._show(slot)

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        """Apply one action index per game for its seat to move; deal a new game where one ends."""
        buffers = self.buffers
        buffers.rewards[:] = 0.0
        buffers.dones[:] = False
        action = self.spaces.actions.action
        for slot, (state, seat, index) in enumerate(
            zip(self.states, buffers.to_play.tolist(), actions.tolist(), strict=True)
        ):
            state.apply_quiet(seat, action(index, state))
            if state.is_terminal():
                buffers.rewards[slot] = core.final_rewards(state)
                buffers.dones[slot] = True
                self.states[slot] = self._deal(slot)
            self._show(slot)

    def random_actions(self, uniforms: npt.NDArray[np.float64], out: npt.NDArray[np.int64]) -> None:
        """A legal index per game, the ``floor(uniform * count)``-th of its mask (from the indices it remembers)."""
        out[:] = [
            legal[min(int(uniform * len(legal)), len(legal) - 1)]
            for uniform, legal in zip(uniforms.tolist(), self.legal, strict=True)
        ]


@dataclass(frozen=True)
class _Layout:
    """Where each array lies in the one shared block of a :class:`ProcessBackend` (8-byte aligned)."""

    n: int
    actions: int
    observations: int  # floats per observation, 0 for none
    players: int

    def fields(self) -> list[tuple[str, Any, tuple[int, ...]]]:
        found: list[tuple[str, Any, tuple[int, ...]]] = [("masks", np.uint8, (self.n, self.actions))]
        if self.observations:
            found.append(("observations", np.float32, (self.n, self.observations)))
        found += [
            ("to_play", np.int32, (self.n,)),
            ("rewards", np.float32, (self.n, self.players)),
            ("dones", np.bool_, (self.n,)),
            ("actions", np.int64, (self.n,)),
        ]
        return found

    def size(self) -> int:
        return sum(-(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 8) * 8 for _, dtype, shape in self.fields())

    def arrays(self, block: Any) -> dict[str, Any]:
        """The arrays, as views of ``block`` (a shared buffer of :meth:`size` bytes)."""
        found = {}
        offset = 0
        for name, dtype, shape in self.fields():
            count = int(np.prod(shape))
            found[name] = np.frombuffer(block, dtype=dtype, count=count, offset=offset).reshape(shape)
            offset += -(-count * np.dtype(dtype).itemsize // 8) * 8
        return found


def _worker(
    connection: Any, block: Any, layout: _Layout, source: tuple[str, int, dict[str, Any] | None], part: range, seed: int
) -> None:
    """A :class:`ProcessBackend` worker: the Python backend on the slots ``part`` of the shared arrays."""
    arrays = layout.arrays(block)
    view = slice(part.start, part.stop)
    observations = arrays.get("observations")
    buffers = core.VectorBuffers(
        len(part),
        seed,
        arrays["masks"][view],
        None if observations is None else observations[view],
        arrays["to_play"][view],
        arrays["rewards"][view],
        arrays["dones"][view],
    )
    backend = PythonBackend(Spaces(*source), buffers, first=part.start)
    actions = arrays["actions"][view]
    while True:
        command, argument = connection.recv()
        if command == "close":
            return
        try:
            if command == "reset":
                backend.reset(argument)
            else:
                backend.step(actions)
        except Exception as error:  # handed to the parent, which raises it
            connection.send(error)
        else:
            connection.send(None)


class ProcessBackend:
    """The Python backend in ``workers`` processes, each stepping a slice of the games in shared memory.

    For games without a fast backend (Blood Rage): the arrays live in one shared block,
    which the :class:`VectorEnv` reads as its own; each step sends every worker a word and
    waits for all of them. The same games as the Python backend in one process (the seeds
    follow the slots). Workers are started with ``spawn`` and stopped by :meth:`close`.
    """

    def __init__(self, spaces: Spaces, layout: _Layout, block: Any, seed: int, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.layout = layout
        self.arrays = layout.arrays(block)
        source = (spaces.game.info.name, spaces.players, spaces.options)
        bounds = np.linspace(0, layout.n, workers + 1).astype(int)
        self.connections = []
        self.processes = []
        for lo, hi in itertools.pairwise(bounds):
            parent, child = context.Pipe()
            process = context.Process(
                target=_worker, args=(child, block, layout, source, range(int(lo), int(hi)), seed), daemon=True
            )
            process.start()
            self.connections.append(parent)
            self.processes.append(process)

    def _all(self, command: str, argument: Any = None) -> None:
        for connection in self.connections:
            connection.send((command, argument))
        errors = [connection.recv() for connection in self.connections]
        for error in errors:
            if error is not None:
                raise error

    def reset(self, seed: int | None) -> None:
        """Every worker deals its slots new games."""
        self._all("reset", seed)

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        """The actions into shared memory, then every worker steps its slice."""
        self.arrays["actions"][:] = actions
        self._all("step")

    def random_actions(self, uniforms: npt.NDArray[np.float64], out: npt.NDArray[np.int64]) -> None:
        """A legal index per game, the ``floor(uniform * count)``-th of its mask."""
        pick(self.arrays["masks"], uniforms, out)

    def close(self) -> None:
        """Stop the workers."""
        for connection, process in zip(self.connections, self.processes, strict=True):
            if process.is_alive():
                connection.send(("close", None))
                process.join(timeout=5)
        self.connections, self.processes = [], []


def pick(masks: npt.NDArray[np.uint8], uniforms: npt.NDArray[np.float64], out: npt.NDArray[np.int64]) -> None:
    """Each row's ``floor(uniform * count)``-th legal index (:meth:`VectorBackend.random_actions`), in numpy."""
    rows, columns = np.nonzero(masks)
    counts = np.bincount(rows, minlength=len(masks))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    out[:] = columns[starts + np.minimum((uniforms * counts).astype(np.int64), counts - 1)]


class VectorEnv:
    """``n`` games of ``game`` stepped together, with automatic reset (see the module).

    ``backend``: ``"auto"`` (the game's fast backend when it offers one and it is built,
    the Python backend otherwise), ``"fast"`` (the fast one or :class:`ValueError`) or
    ``"python"``. ``workers``: the Python backend in that many processes, each stepping a
    slice of the games (:class:`ProcessBackend`, for games without a fast backend; close
    the env, or use it as a context manager, to stop them). :attr:`backend` names the one
    in use. ``masks=False``: no dense masks to read (reading :attr:`masks` raises
    :class:`AttributeError`); :meth:`legal_indices` gives the legal actions, and a backend
    that knows them does not write the masks at all (faster where a mask is large).
    """

    def __init__(
        self,
        game: str,
        n: int,
        seed: int = 0,
        players: int = 2,
        observations: bool = True,
        options: Mapping[str, Any] | None = None,
        backend: Backend = "auto",
        workers: int = 0,
        masks: bool = True,
    ) -> None:
        if n < 1:
            raise ValueError(f"a vector of games needs n >= 1, not {n}")
        if not 0 <= workers <= n:
            raise ValueError(f"workers: 0 (one process) to n ({n}), not {workers}")
        self.spaces = Spaces(game, players, options)
        self.num_envs = n
        self.players = players
        self.num_actions = self.spaces.action_size
        self.observation_size = self.spaces.observation_size
        layout = _Layout(n, self.num_actions, self.observation_size if observations else 0, players)
        size = layout.size()
        block = multiprocessing.get_context("spawn").RawArray("b", size) if workers else bytearray(size)
        arrays = layout.arrays(block)
        self._masks: npt.NDArray[np.uint8] = arrays["masks"]
        self._dense = masks
        self.observations: npt.NDArray[np.float32] | None = arrays.get("observations")
        self.to_play: npt.NDArray[np.int32] = arrays["to_play"]
        self.rewards: npt.NDArray[np.float32] = arrays["rewards"]
        self.dones: npt.NDArray[np.bool_] = arrays["dones"]
        buffers = core.VectorBuffers(
            n, seed, self._masks, self.observations, self.to_play, self.rewards, self.dones, dense=masks
        )
        fast = None
        if backend != "python" and self.spaces.encodings.vector is not None and not workers:
            fast = self.spaces.encodings.vector(buffers)
        if fast is None and backend == "fast":
            raise ValueError(f"{self.spaces.game.info.title} has no fast vector backend here (see docs/rl.md)")
        self._backend: core.VectorBackend
        if fast is not None:
            self._backend, self.backend = fast, "fast"
        elif workers:
            self._backend = ProcessBackend(self.spaces, layout, block, seed, workers)
            self.backend = f"python, {workers} processes"
        else:
            self._backend, self.backend = PythonBackend(self.spaces, buffers), "python"
        self._rows = np.arange(n)
        #: without dense masks, a backend that leaves them unwritten checks the actions itself
        self._illegal = None if masks else getattr(self._backend, "illegal", None)
        self._backend.reset(seed)

    @property
    def masks(self) -> npt.NDArray[np.uint8]:
        """uint8 ``(n, num_actions)``: each game's legal-action mask (not with ``masks=False``)."""
        if not self._dense:
            raise AttributeError(
                "this VectorEnv was built with masks=False: it keeps no dense masks; read legal_indices() instead"
            )
        return self._masks

    def close(self) -> None:
        """Stop the worker processes (``workers``); the env steps no more after it."""
        if isinstance(self._backend, ProcessBackend):
            self._backend.close()

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reset(self, seed: int | None = None) -> None:
        """Deal every game anew: ``seed``'s first games, or (``None``) each slot's next game."""
        self._backend.reset(seed)

    def step(self, actions: npt.ArrayLike) -> None:
        """Apply one action index per game (int64 ``(n,)``); the arrays are updated in place.

        Raises :class:`IllegalAction` (no game moves) if an index is not in its game's mask.
        """
        chosen = np.ascontiguousarray(actions, dtype=np.int64)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"step needs {self.num_envs} action indices, not an array of shape {chosen.shape}")
        if self._illegal is not None:
            slot = self._illegal(chosen)
        else:
            inside = (chosen >= 0) & (chosen < self.num_actions)
            legal = inside.copy()
            legal[inside] = self._masks[self._rows[inside], chosen[inside]] != 0
            slot = -1 if legal.all() else int(np.flatnonzero(~legal)[0])
        if slot >= 0:
            raise IllegalAction(
                f"game {slot}: action index {int(chosen[slot])} is not legal for seat {int(self.to_play[slot])}",
                "vector",
            )
        self._backend.step(chosen)

    def legal_indices(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The masks in sparse form: ``(starts, indices)``, int64, the legal indices of every game in a row.

        Game ``i``'s are ``indices[starts[i]:starts[i + 1]]``, in index order: the set bytes
        of ``masks[i]``. A backend that knows them (a fast one that remembers the indices it
        set, with a ``legal_indices(starts)`` method) hands them over without reading the
        masks; otherwise they are the masks' nonzero entries.
        """
        starts = np.empty(self.num_envs + 1, dtype=np.int64)
        known = getattr(self._backend, "legal_indices", None)
        if known is not None:
            return starts, np.frombuffer(known(starts), dtype=np.int64)
        rows, columns = np.nonzero(self._masks)
        starts[0] = 0
        np.cumsum(np.bincount(rows, minlength=self.num_envs), out=starts[1:])
        return starts, columns.astype(np.int64)

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One legal action index per game, uniformly at random among its mask's (the backend's pick)."""
        chosen = np.empty(self.num_envs, dtype=np.int64)
        self._backend.random_actions(rng.random(self.num_envs), chosen)
        return chosen
