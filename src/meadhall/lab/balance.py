"""Balance reports by bot self-play: does any choice win too often, for any game that says what counts.

The same bot spec (or a comma list of specs, rotated over the seats as in the arena)
plays every seat of seeded games, a new deal each game
(:func:`meadhall.lab.selfplay.dealt_match`). The game's :class:`~meadhall.core.balance.BalanceSpec`
(``game.balance_spec(options)``) reads each finished game into facts, kept as a
:class:`GameRow`, and says which keys a seat counts for in each table. This module
counts and judges; it names no game.

The summary gives win rates (a win is place 1; a shared first place counts as a win for
each seat sharing it) with 95% Wilson intervals against the fair share ``1/players``:
one table per category of the game's spec, then by **seat** index, by **turn order**
(0 = the seat that plays first) and, with several bot specs, by **bot**. A game's spec
may add a **choices** table (components offered, chosen and used: judged by the win rate
of the seats that chose them; the top entries by that rate) and a **what-if** table
(actions whose effect is measured by playing the game again without them: how often each
was played, and how often it changed the winners).

Each table ends with a verdict: the spread of the win rates among entries with enough
samples (:func:`min_samples`); the entries *ahead*, whose whole 95% interval lies above
the fair share (with a Bonferroni-corrected check too: among many entries some clear the
plain 95% bar by chance alone); and the **must-picks** (or must-builds: the spec's word):
ahead after the correction *and* by at least :data:`MUST_PICK_MARGIN` (5 points). An edge
that is only detectable is not a must-pick: with enough games every entry that is not
exactly average would clear the statistical bar alone, and a game has better and worse
choices by design. Apart from its process pool, the module is pure: no printing, no files.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from meadhall.core.balance import BalanceSpec, CategorySpec, ChoiceSpec, ColumnSpec, Must, WhatIfSpec
from meadhall.core.errors import MeadhallError
from meadhall.core.game import Action, GameState
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.lab.selfplay import Outcome, Series, dealt_match, play, play_out, run_games
from meadhall.lab.stats import bonferroni_z, interval
from meadhall.lab.tables import count, percent, points, table

#: How far above the fair share (in win rate) an entry must be, besides its
#: Bonferroni-corrected interval lying above the fair share, to count as a must-pick.
MUST_PICK_MARGIN = 0.05


def spec_of(series: Series) -> BalanceSpec:
    """The balance spec of a series' game and options; raises :class:`MeadhallError` for a game without one."""
    game = get_game(series.game)
    spec = game.balance_spec(game.validate_options(series.options, players=series.players))
    if spec is None:
        raise MeadhallError(f"{game.info.title} has no balance report")
    return spec


# Playing ---------------------------------------------------------------------------------


@dataclass
class SeatRow:
    """One seat of one finished game."""

    seat: int
    bot: str
    order: int  #: turn order at the start: 0 = the seat that plays first
    place: int
    score: int
    facts: dict[str, Any]  #: what the game says the seat chose and held

    @property
    def won(self) -> bool:
        """Place 1, shared or not."""
        return self.place == 1


@dataclass
class WhatIf:
    """One action of the spec's what-ifs, played, and whether playing it decided the game."""

    option: str  #: the option it played (the spec's key)
    seat: int
    ply: int  #: decisions made before it
    won: bool  #: the seat that played it won (place 1)
    decided: bool  #: without it (the same bots, any other action there) the winners change


@dataclass
class GameRow:
    """One self-play game."""

    index: int
    seed: int
    facts: dict[str, Any]  #: what the game says about it
    seats: list[SeatRow]
    what_ifs: list[WhatIf] = field(default_factory=list)
    seconds: float = 0.0
    decisions: int = 0
    error: str | None = None


def _winners(state: GameState[Any]) -> frozenset[int]:
    return frozenset(seat for seat, place in enumerate(state.ranking()) if place == 1)


