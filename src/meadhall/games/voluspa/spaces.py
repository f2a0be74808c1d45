"""Völuspá's encodings for learning programs (:mod:`meadhall.core.spaces`).

The board is open (it grows in every direction), so actions and the board planes are read
through a **translation-invariant window** of ``WINDOW × WINDOW`` cells (32 × 32) centred
on the bounding box of the tiles on the board: the window's left column is
``(min_x + max_x) // 2 - WINDOW // 2`` and its top row likewise. The same position moved
anywhere on the board reads the same.

Every legal action lies on a tile or next to one, so while the tiles span at most
``GUARANTEED_SPAN`` (29) cells each way every legal action has an index. A board that
outgrows that (no random or bot game in the tests comes near it) gets
:class:`~meadhall.core.spaces.OutsideSpace` from ``index`` and ``legal_mask`` for an action
that falls outside, rather than a silently shortened list of choices.

An index is ``head * WINDOW² + row * WINDOW + column`` for a step on a cell, then ``end``,
then one ``discard`` per tile kind. A head is a tile kind with a boost (0 to ``MAX_BOOST``
Freyas) and, for the Sea Serpent and the Lightning Bolt, the line (none, row, column); or
a Jotunn bump in one of four directions with a boost. With the 17 tile kinds of the box
that is 150 heads, 153,600 cell indices, 153,618 in all (the same for every preset, so one
policy serves them all). Equivalently a factorised head: head (150) × cell (32 × 32).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from meadhall.core.game import GameState
from meadhall.core.spaces import (
    Block,
    GameSpaces,
    ObservationSpace,
    OutsideSpace,
    VectorBackend,
    VectorBuffers,
    counts,
    one_hot,
)
from meadhall.games.voluspa.board import xy
from meadhall.games.voluspa.notation import END, Bump, Discard, End, Place, VoluspaAction
from meadhall.games.voluspa.state import VoluspaConfig, VoluspaState
from meadhall.games.voluspa.tiles import CODES, LB, SS

ACTION_VERSION = "voluspa-actions/1"
OBSERVATION_VERSION = "voluspa-observation/1"

WINDOW = 32
#: The widest span of tiles (in cells, each way) for which every legal action is inside the window.
GUARANTEED_SPAN = 29
#: The most Freyas one step can discard to boost its tile (a full hand of them bar one).
MAX_BOOST = 5
STAGES = ("play", "hermod", "raven", "discard-down")
DIRECTIONS = ("N", "E", "S", "W")
#: Booster token values a view may list (the supply's keys).
BOOSTER_VALUES = tuple(range(1, 17))
SLOTS = 5
_CELLS = WINDOW * WINDOW
#: Board planes: one per tile kind, then the boost, then the cells of this turn, Hermod's and the Raven's cell.
_PLANES = len(CODES) + 4


def _heads() -> list[tuple[str, int, int, str | None]]:
    """Every head: ``("place", kind, boost, line)`` or ``("bump", 0, boost, direction)``."""
    found: list[tuple[str, int, int, str | None]] = []
    for kind in range(len(CODES)):
        for boost in range(MAX_BOOST + 1):
            for line in (None, "row", "col") if kind in (SS, LB) else (None,):
                found.append(("place", kind, boost, line))
    for boost in range(MAX_BOOST + 1):
        for direction in DIRECTIONS:
            found.append(("bump", 0, boost, direction))
    return found


HEADS = tuple(_heads())
_HEAD_INDEX = {head: number for number, head in enumerate(HEADS)}


def window_origin(cells: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """The window's left column and top row for tiles at ``cells`` (centred on their bounding box)."""
    xs: list[int] = []
    ys: list[int] = []
    for x, y in cells:
        xs.append(x)
        ys.append(y)
    if not xs:
        return -WINDOW // 2, -WINDOW // 2
    return (min(xs) + max(xs)) // 2 - WINDOW // 2, (min(ys) + max(ys)) // 2 - WINDOW // 2


def _state_origin(state: GameState[Any]) -> tuple[int, int]:
    """The window of ``state``'s board (public: every seat sees the board, so no view is needed)."""
    if not isinstance(state, VoluspaState):
        raise OutsideSpace(f"not a Völuspá state: {type(state).__name__}")
    return window_origin(xy(cell) for cell in state.board)


