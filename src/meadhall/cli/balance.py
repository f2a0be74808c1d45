"""``meadhall balance``: whether any god, card or monster is a must-pick (Blood Rage, Valda).

    meadhall balance --game bloodrage --bots greedy --games 2000 --players 4 --jobs 2 --seed 1
    meadhall balance --game valda --bots greedy --games 2000 --players 2 --jobs 2 --seed 1

For Valda the report gives win rates by god area built in, by the god of most temples,
by seat and turn order, and for each god weapon option how often it was played and how
often it decided the game (see :mod:`meadhall.balance_valda`).

Bots play every seat of seeded games (a comma list of bot specs rotates over the seats),
three random gods per game unless a preset or option says otherwise. Prints win rates by
favoured god, god in the game, monster owned, seat and turn order, and the top cards by
win rate when drafted (the played rate beside it), each with 95% intervals against the
fair share and a verdict line
(the spread, and the entries whose whole interval lies above the fair share). Writes the
configuration, every game and the summaries to PREFIX.json. Ctrl-C stops early and still
reports the games that finished.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meadhall.balance import BalanceConfig, format_report, run, summarize, to_json
from meadhall.bots import make_bot
from meadhall.cli.bench import machine
from meadhall.cli.options import add_option_arguments, options_from_args
from meadhall.cli.progress import Progress
from meadhall.core.errors import InvalidOptions, MeadhallError
from meadhall.core.registry import get_game
from meadhall.games.bloodrage_valhalla.game import content_of
from meadhall.games.valda.content import Content as ValdaContent
from meadhall.games.valda.game import content_of as valda_content_of

GAME = "bloodrage-valhalla"
VALDA = "valda"


def add_parser(commands: Any) -> None:
    """Register the ``balance`` subcommand."""
    parser = commands.add_parser(
        "balance",
        help="balance by bot self-play: win rates by god, card, monster, weapon and seat (Blood Rage, Valda)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", default="bloodrage", help="the game: bloodrage (default) or valda")
    parser.add_argument(
        "--bots", default="greedy", help="bot spec for every seat, or a comma list rotated over the seats (greedy)"
    )
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--players", type=int, help="seats per game (default 4 for Blood Rage, 2 for Valda)")
    add_option_arguments(parser, "game preset (default random-gods)", "gods=thor,loki,tyr")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes (default: cores)")
    parser.add_argument("--top", type=int, default=10, help="cards in the top list (default 10)")
    parser.add_argument(
        "--min-samples", type=int, help="samples an entry needs for a verdict (default max(20, games/20))"
    )
    parser.add_argument("--out", metavar="PREFIX", help="write PREFIX.json (default balance-results/...)")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run_balance)


def run_balance(args: argparse.Namespace) -> int:
    """Run ``meadhall balance``."""
    try:
        game = get_game(args.game)
        if game.info.name not in (GAME, VALDA):
            raise ValueError(f"balance reports are for Blood Rage: Valhalla and Valda, not {game.info.title}")
        valda = game.info.name == VALDA
        if args.players is None:
            args.players = 2 if valda else 4
        bots = tuple(spec.strip() for spec in args.bots.split(",") if spec.strip())
        if not bots:
            raise ValueError("give at least one bot")
        for spec in bots:
            make_bot(spec)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.top < 0 or (args.min_samples is not None and args.min_samples < 1):
            raise ValueError("--top must be at least 0 and --min-samples at least 1")
        options = options_from_args(args)
        if not valda:
            options.setdefault("preset", "random-gods")
        normalized = game.validate_options(options, players=args.players)
        content = valda_content_of(normalized) if valda else content_of(normalized)
    except (ValueError, InvalidOptions, MeadhallError) as error:
        print(f"meadhall balance: {error}", file=sys.stderr)
        return 2
    config = BalanceConfig(
        game=game.info.name,
        bots=bots,
        games=args.games,
        players=args.players,
        options=options,
        seed=args.seed,
        jobs=max(1, args.jobs),
    )
    print(
        f"{game.info.title} balance: {args.games} games, {args.players} players, bots {', '.join(bots)}, "
        f"{config.jobs} process{'es' if config.jobs > 1 else ''}",
        file=sys.stderr,
    )
    if valda:
        from meadhall import balance_valda

        assert isinstance(content, ValdaContent)
        weapons = {o.id: o.name for card in content.cards.values() for o in card.options}
        return _report(
            args,
            config,
            balance_valda.run,
            lambda rows: balance_valda.summarize(rows, args.players, weapons, needed=args.min_samples),
            balance_valda.format_report,
            balance_valda.to_json,
            "valda-balance",
        )
    assert not isinstance(content, ValdaContent)
    bloodrage_content = content
    return _report(
        args,
        config,
        run,
        lambda rows: summarize(rows, args.players, bloodrage_content, top=args.top, needed=args.min_samples),
        format_report,
        to_json,
        "balance",
    )


def _report(
    args: argparse.Namespace,
    config: BalanceConfig,
    play: Callable[..., tuple[list[Any], bool]],
    summarize_rows: Callable[[list[Any]], Any],
    report: Callable[..., str],
    as_json: Callable[..., dict[str, Any]],
    stem: str,
) -> int:
    """Play the games, print the report, write the JSON: the same for every game's report."""
    started = time.perf_counter()
    rows, interrupted = play(config, Progress(args.games, not args.quiet))
    seconds = time.perf_counter() - started
    if interrupted:
        print(f"\ninterrupted: reporting the {len(rows)} games that finished", file=sys.stderr)
    if not rows:
        print("no game finished", file=sys.stderr)
        return 130 if interrupted else 1
    summary = summarize_rows(rows)
    print(report(summary, markdown=args.markdown))
    if summary.errors:
        print(f"{summary.errors} game(s) ended with an error and are left out; see the JSON file", file=sys.stderr)
    prefix = Path(args.out) if args.out else Path("balance-results") / time.strftime(f"{stem}-%Y%m%d-%H%M%S")
    prefix.parent.mkdir(parents=True, exist_ok=True)
    json_path = prefix.with_name(prefix.name + ".json")
    data = as_json(config, rows, summary, interrupted, machine(), seconds)
    json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {json_path} ({len(rows)} games in {seconds:.0f} s)", file=sys.stderr)
    return 130 if interrupted else 0
