"""Find games by name or alias.

Games are plugins. Any installed package offers games through the entry point group
``meadhall.games``, one entry point per game, named after the game and pointing at its
:class:`~meadhall.core.game.Game` object (or at a function that makes one)::

    [project.entry-points."meadhall.games"]
    voluspa = "meadhall.games.voluspa:VOLUSPA"

meadhall's own games are offered the same way, so the core imports no game: the
registry loads the group on the first lookup, and ``get_game("voluspa")`` just works.
:func:`register` adds a game in-process (tests, toy games).
"""

from __future__ import annotations

import copyreg
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from meadhall.core.errors import MeadhallError
from meadhall.core.game import Game

#: The entry point group games are found in.
ENTRY_POINT_GROUP = "meadhall.games"

_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}
_loaded = False


class GamePluginError(MeadhallError):
    """An installed game (an entry point of ``meadhall.games``) that cannot be loaded."""


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def register(game: Game) -> Game:
    """Add ``game`` to the registry under its name and aliases; return it."""
    name = _key(game.info.name)
    existing = _GAMES.get(name)
    if existing is not None and existing is not game:
        raise MeadhallError(f"a game called {name!r} is registered already")
    _GAMES[name] = game
    for alias in (game.info.name, *game.info.aliases):
        _ALIASES[_key(alias)] = name
    # A registered game pickles (and copies) by its name: it reads back as this one object,
    # so states, environments and bots that hold it hold the same game after a round trip.
    copyreg.pickle(type(game), _pickled_game)
    return game


def _pickled_game(game: Game) -> Any:
    """How pickle and copy take a game apart: by its name if it is the registry's game of that name."""
    if _GAMES.get(_key(game.info.name)) is game:
        return get_game, (game.info.name,)
    return object.__reduce_ex__(game, 2)  # another object of a registered game's class: as an object


def unregister(name: str) -> None:
    """Remove a game and its aliases (tests that register games of their own)."""
    key = _key(name)
    _GAMES.pop(key, None)
    for alias in [a for a, target in _ALIASES.items() if target == key]:
        del _ALIASES[alias]


def _origin(entry: EntryPoint) -> str:
    dist = entry.dist
    source = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"the game {entry.name!r} ({ENTRY_POINT_GROUP} entry point {entry.value!r}{source})"


def load_entry_point(entry: EntryPoint) -> Game:
    """The game an entry point of ``meadhall.games`` offers, or :class:`GamePluginError` saying why not.

    The entry point gives a :class:`Game`, or a callable making one; the game's name must
    be the entry point's name.
    """
    try:
        found = entry.load()
        if not isinstance(found, Game) and callable(found):
            found = found()
    except Exception as error:
        raise GamePluginError(f"{_origin(entry)} cannot be loaded: {type(error).__name__}: {error}") from error
    if not isinstance(found, Game):
        raise GamePluginError(f"{_origin(entry)} gives {type(found).__name__}, not a meadhall Game")
    if _key(found.info.name) != _key(entry.name):
        raise GamePluginError(
            f"{_origin(entry)} is a game called {found.info.name!r}: an entry point is named after its game"
        )
    return found


def _entry_points() -> Iterable[EntryPoint]:
    return entry_points(group=ENTRY_POINT_GROUP)


def _ensure_loaded() -> None:
    """Register every installed game, once (all or none: a broken entry point raises every time)."""
    global _loaded
    if _loaded:
        return
    found: dict[str, tuple[Game, EntryPoint]] = {}
    for entry in _entry_points():
        game = load_entry_point(entry)
        name = _key(game.info.name)
        if name in found and found[name][0] is not game:
            raise GamePluginError(f"{_origin(entry)} and {_origin(found[name][1])} have the same name")
        found[name] = (game, entry)
    for game, entry in found.values():
        try:
            register(game)
        except MeadhallError as error:
            raise GamePluginError(f"{_origin(entry)}: {error}") from None
    _loaded = True


def get_game(name: str) -> Game:
    """Return the game called ``name`` (or one of its aliases), case-insensitively."""
    _ensure_loaded()
    key = _ALIASES.get(_key(name))
    if key is None:
        if not _GAMES:
            raise MeadhallError(
                f"no game called {name!r}: no games are installed (games are found through the "
                f"{ENTRY_POINT_GROUP!r} entry points of installed packages: pip install meadhall)"
            )
        known = ", ".join(sorted(_GAMES))
        raise MeadhallError(f"no game called {name!r}; games: {known}")
    return _GAMES[key]


def all_games() -> list[Game]:
    """Every registered game, by name."""
    _ensure_loaded()
    return [_GAMES[name] for name in sorted(_GAMES)]
