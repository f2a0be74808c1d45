"""``meadhall balance``: whether any choice of a game is a must-pick, by bot self-play.

    meadhall balance --game GAME --bots greedy --games 2000 --jobs 2 --seed 1 --markdown

A shell over :mod:`meadhall.lab.balance`, for every game that defines a balance report
(``Game.balance_spec``). Bots play every seat of seeded games (a comma list of bot specs
rotates over the seats; ``BOT*N`` repeats one), with the game's usual player count and
options unless given. Prints the game's tables of win rates (by what the seats chose,
by seat and by turn order, with 95% intervals against the fair share and a verdict line
under each: the spread, the must-picks and the entries whose whole interval lies above
the fair share). Writes the configuration, every game and the summaries to
PREFIX.json. Ctrl-C stops early and still reports the games that finished.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from meadhall.bots import make_bot
from meadhall.cli.bench import machine
from meadhall.cli.options import add_option_arguments, options_from_args
from meadhall.cli.progress import Progress
from meadhall.core.errors import InvalidOptions, MeadhallError
from meadhall.core.registry import all_games, get_game
from meadhall.lab.balance import format_report, run, summarize, to_json
from meadhall.lab.selfplay import Series, bot_specs


def add_parser(commands: Any) -> None:
    """Register the ``balance`` subcommand."""
    parser = commands.add_parser(
        "balance",
        help="balance by bot self-play: win rates by what the seats chose, by seat and by turn order",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", help="the game (default: the first with a balance report in 'meadhall games')")
    parser.add_argument(
        "--bots",
        default="greedy",
        help="bot spec for every seat, or a comma list rotated over the seats; BOT*N repeats one (default greedy)",
    )
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--players", type=int, help="seats per game (default: the game's report's own)")
    add_option_arguments(parser, "game preset (default: the game's report's own)", "content=@pack.json")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes (default: cores)")
    parser.add_argument("--top", type=int, default=10, help="entries in a top list, such as cards (default 10)")
    parser.add_argument(
        "--min-samples", type=int, help="samples an entry needs for a verdict (default max(20, games/20))"
    )
    parser.add_argument("--out", metavar="PREFIX", help="write PREFIX.json (default balance-results/...)")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run_balance)


def _reported() -> list[str]:
    """The titles of the games that have a balance report."""
    return [game.info.title for game in all_games() if game.balance_spec() is not None]


def run_balance(args: argparse.Namespace) -> int:
    """Run ``meadhall balance``: check the input, play with a progress bar, print the report, write the JSON."""
    try:
        if args.game is None:
            game = next(game for game in all_games() if game.balance_spec() is not None)
        else:
            game = get_game(args.game)
        defaults = game.balance_spec()
        if defaults is None:
            titles = _reported()
            raise ValueError(
                f"balance reports are for {', '.join(titles[:-1])} and {titles[-1]}, not {game.info.title}"
                if len(titles) > 1
                else f"balance reports are for {titles[0]}, not {game.info.title}"
            )
        players = defaults.players if args.players is None else args.players
        bots = bot_specs(args.bots)
        for bot in set(bots):
            make_bot(bot)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.top < 0 or (args.min_samples is not None and args.min_samples < 1):
            raise ValueError("--top must be at least 0 and --min-samples at least 1")
        options = options_from_args(args)
        for key, value in defaults.options.items():
            options.setdefault(key, value)
        spec = game.balance_spec(game.validate_options(options, players=players))
        assert spec is not None
    except (ValueError, InvalidOptions, MeadhallError) as error:
        print(f"meadhall balance: {error}", file=sys.stderr)
        return 2
    series = Series(game.info.name, bots, args.games, players, options, args.seed, max(1, args.jobs))
    print(
        f"{game.info.title} balance: {args.games} games, {players} players, bots {', '.join(bots)}, "
        f"{series.jobs} process{'es' if series.jobs > 1 else ''}",
        file=sys.stderr,
    )
    started = time.perf_counter()
    rows, interrupted = run(series, Progress(args.games, not args.quiet))
    seconds = time.perf_counter() - started
    if interrupted:
        print(f"\ninterrupted: reporting the {len(rows)} games that finished", file=sys.stderr)
    if not rows:
        print("no game finished", file=sys.stderr)
        return 130 if interrupted else 1
    summary = summarize(rows, players, spec, top=args.top, needed=args.min_samples)
    print(format_report(summary, markdown=args.markdown))
    if summary.errors:
        print(f"{summary.errors} game(s) ended with an error and are left out; see the JSON file", file=sys.stderr)
    stem = f"{game.info.name}-balance-%Y%m%d-%H%M%S"
    prefix = Path(args.out) if args.out else Path("balance-results") / time.strftime(stem)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    json_path = prefix.with_name(prefix.name + ".json")
    data = to_json(series, rows, summary, interrupted, machine(), seconds)
    json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {json_path} ({len(rows)} games in {seconds:.0f} s)", file=sys.stderr)
    return 130 if interrupted else 0
