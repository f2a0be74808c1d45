"""A bot that plays a uniformly random legal action: the baseline every bot must beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meadhall.core.game import Action, Game
from meadhall.core.rng import Rng


class RandomBot:
    """Choose uniformly at random among the legal actions, using only the given rng.

    It ignores the view entirely; with the same rng state and the same legal actions it
    always makes the same choice, so games with random bots replay exactly.
    """

    name: str = "random"

    def choose(self, game: Game, view: dict[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """Return one of ``legal``, each with equal probability.

        Raises :class:`ValueError` if ``legal`` is empty (the seat has nothing to decide).
        """
        del game, view
        if not legal:
            raise ValueError("the random bot was asked to choose from no legal actions")
        return rng.choice(legal)

    def __repr__(self) -> str:
        return "RandomBot()"


__all__ = ["RandomBot"]
