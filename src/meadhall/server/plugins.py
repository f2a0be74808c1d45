"""A game's browser plugin, read from the game's package: its board script and its stylesheet.

``Game.web_plugin()`` is the script (``web/plugin.js``), ``Game.web_style()`` the
stylesheet (``web/plugin.css``), which a game may leave out. The pages serve them at
``/games/<name>/plugin.js`` and ``/games/<name>/plugin.css``; a table's description says
whether its game has a stylesheet (``board_style``), so the page links one only then.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

import meadhall
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


#: Where the rules pages come from beside a game's own ``rules_page()``: the server's
#: copy, else the repository's docs/rules.
RULES_DIRS = [
    Path(__file__).parent / "web" / "rules",
    Path(meadhall.__file__).resolve().parents[2] / "docs" / "rules",
]


def rules_file(name: str) -> Traversable | None:
    """The rules and rulings (Markdown) of the game called ``name``; None if none is installed."""
    try:
        game = get_game(name)
    except MeadhallError:
        return None
    places: list[Traversable] = [game.rules_page(), *(folder / f"{game.info.name}.md" for folder in RULES_DIRS)]
    for path in places:
        if path.is_file():
            return path
    return None


def rules_link(name: str) -> str | None:
    """Where the game's rules page is (``/rules/<game>``), or None when it has none to show."""
    return f"/rules/{get_game(name).info.name}" if rules_file(name) is not None else None
