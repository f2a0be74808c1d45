"""``meadhall arena``: rank bots by playing seeded games against each other.

    meadhall arena --game voluspa --bots greedy,ismcts:1s --games 400 --jobs 2

Prints a progress bar, then a table of wins, average scores and Elo with 95% intervals;
writes every game as JSON and CSV (``--out``), and a PNG chart on request (``--chart``).
Ctrl-C (or SIGTERM) stops early and still reports the games that finished. The files are also
written every minute while the games run, so a long run that is stopped, or whose
machine goes down, loses little: ``--resume`` with the same ``--out`` keeps the finished
games and plays the rest (``--games`` may also be raised to extend a run).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

from meadhall.arena import (
    ArenaConfig,
    BotSummary,
    GameResult,
    format_table,
    result_rows,
    resumable_results,
    run,
    summarize,
    to_json,
)
from meadhall.bots import make_bot
from meadhall.cli.bench import machine
from meadhall.cli.options import add_option_arguments, options_from_args
from meadhall.cli.progress import Progress
from meadhall.core.errors import InvalidOptions, MeadhallError
from meadhall.core.registry import get_game
from meadhall.extras import require


def add_parser(commands: Any) -> None:
    """Register the ``arena`` subcommand."""
    parser = commands.add_parser(
        "arena",
        help="play bots against each other and rank them (wins, scores, Elo)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", default="voluspa", help="the game (default voluspa)")
    parser.add_argument(
        "--bots",
        required=True,
        help="comma-separated bot specs or levels, rotated over the seats, e.g. random,greedy,ismcts:1s,hard; "
        "BOT*N repeats one, e.g. ismcts:1s,greedy*3; ismcts:1s-cpu counts processor time, not wall-clock time",
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    add_option_arguments(parser, "game preset (see 'meadhall games')", "gods=thor,loki,tyr")
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


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return options_from_args(args)


def write_outputs(prefix: Path, data: dict[str, Any], results: list[GameResult]) -> tuple[Path, Path]:
    """Write PREFIX.json and PREFIX.csv, each whole or not at all (a checkpoint may be cut short)."""
    prefix.parent.mkdir(parents=True, exist_ok=True)
    json_path = prefix.with_name(prefix.name + ".json")
    csv_path = prefix.with_name(prefix.name + ".csv")
    json_part = json_path.with_name(json_path.name + ".part")
    json_part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    csv_part = csv_path.with_name(csv_path.name + ".part")
    with csv_part.open("w", newline="", encoding="utf-8") as handle:
        fields = ["game", "deal", "seat", "bot", "score", "place", "decisions", "seconds", "error"]
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(result_rows(results))
    os.replace(json_part, json_path)
    os.replace(csv_part, csv_path)
    return json_path, csv_path


def draw_chart(path: Path, rows: list[BotSummary], title: str) -> None:
    """Elo ratings with their 95% intervals as a bar chart (needs matplotlib)."""
    require("matplotlib", "charts", "the chart")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(max(4.0, 1.6 * len(rows)), 3.6), dpi=120)
    names = [row.bot for row in rows]
    values = [row.elo for row in rows]
    finite = [v for row in rows for v in (row.elo_low, row.elo_high, row.elo) if math.isfinite(v)]
    low, high = min(finite), max(finite)
    # An unbounded interval end (a perfect record) is drawn to just past the chart's range.
    errors = [
        [max(0.0, row.elo - row.elo_low) if math.isfinite(row.elo_low) else row.elo - low + 60 for row in rows],
        [max(0.0, row.elo_high - row.elo) if math.isfinite(row.elo_high) else high - row.elo + 60 for row in rows],
    ]
    axis.bar(names, values, yerr=errors, capsize=6, color="#4a6fa5")
    for i, row in enumerate(rows):
        top = row.elo + errors[1][i]
        axis.text(i, top, f"{row.elo:.0f}\n{100 * row.win_rate:.0f}% wins", ha="center", va="bottom", fontsize=8)
    axis.set_ylim(low - 120, high + 200)
    axis.set_ylabel("Elo (95% interval)")
    axis.set_title(title, fontsize=10)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)


def load_earlier(config: ArenaConfig, prefix: Path, explicit_out: bool) -> list[GameResult]:
    """The finished games of the earlier run written to PREFIX.json (none if there is no such file)."""
    if not explicit_out:
        raise ValueError("--resume needs --out PREFIX: the files of the run to resume")
    path = prefix.with_name(prefix.name + ".json")
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot resume from {path}: {error}") from None
    return resumable_results(config, data)


def seat_specs(text: str) -> tuple[str, ...]:
    """The bots to rotate over the seats: ``ismcts:1s,greedy*3`` is one ISMCTS and three greedy."""
    specs: list[str] = []
    for item in text.split(","):
        spec, star, count = item.strip().partition("*")
        spec = spec.strip()
        if not spec:
            continue
        if star:
            if not count.strip().isdigit() or int(count) < 1:
                raise ValueError(f"{item.strip()!r}: write BOT*N with N a positive whole number, e.g. greedy*3")
            specs += [spec] * int(count)
        else:
            specs.append(spec)
    if not specs:
        raise ValueError("give at least one bot")
    return tuple(specs)


def run_arena(args: argparse.Namespace) -> int:
    """Run ``meadhall arena``."""
    try:
        game = get_game(args.game)
        bots = seat_specs(args.bots)
        for spec in set(bots):
            make_bot(spec)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        options = _options(args)
        game.validate_options(options, players=args.players)
        if args.chart:
            require("matplotlib", "charts", "the chart")  # before the games, not after them
    except (ValueError, InvalidOptions, MeadhallError) as error:
        print(f"meadhall arena: {error}", file=sys.stderr)
        return 2
    config = ArenaConfig(
        game=game.info.name,
        bots=bots,
        games=args.games,
        players=args.players,
        options=options,
        seed=args.seed,
        jobs=max(1, args.jobs),
    )
    prefix = Path(args.out) if args.out else Path("arena-results") / time.strftime("arena-%Y%m%d-%H%M%S")
    earlier: list[GameResult] = []
    if args.resume:
        try:
            earlier = load_earlier(config, prefix, explicit_out=bool(args.out))
        except ValueError as error:
            print(f"meadhall arena: {error}", file=sys.stderr)
            return 2
    names = tuple(dict.fromkeys(bots))
    print(
        f"{game.info.title}: {args.games} games, {args.players} players, bots {', '.join(bots)}, "
        f"{config.jobs} process{'es' if config.jobs > 1 else ''}"
        + (f"; resuming with {len(earlier)} finished" if args.resume else ""),
        file=sys.stderr,
    )
    progress = Progress(args.games - len(earlier), not args.quiet)
    finished = list(earlier)
    last_write = time.monotonic()

    def on_game(result: GameResult, done: int) -> None:
        nonlocal last_write
        progress(result, done)
        finished.append(result)
        if args.checkpoint > 0 and time.monotonic() - last_write >= args.checkpoint:
            ordered = sorted(finished, key=lambda r: r.index)
            rows = summarize(ordered, names, bootstrap=100)
            write_outputs(prefix, to_json(config, ordered, rows, True, machine()), ordered)
            last_write = time.monotonic()

    new_results, interrupted = run(config, on_game, done={r.index for r in earlier})
    results = sorted(earlier + new_results, key=lambda r: r.index)
    if interrupted:
        print(f"\ninterrupted: reporting the {len(results)} games that finished", file=sys.stderr)
    if not results:
        print("no game finished", file=sys.stderr)
        return 130 if interrupted else 1
    rows = summarize(results, names)
    print(format_table(rows, markdown=args.markdown))
    errors = sum(1 for r in results if r.error)
    if errors:
        print(f"{errors} game(s) ended with a bot error; see the JSON file", file=sys.stderr)
    data = to_json(config, results, rows, interrupted, machine())
    json_path, csv_path = write_outputs(prefix, data, results)
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
