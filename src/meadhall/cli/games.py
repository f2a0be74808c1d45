"""``meadhall games``: the registered games, their player counts, options and presets."""

from __future__ import annotations

import argparse
from typing import Any

from meadhall.core.registry import all_games


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
        print(f"  aliases: {', '.join(info.aliases)}")
        print("  presets:")
        for name in info.presets:
            default = " (default)" if name == info.default_preset else ""
            print(f"    {name}{default}: {info.preset_titles.get(name, '')}")
        print("  options:")
        for option in info.options:
            print(f"    {option.name} ({option.kind}, default {option.default}): {option.help}")
    return 0
