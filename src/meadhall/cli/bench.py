"""``meadhall bench``: engine benchmarks (filled in below)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(commands: Any) -> None:
    """Register the ``bench`` subcommand."""
    parser = commands.add_parser("bench", help="measure engine speed per game and preset")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmarks."""
    del args
    return 0
