"""A game's spaces as numpy arrays (:class:`Spaces`) and one seat's recall (:class:`InformationState`)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from meadhall.core import spaces as core
from meadhall.core.errors import MeadhallError
from meadhall.core.game import Game, GameState
from meadhall.core.registry import get_game
from meadhall.extras import missing

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as error:  # without the extra: one line naming it, not a traceback
    raise missing(error, "rl", "meadhall.rl.spaces", {"numpy"}) from None


class NoSpaces(MeadhallError):
    """The game offers no action index or observation tensors (its ``Game.spaces`` is ``None``)."""


class Spaces:
    """A game's encodings for ``players`` seats and ``options``, as numpy arrays.

    ``game`` is a :class:`~meadhall.core.game.Game` or its name. Raises :class:`NoSpaces`
    for a game without them.
    """

    def __init__(self, game: Game | str, players: int, options: Mapping[str, Any] | None = None) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        self.options = None if options is None else dict(options)
        if _registered(self.game):  # encodings that pickle (by their source)
            found = core.spaces_of(self.game.info.name, players, self.options)
        else:
            found = self.game.spaces(players, self.options)
        if found is None:
            raise NoSpaces(
                f"{self.game.info.title} offers no action index or observation tensors "
                "(its Game.spaces returns None); see docs/rl.md for how a game adds them"
            )
        self.players = players
        self.encodings: core.GameSpaces = found
        self.actions: core.ActionSpace = found.actions
        self.observations: core.ObservationSpace = found.observations

    def __reduce__(self) -> tuple[Any, tuple[Game, int, dict[str, Any] | None]]:
        """Pickle and copy as what built them: the game (by name), the players and the options."""
        return Spaces, (self.game, self.players, self.options)

    @property
    def version(self) -> str:
        """The encodings' version (keep it beside a trained policy)."""
        return self.encodings.version

    @property
    def action_size(self) -> int:
        """Number of action indices."""
        return self.actions.size

    @property
    def observation_size(self) -> int:
        """Floats in one observation."""
        return self.observations.size

    def layout(self) -> list[tuple[str, tuple[int, ...], int]]:
        """Each observation block's name, shape and offset."""
        return self.observations.layout()

    def legal_mask(self, state: GameState[Any], seat: int) -> npt.NDArray[np.int8]:
        """1 where the action is legal for ``seat`` now, as ``int8`` (PettingZoo's ``action_mask``)."""
        return np.frombuffer(self.actions.legal_mask(state, seat), dtype=np.int8).copy()

    def observation(self, state: GameState[Any], seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` (read from its view) as ``float32``."""
        return np.asarray(self.observations.observation(state, seat), dtype=np.float32)

    def encode(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` from its ``view`` as ``float32``."""
        return np.asarray(self.observations.encode(view, seat), dtype=np.float32)

    def blocks(self, observation: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """An observation cut into its named blocks, each in its shape."""
        return {
            name: observation[offset : offset + int(np.prod(shape))].reshape(shape)
            for name, shape, offset in self.layout()
        }

    def index(self, action: Hashable, state: GameState[Any] | None = None) -> int:
        """The index of ``action`` (Völuspá needs the ``state``: its window follows the board)."""
        return self.actions.index(action, state)

    def action(self, index: int, state: GameState[Any] | None = None) -> Hashable:
        """The action at ``index``."""
        return self.actions.action(int(index), state)

    def information_state(self, seat: int) -> InformationState:
        """A new perfect-recall record for ``seat`` (feed it the deal's events first)."""
        return InformationState(self.encodings, seat)


class InformationState(core.InformationState):
    """One seat's perfect recall (:class:`meadhall.core.spaces.InformationState`), its tensor an array."""

    def array(self, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """The information-state tensor as ``float32``, for the seat's current ``view``."""
        return np.asarray(self.tensor(view), dtype=np.float32)


def _registered(game: Game) -> bool:
    """Whether ``game`` is the registry's game of its name (one that pickles by its name)."""
    try:
        return get_game(game.info.name) is game
    except MeadhallError:
        return False


def reward_of(state: GameState[Any], seat: int) -> float:
    """A finished game's reward for ``seat``: +1 for first place, -1 for last, evenly between.

    From the game's ranking (:func:`meadhall.core.spaces.final_rewards`); seats that tie
    share the mean of the places they span (two seats tied for first of two get 0), so the
    rewards of a game always sum to zero.
    """
    return core.final_rewards(state)[seat]
