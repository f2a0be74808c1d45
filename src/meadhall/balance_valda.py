"""Valda balance by bot self-play: is any god a must-build, does a seat lead, which god weapon decides games.

The same bot spec (or a comma list of specs, rotated over the seats as in the arena) plays
every seat of seeded games. Each finished game becomes a :class:`ValdaGameRow`: the start
player and, per seat, the temples it built in each god area (its ``build:GOD`` actions,
in the building phase or by a card), the god weapon options it played, its followers and
its place.

The summary gives win rates (a win is place 1; a shared first place counts as a win for
each seat sharing it) with 95% Wilson intervals against the fair share ``1/players``:

* by **god area built in**: every seat that built at least one temple of a god counts
  for that god (a seat counts for every god it built in), with the share of seats that
  built there; a god whose builders win far above the fair share is a must-build suspect;
* by **most temples**: the god a seat had most temples of at the end (a tie splits it);
* by **lock held**: the god areas a seat held locked at the end (three of its temples
  there; a seat counts for each lock it holds), or ``(no lock)``;
* by **seat** index and by **turn order** (0 = the start player);
* per **god weapon option**: how often it was played, the win rate of the seats that
  played it, and how often it **decided** the game: the game is played again from the
  moment of the weapon with the same bots choosing anything but a god weapon there, and
  the weapon decided the game if the winners change.

Each category ends with the same verdict as Blood Rage's report (:mod:`meadhall.balance`):
the spread of the win rates and the suspects whose whole interval lies above the fair
share. The module is pure apart from its process pool: no printing, no files.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from meadhall.balance import (
    BalanceConfig,
    Category,
    Entry,
    Tally,
    _pct,
    category_block,
    category_of,
    game_seed,
    interval,
    lineup,
    min_samples,
    table,
)
from meadhall.bots import Bot, make_bot
from meadhall.core.errors import MeadhallError
from meadhall.core.game import MAX_DECISIONS
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.state import LOCK, ValdaState
from meadhall.parallel import run_games


@dataclass
class ValdaSeatRow:
    """One seat of one finished game."""

    seat: int
    bot: str
    order: int  # turn order in round 1: 0 = the start player
    place: int
    followers: int
    built: dict[str, int]  # temples built per god (build:GOD actions)
    temples: dict[str, int]  # temples per god at the end
    weapons: list[str]  # god weapon options played, in order

    @property
    def won(self) -> bool:
        """Place 1, shared or not."""
        return self.place == 1


@dataclass
class WeaponPlay:
    """One god weapon option played, and whether playing it decided the game."""

    option: str
    seat: int
    ply: int
    won: bool  # the seat that played it won (place 1)
    decided: bool  # without it (the same bots, anything but a weapon there) the winners change


@dataclass
class ValdaGameRow:
    """One self-play game."""

    index: int
    seed: int
    start: int
    seats: list[ValdaSeatRow]
    weapons: list[WeaponPlay] = field(default_factory=list)
    seconds: float = 0.0
    decisions: int = 0
    error: str | None = None


def _winners(state: ValdaState) -> frozenset[int]:
    return frozenset(seat for seat, place in enumerate(state.ranking()) if place == 1)


def _play_out(
    state: ValdaState,
    bots: Sequence[Bot],
    rngs: Sequence[Rng],
    before_weapon: Callable[[int, int, str, ValdaState], None] | None = None,
    counted: list[int] | None = None,
) -> None:
    """Play ``state`` to the end with ``bots``.

    ``before_weapon(decision, seat, option, state)`` is told of each god weapon about to
    be played; ``counted[0]`` counts the decisions (it stays right if the game breaks).
    """
    game = state.game
    decisions = counted if counted is not None else [0]
    while not state.is_terminal():
        if decisions[0] >= MAX_DECISIONS:
            raise MeadhallError(f"the game did not end in {MAX_DECISIONS} decisions")
        (seat,) = state.to_move()
        action = bots[seat].choose(game, state.view(seat), state.legal_actions(seat), rngs[seat])
        assert isinstance(action, ValdaAction)
        if action.kind == "weapon" and before_weapon is not None:
            before_weapon(decisions[0], seat, action.a, state)
        state.apply(seat, action)
        decisions[0] += 1


def _without_weapon(before: ValdaState, seat: int, bots: Sequence[Bot], seed: int, ply: int) -> frozenset[int]:
    """The winners of the game played again from ``before`` with no god weapon at this decision."""
    state = before.clone()
    game = state.game
    legal = [a for a in state.legal_actions(seat) if a.kind != "weapon"]
    rngs = [Rng(seed * 104_729 + ply * 31 + s) for s in range(state.num_players)]
    choice = bots[seat].choose(game, state.view(seat), legal, rngs[seat])
    assert isinstance(choice, ValdaAction)
    state.apply(seat, choice)
    _play_out(state, bots, rngs)
    return _winners(state)


def play_game(config: BalanceConfig, index: int) -> ValdaGameRow:
    """Play game ``index`` to the end with the configured bots in every seat, and each weapon's what-if."""
    game = get_game(config.game)
    seed = game_seed(config, index)
    state = game.new_game(players=config.players, seed=seed, options=dict(config.options))
    if not isinstance(state, ValdaState):
        raise MeadhallError(f"this balance report is for Valda, not {game.info.title}")
    seats = lineup(index, config.bots, config.players)
    bots = [make_bot(spec) for spec in seats]
    rngs = [Rng(seed * 7919 + seat) for seat in range(config.players)]
    branches: list[tuple[int, int, str, ValdaState]] = []
    decisions = [0]
    started = time.perf_counter()
    error = None
    try:
        _play_out(
            state,
            bots,
            rngs,
            lambda ply, seat, option, before: branches.append((ply, seat, option, before.clone())),
            decisions,
        )
    except Exception as failure:  # a broken game is reported and left out of the statistics
        error = f"{type(failure).__name__}: {failure}"
    start = state.start
    n = state.num_players
    built: list[dict[str, int]] = [defaultdict(int) for _ in range(n)]
    played: list[list[str]] = [[] for _ in range(n)]
    for seat, action in state.history():
        if action.kind == "build" and action.a in state.config.content.gods:
            built[seat][action.a] += 1
        elif action.kind == "weapon":
            played[seat].append(action.a)
    places = state.ranking()
    rows = [
        ValdaSeatRow(
            seat=seat,
            bot=seats[seat],
            order=(seat - start) % n,
            place=places[seat],
            followers=state.players[seat].followers,
            built=dict(built[seat]),
            temples={god: count for god, count in state.players[seat].temples.items() if count},
            weapons=played[seat],
        )
        for seat in range(n)
    ]
    weapons: list[WeaponPlay] = []
    if error is None:
        winners = _winners(state)
        for ply, seat, option, before in branches:
            try:
                changed = _without_weapon(before, seat, bots, seed, ply) != winners
            except Exception as failure:
                error = f"what-if without {option}: {type(failure).__name__}: {failure}"
                break
            weapons.append(WeaponPlay(option, seat, ply, places[seat] == 1, changed))
    return ValdaGameRow(
        index=index,
        seed=seed,
        start=start,
        seats=rows,
        weapons=weapons,
        seconds=round(time.perf_counter() - started, 3),
        decisions=decisions[0],
        error=error,
    )


