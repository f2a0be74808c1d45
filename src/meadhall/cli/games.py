"""``meadhall games``: the registered games, their player counts, options and presets.

Also :func:`choose_game`, how every command finds the game it was told to play: no
command has a game of its own by default (generic code names no game), so a command
given no game plays the only one installed, or asks for one by name.
"""

from __future__ import annotations

import argparse
from typing import Any

from meadhall.core.errors import MeadhallError
from meadhall.core.game import Game
from meadhall.core.registry import all_games, get_game


class NoGameNamed(MeadhallError):
    """A command was given no game while several are installed."""


def games_list() -> str:
    """The installed games for a message: ``bloodrage-valhalla (Blood Rage: Valhalla), ...``."""
    return ", ".join(f"{game.info.name} ({game.info.title})" for game in all_games())


def choose_game(name: str | None, how: str = "--game GAME") -> Game:
    """The game called ``name``; with no name, the only game installed.

    Raises :class:`NoGameNamed` (naming the games and ``how`` to name one) when several
    are installed, and the registry's error for an unknown name or none installed.
    """
    if name is not None:
        return get_game(name)
    games = all_games()
    if len(games) == 1:
        return games[0]
    if not games:
        raise NoGameNamed("no games are installed (a game is a package offering a 'meadhall.games' entry point)")
    raise NoGameNamed(f"name the game ({how}): {games_list()}; 'meadhall games' describes them")


def add_parser(commands: Any) -> None:
    """Register the ``games`` subcommand."""
    parser = commands.add_parser("games", help="list the games, their presets and options")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print every registered game."""
    del args
    for game in all_games():
        info = game.info
        print(f"{info.name} - {info.title} ({info.min_players}-{info.max_players} players)")
        print(f"  {info.summary}")
        if info.aliases:  # a game known by its name alone shows no empty line
            print(f"  aliases: {', '.join(info.aliases)}")
        print("  presets:")
        for name in info.presets:
            default = " (default)" if name == info.default_preset else ""
            print(f"    {name}{default}: {info.preset_titles.get(name, '')}")
        print("  options:")
        for option in info.options:
            print(f"    {option.name} ({option.kind}, default {option.default}): {option.help}")
    return 0
