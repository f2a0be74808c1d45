"""meadhall: Norse-mythology board games played fully by their rules.

The rules layer (:mod:`meadhall.core` and :mod:`meadhall.games`) is pure: no I/O
beyond reading its own packaged content files. Interfaces (CLI, server, bots)
depend on it, never the other way round.

Quick start::

    >>> import meadhall
    >>> game = meadhall.get_game("voluspa")
    >>> state = game.new_game(players=2, seed=7)
    >>> seat = state.to_move()[0]
    >>> action = state.legal_actions(seat)[0]
    >>> events = state.apply(seat, action)
"""

from meadhall.core.errors import (
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    MeadhallError,
    RecordError,
)
from meadhall.core.game import Action, Event, Game, GameInfo, GameState, OptionSpec
from meadhall.core.record import GameRecord
from meadhall.core.registry import all_games, get_game

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameInfo",
    "GameRecord",
    "GameState",
    "IllegalAction",
    "InvalidOptions",
    "MalformedAction",
    "MeadhallError",
    "OptionSpec",
    "RecordError",
    "__version__",
    "all_games",
    "get_game",
]
