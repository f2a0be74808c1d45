"""``meadhall play``: the subcommand, which sets a game up and plays it full screen or line by line.

The game in the terminal is :class:`~meadhall.cli.play.TerminalGame` (line by line, and
everything about setting a game up, saving and loading); on a terminal it is shown full
screen by :mod:`meadhall.cli.tui`. When input or output is not a terminal (piped), or with
``--line``, it is played line by line.
"""

from __future__ import annotations

import argparse
import builtins
import sys
from pathlib import Path
from typing import Any

from meadhall.bots import LEVELS, make_bot
from meadhall.cli.games import choose_game
from meadhall.cli.options import add_option_arguments
from meadhall.cli.play import (
    DEFAULT_BOT,
    TerminalGame,
    ask_game,
    ask_setup,
    bots_for,
    parse_seats,
    read_save,
    renderer_for,
    setup_from_args,
    start_game,
    start_guide,
)
from meadhall.core.errors import InvalidOptions, MeadhallError, RecordError
from meadhall.core.registry import get_game


def add_parser(commands: Any) -> None:
    """Register the ``play`` subcommand."""
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal (hot-seat or against bots)",
        description=(
            "Play in the terminal. With no options you are asked how many players there are and "
            "which seats are bots (press Enter for: you against medium bots). Hands stay hidden: "
            "people sharing the device get a pass-the-device screen between turns."
        ),
        epilog=(
            "Examples: meadhall play GAME --players 3 --bots 3 --names Ann,Bo --preset PRESET; "
            "meadhall play --load saved.json. 'meadhall games' lists the games, their player counts, "
            "presets and options."
        ),
    )
    parser.add_argument(
        "game",
        nargs="?",
        default=None,
        help="the game, by name or alias (see 'meadhall games'); with none, the game of the --load file, "
        "or you are asked (unless only one is installed)",
    )
    parser.add_argument("--players", type=int, help="number of seats (each game's range in 'meadhall games')")
    parser.add_argument("--bots", metavar="SEATS", help="seats played by bots, e.g. 2,3 (1-based), or none")
    parser.add_argument("--humans", type=int, metavar="N", help="seats 1..N are people, the rest bots")
    parser.add_argument("--names", metavar="A,B,...", help="names of the seats, in order")
    add_option_arguments(parser, "the game's preset (each game's presets in 'meadhall games')")
    parser.add_argument("--seed", type=int, help="seed of the deal (to replay the same game)")
    parser.add_argument("--load", metavar="FILE", help="continue a saved game")
    parser.add_argument(
        "--guide",
        action="store_true",
        help="learn to play: the game's guided first game against a bot, step by step "
        "('guide skip' leaves it, 'guide restart' starts again)",
    )
    parser.add_argument(
        "--bot",
        "--bot-kind",
        dest="bot_kind",
        default=DEFAULT_BOT,
        metavar="BOT",
        help=f"who plays the bot seats: a level ({', '.join(LEVELS)}) or a bot spec such as greedy or "
        f"ismcts:2s (default {DEFAULT_BOT})",
    )
    parser.add_argument(
        "--bot-delay", type=float, metavar="SECONDS", help="pause after each bot turn (default 0.4 in a terminal)"
    )
    parser.add_argument(
        "--line",
        action="store_true",
        help="play line by line, as when input or output is not a terminal (default on a terminal: full screen)",
    )
    parser.add_argument(
        "--clear",
        choices=("auto", "always", "never"),
        default="auto",
        help="clear the screen around the pass-the-device screen (auto: when output is a terminal)",
    )
    parser.set_defaults(run=run)


def _configured(args: argparse.Namespace) -> bool:
    return any(
        getattr(args, name) is not None
        for name in ("players", "bots", "humans", "names", "preset", "option", "content", "load")
    )


def full_screen(args: argparse.Namespace) -> bool:
    """True if ``meadhall play`` opens the full-screen game: input and output are a terminal, and no ``--line``."""
    return not args.line and sys.stdin.isatty() and sys.stdout.isatty()


def run(args: argparse.Namespace) -> int:
    """Run ``meadhall play``: full screen on a terminal (:mod:`meadhall.cli.tui`), else line by line."""
    output = sys.stdout
    interactive = output.isatty()
    delay = args.bot_delay if args.bot_delay is not None else (0.4 if interactive else 0.0)
    clear = {"auto": None, "always": True, "never": False}[args.clear]
    kwargs: dict[str, Any] = {"output": output, "bot_delay": delay, "clear_screen": clear}
    try:
        if args.guide:
            game = choose_game(args.game, "meadhall play --guide GAME")
            renderer_for(game)
            terminal = start_guide(game, **kwargs)
        elif args.load:
            text = Path(args.load).expanduser().read_text(encoding="utf-8")
            wanted = get_game(args.game) if args.game is not None else None
            state, names, seats = read_save(wanted, text)
            game = wanted if wanted is not None else state.game
            renderer_for(game)
            if args.bots is not None or args.humans is not None:
                bot_seats = (
                    parse_seats(args.bots, state.num_players)
                    if args.bots is not None
                    else list(range(args.humans, state.num_players))
                )
                bots = {seat: make_bot(args.bot_kind) for seat in bot_seats}
            else:
                bots = bots_for(seats) if seats is not None else {}
            if args.names:
                names = [name.strip() for name in args.names.split(",")]
            terminal = TerminalGame(game, state, names=names, bots=bots, **kwargs)
        else:
            if _configured(args):
                game = choose_game(args.game, "meadhall play GAME")
                renderer_for(game)
                setup = setup_from_args(args, game)
            else:
                try:
                    game = get_game(args.game) if args.game is not None else ask_game(builtins.input, output)
                    renderer_for(game)
                    setup = ask_setup(game, builtins.input, output, args.seed)
                except EOFError:
                    print()
                    return 0
                setup.bot_kind = args.bot_kind
            terminal = start_game(game, setup, **kwargs)
    except (InvalidOptions, RecordError, ValueError, OSError, MeadhallError) as error:
        print(f"meadhall play: {error}", file=sys.stderr)
        return 2
    if full_screen(args):
        from meadhall.cli.tui import run_app  # Textual loads only for the full screen

        return run_app(terminal, bot_delay=delay)
    return terminal.run()
