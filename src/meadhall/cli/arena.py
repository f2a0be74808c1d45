"""``meadhall arena``: rank bots by playing seeded games against each other (a shell over :mod:`meadhall.lab.arena`).

    meadhall arena --game GAME --bots greedy,ismcts:1s --games 400 --jobs 2
    meadhall arena --game valda --bot-module my_bots --bots mine,greedy   # your own bot

``--bot-module`` imports a module (from the current folder or installed) that registers
bots with ``meadhall.bots.register_bot``; packages may offer bots through the
``meadhall.bots`` entry point group instead (docs/bots.md, "Your own bot").

Prints a progress bar, then a table of wins, average scores and Elo with 95% intervals;
writes every game as JSON and CSV (``--out``), and a PNG chart on request (``--chart``).
Ctrl-C (or SIGTERM) stops early and still reports the games that finished. The files are also
written every minute while the games run, so a long run that is stopped, or whose
machine goes down, loses little: ``--resume`` with the same ``--out`` keeps the finished
games and plays the rest (``--games`` may also be raised to extend a run).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from typing import Any

from meadhall.bots import make_bot
from meadhall.cli.bench import machine
from meadhall.cli.games import choose_game
from meadhall.cli.options import add_option_arguments, options_from_args
from meadhall.cli.progress import Progress
from meadhall.core.errors import InvalidOptions, MeadhallError
from meadhall.extras import require
from meadhall.lab.arena import (
    Checkpoint,
    GameResult,
    draw_chart,
    format_table,
    load_earlier,
    run,
    summarize,
    to_json,
    write_outputs,
)
from meadhall.lab.selfplay import Series, bot_specs


def add_parser(commands: Any) -> None:
    """Register the ``arena`` subcommand."""
    parser = commands.add_parser(
        "arena",
        help="play bots against each other and rank them (wins, scores, Elo)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", help="the game (see 'meadhall games'; needed when more than one is installed)")
    parser.add_argument(
        "--bots",
        required=True,
        help="comma-separated bot specs or levels, rotated over the seats, e.g. random,greedy,ismcts:1s,hard; "
        "BOT*N repeats one, e.g. ismcts:1s,greedy*3; ismcts:1s-cpu counts processor time, not wall-clock time",
    )
    parser.add_argument(
        "--bot-module",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first (from the current folder or installed): it registers bots with "
        "meadhall.bots.register_bot; may be given more than once",
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    add_option_arguments(parser, "game preset (see 'meadhall games')")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes (default: cores)")
    parser.add_argument("--out", metavar="PREFIX", help="write PREFIX.json and PREFIX.csv (default arena-results/...)")
    parser.add_argument("--chart", metavar="FILE.png", help="also draw the Elo ratings as a PNG chart")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the finished games in the --out files of an earlier run of the same arena and play the rest",
    )
    parser.add_argument(
        "--checkpoint",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="write the files this often while the games run (default 60; 0: only at the end)",
    )
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run_arena)


def import_bot_modules(names: list[str]) -> None:
    """Import each module of ``--bot-module`` (the current folder first on the path), or raise ``ValueError``.

    The arena's worker processes are forked from this one, so they know the bots registered here.
    """
    if names and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as error:  # any failure of the researcher's module is reported, not a traceback
            raise ValueError(f"--bot-module {name}: {type(error).__name__}: {error}") from None


def run_arena(args: argparse.Namespace) -> int:
    """Run ``meadhall arena``: check the input, play with a progress bar, print the table, write the files."""
    try:
        import_bot_modules(args.bot_module)
        game = choose_game(args.game)
        bots = bot_specs(args.bots)
        for spec in set(bots):
            make_bot(spec)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        options = options_from_args(args)
        game.validate_options(options, players=args.players)
        if args.chart:
            require("matplotlib", "charts", "the chart")  # before the games, not after them
        if args.resume and not args.out:
            raise ValueError("--resume needs --out PREFIX: the files of the run to resume")
    except (ValueError, InvalidOptions, MeadhallError) as error:
        print(f"meadhall arena: {error}", file=sys.stderr)
        return 2
    series = Series(
        game.info.name, bots, args.games, args.players, options, args.seed, max(1, args.jobs), tuple(args.bot_module)
    )
    prefix = Path(args.out) if args.out else Path("arena-results") / time.strftime("arena-%Y%m%d-%H%M%S")
    earlier: list[GameResult] = []
    if args.resume:
        try:
            earlier = load_earlier(series, prefix)
        except ValueError as error:
            print(f"meadhall arena: {error}", file=sys.stderr)
            return 2
    print(
        f"{game.info.title}: {args.games} games, {args.players} players, bots {', '.join(bots)}, "
        f"{series.jobs} process{'es' if series.jobs > 1 else ''}"
        + (f"; resuming with {len(earlier)} finished" if args.resume else ""),
        file=sys.stderr,
    )
    progress = Progress(args.games - len(earlier), not args.quiet)
    on_game = Checkpoint(series, prefix, earlier, args.checkpoint, machine(), progress)
    new_results, interrupted = run(series, on_game, done={r.index for r in earlier})
    results = sorted(earlier + new_results, key=lambda r: r.index)
    if interrupted:
        print(f"\ninterrupted: reporting the {len(results)} games that finished", file=sys.stderr)
    if not results:
        print("no game finished", file=sys.stderr)
        return 130 if interrupted else 1
    rows = summarize(results, tuple(dict.fromkeys(bots)))
    print(format_table(rows, markdown=args.markdown))
    errors = sum(1 for r in results if r.error)
    if errors:
        print(f"{errors} game(s) ended with a bot error; see the JSON file", file=sys.stderr)
    json_path, csv_path = write_outputs(prefix, to_json(series, results, rows, interrupted, machine()), results)
    print(f"wrote {json_path} and {csv_path}", file=sys.stderr)
    if args.chart:
        title = f"{game.info.title}, {args.players} players, {len(results)} games"
        try:
            draw_chart(Path(args.chart), rows, title)
        except MeadhallError as error:
            print(f"meadhall arena: {error}", file=sys.stderr)
            return 2
        print(f"wrote {args.chart}", file=sys.stderr)
    return 130 if interrupted else 0