class VoluspaActions:
    """Völuspá's action space: steps on the window's cells, ``end``, discards (see the module)."""

    size = len(HEADS) * _CELLS + 1 + len(CODES)
    version = ACTION_VERSION

    def index(self, action: Hashable, state: GameState[Any] | None = None) -> int:
        """The index of ``action`` in ``state`` (needed: the window follows the board)."""
        if isinstance(action, End):
            return len(HEADS) * _CELLS
        if isinstance(action, Discard):
            return len(HEADS) * _CELLS + 1 + action.tile
        if state is None:
            raise OutsideSpace("a Völuspá step's index depends on the board: pass the state")
        return self._index(action, _state_origin(state))

    def _index(self, action: Hashable, origin: tuple[int, int]) -> int:
        if isinstance(action, Place):
            head = _HEAD_INDEX.get(("place", action.tile, action.boost, action.line))
        elif isinstance(action, Bump):
            head = _HEAD_INDEX.get(("bump", 0, action.boost, action.direction))
        else:
            raise OutsideSpace(f"{action!r} is not a Völuspá action")
        column, row = action.x - origin[0], action.y - origin[1]
        if head is None or not (0 <= column < WINDOW and 0 <= row < WINDOW):
            raise OutsideSpace(f"{action} is outside the {WINDOW}×{WINDOW} window at {origin} ({ACTION_VERSION})")
        return head * _CELLS + row * WINDOW + column

    def action(self, index: int, state: GameState[Any] | None = None) -> VoluspaAction:
        """The action at ``index`` in ``state``."""
        if not 0 <= index < self.size:
            raise OutsideSpace(f"index {index} is outside 0..{self.size - 1}")
        if index == len(HEADS) * _CELLS:
            return END
        if index > len(HEADS) * _CELLS:
            return Discard(index - len(HEADS) * _CELLS - 1)
        if state is None:
            raise OutsideSpace("a Völuspá step's action depends on the board: pass the state")
        head, cell = divmod(index, _CELLS)
        row, column = divmod(cell, WINDOW)
        x0, y0 = _state_origin(state)
        kind, tile, boost, extra = HEADS[head]
        if kind == "bump":
            return Bump(x0 + column, y0 + row, str(extra), boost)
        return Place(tile, x0 + column, y0 + row, boost, extra)

    def legal_mask(self, state: GameState[Any], seat: int) -> bytes:
        """One byte per index: 1 for the seat's legal actions now."""
        mask = bytearray(self.size)
        origin = _state_origin(state)
        for action in state.legal_actions(seat):
            if isinstance(action, (End, Discard)):
                mask[self.index(action)] = 1
            else:
                mask[self._index(action, origin)] = 1
        return bytes(mask)


def observation_space(players: int) -> ObservationSpace:
    """The blocks of a Völuspá observation."""
    codes = list(CODES)
    plane_of = {code: number for number, code in enumerate(codes)}

    def board(view: Mapping[str, Any], seat: int) -> list[float]:
        x0, y0 = window_origin((tile["x"], tile["y"]) for tile in view["board"])
        planes = [0.0] * (_PLANES * _CELLS)

        def mark(plane: int, x: int, y: int, value: float = 1.0) -> None:
            column, row = x - x0, y - y0
            if 0 <= column < WINDOW and 0 <= row < WINDOW:
                planes[plane * _CELLS + row * WINDOW + column] = value

        for tile in view["board"]:
            mark(plane_of[tile["tile"]], tile["x"], tile["y"])
            mark(len(codes), tile["x"], tile["y"], tile["boost"] / 4.0)
        for x, y in view["turn_cells"]:
            mark(len(codes) + 1, x, y)
        for plane, key in ((len(codes) + 2, "hermod"), (len(codes) + 3, "raven")):
            if key in view:
                mark(plane, *view[key])
        return planes

    def seats(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(SLOTS):
            if offset >= players:
                rows += [0.0] * (5 + len(codes))
                continue
            shown = view["seats"][(seat + offset) % players]
            rows += [
                1.0,
                shown["score"] / 100.0,
                shown["tiles"] / 5.0,
                shown["hels"] / 2.0,
                float((seat + offset) % players in view["to_move"]),
            ]
            rows += counts((code for code, n in shown["known"].items() for _ in range(n)), codes)
        return rows

    def game(view: Mapping[str, Any], seat: int) -> list[float]:
        turn = view["turn_state"]
        return [
            *one_hot(view["stage"], STAGES),
            view["pile"] / 100.0,
            float(view["finished"]),
            turn["plays"] / 4.0,
            float(turn["swapped"]),
            float(turn["first_hel"]),
        ]

    def hand(view: Mapping[str, Any], seat: int) -> list[float]:
        return counts(view.get("hand") or [], codes)

    def piles(view: Mapping[str, Any], seat: int) -> list[float]:
        return [
            *(view["discard_pile"].get(code, 0) / 10.0 for code in codes),
            *(view["out_of_game"].get(code, 0) / 10.0 for code in codes),
            *(view["booster_supply"].get(str(value), 0) / 2.0 for value in BOOSTER_VALUES),
        ]

    return ObservationSpace(
        (
            Block("board", (_PLANES, WINDOW, WINDOW), board),
            Block("hand", (len(codes),), hand),
            Block("seats", (SLOTS, 5 + len(codes)), seats),
            Block("game", (len(STAGES) + 5,), game),
            Block("piles", (2 * len(codes) + len(BOOSTER_VALUES),), piles),
        ),
        OBSERVATION_VERSION,
    )


def spaces(players: int, config: VoluspaConfig | None = None) -> GameSpaces:
    """Völuspá's spaces for ``players`` seats (the same for every preset).

    ``config``: the games' config; given, the spaces offer the C engine's vector backend
    (:class:`meadhall.games.voluspa.vector.VectorGames`) for that preset, with or without
    observations.
    """
    observations = observation_space(players)

    def vector(buffers: VectorBuffers) -> VectorBackend | None:
        from meadhall.games.voluspa.vector import VectorGames

        assert config is not None
        return VectorGames.make(config, HEADS, observations, SLOTS, buffers)

    return GameSpaces(VoluspaActions(), observations, None if config is None else vector)
