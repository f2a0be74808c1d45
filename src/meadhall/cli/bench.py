"""``meadhall bench`` (and ``make bench``): engine speed per game and preset, on one core.

Measures, for each preset with two players:

* state transitions per second: legal-action generation plus applying one of them;
* full random games per second, from setup to the end;
* clones per second;
* world samples per second (a state consistent with one seat's view).

Each figure is the best of ``--repeat`` runs of ``--seconds`` each, in this process
(one core). ``--markdown`` prints a table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

from meadhall.core.game import Game
from meadhall.core.registry import all_games, get_game
from meadhall.core.rng import Rng


def add_parser(commands: Any) -> None:
    """Register the ``bench`` subcommand."""
    parser = commands.add_parser("bench", help="measure engine speed per game and preset (one core)")
    parser.add_argument("--game", help="one game (default: every registered game)")
    parser.add_argument("--preset", action="append", help="only these presets (repeatable)")
    parser.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements per figure; the best is kept")
    parser.add_argument("--json", dest="json_path", help="also write the results to this JSON file")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.set_defaults(run=run)


def _rate(work: Callable[[], int], seconds: float, repeat: int) -> float:
    best = 0.0
    for _ in range(repeat):
        done = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            done += work()
            now = time.perf_counter()
            if now >= deadline:
                break
        best = max(best, done / (now - start))
    return best


def measure(game: Game, preset: str, players: int, seconds: float, repeat: int) -> dict[str, Any]:
    """Benchmark one preset; returns the figures."""
    options = {"preset": preset}
    counter = [0]

    def one_game() -> int:
        counter[0] += 1
        state = game.new_game(players=players, seed=counter[0], options=options)
        rng = Rng(counter[0])
        steps = 0
        while not state.is_terminal():
            movers = state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = state.legal_actions(seat)
            state.apply_quiet(seat, legal[rng.below(len(legal))])
            steps += 1
        return steps

    def full_game() -> int:
        one_game()
        return 1

    # A mid-game position for clones and world samples.
    mid = game.new_game(players=players, seed=12345, options=options)
    rng = Rng(1)
    for _ in range(30):
        if mid.is_terminal():
            break
        seat = mid.to_move()[0]
        legal = mid.legal_actions(seat)
        mid.apply_quiet(seat, legal[rng.below(len(legal))])

    def clones() -> int:
        for _ in range(100):
            mid.clone()
        return 100

    def samples() -> int:
        for _ in range(100):
            mid.sample_world(0, rng)
        return 100

    return {
        "game": game.info.name,
        "preset": preset,
        "players": players,
        "transitions_per_s": round(_rate(one_game, seconds, repeat)),
        "games_per_s": round(_rate(full_game, seconds, repeat), 1),
        "clones_per_s": round(_rate(clones, seconds, repeat)),
        "world_samples_per_s": round(_rate(samples, seconds, repeat)),
    }


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": platform.system(),
    }


def run(args: argparse.Namespace) -> int:
    """Run the benchmarks and print the figures."""
    games = [get_game(args.game)] if args.game else all_games()
    results = []
    info = machine()
    print(
        f"# meadhall bench on {info['cpu']} ({info['cores']} cores), Python {info['python']}; one core used",
        file=sys.stderr,
    )
    if args.markdown:
        print("| game | preset | players | transitions/s | games/s | clones/s | world samples/s |")
        print("|---|---|---:|---:|---:|---:|---:|")
    for game in games:
        presets = args.preset or list(game.info.presets)
        for preset in presets:
            result = measure(game, preset, args.players, args.seconds, args.repeat)
            results.append(result)
            if args.markdown:
                print(
                    f"| {result['game']} | {preset} | {result['players']} | {result['transitions_per_s']:,} | "
                    f"{result['games_per_s']:,} | {result['clones_per_s']:,} | {result['world_samples_per_s']:,} |",
                    flush=True,
                )
            else:
                print(
                    f"{result['game']:10} {preset:32} transitions/s {result['transitions_per_s']:>9,}  "
                    f"games/s {result['games_per_s']:>8,}  clones/s {result['clones_per_s']:>9,}  "
                    f"world samples/s {result['world_samples_per_s']:>8,}",
                    flush=True,
                )
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump({"machine": info, "results": results}, handle, indent=1)
    return 0
