"""A game's browser plugin, read from the game's package: its board script and its stylesheet.

``Game.web_plugin()`` is the script (``web/plugin.js``), ``Game.web_style()`` the
stylesheet (``web/plugin.css``), which a game may leave out. The pages serve them at
``/games/<name>/plugin.js`` and ``/games/<name>/plugin.css``; a table's description says
whether its game has a stylesheet (``board_style``), so the page links one only then.
``Game.web_icons()`` is the game's icon sprite (``web/icons.svg``, one ``<symbol>`` per
component it draws), served at ``/games/<name>/icons.svg`` and shown on its rules page.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ElementTree
from functools import lru_cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

import meadhall
from meadhall.core.errors import MeadhallError
from meadhall.core.registry import get_game

#: The plugin's files by their extension: its script, its stylesheet, its icon sprite.
Part = Literal["js", "css", "svg"]


@lru_cache(maxsize=64)
def plugin_file(name: str, part: Part) -> tuple[bytes, str] | None:
    """The plugin script (``"js"``) or stylesheet (``"css"``) of a game, with its ETag; None if it has none."""
    try:
        game = get_game(name)
    except MeadhallError:
        return None
    found = {"js": game.web_plugin, "css": game.web_style, "svg": game.web_icons}[part]()
    if not found.is_file():
        return None
    body = found.read_bytes()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def has_style(name: str) -> bool:
    """Whether the game called ``name`` ships a board stylesheet."""
    return plugin_file(name, "css") is not None


def icon_id(key: str) -> str:
    """The ``id`` of the sprite's symbol for the component ``key``: ``god:odin`` -> ``god-odin``.

    The same rule as ``MH.iconId`` in common.js (a fragment that needs no escaping in a URL).
    """
    return re.sub(r"[^A-Za-z0-9_-]", "-", key)


SVG_NS = "{http://www.w3.org/2000/svg}"


@lru_cache(maxsize=64)
def icon_ids(name: str) -> frozenset[str]:
    """The ids of the symbols in the icon sprite of the game called ``name`` (none without a sprite)."""
    found = plugin_file(name, "svg")
    if found is None:
        return frozenset()
    root = ElementTree.fromstring(found[0])
    return frozenset(str(symbol.get("id")) for symbol in root.iter(f"{SVG_NS}symbol") if symbol.get("id"))


def icon_gallery(name: str) -> list[dict[str, str]]:
    """Each component of the game's default content that has an icon: its symbol's id, name and facts.

    In the order of the game's components words, for the icons on its rules page; empty for
    a game without words or without a sprite.
    """
    ids = icon_ids(name)
    words = get_game(name).words() if ids else None
    if words is None:
        return []
    shown = []
    for component in words.components():
        symbol = icon_id(component["key"])
        if symbol in ids:
            shown.append({"id": symbol, "name": component["name"], "facts": component.get("facts", "")})
    return shown


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