def _without(outcome: Outcome, spec: WhatIfSpec, ply: int, seat: int, before: GameState[Any]) -> frozenset[int]:
    """The winners of the game played again from ``before`` with no what-if action at this decision."""
    state = before.clone()
    rngs = [Rng(outcome.match.seed * 104_729 + ply * 31 + s) for s in range(state.num_players)]
    legal = [action for action in state.legal_actions(seat) if spec.key(action) is None]
    choice = outcome.bots[seat].choose(state.game, state.view(seat), legal, rngs[seat])
    state.apply(seat, choice)
    play_out(state, outcome.bots, rngs)
    return _winners(state)


def play_game(series: Series, index: int) -> GameRow:
    """Play game ``index`` to the end with the series' bots, read it into facts, and play its what-ifs."""
    spec = spec_of(series)
    started = time.perf_counter()
    kept: list[tuple[int, int, str, GameState[Any]]] = []

    def keep(ply: int, seat: int, action: Action, state: GameState[Any]) -> None:
        option = spec.what_ifs.key(action) if spec.what_ifs is not None else None
        if option is not None:
            kept.append((ply, seat, option, state.clone()))

    outcome = play(dealt_match(series, index), keep if spec.what_ifs is not None else None)
    error = outcome.error
    facts = spec.facts(outcome.first, outcome.state)
    places = outcome.places
    seats = [
        SeatRow(seat, outcome.match.lineup[seat], read.order, places[seat], read.score, read.facts)
        for seat, read in enumerate(facts.seats)
    ]
    what_ifs: list[WhatIf] = []
    if error is None and spec.what_ifs is not None:
        winners = _winners(outcome.state)
        for ply, seat, option, before in kept:
            try:
                changed = _without(outcome, spec.what_ifs, ply, seat, before) != winners
            except Exception as failure:  # reported with the game, which is then left out of the statistics
                error = f"what-if without {option}: {type(failure).__name__}: {failure}"
                break
            what_ifs.append(WhatIf(option, seat, ply, places[seat] == 1, changed))
    return GameRow(
        index=index,
        seed=outcome.match.seed,
        facts=facts.facts,
        seats=seats,
        what_ifs=what_ifs,
        seconds=round(time.perf_counter() - started, 3),
        decisions=sum(outcome.decisions),
        error=error,
    )


def run(
    series: Series,
    progress: Callable[[GameRow, int], None] | None = None,
) -> tuple[list[GameRow], bool]:
    """Play every game (in ``series.jobs`` processes); the results and whether Ctrl-C stopped the run."""
    spec_of(series)  # a game without a report is refused before any game is played
    return run_games(play_game, series, series.games, series.jobs, progress)


# Statistics ----------------------------------------------------------------------------