def run(
    config: BalanceConfig, progress: Callable[[ValdaGameRow, int], None] | None = None
) -> tuple[list[ValdaGameRow], bool]:
    """Play every game (in ``config.jobs`` processes); the results and whether Ctrl-C stopped the run."""
    return run_games(play_game, config, config.games, config.jobs, progress)


# Statistics ----------------------------------------------------------------------------


@dataclass
class WeaponEntry:
    """One god weapon option over all games."""

    option: str
    name: str
    played: int  # times played
    games: int  # games it was played in
    wins: int  # plays by a seat that won
    win_rate: float
    low: float
    high: float
    decided: int  # plays that changed the winners
    decided_rate: float  # decided / played
    decided_games: float  # share of all games it decided


@dataclass
class ValdaSummary:
    """Every statistic of a Valda balance run."""

    games: int
    errors: int
    players: int
    fair_share: float
    mean_win_rate: float
    shared_wins: int
    mean_followers: float
    min_samples: int
    categories: list[Category]
    weapons: list[WeaponEntry]
    weapon_games: int  # games with at least one weapon played
    decided_games: int  # games some weapon decided


def summarize(
    rows: Sequence[ValdaGameRow], players: int, options: Mapping[str, str], needed: int | None = None
) -> ValdaSummary:
    """The balance report of finished games (``options``: weapon option id -> name)."""
    good = [row for row in rows if row.error is None]
    fair = 1.0 / players
    needed = min_samples(len(good)) if needed is None else needed
    seats = [seat for row in good for seat in row.seats]
    built_in, most, locked, by_seat, by_order, by_bot = (Tally(score=lambda seat: seat.followers) for _ in range(6))
    for row in good:
        for seat in row.seats:
            for god in seat.built:
                built_in.add(god, 1.0, seat)
            if seat.temples:
                top = max(seat.temples.values())
                favourites = [god for god, count in seat.temples.items() if count == top]
                for god in favourites:
                    most.add(god, 1.0 / len(favourites), seat)
            else:
                most.add("(no temple)", 1.0, seat)
            locks = [god for god, count in seat.temples.items() if count >= LOCK]
            for god in locks or ["(no lock)"]:
                locked.add(god, 1.0, seat)
            by_seat.add(str(seat.seat), 1.0, seat)
            by_order.add(str(seat.order), 1.0, seat)
            by_bot.add(seat.bot, 1.0, seat)
    built_entries = built_in.entries(fair)
    for entry in built_entries:
        entry.extra["share"] = entry.samples / len(seats) if seats else 0.0
    seat_keys = [str(s) for s in range(players)]

    def category(name: str, title: str, entries: list[Entry], note: str = "", exclude: Sequence[str] = ()) -> Category:
        return category_of(name, title, entries, fair, needed, note, exclude)

    categories = [
        category(
            "god_built",
            "Win rate by god area built in (a seat counts for every god it built a temple of)",
            built_entries,
            "a seat counts for several gods, so rates run above the fair share for the gods good players build",
        ),
        category(
            "most_temples",
            "Win rate by the god of most temples at the end",
            most.entries(fair),
            exclude=["(no temple)"],
        ),
        category(
            "lock_held",
            "Win rate by god area held locked at the end (three temples of the seat there)",
            locked.entries(fair),
            "a seat holding a lock has built at least three temples, so it is richer than most",
            exclude=["(no lock)"],
        ),
        category("seat", "Win rate by seat", by_seat.entries(fair, seat_keys)),
        category("order", "Win rate by turn order (0 = the start player)", by_order.entries(fair, seat_keys)),
    ]
    if len(by_bot.samples) > 1:
        categories.append(category("bot", "Win rate by bot", by_bot.entries(fair)))
    plays: dict[str, list[tuple[int, WeaponPlay]]] = defaultdict(list)
    for row in good:
        for play in row.weapons:
            plays[play.option].append((row.index, play))
    weapons = []
    for option in sorted(options):
        found = plays.get(option, [])
        wins = sum(play.won for _, play in found)
        decided = sum(play.decided for _, play in found)
        low, high = interval(wins, len(found)) if found else (0.0, 1.0)
        weapons.append(
            WeaponEntry(
                option=option,
                name=options[option],
                played=len(found),
                games=len({index for index, _ in found}),
                wins=wins,
                win_rate=wins / len(found) if found else 0.0,
                low=low,
                high=high,
                decided=decided,
                decided_rate=decided / len(found) if found else 0.0,
                decided_games=len({index for index, play in found if play.decided}) / len(good) if good else 0.0,
            )
        )
    wins_total = sum(seat.won for seat in seats)
    return ValdaSummary(
        games=len(good),
        errors=len(rows) - len(good),
        players=players,
        fair_share=fair,
        mean_win_rate=wins_total / len(seats) if seats else 0.0,
        shared_wins=sum(1 for row in good if sum(seat.won for seat in row.seats) > 1),
        mean_followers=sum(seat.followers for seat in seats) / len(seats) if seats else 0.0,
        min_samples=needed,
        categories=categories,
        weapons=weapons,
        weapon_games=sum(1 for row in good if row.weapons),
        decided_games=sum(1 for row in good if any(play.decided for play in row.weapons)),
    )


