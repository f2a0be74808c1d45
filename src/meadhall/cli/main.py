"""The ``meadhall`` command: one entry point, a subcommand per job."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from meadhall import __version__
from meadhall.extras import MissingExtra


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    from meadhall.cli import arena, balance, bench, bench_server, bot_pool, command_play, games, replay, serve, tools

    parser = argparse.ArgumentParser(
        prog="meadhall",
        description="Norse-mythology board games played fully by their rules.",
    )
    parser.add_argument("--version", action="version", version=f"meadhall {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    serve.add_parser(commands)
    bot_pool.add_parser(commands)
    command_play.add_parser(commands)
    replay.add_parser(commands)
    games.add_parser(commands)
    bench.add_parser(commands)
    arena.add_parser(commands)
    balance.add_parser(commands)
    bench_server.add_parser(commands)
    tools.add_parsers(commands)  # each game's own tools (meadhall GAME TOOL), after the commands they may not shadow
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except MissingExtra as error:
        print(f"meadhall {args.command}: {error}", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