def min_samples(games: int) -> int:
    """Samples an entry needs to count in a verdict: max(20, games / 20)."""
    return max(20, games // 20)


@dataclass
class Entry:
    """One row of a category: its samples (seat-games, maybe fractional), wins and win rate."""

    key: str
    samples: float
    wins: float
    win_rate: float
    low: float
    high: float
    lead: float  #: win rate - fair share
    mean_score: float
    suspect: bool  #: the whole 95% interval lies above the fair share
    extra: dict[str, float] = field(default_factory=dict)  #: the spec's extra columns
    must_pick: bool = False  #: see Verdict.must_picks


@dataclass
class Verdict:
    """What a category says: the spread of its win rates and its must-pick suspects."""

    entries: int  #: entries with enough samples
    spread: float  #: max - min win rate among them
    best: str | None
    worst: str | None
    suspects: list[str]  #: interval entirely above the fair share (95%)
    strict_suspects: list[str]  #: the same with a Bonferroni-corrected interval
    expected_false_alarms: float  #: suspects expected by chance alone if all were fair
    note: str = ""
    must_picks: list[str] = field(default_factory=list)  #: strict suspects at least MUST_PICK_MARGIN ahead


@dataclass
class Category:
    """One table of the report."""

    name: str
    title: str
    entries: list[Entry]
    verdict: Verdict
    must: Must | None = None  #: what its must-picks are called; ``None``: its entries can only be ahead
    unjudged: frozenset[str] = frozenset()
    columns: tuple[ColumnSpec, ...] = ()  #: the spec's extra columns
    columns_at: int = 1  #: where they go among the standard ones


@dataclass
class ChoiceEntry:
    """One component of a choices table: how often it is chosen and used, and the win rates that go with it."""

    key: str
    name: str
    group: str | None
    kind: str
    offered: int  #: games that offered it
    chosen: int  #: seats that chose it
    choice_rate: float  #: chosen / offered
    used: int  #: seats that used it (chosen, or come by otherwise)
    used_wins: int
    used_rate: float
    low: float  #: the 95% interval of the chosen win rate (judged)
    high: float
    lead: float  #: chosen win rate minus the fair share
    suspect: bool
    strict_suspect: bool
    above_used: bool  #: the used rate's 95% interval lies above the win rate of an average used component
    unused: int  #: chosen but not used
    unused_wins: int
    unused_rate: float
    chosen_rate: float  #: win rate of all seats that chose it (judged)
    chosen_wins: int = 0
    must_pick: bool = False  #: a strict suspect at least MUST_PICK_MARGIN ahead (see Verdict)


@dataclass
class Choices:
    """The choices table: every component chosen or used, the top ones, and the verdict."""

    entries: list[ChoiceEntry]
    top: list[str]  #: the top keys by chosen win rate, among those chosen often enough
    verdict: Verdict
    used_rate: float  #: win rate of the seats that used a component, over all components used


@dataclass
class WhatIfEntry:
    """One what-if option over all games."""

    option: str
    name: str
    played: int  #: times played
    games: int  #: games it was played in
    wins: int  #: plays by a seat that won
    win_rate: float
    low: float
    high: float
    decided: int  #: plays that changed the winners
    decided_rate: float  #: decided / played
    decided_games: float  #: share of all games it decided


@dataclass
class WhatIfs:
    """The what-if table: every option, and how many games one was played in or decided."""

    entries: list[WhatIfEntry]
    games: int  #: games with at least one played
    decided_games: int  #: games one of them decided


@dataclass
class Summary:
    """Every statistic of a balance run."""

    games: int  #: finished games without errors, the ones counted
    errors: int
    players: int
    fair_share: float
    mean_win_rate: float  #: above the fair share by the shared first places
    shared_wins: int  #: games with a shared first place
    mean_score: float
    min_samples: int
    categories: list[Category]
    choices: Choices | None
    what_ifs: WhatIfs | None
    spec: BalanceSpec = field(repr=False, compare=False)  #: the game's words, for the report


class Tally:
    """Seat-games, wins and score per key (a seat may count for several keys, with weights)."""

    def __init__(self) -> None:
        self.samples: dict[str, float] = defaultdict(float)
        self.wins: dict[str, float] = defaultdict(float)
        self.score: dict[str, float] = defaultdict(float)

    def add(self, key: str, weight: float, seat: SeatRow) -> None:
        """Count ``seat`` for ``key``."""
        self.samples[key] += weight
        self.wins[key] += weight * seat.won
        self.score[key] += weight * seat.score

    def entries(self, fair: float, keys: Iterable[str] | None = None) -> list[Entry]:
        """One entry per key (``keys``: these, in this order, even without samples)."""
        out = []
        for key in keys if keys is not None else sorted(self.samples):
            samples = self.samples.get(key, 0.0)
            wins = self.wins.get(key, 0.0)
            rate = wins / samples if samples else 0.0
            low, high = interval(wins, samples)
            out.append(
                Entry(
                    key=key,
                    samples=samples,
                    wins=wins,
                    win_rate=rate,
                    low=low,
                    high=high,
                    lead=rate - fair,
                    mean_score=self.score.get(key, 0.0) / samples if samples else 0.0,
                    suspect=samples > 0 and low > fair,
                )
            )
        return out


def verdict(
    items: Sequence[tuple[str, float, float, float]],
    fair: float,
    needed: float,
    note: str = "",
    exclude: Iterable[str] = (),
) -> Verdict:
    """The verdict on ``(key, samples, wins, win rate)`` items: spread and suspects among those with enough samples.

    Keys in ``exclude`` (such as ``(none)``, the seats without a monster) are shown but not judged.
    """
    left_out = set(exclude)
    counted = [item for item in items if item[1] >= needed and item[0] not in left_out]
    if not counted:
        return Verdict(0, 0.0, None, None, [], [], 0.0, f"no entry has {needed:g} samples yet")
    best = max(counted, key=lambda item: item[3])
    worst = min(counted, key=lambda item: item[3])
    z = bonferroni_z(len(counted))
    suspects = [key for key, samples, wins, _ in counted if interval(wins, samples)[0] > fair]
    strict = [key for key, samples, wins, _ in counted if interval(wins, samples, z)[0] > fair]
    rates = {key: rate for key, _, _, rate in counted}
    return Verdict(
        entries=len(counted),
        spread=best[3] - worst[3],
        best=best[0],
        worst=worst[0],
        suspects=suspects,
        strict_suspects=strict,
        expected_false_alarms=0.025 * len(counted),
        note=note,
        must_picks=[key for key in strict if rates[key] - fair >= MUST_PICK_MARGIN - 1e-12],
    )


def category_of(
    name: str,
    title: str,
    entries: list[Entry],
    fair: float,
    needed: float,
    note: str = "",
    *,
    must: Must | None = None,
    unjudged: frozenset[str] = frozenset(),
) -> Category:
    """A category of the report: its entries judged (``unjudged``: keys shown but not judged)."""
    items = [(e.key, e.samples, e.wins, e.win_rate) for e in entries]
    result = verdict(items, fair, needed, note, unjudged)
    for entry in entries:
        entry.must_pick = entry.key in result.must_picks
    return Category(name, title, entries, result, must, unjudged)


def _spec_categories(good: Sequence[GameRow], spec: BalanceSpec, fair: float, needed: int) -> list[Category]:
    tallies = []
    for category in spec.categories:
        tally = Tally()
        for row in good:
            for seat in row.seats:
                for key, weight in category.keys(row.facts, seat.facts):
                    tally.add(key, weight, seat)
        tallies.append(tally)
    listed: dict[str, set[str]] = defaultdict(set)
    for category, tally in zip(spec.categories, tallies, strict=True):
        if category.listing is not None:
            listed[category.listing] |= set(tally.samples)
    out = []
    for category, tally in zip(spec.categories, tallies, strict=True):
        keys = sorted(listed[category.listing]) if category.listing is not None else None
        entries = tally.entries(fair, keys)
        for entry in entries:
            for column in category.columns:
                entry.extra[column.name] = column.value(good, entry.key)
        out.append(_judged(category, entries, fair, needed))
    return out


def _judged(category: CategorySpec, entries: list[Entry], fair: float, needed: int) -> Category:
    note = category.note
    if "{score_spread" in note:
        scores = [e.mean_score for e in entries if e.samples >= needed]
        note = note.format(score_spread=max(scores) - min(scores) if scores else 0.0)
    judged = category_of(
        category.name, category.title, entries, fair, needed, note, must=category.must, unjudged=category.unjudged
    )
    judged.columns = category.columns
    judged.columns_at = category.columns_at
    return judged


def summarize(
    rows: Sequence[GameRow], players: int, spec: BalanceSpec, top: int = 10, needed: int | None = None
) -> Summary:
    """The balance report of finished games (games with an error are counted but left out)."""
    good = [row for row in rows if row.error is None]
    fair = 1.0 / players
    needed = min_samples(len(good)) if needed is None else needed
    seats = [seat for row in good for seat in row.seats]
    categories = _spec_categories(good, spec, fair, needed)
    by_seat, by_order, by_bot = Tally(), Tally(), Tally()
    for seat in seats:
        by_seat.add(str(seat.seat), 1.0, seat)
        by_order.add(str(seat.order), 1.0, seat)
        by_bot.add(seat.bot, 1.0, seat)
    seat_keys = [str(s) for s in range(players)]
    categories.append(category_of("seat", "Win rate by seat", by_seat.entries(fair, seat_keys), fair, needed))
    categories.append(category_of("order", spec.order_title, by_order.entries(fair, seat_keys), fair, needed))
    if len(by_bot.samples) > 1:
        categories.append(category_of("bot", "Win rate by bot", by_bot.entries(fair), fair, needed))
    wins = sum(seat.won for seat in seats)
    return Summary(
        games=len(good),
        errors=len(rows) - len(good),
        players=players,
        fair_share=fair,
        mean_win_rate=wins / len(seats) if seats else 0.0,
        shared_wins=sum(1 for row in good if sum(seat.won for seat in row.seats) > 1),
        mean_score=sum(seat.score for seat in seats) / len(seats) if seats else 0.0,
        min_samples=needed,
        categories=categories,
        choices=_choices(good, spec.choices, fair, needed, top) if spec.choices is not None else None,
        what_ifs=_what_ifs(good, spec.what_ifs) if spec.what_ifs is not None else None,
        spec=spec,
    )


def _choices(rows: Sequence[GameRow], spec: ChoiceSpec, fair: float, needed: int, top: int) -> Choices:
    offered: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    chosen_wins: Counter[str] = Counter()
    used: Counter[str] = Counter()
    used_wins: Counter[str] = Counter()
    unused: Counter[str] = Counter()
    unused_wins: Counter[str] = Counter()
    for row in rows:
        offered.update(spec.offered(row.facts))
        for seat in row.seats:
            picked, put = set(spec.chosen(seat.facts)), set(spec.used(seat.facts))
            for key in picked:
                chosen[key] += 1
                chosen_wins[key] += seat.won
            for key in put:
                used[key] += 1
                used_wins[key] += seat.won
            # A component may be used without being chosen (an effect draws a card from the deck).
            for key in picked - put:
                unused[key] += 1
                unused_wins[key] += seat.won
    entries = []
    for key in sorted(set(chosen) | set(used)):
        described = spec.describe(key)
        n_used, n_chosen = used[key], chosen[key]
        rate = chosen_wins[key] / n_chosen if n_chosen else 0.0
        low, high = interval(chosen_wins[key], n_chosen)
        entries.append(
            ChoiceEntry(
                key=key,
                name=described.name,
                group=described.group,
                kind=described.kind,
                offered=offered[key],
                chosen=n_chosen,
                choice_rate=n_chosen / offered[key] if offered[key] else 0.0,
                used=n_used,
                used_wins=used_wins[key],
                used_rate=used_wins[key] / n_used if n_used else 0.0,
                low=low,
                high=high,
                lead=rate - fair,
                suspect=n_chosen > 0 and low > fair,
                strict_suspect=False,
                above_used=False,
                unused=unused[key],
                unused_wins=unused_wins[key],
                unused_rate=unused_wins[key] / unused[key] if unused[key] else 0.0,
                chosen_rate=rate,
                chosen_wins=chosen_wins[key],
            )
        )
    # Judged: the win rate of the seats that chose a component, against the fair share.
    # Seats that use many components win more often, so the used rate is only compared
    # with the win rate of an average used component, for information.
    total = sum(used.values())
    used_rate = sum(used_wins.values()) / total if total else 0.0
    items = [(e.key, float(e.chosen), float(e.chosen_wins), e.chosen_rate) for e in entries]
    ranked = sorted((e for e in entries if e.chosen >= needed), key=lambda e: (-e.chosen_rate, -e.chosen, e.key))
    above = [
        e.key
        for e in sorted(entries, key=lambda e: (-e.used_rate, e.key))
        if e.used >= needed and interval(e.used_wins, e.used)[0] > used_rate
    ]
    words = spec.words
    note = (
        f"judged by the win rate of the seats that {words.chosen} a {words.noun}; when {words.used}, the seat of an "
        f"average {words.used} {words.noun} wins {percent(used_rate)}, {words.used}-rate intervals above that: "
        f"{', '.join(above) or 'none'}"
    )
    result = verdict(items, fair, needed, note)
    strict = set(result.strict_suspects)
    for entry in entries:
        entry.strict_suspect = entry.key in strict
        entry.must_pick = entry.key in result.must_picks
        entry.above_used = entry.key in above
    return Choices(entries, [e.key for e in ranked[:top]], result, used_rate)


def _what_ifs(rows: Sequence[GameRow], spec: WhatIfSpec) -> WhatIfs:
    plays: dict[str, list[tuple[int, WhatIf]]] = defaultdict(list)
    for row in rows:
        for what_if in row.what_ifs:
            plays[what_if.option].append((row.index, what_if))
    entries = []
    for option in sorted(spec.options):
        found = plays.get(option, [])
        wins = sum(play.won for _, play in found)
        decided = sum(play.decided for _, play in found)
        low, high = interval(wins, len(found)) if found else (0.0, 1.0)
        entries.append(
            WhatIfEntry(
                option=option,
                name=spec.options[option],
                played=len(found),
                games=len({index for index, _ in found}),
                wins=wins,
                win_rate=wins / len(found) if found else 0.0,
                low=low,
                high=high,
                decided=decided,
                decided_rate=decided / len(found) if found else 0.0,
                decided_games=len({index for index, play in found if play.decided}) / len(rows) if rows else 0.0,
            )
        )
    return WhatIfs(
        entries,
        games=sum(1 for row in rows if row.what_ifs),
        decided_games=sum(1 for row in rows if any(play.decided for play in row.what_ifs)),
    )


# Output ----------------------------------------------------------------------------------


def flag_of(must: bool, strict: bool, suspect: bool, word: Must | None) -> str:
    """The flag column: the must word for a must-pick, ``ahead!`` / ``ahead?`` for an edge with / without correction.

    ``word`` is ``None`` for a category whose entries are not picked (a seat, a bot): they
    can only be ahead.
    """
    if must and word is not None:
        return word.word
    return "ahead!" if strict else "ahead?" if suspect else ""


def verdict_line(label: str, result: Verdict, fair: float, word: Must | None) -> str:
    """One line: the spread, the must-picks (or must-builds) and the entries ahead in a category."""
    if not result.entries:
        return f"verdict ({label}): {result.note}"
    spread = (
        f"spread {100 * result.spread:.1f} points over {result.entries} entries "
        f"(best {result.best}, worst {result.worst})"
    )
    parts = [spread]
    if word is not None:
        margin = f"{100 * MUST_PICK_MARGIN:.0f} points"
        parts.append(
            f"{word.plural} (ahead after the Bonferroni correction and by {margin} or more): "
            + (", ".join(result.must_picks) or "none")
        )
    if result.suspects:
        strict = ", ".join(result.strict_suspects) or "none"
        parts.append(
            f"ahead (95% interval above the {percent(fair)} fair share): {', '.join(result.suspects)}"
            f" [~{result.expected_false_alarms:.1f} expected by chance; Bonferroni-corrected: {strict}]"
        )
    else:
        parts.append("none ahead")
    if result.note:
        parts.append(result.note)
    return f"verdict ({label}): " + "; ".join(parts)


def category_block(category: Category, *, fair: float, needed: int, score_name: str, markdown: bool) -> list[str]:
    """One category as lines: its title, its table and its verdict."""
    header = ["key", "seat-games", "wins", "win rate", "95% CI", "vs fair", f"avg {score_name}", "flag"]
    at = category.columns_at
    header[at:at] = [column.header for column in category.columns]
    lines = []
    for e in category.entries:
        judged = e.suspect and e.samples >= needed and e.key not in category.unjudged
        line = [
            e.key,
            count(e.samples),
            count(e.wins),
            percent(e.win_rate),
            f"{percent(e.low)}-{percent(e.high)}",
            points(e.lead),
            f"{e.mean_score:.1f}",
            flag_of(e.must_pick, e.key in category.verdict.strict_suspects, e.suspect, category.must) if judged else "",
        ]
        line[at:at] = [
            (percent if column.percent else count)(e.extra.get(column.name, 0.0)) for column in category.columns
        ]
        lines.append(line)
    title = f"### {category.title}" if markdown else f"{category.title}:"
    return [
        "",
        title,
        "",
        table(header, lines, markdown) if lines else "(no data)",
        "",
        verdict_line(category.name.replace("_", " "), category.verdict, fair, category.must),
    ]


def _choices_block(summary: Summary, spec: ChoiceSpec, markdown: bool) -> list[str]:
    assert summary.choices is not None
    choices, words, fair = summary.choices, spec.words, summary.fair_share
    by_key = {entry.key: entry for entry in choices.entries}
    header = [
        words.noun, words.group, "kind", words.chosen, f"{words.choice} rate", f"win rate when {words.chosen}",
        "95% CI", "vs fair", words.used, f"win rate when {words.used}", f"vs {words.used} avg",
        f"{words.chosen}, not {words.used}", "flag",
    ]  # fmt: skip
    lines = []
    for key in choices.top:
        c = by_key[key]
        lines.append(
            [
                f"{c.key} ({c.name})",
                c.group or words.ungrouped,
                c.kind,
                str(c.chosen),
                percent(c.choice_rate),
                percent(c.chosen_rate),
                f"{percent(c.low)}-{percent(c.high)}",
                points(c.lead),
                str(c.used),
                percent(c.used_rate),
                points(c.used_rate - choices.used_rate),
                f"{percent(c.unused_rate)} of {c.unused}" if c.unused else "-",
                flag_of(c.must_pick, c.strict_suspect, c.suspect, spec.must),
            ]
        )
    title = (
        f"Top {len(choices.top)} {words.plural} by win rate when {words.chosen} "
        f"({words.chosen} at least {summary.min_samples} times)"
    )
    out = ["", f"### {title}" if markdown else f"{title}:", ""]
    out.append(table(header, lines, markdown) if lines else f"(no {words.noun} was {words.chosen} often enough yet)")
    out += ["", verdict_line(words.plural, choices.verdict, fair, spec.must)]
    return out


def _what_ifs_block(summary: Summary, spec: WhatIfSpec, markdown: bool) -> list[str]:
    assert summary.what_ifs is not None
    what_ifs, words = summary.what_ifs, spec.words
    header = [f"{words.noun} option", "played", "in games", "player won", "95% CI", "decided the game", "of all games"]
    lines = [
        [
            f"{w.option} ({w.name})",
            str(w.played),
            str(w.games),
            percent(w.win_rate) if w.played else "-",
            f"{percent(w.low)}-{percent(w.high)}" if w.played else "-",
            f"{w.decided} ({percent(w.decided_rate)})" if w.played else "-",
            percent(w.decided_games),
        ]
        for w in what_ifs.entries
    ]
    title = f"{words.plural.capitalize()}: how often played, and how often they decided the game"
    share = what_ifs.decided_games / summary.games if summary.games else 0.0
    return [
        "",
        f"### {title}" if markdown else f"{title}:",
        "",
        table(header, lines, markdown),
        "",
        f"A {words.noun} was played in {what_ifs.games} of {summary.games} games and decided "
        f"{what_ifs.decided_games} ({percent(share)}): played again from the {words.short}'s moment with the "
        f"same bots choosing anything but a {words.short}, the winners changed.",
    ]


def format_report(summary: Summary, markdown: bool = False) -> str:
    """The whole report as text (or Markdown) tables with a verdict line under each."""
    spec = summary.spec
    out = [
        f"{summary.games} games, {summary.players} players"
        + (f" ({summary.errors} with errors left out)" if summary.errors else "")
        + f"; fair share {percent(summary.fair_share)}, mean win rate {percent(summary.mean_win_rate)}"
        + f" ({summary.shared_wins} shared first places); mean {spec.score_name} {summary.mean_score:.1f};"
        + f" entries need {summary.min_samples} samples for a verdict"
    ]
    for category in summary.categories:
        out += category_block(
            category, fair=summary.fair_share, needed=summary.min_samples, score_name=spec.score_name, markdown=markdown
        )
    if spec.choices is not None:
        out += _choices_block(summary, spec.choices, markdown)
    if spec.what_ifs is not None:
        out += _what_ifs_block(summary, spec.what_ifs, markdown)
    return "\n".join(out)


# JSON --------------------------------------------------------------------------------------
# The JSON speaks the game's words: its facts as it wrote them, its score's name, the
# names of its choices ("drafted", "played") and of its what-ifs ("weapons").


def _entry_json(entry: Entry, score_key: str) -> dict[str, Any]:
    data = asdict(entry)
    return {(f"mean_{score_key}" if key == "mean_score" else key): value for key, value in data.items()}


def _category_json(category: Category, score_key: str) -> dict[str, Any]:
    return {
        "name": category.name,
        "title": category.title,
        "entries": [_entry_json(entry, score_key) for entry in category.entries],
        "verdict": asdict(category.verdict),
    }


def _choice_json(entry: ChoiceEntry, spec: ChoiceSpec) -> dict[str, Any]:
    w = spec.words
    names = {
        "key": w.noun, "group": w.group, "offered": w.offered, "chosen": w.chosen, "choice_rate": f"{w.choice}_rate",
        "used": w.used, "used_wins": f"{w.used}_wins", "used_rate": f"{w.used}_rate", "above_used": f"above_{w.used}",
        "unused": w.unused, "unused_wins": f"{w.unused}_wins", "unused_rate": f"{w.unused}_rate",
        "chosen_rate": f"{w.chosen}_rate", "chosen_wins": f"{w.chosen}_wins",
    }  # fmt: skip
    return {names.get(key, key): value for key, value in asdict(entry).items()}


def _row_json(row: GameRow, spec: BalanceSpec) -> dict[str, Any]:
    data: dict[str, Any] = {"index": row.index, "seed": row.seed, **row.facts}
    data["seats"] = [
        {"seat": s.seat, "bot": s.bot, "order": s.order, "place": s.place, spec.score_key: s.score, **s.facts}
        for s in row.seats
    ]
    if spec.what_ifs is not None:
        data[spec.what_ifs.words.short_plural] = [asdict(what_if) for what_if in row.what_ifs]
    data.update(seconds=row.seconds, decisions=row.decisions, error=row.error)
    return data


def to_json(
    series: Series,
    rows: Sequence[GameRow],
    summary: Summary,
    interrupted: bool,
    machine: Mapping[str, Any],
    seconds: float,
) -> dict[str, Any]:
    """Everything about a run, as JSON data."""
    spec = summary.spec
    totals: dict[str, Any] = {
        "games": summary.games,
        "errors": summary.errors,
        "players": summary.players,
        "fair_share": summary.fair_share,
        "mean_win_rate": summary.mean_win_rate,
        "shared_wins": summary.shared_wins,
        f"mean_{spec.score_key}": summary.mean_score,
        "min_samples": summary.min_samples,
    }
    data: dict[str, Any] = {
        "config": {**asdict(series), "bots": list(series.bots), "options": dict(series.options)},
        "machine": dict(machine),
        "seconds": round(seconds, 1),
        "interrupted": interrupted,
        "finished_games": len(rows),
        "summary": totals,
        "categories": {category.name: _category_json(category, spec.score_key) for category in summary.categories},
    }
    if spec.choices is not None and summary.choices is not None:
        words = spec.choices.words
        totals[f"{words.used}_{words.noun}_win_rate"] = summary.choices.used_rate
        data[words.plural] = {
            "top": summary.choices.top,
            "verdict": asdict(summary.choices.verdict),
            "all": [_choice_json(entry, spec.choices) for entry in summary.choices.entries],
        }
    if spec.what_ifs is not None and summary.what_ifs is not None:
        words_ = spec.what_ifs.words
        totals[f"{words_.short}_games"] = summary.what_ifs.games
        totals["decided_games"] = summary.what_ifs.decided_games
        data[words_.short_plural] = [asdict(entry) for entry in summary.what_ifs.entries]
    data["games"] = [_row_json(row, spec) for row in rows]
    return data
