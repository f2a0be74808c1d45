"""Völuspá's fast vector backend (:class:`meadhall.core.spaces.VectorBackend`): games dealt and stepped in C.

``n`` games live in the C search engine (``_search.vector_new``), which deals them as
:meth:`VoluspaState.setup` does (the same draws from the same seeds), applies one action
index per game, and writes each game's seat to move, legal mask, observation (when
wanted), rewards and done flag into the buffers, dealing a slot's next game where one
ends. The action index and the observation are those of :mod:`meadhall.games.voluspa.spaces`
(its window, heads and blocks are handed to C from there): the arrays equal the Python
backend's byte for byte (tests/rl/test_vector.py). A mask is 153,618 bytes and an
observation 21,690 floats, of which a step changes a few hundred, so each game remembers
which bytes and floats it set and clears only those: **the backend owns its arrays**
(write nothing into them); those indices are also the sparse form of the masks
(:meth:`VectorGames.legal_indices`). Where nothing reads the masks (``buffers.dense`` False,
``VectorEnv(masks=False)``) the C engine finds each game's indices in one spare row and
leaves the masks unwritten, but for a game whose indices overflowed what it keeps. A legal
step that falls outside the 32 × 32 window raises :class:`~meadhall.core.spaces.OutsideSpace`,
as the Python action space does.
"""

from __future__ import annotations

from typing import Any

from meadhall.core.spaces import ObservationSpace, OutsideSpace
from meadhall.games.voluspa.search import AVAILABLE, _native
from meadhall.games.voluspa.state import VoluspaConfig
from meadhall.games.voluspa.tiles import COUNTS, JO

_LINES = (None, "row", "col")
_DIRECTIONS = ("N", "E", "S", "W")


class VectorGames:
    """``n`` Völuspá games stepped in C into a :class:`~meadhall.core.spaces.VectorBuffers` (see the module)."""

    def __init__(
        self,
        config: VoluspaConfig,
        heads: tuple[tuple[str, int, int, str | None], ...],
        observations: ObservationSpace,
        slots: int,
        buffers: Any,
    ) -> None:
        assert _native is not None
        self.buffers = buffers
        table: list[int] = []
        for kind_of_head, tile, boost, extra in heads:  # spaces.HEADS: (type, kind, boost, line, direction)
            if kind_of_head == "bump":
                table += [1, JO, boost, 0, _DIRECTIONS.index(str(extra))]
            else:
                table += [0, tile, boost, _LINES.index(extra), 0]
        offsets = [offset for _, _, offset in observations.layout()] + [observations.size]
        self.handle = _native.vector_new(
            buffers.n,
            config.players,
            list(config.kinds),
            list(COUNTS),
            int(config.auto_best_line),
            int(config.no_late_hel),
            table,
            offsets,
            slots,
            buffers.masks,
            buffers.observations,
            buffers.to_play,
            buffers.rewards,
            buffers.dones,
            buffers.dense,
        )

    @classmethod
    def make(
        cls,
        config: VoluspaConfig,
        heads: tuple[tuple[str, int, int, str | None], ...],
        observations: ObservationSpace,
        slots: int,
        buffers: Any,
    ) -> VectorGames | None:
        """The backend, or ``None`` where the C engine is not built."""
        if not AVAILABLE:
            return None
        return cls(config, heads, observations, slots, buffers)

    def reset(self, seed: int | None) -> None:
        """Deal every slot a new game (``seed``: start again from that seed's first games)."""
        assert _native is not None
        try:
            _native.vector_reset(self.handle, seed)
        except ValueError as error:
            raise OutsideSpace(str(error)) from None

    def step(self, actions: Any) -> None:
        """Apply one action index per game; deal a new game where one ends (its rewards written)."""
        assert _native is not None
        try:
            _native.vector_step(self.handle, actions)
        except ValueError as error:
            if "window" in str(error):
                raise OutsideSpace(str(error)) from None
            raise

    def random_actions(self, uniforms: Any, out: Any) -> None:
        """A legal index per game, the ``floor(uniform * count)``-th of its mask, in index order."""
        assert _native is not None
        _native.vector_random(self.handle, uniforms, out)

    def illegal(self, actions: Any) -> int:
        """The first game whose action index (int64, one per game) is not legal for its seat to move, or -1.

        From the indices each game set, so no mask is read (:class:`meadhall.rl.VectorEnv`'s
        check before a step without dense masks).
        """
        assert _native is not None
        found: int = _native.vector_illegal(self.handle, actions)
        return found

    def legal_indices(self, starts: Any) -> bytearray:
        """Every game's legal indices in index order, one game after another, as the bytes of int64s.

        ``starts`` (int64, ``n + 1``) gets where each game's indices begin, and their total
        (:meth:`meadhall.rl.VectorEnv.legal_indices`): from the indices each game set, so no
        mask is read.
        """
        assert _native is not None
        result: bytearray = _native.vector_legal(self.handle, starts)
        return result
