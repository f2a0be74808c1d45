"""The arena: seeded bot-against-bot games with seats rotated, and their statistics.

Each deal is played once per seat rotation, so every bot sits in every seat on the same
tiles (:func:`meadhall.lab.selfplay.rotated_match`). Games run in parallel processes.
The summary gives, per bot, its games, wins (a shared first place counts as a share),
win rate with a 95% Wilson interval, average score and place, and an Elo rating with a
95% interval, fitted as a Bradley-Terry model on every pair of seats in every game
(:mod:`meadhall.lab.stats`).

A long run can be stopped and resumed: game ``i`` is always the same deal and lineup, so
the finished games of an earlier run of the same arena are kept and only the rest played
(:func:`resumable_results`, :func:`load_earlier`); :class:`Checkpoint` writes the files
while the games run. The run records a digest of the game's content (cards, tiles,
maps), so a run is not resumed after the default content changed: its games would mix
two contents::

    from meadhall.lab.arena import format_table, run, summarize
    from meadhall.lab.selfplay import Series

    results, interrupted = run(Series(game, ("greedy", "random"), games=40, jobs=2))
    print(format_table(summarize(results, ["greedy", "random"])))
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from meadhall.core.registry import get_game
from meadhall.extras import require
from meadhall.lab.selfplay import Series, play, rotated_match, run_games
from meadhall.lab.stats import bootstrap_ratings, bradley_terry, pairwise, two_player_interval, wilson
from meadhall.lab.tables import rating, table


@dataclass
class GameResult:
    """One finished arena game."""

    index: int
    deal: int
    lineup: list[str]
    scores: list[int]
    places: list[int]
    seconds: float
    decisions: list[int]
    error: str | None = None


def play_game(series: Series, index: int) -> GameResult:
    """Play game ``index`` of the arena to the end. A game a bot broke counts as lost by every seat."""
    outcome = play(rotated_match(series, index))
    places = outcome.places if outcome.error is None else [series.players] * series.players
    return GameResult(
        index=index,
        deal=outcome.match.seed,
        lineup=list(outcome.match.lineup),
        scores=outcome.state.scores(),
        places=places,
        seconds=outcome.seconds,
        decisions=outcome.decisions,
        error=outcome.error,
    )


def run(
    series: Series,
    progress: Callable[[GameResult, int], None] | None = None,
    done: Collection[int] = (),
) -> tuple[list[GameResult], bool]:
    """Play every game not in ``done`` (in ``series.jobs`` processes).

    Returns the new results and whether Ctrl-C stopped the run.
    """
    todo = [index for index in range(series.games) if index not in done]
    return run_games(play_game, series, todo, series.jobs, progress)


@lru_cache(maxsize=8)
def _digest(game: str, options_json: str) -> str:
    content = get_game(game).content(json.loads(options_json))
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def content_digest(series: Series) -> str:
    """A digest of the content the arena's games are played with (the default, or a pack in the options)."""
    return _digest(series.game, json.dumps(dict(series.options), sort_keys=True))


def resumable_results(series: Series, data: Mapping[str, Any]) -> list[GameResult]:
    """The finished games of an earlier run's JSON, if it played the same arena.

    The same arena means the same game, bots, players, options, seed and content: game
    ``i`` is then the same deal and lineup, so its result stands. The number of games may
    grow and the number of processes may change. Raises ``ValueError`` saying what differs.
    """
    earlier = data.get("config", {})
    mine = {"game": series.game, "bots": list(series.bots), "players": series.players,
            "options": dict(series.options), "seed": series.seed}  # fmt: skip
    for key, value in mine.items():
        if earlier.get(key) != value:
            raise ValueError(f"cannot resume: the earlier run had {key} {earlier.get(key)!r}, this one {value!r}")
    digest = data.get("content_digest")
    if digest is not None and digest != content_digest(series):
        raise ValueError(
            f"cannot resume: the game's content changed since the earlier run (digest {digest}, now "
            f"{content_digest(series)}), so its games and the new ones would be played with different cards"
        )
    fields = set(GameResult.__dataclass_fields__)
    results = [GameResult(**{k: v for k, v in game.items() if k in fields}) for game in data.get("games", [])]
    return [result for result in results if result.index < series.games]