def format_report(summary: ValdaSummary, markdown: bool = False) -> str:
    """The whole report as text (or Markdown) tables with a verdict line under each."""
    fair = summary.fair_share
    out = [
        f"{summary.games} games, {summary.players} players"
        + (f" ({summary.errors} with errors left out)" if summary.errors else "")
        + f"; fair share {_pct(fair)}, mean win rate {_pct(summary.mean_win_rate)}"
        + f" ({summary.shared_wins} shared first places); mean followers {summary.mean_followers:.1f};"
        + f" entries need {summary.min_samples} samples for a verdict"
    ]
    for cat in summary.categories:
        out += category_block(
            cat,
            fair=fair,
            needed=summary.min_samples,
            score_name="followers",
            flag="MUST-BUILD" if cat.name in ("god_built", "most_temples") else "AHEAD",
            markdown=markdown,
            extra=(2, ["share of seats"], lambda e: [_pct(e.extra.get("share", 0.0))])
            if cat.name == "god_built"
            else None,
            judged=lambda e: not e.key.startswith("("),
        )
    header = ["god weapon option", "played", "in games", "player won", "95% CI", "decided the game", "of all games"]
    lines = [
        [
            f"{w.option} ({w.name})",
            str(w.played),
            str(w.games),
            _pct(w.win_rate) if w.played else "-",
            f"{_pct(w.low)}-{_pct(w.high)}" if w.played else "-",
            f"{w.decided} ({_pct(w.decided_rate)})" if w.played else "-",
            _pct(w.decided_games),
        ]
        for w in summary.weapons
    ]
    title = "God weapons: how often played, and how often they decided the game"
    out += ["", f"### {title}" if markdown else f"{title}:", "", table(header, lines, markdown)]
    out += [
        "",
        f"A god weapon was played in {summary.weapon_games} of {summary.games} games and decided "
        f"{summary.decided_games} ({_pct(summary.decided_games / summary.games if summary.games else 0.0)}): "
        "played again from the weapon's moment with the same bots choosing anything but a weapon, "
        "the winners changed.",
    ]
    return "\n".join(out)


def to_json(
    config: BalanceConfig,
    rows: Sequence[ValdaGameRow],
    summary: ValdaSummary,
    interrupted: bool,
    machine: Mapping[str, Any],
    seconds: float,
) -> dict[str, Any]:
    """Everything about a run, as JSON data."""
    return {
        "config": {**asdict(config), "bots": list(config.bots), "options": dict(config.options)},
        "machine": dict(machine),
        "seconds": round(seconds, 1),
        "interrupted": interrupted,
        "finished_games": len(rows),
        "summary": {key: value for key, value in asdict(summary).items() if key not in ("categories", "weapons")},
        "categories": {category.name: asdict(category) for category in summary.categories},
        "weapons": [asdict(weapon) for weapon in summary.weapons],
        "games": [asdict(row) for row in rows],
    }
