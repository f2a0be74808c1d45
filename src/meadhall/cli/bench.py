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

Then, for each game whose engine judges moves (:meth:`Game.judge`), *judged moves* per
second: on the bench's positions (every fifth decision of random games of the preset),
every legal target of the position at once in this process (the judge set up, then
``judge_all``), with the moves' words (lines) and with points only; and through the
game's judging tool's ``--batch`` (JSON lines in and out, one line per move), in this
process as the command runs it.

Each figure is the best of ``--repeat`` runs of ``--seconds`` each, in this process
(one core). ``--markdown`` prints a table for docs/performance.md.

``--vector`` measures ``meadhall.rl.VectorEnv`` instead (needs numpy, the ``rl`` or
``bench`` extra): random-play steps per second (``random_actions`` then ``step``, each
game one step) for every game with spaces, per backend, without and with observations,
``--envs`` games at once, and where no fast backend serves, the Python backend in
``--workers`` processes; the machine's load average is printed with the figures.
``--sparse`` adds, beside each row, the same env built with ``masks=False`` (no dense
masks: the learner reads ``legal_indices()``), measured in the same minutes.
"""

from __future__ import annotations

import argparse
import io
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
from meadhall.core.tools import GameTool
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
        "--cpu-time",
        action="store_true",
        help="measure by this process's CPU time, not the clock on the wall (on a busy machine)",
    )
    parser.add_argument(
        "--judging",
        choices=("also", "only", "no"),
        default="also",
        help="judged moves per second (Game.judge and --batch) on the default preset or the --preset ones: "
        "also (default), only, or no",
    )
    parser.add_argument(
        "--vector", action="store_true", help="measure meadhall.rl.VectorEnv random-play steps/s instead (numpy)"
    )
    parser.add_argument("--envs", type=int, default=256, help="games stepped at once with --vector")
    parser.add_argument(
        "--sparse",
        action="store_true",
        help="with --vector, also each env with masks=False (legal_indices only, no dense masks), side by side",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="with --vector, also the Python backend in this many processes where no fast backend serves (0: not)",
    )
    parser.set_defaults(run=run)


#: The clock figures are measured by: wall time, or this process's CPU time (``--cpu-time``).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def _rate(work: Callable[[], int], seconds: float, repeat: int) -> float:
    best = 0.0
    clock = CLOCK[0]
    for _ in range(repeat):
        done = 0
        start = clock()
        deadline = start + seconds
        while True:
            done += work()
            now = clock()
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


def judge_positions(game: Game, preset: str, players: int, count: int = 40) -> list[tuple[Any, int]]:
    """The bench's positions for judging: every fifth decision of random games (seeds 1, 2, ...), with the seat."""
    found: list[tuple[Any, int]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = game.new_game(players=players, seed=seed, options={"preset": preset})
        rng = Rng(seed)
        step = 0
        while not state.is_terminal() and len(found) < count:
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if step % 5 == 4 and len(legal) > 1:
                found.append((state.clone(), seat))
            state.apply_quiet(seat, legal[rng.below(len(legal))])
            step += 1
    return found


def measure_judging(game: Game, preset: str, players: int, seconds: float, repeat: int) -> dict[str, Any]:
    """Judged moves per second on the bench's positions: in process (all targets), and through ``--batch``."""
    from meadhall.cli.tools import batch_line, games_with_tools, run_batch

    positions = judge_positions(game, preset, players)
    targets = [game.judge(state, seat).targets() for state, seat in positions]
    row: dict[str, Any] = {
        "game": game.info.name,
        "preset": preset,
        "players": players,
        "positions": len(positions),
        "targets": sum(len(t) for t in targets),
    }

    def all_targets(lines: bool) -> Callable[[], int]:
        def work() -> int:
            done = 0
            for state, seat in positions:
                done += len(game.judge(state, seat).judge_all(lines=lines))
            return done

        return work

    row["in_process_lines_per_s"] = round(_rate(all_targets(True), seconds, repeat))
    row["in_process_points_per_s"] = round(_rate(all_targets(False), seconds, repeat))
    tools = [tool for found, tools in games_with_tools() if found.info.name == game.info.name for tool in tools]
    for lines, key in ((True, "batch_lines_per_s"), (False, "batch_points_per_s")):
        row[key] = None
        for tool in tools:
            requests = [
                request
                for (state, seat), moves in zip(positions, targets, strict=True)
                for request in tool.requests(state, seat, moves, lines)
            ]
            if not requests:
                continue
            text = "\n".join(batch_line(request) for request in requests) + "\n"

            switches = dict.fromkeys((switch.name for switch in tool.switches), False)  # each line says its own

            def batch(
                tool: GameTool = tool, text: str = text, count: int = len(requests), switches: Any = switches
            ) -> int:
                run_batch("bench", tool, switches, 1, io.StringIO(text), io.StringIO())
                return count

            row[key] = round(_rate(batch, seconds, repeat))
            break
    return row


def _players(game: Game, args: argparse.Namespace) -> int:
    return int(args.players or (2 if game.info.min_players <= 2 else min(4, game.info.max_players)))


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
        "load": " ".join(f"{load:.1f}" for load in os.getloadavg()),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": platform.system(),
    }


