"""The greedy bot: the best immediate result by the game's own evaluation.

For Völuspá that is the turn's points (a Hermod's follow-up and a Raven's second
placement planned with the step), with ties broken by spending the cheaper tile and
leaving shorter lines behind. It sees only its seat's view: the evaluation runs on a
world sampled from that view, and points never depend on the hidden tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meadhall.core.game import Action, Game
from meadhall.core.rng import Rng
from meadhall.core.search import GameSearch


class GreedyBot:
    """Choose the action with the best immediate result (``game.search_adapter().greedy``)."""

    name: str = "greedy"

    def __init__(self) -> None:
        self._adapters: dict[str, GameSearch] = {}

    def choose(self, game: Game, view: dict[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """Return the legal action with the best immediate evaluation."""
        if not legal:
            raise ValueError("the greedy bot was asked to choose from no legal actions")
        if len(legal) == 1:
            return legal[0]
        adapter = self._adapters.get(game.info.name)
        if adapter is None:
            adapter = self._adapters[game.info.name] = game.search_adapter()
        action: Action = adapter.greedy(view, legal, rng)
        return action

    def __repr__(self) -> str:
        return "GreedyBot()"
