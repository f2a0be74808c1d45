"""A bot that never takes some actions while it has any other choice: for balance experiments.

``greedy!build:surtur`` is greedy that never builds a temple of Surtur. Played against the
plain bot, it answers the question a table of win rates cannot: how much does a player
lose by doing without that action? (A table shows who *did* build there and won; those
players may simply have been richer.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meadhall.core.game import Action, Game
from meadhall.core.rng import Rng


class AvoidingBot:
    """Wrap ``inner``: drop the actions written as one of ``avoided`` before it chooses.

    When only avoided actions are legal it takes one of them (a seat must decide).
    """

    def __init__(self, inner: Any, avoided: frozenset[str]) -> None:
        self.inner = inner
        self.avoided = avoided
        self.name = f"{inner.name}!{'+'.join(sorted(avoided))}"

    def choose(self, game: Game, view: dict[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The inner bot's choice among the legal actions that are not avoided."""
        allowed = [action for action in legal if str(action) not in self.avoided] or list(legal)
        return self.inner.choose(game, view, allowed, rng)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"AvoidingBot({self.inner!r}, {sorted(self.avoided)!r})"


__all__ = ["AvoidingBot"]