# Statistics ----------------------------------------------------------------------------


@dataclass
class BotSummary:
    """One row of the arena table."""

    bot: str
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    mean_place: float
    elo: float
    elo_low: float
    elo_high: float
    errors: int


def summarize(
    results: Sequence[GameResult], bots: Sequence[str], bootstrap: int = 300, seed: int = 7
) -> list[BotSummary]:
    """The arena table: one row per bot.

    With two bots the Elo interval comes from the Wilson interval of the score share;
    with more, from ``bootstrap`` resamples of the games (seeded by ``seed``).
    """
    elo = bradley_terry(pairwise(results, bots))
    samples = bootstrap_ratings(results, bots, bootstrap, seed)
    rows = []
    for i, bot in enumerate(bots):
        games = 0
        wins = 0.0
        scores: list[int] = []
        places: list[int] = []
        errors = 0
        for result in results:
            seats = [s for s, name in enumerate(result.lineup) if name == bot]
            if not seats:
                continue
            games += 1
            if result.error:
                errors += 1
            first = [s for s, place in enumerate(result.places) if place == 1]
            if first:  # a game a bot broke has no winner: every seat is placed last
                wins += sum(1 for s in seats if s in first) / len(first)
            scores.extend(result.scores[s] for s in seats)
            places.extend(result.places[s] for s in seats)
        low, high = wilson(wins, games)
        if len(bots) == 2:
            elo_low, elo_high = two_player_interval(pairwise(results, bots), i)
        else:
            ratings = sorted(sample[i] for sample in samples)
            elo_low = ratings[int(0.025 * (len(ratings) - 1))] if ratings else elo[i]
            elo_high = ratings[int(0.975 * (len(ratings) - 1))] if ratings else elo[i]
            # Percentiles of a small bootstrap can miss the full-data estimate: keep it inside.
            elo_low, elo_high = min(elo_low, elo[i]), max(elo_high, elo[i])
        rows.append(
            BotSummary(
                bot=bot,
                games=games,
                wins=wins,
                win_rate=wins / games if games else 0.0,
                win_low=low,
                win_high=high,
                mean_score=sum(scores) / len(scores) if scores else 0.0,
                mean_place=sum(places) / len(places) if places else 0.0,
                elo=elo[i],
                elo_low=elo_low,
                elo_high=elo_high,
                errors=errors,
            )
        )
    return rows


# Output ----------------------------------------------------------------------------------


def format_table(rows: Sequence[BotSummary], markdown: bool = False) -> str:
    """The summary as a text (or Markdown) table."""
    header = ["bot", "games", "wins", "win rate", "95% CI", "avg score", "avg place", "Elo", "95% CI"]
    lines = [
        [
            row.bot,
            str(row.games),
            f"{row.wins:g}",
            f"{100 * row.win_rate:.1f}%",
            f"{100 * row.win_low:.1f}-{100 * row.win_high:.1f}%",
            f"{row.mean_score:.1f}",
            f"{row.mean_place:.2f}",
            f"{row.elo:.0f}",
            f"{rating(row.elo_low)}-{rating(row.elo_high)}",
        ]
        for row in rows
    ]
    return table(header, lines, markdown)


#: The columns of the CSV file, one row per seat per game.
CSV_FIELDS = ("game", "deal", "seat", "bot", "score", "place", "decisions", "seconds", "error")


