"""The arena: seeded bot-against-bot games with seats rotated, and their statistics.

Each deal is played once per seat rotation, so every bot sits in every seat on the same
tiles. Games run in parallel processes. The summary gives, per bot, its games, wins
(a shared first place counts as a share), win rate with a 95% Wilson interval, average
score and place, and an Elo rating with a 95% bootstrap interval, fitted as a
Bradley-Terry model on every pair of seats in every game.

A long run can be stopped and resumed: game ``i`` is always the same deal and lineup, so
the finished games of an earlier run of the same arena are kept and only the rest played.
The run records a digest of the game's content (cards, tiles, maps), so a run is not
resumed after the default content changed: its games would mix two contents.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import traceback
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from meadhall.bots import make_bot
from meadhall.core.errors import MeadhallError
from meadhall.core.game import MAX_DECISIONS
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.parallel import run_games


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: the game, the bot specs, how many games and how."""

    game: str
    bots: tuple[str, ...]
    games: int
    players: int = 2
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 1
    jobs: int = 1


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


def lineup(index: int, bots: Sequence[str], players: int) -> list[str]:
    """The bots by seat for game ``index``: rotated so each bot takes each seat in turn."""
    return [bots[(index + seat) % len(bots)] for seat in range(players)]


def deal_seed(config: ArenaConfig, index: int) -> int:
    """The deal of game ``index``: the same deal for every seat rotation."""
    rotations = max(config.players, len(config.bots))
    return config.seed * 1_000_003 + index // rotations


def play_game(config: ArenaConfig, index: int) -> GameResult:
    """Play game ``index`` of the arena to the end."""
    game = get_game(config.game)
    rotations = max(config.players, len(config.bots))
    # Same deal for each rotation; the lineup rotates over it.
    rotation = index % rotations
    seats = lineup(rotation, config.bots, config.players)
    deal = deal_seed(config, index)
    state = game.new_game(players=config.players, seed=deal, options=dict(config.options))
    bots = [make_bot(spec) for spec in seats]
    rngs = [Rng(deal * 7919 + rotation * 101 + seat) for seat in range(config.players)]
    decisions = [0] * config.players
    started = time.perf_counter()
    error = None
    seat: int | None = None  # the seat deciding when something broke
    try:
        while not state.is_terminal():
            if sum(decisions) >= MAX_DECISIONS:
                raise MeadhallError(f"the game did not end in {MAX_DECISIONS} decisions")
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            action = bots[seat].choose(game, state.view(seat), legal, rngs[seat])
            state.apply(seat, action)
            decisions[seat] += 1
    except Exception as failure:  # a bot that breaks loses the game, and the table says so
        where = traceback.extract_tb(failure.__traceback__)[-1]
        what = f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__
        place = f"{Path(where.filename).name}, line {where.lineno}"
        error = f"{what} (in {place}; seat {seat} deciding, after {sum(decisions)} decisions)"
    places = state.ranking() if error is None else [config.players] * config.players
    return GameResult(
        index=index,
        deal=deal,
        lineup=seats,
        scores=state.scores(),
        places=places,
        seconds=time.perf_counter() - started,
        decisions=decisions,
        error=error,
    )


def run(
    config: ArenaConfig,
    progress: Callable[[GameResult, int], None] | None = None,
    done: Collection[int] = (),
) -> tuple[list[GameResult], bool]:
    """Play every game not in ``done`` (in ``config.jobs`` processes).

    Returns the new results and whether Ctrl-C stopped the run.
    """
    todo = [index for index in range(config.games) if index not in done]
    return run_games(play_game, config, todo, config.jobs, progress)


@lru_cache(maxsize=8)
def _digest(game: str, options_json: str) -> str:
    content = get_game(game).content(json.loads(options_json))
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def content_digest(config: ArenaConfig) -> str:
    """A digest of the content the arena's games are played with (the default, or a pack in the options)."""
    return _digest(config.game, json.dumps(dict(config.options), sort_keys=True))


def resumable_results(config: ArenaConfig, data: Mapping[str, Any]) -> list[GameResult]:
    """The finished games of an earlier run's JSON, if it played the same arena.

    The same arena means the same game, bots, players, options, seed and content: game
    ``i`` is then the same deal and lineup, so its result stands. The number of games may
    grow and the number of processes may change. Raises ``ValueError`` saying what differs.
    """
    earlier = data.get("config", {})
    mine = {"game": config.game, "bots": list(config.bots), "players": config.players,
            "options": dict(config.options), "seed": config.seed}  # fmt: skip
    for key, value in mine.items():
        if earlier.get(key) != value:
            raise ValueError(f"cannot resume: the earlier run had {key} {earlier.get(key)!r}, this one {value!r}")
    digest = data.get("content_digest")
    if digest is not None and digest != content_digest(config):
        raise ValueError(
            f"cannot resume: the game's content changed since the earlier run (digest {digest}, now "
            f"{content_digest(config)}), so its games and the new ones would be played with different cards"
        )
    fields = set(GameResult.__dataclass_fields__)
    results = [GameResult(**{k: v for k, v in game.items() if k in fields}) for game in data.get("games", [])]
    return [result for result in results if result.index < config.games]


