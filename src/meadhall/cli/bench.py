"""``meadhall bench`` (and ``make bench``): engine speed per game and preset, on one core.

Measures, for each preset (two players, or four where a game needs three or more), on two
engines:

* ``reference``: the game's own states (events, explanations, views; what the server
  and the terminal use);
* ``search``: what bots search (``game.search_adapter()``; for Völuspá the C search
  engine when it is built, tested equal to the reference engine):

the state transitions per second (legal-action generation plus applying one of them),
full random games per second from setup to the end, clones per second, and world
samples per second (full states consistent with one seat's view); and ISMCTS
iterations per second on a mid-game position.

Each figure is the best of ``--repeat`` runs of ``--seconds`` each, in this process
(one core). ``--markdown`` prints a table for docs/performance.md.

``--vector`` measures ``meadhall.rl.VectorEnv`` instead (needs numpy, the ``rl`` or
``bench`` extra): random-play steps per second (``random_actions`` then ``step``, each
game one step) for every game with spaces, per backend, without and with observations,
``--envs`` games at once, and where no fast backend serves, the Python backend in
``--workers`` processes; the machine's load average is printed with the figures.
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

from meadhall.bots.budget import Budget
from meadhall.bots.ismcts import IsmctsBot
from meadhall.core.game import Game
from meadhall.core.registry import all_games, get_game
from meadhall.core.rng import Rng
from meadhall.extras import require


def add_parser(commands: Any) -> None:
    """Register the ``bench`` subcommand."""
    parser = commands.add_parser("bench", help="measure engine speed per game and preset (one core)")
    parser.add_argument("--game", help="one game (default: every registered game)")
    parser.add_argument("--preset", action="append", help="only these presets (repeatable)")
    parser.add_argument(
        "--players", type=int, help="seats per game (default: 2, or 4 for games of three or more players)"
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements per figure; the best is kept")
    parser.add_argument("--json", dest="json_path", help="also write the results to this JSON file")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument(
        "--vector", action="store_true", help="measure meadhall.rl.VectorEnv random-play steps/s instead (numpy)"
    )
    parser.add_argument("--envs", type=int, default=256, help="games stepped at once with --vector")
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="with --vector, also the Python backend in this many processes where no fast backend serves (0: not)",
    )
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


def _random_games(make: Callable[[int], Any]) -> tuple[Callable[[], int], Callable[[], int]]:
    """Work functions: one random game (returns its transitions), and one game (returns 1)."""
    counter = [0]

    def one_game() -> int:
        counter[0] += 1
        state = make(counter[0])
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

    return one_game, full_game


def _mid_game(start: Any, rng: Rng) -> tuple[Any, Rng]:
    """A mid-game position for clones, world samples and ISMCTS, and the generator after it.

    30 random steps (or half the random game, for a game shorter than 60 decisions), then
    on to a real choice (a bot answers a single legal action without searching). A game
    with no real choice left after its middle is measured from its first real choice.
    """

    def play(goal: int) -> tuple[Any, Rng, int]:
        state, draw = start.clone(), rng.clone()
        steps = 0
        while not state.is_terminal() and (steps < goal or len(state.legal_actions(state.to_move()[0])) < 2):
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply_quiet(seat, legal[draw.below(len(legal))])
            steps += 1
        return state, draw, steps

    length = play(1 << 30)[2]
    mid, after, _ = play(min(30, length // 2))
    if mid.is_terminal():
        mid, after, _ = play(0)
    return mid, after


def measure(game: Game, preset: str, players: int, seconds: float, repeat: int) -> list[dict[str, Any]]:
    """Benchmark one preset on the reference and the search engine; one row per engine."""
    options = {"preset": preset}

    def new_state(seed: int) -> Any:
        return game.new_game(players=players, seed=seed, options=options)

    mid, rng = _mid_game(new_state(12345), Rng(1))
    seat = mid.to_move()[0]
    view = mid.view(seat)

    def clones_of(state: Any) -> Callable[[], int]:
        def clones() -> int:
            for _ in range(100):
                state.clone()
            return 100

        return clones

    def samples_from(sample: Callable[[Rng], Any]) -> Callable[[], int]:
        def samples() -> int:
            for _ in range(100):
                sample(rng)
            return 100

        return samples

    rows = []
    transitions, games = _random_games(new_state)
    rows.append(
        {
            "game": game.info.name,
            "preset": preset,
            "players": players,
            "engine": "reference",
            "transitions_per_s": round(_rate(transitions, seconds, repeat)),
            "games_per_s": round(_rate(games, seconds, repeat), 1),
            "clones_per_s": round(_rate(clones_of(mid), seconds, repeat)),
            "world_samples_per_s": round(_rate(samples_from(lambda r: mid.sample_world(seat, r)), seconds, repeat)),
            "ismcts_iterations_per_s": None,
        }
    )
    adapter = game.search_adapter()

    def new_search_state(seed: int) -> Any:
        start = new_state(seed)
        return adapter.sampler(start.view(start.to_move()[0])).sample(Rng(seed))

    sampler = adapter.sampler(view)
    search_mid = sampler.sample(Rng(2))
    transitions, games = _random_games(new_search_state)
    bot = IsmctsBot(Budget(seconds=seconds))
    best = 0.0
    for _ in range(repeat):
        bot.choose(game, view, mid.legal_actions(seat), Rng(3))
        best = max(best, bot.last.get("iterations", 0) / max(bot.last.get("seconds", 1.0), 1e-9))
    rows.append(
        {
            "game": game.info.name,
            "preset": preset,
            "players": players,
            "engine": f"search ({getattr(adapter, 'engine', 'python')})",
            "transitions_per_s": round(_rate(transitions, seconds, repeat)),
            "games_per_s": round(_rate(games, seconds, repeat), 1),
            "clones_per_s": round(_rate(clones_of(search_mid), seconds, repeat)),
            "world_samples_per_s": round(_rate(samples_from(sampler.sample), seconds, repeat)),
            "ismcts_iterations_per_s": round(best),
        }
    )
    return rows


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


def measure_vector(
    game: Game, players: int, envs: int, seconds: float, repeat: int, preset: str | None = None, workers: int = 0
) -> list[dict[str, Any]]:
    """``VectorEnv`` random-play steps/s of one game, per backend, without and with observations.

    One row per (backend, observations): the Python backend always, the game's fast one
    where it has one for that setting, and where it has none, the Python backend in
    ``workers`` processes (if ``workers``). Random play: ``random_actions`` then ``step``;
    a step of ``envs`` games counts ``envs`` steps.
    """
    numpy = require("numpy", "bench", "meadhall bench --vector")
    from meadhall.rl.vector import Backend, VectorEnv

    options = None if preset is None else {"preset": preset}
    rows = []
    for observations in (False, True):
        fast = True
        choices: tuple[tuple[Backend, int], ...] = (("fast", 0), ("python", 0), ("python", workers))
        for backend, processes in choices:
            if backend == "python" and processes and (fast or not workers):
                continue
            try:
                env = VectorEnv(
                    game.info.name, envs, seed=1, players=players, observations=observations, options=options,
                    backend=backend, workers=processes,
                )  # fmt: skip
            except ValueError:  # no fast backend here
                fast = False
                continue
            rng = numpy.random.default_rng(1)

            def steps(env: VectorEnv = env, rng: Any = rng) -> int:
                env.step(env.random_actions(rng))
                return env.num_envs

            with env:
                rate = round(_rate(steps, seconds, repeat))
            rows.append(
                {
                    "game": game.info.name,
                    "preset": preset or "default",
                    "players": players,
                    "backend": env.backend,
                    "observations": observations,
                    "envs": envs,
                    "steps_per_s": rate,
                    "load": round(os.getloadavg()[0], 1),
                }
            )
    return rows


def run_vector(args: argparse.Namespace) -> int:
    """``meadhall bench --vector``: VectorEnv steps/s per game and backend, with the machine's load."""
    games = (
        [get_game(args.game)]
        if args.game
        else [
            game
            for game in all_games()
            if game.spaces(2 if game.info.min_players <= 2 else game.info.min_players) is not None
        ]
    )
    info = machine()
    print(
        f"# meadhall bench --vector on {info['cpu']} ({info['cores']} cores), Python {info['python']}; "
        f"one core used; load average {os.getloadavg()[0]:.1f} at the start",
        file=sys.stderr,
    )
    if args.markdown:
        print("| game | players | backend | observations | games at once | steps/s | load average |")
        print("|---|---:|---|---|---:|---:|---:|")
    results = []
    for game in games:
        players = args.players or (2 if game.info.min_players <= 2 else game.info.min_players)
        for preset in args.preset or [None]:
            for row in measure_vector(game, players, args.envs, args.seconds, args.repeat, preset, args.workers):
                results.append(row)
                shown = "with" if row["observations"] else "without"
                if args.markdown:
                    print(
                        f"| {row['game']} | {players} | {row['backend']} | {shown} | {row['envs']} | "
                        f"{row['steps_per_s']:,} | {row['load']} |",
                        flush=True,
                    )
                else:
                    print(
                        f"{row['game']:20} {players}p {row['backend']:6} {shown:7} observations  "
                        f"steps/s {row['steps_per_s']:>10,}  (load {row['load']})",
                        flush=True,
                    )
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump({"machine": info, "vector": results}, handle, indent=1)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the benchmarks and print the figures."""
    if args.vector:
        return run_vector(args)
    games = [get_game(args.game)] if args.game else all_games()
    results = []
    info = machine()
    print(
        f"# meadhall bench on {info['cpu']} ({info['cores']} cores), Python {info['python']}; one core used",
        file=sys.stderr,
    )
    columns = ["transitions_per_s", "games_per_s", "clones_per_s", "world_samples_per_s", "ismcts_iterations_per_s"]
    if args.markdown:
        print(
            "| game | preset | players | engine | transitions/s | games/s | clones/s | world samples/s "
            "| ISMCTS iterations/s |"
        )
        print("|---|---|---:|---|---:|---:|---:|---:|---:|")
    for game in games:
        presets = args.preset or list(game.info.presets)
        players = args.players or (2 if game.info.min_players <= 2 else min(4, game.info.max_players))
        for preset in presets:
            for result in measure(game, preset, players, args.seconds, args.repeat):
                results.append(result)
                figures = ["-" if result[c] is None else f"{result[c]:,}" for c in columns]
                if args.markdown:
                    print(
                        f"| {result['game']} | {preset} | {players} | {result['engine']} | "
                        + " | ".join(figures)
                        + " |",
                        flush=True,
                    )
                else:
                    print(
                        f"{result['game']:8} {preset:30} {players}p {result['engine']:18} "
                        f"transitions/s {figures[0]:>9}  "
                        f"games/s {figures[1]:>8}  clones/s {figures[2]:>10}  samples/s {figures[3]:>9}  "
                        f"ISMCTS it/s {figures[4]:>7}",
                        flush=True,
                    )
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump({"machine": info, "results": results}, handle, indent=1)
    return 0