def measure_vector(
    game: Game,
    players: int,
    envs: int,
    seconds: float,
    repeat: int,
    preset: str | None = None,
    workers: int = 0,
    sparse: bool = False,
) -> list[dict[str, Any]]:
    """``VectorEnv`` random-play steps/s of one game, per backend, without and with observations.

    One row per (backend, observations): the Python backend always, the game's fast one
    where it has one for that setting, and where it has none, the Python backend in
    ``workers`` processes (if ``workers``). Random play: ``random_actions`` then ``step``;
    a step of ``envs`` games counts ``envs`` steps. ``sparse``: each row followed by the
    same env with ``masks=False`` (``"masks"`` in a row: ``"dense"`` or ``"sparse"``).
    """
    numpy = require("numpy", "bench", "meadhall bench --vector")
    from meadhall.rl.vector import Backend, VectorEnv

    options = None if preset is None else {"preset": preset}
    rows = []
    for observations in (False, True):
        fast = True
        processes_too: tuple[tuple[Backend, int], ...] = (("python", workers),) if workers else ()
        choices: tuple[tuple[Backend, int], ...] = (("fast", 0), ("python", 0), *processes_too)
        runs = [(backend, processes, dense) for backend, processes in choices for dense in (True, False)[: 1 + sparse]]
        for backend, processes, dense in runs:
            if backend == "python" and processes and (fast or not workers):
                continue
            try:
                env = VectorEnv(
                    game.info.name, envs, seed=1, players=players, observations=observations, options=options,
                    backend=backend, workers=processes, masks=dense,
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
                    "masks": "dense" if dense else "sparse",
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
        print("| game | players | backend | observations | masks | games at once | steps/s | load average |")
        print("|---|---:|---|---|---|---:|---:|---:|")
    results = []
    for game in games:
        players = args.players or (2 if game.info.min_players <= 2 else game.info.min_players)
        for preset in args.preset or [None]:
            rows = measure_vector(
                game, players, args.envs, args.seconds, args.repeat, preset, args.workers, sparse=args.sparse
            )
            for row in rows:
                results.append(row)
                shown = "with" if row["observations"] else "without"
                if args.markdown:
                    print(
                        f"| {row['game']} | {players} | {row['backend']} | {shown} | {row['masks']} | {row['envs']} | "
                        f"{row['steps_per_s']:,} | {row['load']} |",
                        flush=True,
                    )
                else:
                    print(
                        f"{row['game']:20} {players}p {row['backend']:6} {shown:7} observations "
                        f"{row['masks']:6} masks  "
                        f"steps/s {row['steps_per_s']:>10,}  (load {row['load']})",
                        flush=True,
                    )
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump({"machine": info, "vector": results}, handle, indent=1)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the benchmarks and print the figures."""
    CLOCK[0] = time.process_time if args.cpu_time else time.perf_counter
    if args.vector:
        return run_vector(args)
    games = [get_game(args.game)] if args.game else all_games()
    results = []
    info = machine()
    print(
        f"# meadhall bench on {info['cpu']} ({info['cores']} cores), Python {info['python']}; one core used; "
        f"load average {info['load']}; {'CPU' if args.cpu_time else 'wall'} time",
        file=sys.stderr,
    )
    columns = ["transitions_per_s", "games_per_s", "clones_per_s", "world_samples_per_s", "ismcts_iterations_per_s"]
    if args.markdown and args.judging != "only":
        print(
            "| game | preset | players | engine | transitions/s | games/s | clones/s | world samples/s "
            "| ISMCTS iterations/s |"
        )
        print("|---|---|---:|---|---:|---:|---:|---:|---:|")
    if args.judging != "only":
        for game in games:
            presets = args.preset or list(game.info.presets)
            for preset in presets:
                for result in measure(game, preset, _players(game, args), args.seconds, args.repeat):
                    results.append(result)
                    figures = ["-" if result[c] is None else f"{result[c]:,}" for c in columns]
                    if args.markdown:
                        print(
                            f"| {result['game']} | {preset} | {result['players']} | {result['engine']} | "
                            + " | ".join(figures)
                            + " |",
                            flush=True,
                        )
                    else:
                        print(
                            f"{result['game']:8} {preset:30} {result['players']}p {result['engine']:18} "
                            f"transitions/s {figures[0]:>9}  "
                            f"games/s {figures[1]:>8}  clones/s {figures[2]:>10}  samples/s {figures[3]:>9}  "
                            f"ISMCTS it/s {figures[4]:>7}",
                            flush=True,
                        )
    if args.judging != "no":
        judged = ["in_process_lines_per_s", "in_process_points_per_s", "batch_lines_per_s", "batch_points_per_s"]
        if args.markdown:
            print(
                "\n| game | preset | players | positions | targets | in process, lines/s | in process, points/s "
                "| --batch, lines/s | --batch, points only/s |"
            )
            print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for game in games:
            for preset in args.preset or [game.info.default_preset]:
                row = measure_judging(game, preset, _players(game, args), args.seconds, args.repeat)
                results.append({**row, "engine": "judge"})
                figures = ["-" if row[c] is None else f"{row[c]:,}" for c in judged]
                if args.markdown:
                    print(
                        f"| {row['game']} | {preset} | {row['players']} | {row['positions']} | {row['targets']:,} | "
                        + " | ".join(figures)
                        + " |",
                        flush=True,
                    )
                else:
                    print(
                        f"{row['game']:8} {preset:30} {row['players']}p judged moves/s: in process with lines "
                        f"{figures[0]:>9}, points {figures[1]:>9}; --batch with lines {figures[2]:>8}, "
                        f"points {figures[3]:>8}",
                        flush=True,
                    )
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            clock = "cpu" if args.cpu_time else "wall"
            json.dump({"machine": info, "clock": clock, "results": results}, handle, indent=1)
    return 0
