"""Find games by name or alias.

Built-in games register themselves when :mod:`meadhall.games` is imported; the
functions here import it on first use, so ``get_game("voluspa")`` just works.
"""

from __future__ import annotations

from meadhall.core.errors import MeadhallError
from meadhall.core.game import Game

_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}
_loaded = False


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
    return game


def unregister(name: str) -> None:
    """Remove a game and its aliases (tests that register games of their own)."""
    key = _key(name)
    _GAMES.pop(key, None)
    for alias in [a for a, target in _ALIASES.items() if target == key]:
        del _ALIASES[alias]


def _ensure_loaded() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        import meadhall.games  # noqa: F401  (registers the built-in games)


def get_game(name: str) -> Game:
    """Return the game called ``name`` (or one of its aliases), case-insensitively."""
    _ensure_loaded()
    key = _ALIASES.get(_key(name))
    if key is None:
        known = ", ".join(sorted(_GAMES))
        raise MeadhallError(f"no game called {name!r}; games: {known}")
    return _GAMES[key]


def all_games() -> list[Game]:
    """Every registered game, by name."""
    _ensure_loaded()
    return [_GAMES[name] for name in sorted(_GAMES)]
