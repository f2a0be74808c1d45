"""A game's browser plugin, read from the game's package: its board script and its stylesheet.

``Game.web_plugin()`` is the script (``web/plugin.js``), ``Game.web_style()`` the
stylesheet (``web/plugin.css``), which a game may leave out. The pages serve them at
``/games/<name>/plugin.js`` and ``/games/<name>/plugin.css``; a table's description says
whether its game has a stylesheet (``board_style``), so the page links one only then.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Literal

from meadhall.core.errors import MeadhallError
from meadhall.core.registry import get_game

#: The plugin's files by their extension.
Part = Literal["js", "css"]


@lru_cache(maxsize=64)
def plugin_file(name: str, part: Part) -> tuple[bytes, str] | None:
    """The plugin script (``"js"``) or stylesheet (``"css"``) of a game, with its ETag; None if it has none."""
    try:
        game = get_game(name)
    except MeadhallError:
        return None
    found = game.web_plugin() if part == "js" else game.web_style()
    if not found.is_file():
        return None
    body = found.read_bytes()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def has_style(name: str) -> bool:
    """Whether the game called ``name`` ships a board stylesheet."""
    return plugin_file(name, "css") is not None
