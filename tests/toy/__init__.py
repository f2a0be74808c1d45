"""Tests of the toy game, a game in a package of its own (tests/plugins/meadhall-toy).

``make test`` installs that package into the test venv; meadhall then finds the game by
its entry point like any installed game. :data:`TOY` is the game as the registry gives it.
"""

from __future__ import annotations

from meadhall.core.errors import MeadhallError
from meadhall.core.game import Game
from meadhall.core.registry import get_game


def _toy() -> Game:
    try:
        return get_game("toy")
    except MeadhallError as error:
        raise RuntimeError(
            "the toy game is not installed in this venv: run `make .venv/.installed-test`, or "
            "`pip install -e tests/plugins/meadhall-toy` (meadhall finds it through its entry point)"
        ) from error


#: The toy game, found through its entry point.
TOY = _toy()
