"""Toy Duel: a small complete meadhall game in a package of its own.

It is the worked example of docs/architecture.md's "How to add a game": a game found
through the ``meadhall.games`` entry point of its package (``pyproject.toml``), with
hidden hands, a response window and a die, that meadhall's terminal, server, browser
pages, lab and conformance suite play without a line of them naming it.

* :mod:`meadhall_toy.actions`: the actions and their notation
* :mod:`meadhall_toy.state`: the rules (a :class:`~meadhall.core.game.GameState`)
* :mod:`meadhall_toy.belief`: worlds consistent with a seat's view (for bots and leak checks)
* :mod:`meadhall_toy.game`: the :class:`~meadhall.core.game.Game` object, :data:`GAME`
* :mod:`meadhall_toy.words`: every word a player reads (:class:`~meadhall.core.words.GameWords`)
* :mod:`meadhall_toy.text`: the table and the hand as text (:class:`~meadhall.core.text.GameText`)
* ``web/plugin.js``: the board in the browser; it draws and picks, nothing more
"""

from meadhall_toy.actions import PASS, Answer, Pass, Play, ToyAction, parse_action
from meadhall_toy.game import GAME, INFO, ToyGame
from meadhall_toy.state import ToyConfig, ToyState

__all__ = [
    "GAME",
    "INFO",
    "PASS",
    "Answer",
    "Pass",
    "Play",
    "ToyAction",
    "ToyConfig",
    "ToyGame",
    "ToyState",
    "parse_action",
]