# Statistics ----------------------------------------------------------------------------


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def pairwise(results: Sequence[GameResult], bots: Sequence[str]) -> list[list[float]]:
    """wins[i][j]: how often bot i placed ahead of bot j (ties count a half each)."""
    index = {bot: i for i, bot in enumerate(bots)}
    wins = [[0.0] * len(bots) for _ in bots]
    for result in results:
        for a, bot_a in enumerate(result.lineup):
            for b, bot_b in enumerate(result.lineup):
                if a >= b or bot_a == bot_b:
                    continue
                i, j = index[bot_a], index[bot_b]
                if result.places[a] < result.places[b]:
                    wins[i][j] += 1
                elif result.places[a] > result.places[b]:
                    wins[j][i] += 1
                else:
                    wins[i][j] += 0.5
                    wins[j][i] += 0.5
    return wins


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = 0.5, rounds: int = 500) -> list[float]:
    """Elo ratings (mean 1500) fitted to pairwise wins by the MM algorithm.

    ``prior`` adds that many virtual drawn games between every pair, so a bot that never
    lost still gets a finite rating (its interval then says how far it may really be).
    """
    n = len(wins)
    if n == 1:
        return [1500.0]
    w = [[wins[i][j] + (prior / 2 if i != j else 0.0) for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(rounds):
        updated = []
        for i in range(n):
            total_wins = sum(w[i][j] for j in range(n) if j != i)
            denominator = sum((w[i][j] + w[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i)
            updated.append(total_wins / denominator if denominator > 0 else strength[i])
        mean_log = sum(math.log(s) for s in updated) / n
        strength = [s / math.exp(mean_log) for s in updated]
    return [1500.0 + 400.0 * math.log10(s) for s in strength]


def _elo_of_share(share: float) -> float:
    """Half the Elo difference that gives this expected score (each bot moves half)."""
    if share <= 0.0:
        return -math.inf
    if share >= 1.0:
        return math.inf
    return 200.0 * math.log10(share / (1.0 - share))


def _two_bot_interval(wins: Sequence[Sequence[float]], i: int) -> tuple[float, float]:
    """95% Elo interval of bot ``i`` of two, from the Wilson interval of its score share.

    Unlike a bootstrap, this stays honest for a perfect record: the far bound is infinite.
    """
    j = 1 - i
    total = wins[i][j] + wins[j][i]
    low, high = wilson(wins[i][j], round(total)) if total else (0.0, 1.0)
    return 1500.0 + _elo_of_share(low), 1500.0 + _elo_of_share(high)


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
    """The arena table: one row per bot."""
    elo = bradley_terry(pairwise(results, bots))
    samples: list[list[float]] = []
    rng = Rng(seed)
    if results:
        for _ in range(bootstrap):
            resample = [results[rng.below(len(results))] for _ in results]
            samples.append(bradley_terry(pairwise(resample, bots), rounds=200))
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
            elo_low, elo_high = _two_bot_interval(pairwise(results, bots), i)
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


def _rating(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return f"{value:.0f}"


def format_table(rows: Sequence[BotSummary], markdown: bool = False) -> str:
    """The summary as a text (or Markdown) table."""
    header = ["bot", "games", "wins", "win rate", "95% CI", "avg score", "avg place", "Elo", "95% CI"]
    lines = []
    for row in rows:
        lines.append(
            [
                row.bot,
                str(row.games),
                f"{row.wins:g}",
                f"{100 * row.win_rate:.1f}%",
                f"{100 * row.win_low:.1f}-{100 * row.win_high:.1f}%",
                f"{row.mean_score:.1f}",
                f"{row.mean_place:.2f}",
                f"{row.elo:.0f}",
                f"{_rating(row.elo_low)}-{_rating(row.elo_high)}",
            ]
        )
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        out.extend("| " + " | ".join(line) + " |" for line in lines)
        return "\n".join(out)
    widths = [max(len(header[i]), *(len(line[i]) for line in lines)) for i in range(len(header))]
    out = ["  ".join(h.ljust(widths[i]) if i == 0 else h.rjust(widths[i]) for i, h in enumerate(header))]
    for line in lines:
        out.append("  ".join(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(line)))
    return "\n".join(out)


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
    config: ArenaConfig,
    results: Sequence[GameResult],
    rows: Sequence[BotSummary],
    interrupted: bool,
    machine: Mapping[str, Any],
) -> dict[str, Any]:
    """Everything about a run, as JSON data."""
    return {
        "config": {**asdict(config), "bots": list(config.bots), "options": dict(config.options)},
        "content_digest": content_digest(config),
        "machine": dict(machine),
        "interrupted": interrupted,
        "finished_games": len(results),
        "summary": [{k: _finite(v) for k, v in asdict(row).items()} for row in rows],
        "games": [asdict(result) for result in results],
    }