def result_rows(results: Sequence[GameResult]) -> Iterator[dict[str, Any]]:
    """One row per seat per game, for CSV."""
    for result in results:
        for seat, bot in enumerate(result.lineup):
            yield {
                "game": result.index,
                "deal": result.deal,
                "seat": seat,
                "bot": bot,
                "score": result.scores[seat],
                "place": result.places[seat],
                "decisions": result.decisions[seat],
                "seconds": round(result.seconds, 3),
                "error": result.error or "",
            }


def _finite(value: Any) -> Any:
    """JSON has no infinity: an unbounded interval end is written as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def to_json(
    series: Series,
    results: Sequence[GameResult],
    rows: Sequence[BotSummary],
    interrupted: bool,
    machine: Mapping[str, Any],
) -> dict[str, Any]:
    """Everything about a run, as JSON data (``bot_modules`` only when the run imported some)."""
    config = {**asdict(series), "bots": list(series.bots), "options": dict(series.options)}
    modules = config.pop("bot_modules")
    if modules:
        config["bot_modules"] = list(modules)
    return {
        "config": config,
        "content_digest": content_digest(series),
        "machine": dict(machine),
        "interrupted": interrupted,
        "finished_games": len(results),
        "summary": [{k: _finite(v) for k, v in asdict(row).items()} for row in rows],
        "games": [asdict(result) for result in results],
    }


def output_paths(prefix: Path) -> tuple[Path, Path]:
    """The files of a run written to ``prefix``: PREFIX.json and PREFIX.csv."""
    return prefix.with_name(prefix.name + ".json"), prefix.with_name(prefix.name + ".csv")


def write_outputs(prefix: Path, data: Mapping[str, Any], results: Sequence[GameResult]) -> tuple[Path, Path]:
    """Write PREFIX.json and PREFIX.csv, each whole or not at all (a checkpoint may be cut short)."""
    prefix.parent.mkdir(parents=True, exist_ok=True)
    json_path, csv_path = output_paths(prefix)
    json_part = json_path.with_name(json_path.name + ".part")
    json_part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    csv_part = csv_path.with_name(csv_path.name + ".part")
    with csv_part.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(result_rows(results))
    os.replace(json_part, json_path)
    os.replace(csv_part, csv_path)
    return json_path, csv_path


def load_earlier(series: Series, prefix: Path) -> list[GameResult]:
    """The finished games of the earlier run written to PREFIX.json (none if there is no such file).

    Raises ``ValueError`` for a file that cannot be read or a run of another arena.
    """
    path = output_paths(prefix)[0]
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot resume from {path}: {error}") from None
    return resumable_results(series, data)


class Checkpoint:
    """A progress callback that also writes the run's files every ``every`` seconds while the games run.

    A run that is stopped, or whose machine goes down, then loses at most that much
    play: ``--resume`` carries on from the files. ``every <= 0`` writes nothing.
    """

    def __init__(
        self,
        series: Series,
        prefix: Path,
        earlier: Sequence[GameResult] = (),
        every: float = 60.0,
        machine: Mapping[str, Any] | None = None,
        progress: Callable[[GameResult, int], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.series = series
        self.prefix = prefix
        self.finished = list(earlier)
        self.every = every
        self.machine = dict(machine or {})
        self.progress = progress
        self.clock = clock
        self.last_write = clock()

    def __call__(self, result: GameResult, done: int) -> None:
        """Count a finished game; write the files if the last write is ``every`` seconds old."""
        if self.progress is not None:
            self.progress(result, done)
        self.finished.append(result)
        if self.every > 0 and self.clock() - self.last_write >= self.every:
            ordered = sorted(self.finished, key=lambda r: r.index)
            rows = summarize(ordered, tuple(dict.fromkeys(self.series.bots)), bootstrap=100)
            write_outputs(self.prefix, to_json(self.series, ordered, rows, True, self.machine), ordered)
            self.last_write = self.clock()


def draw_chart(path: Path, rows: Sequence[BotSummary], title: str) -> None:
    """Elo ratings with their 95% intervals as a bar chart (needs matplotlib: the ``charts`` extra)."""
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
