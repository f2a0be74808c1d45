"""``meadhall play``: the terminal game (being written)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(commands: Any) -> None:
    """Register the ``play`` subcommand."""
    parser = commands.add_parser("play", help="play a game in the terminal")
    parser.add_argument("game")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play."""
    del args
    return 0
