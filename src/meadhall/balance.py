"""Blood Rage: Valhalla balance by bot self-play: is any god, card or monster a must-pick.

The same bot spec (or a comma list of specs, rotated over the seats as in the arena) plays
every seat of seeded games, by default with three random gods per game. Each finished
game becomes a :class:`GameRow`: the gods, the first player of Age 1 and, per seat, the
cards it drafted (its ``pick:`` actions), the cards it played (``upgrade:``, ``quest:`` and
``play:`` actions), the monsters it owned at the end, its Glory and its place.

The summary gives win rates (a win is place 1; a shared first place counts as a win for
each seat sharing it) with 95% Wilson intervals against the fair share ``1/players``:

* by **favoured god**: the god whose cards the seat drafted most (a tie splits the seat's
  weight equally between the tied gods);
* by **god in the game** (with the average Glory of a seat and the share of the god-card
  picks that went to the god: every seat of a game counts, so the win rate stays near the
  fair share and Glory shows whether a deck inflates the scores);
* by **monster drafted**: the seats that drafted a monster's card, which is what is judged
  for monsters, as for every card (a must-pick is about the pick);
* by **monster owned** at the end of the game (``(none)``: seats that owned none), shown
  and not judged: owning one follows from having the Rage to play its card, which a clan
  that is doing well has more often, so most monsters' owners win more than the seats
  without one;
* by **seat** index and by **turn order** in Age 1 (0 = the first player);
* per **card**: how often it is drafted (and its pick rate: drafts per game it was in the
  deck) and the win rate of the seats that drafted it, which is what is judged: a
  must-pick is a card you must take when it comes round. Shown beside it, not judged:
  the win rate of the seats that played it (a card drawn by an effect counts too) and of
  those that drafted it and did not. Playing a card follows from how the game goes (a
  clan that is winning battles plays its best battle card, one with Rage to spare plays
  its dear upgrades), so the played rate credits a card with the state of the seats that
  play it. The top cards by win rate among those drafted often enough.

Each category ends with a verdict: the spread of the win rates among entries with enough
samples; the entries *ahead*, whose whole 95% interval lies above the fair share (with a
Bonferroni-corrected check too: among many cards some clear the plain 95% bar by chance
alone); and the **must-picks**: ahead after the correction *and* by at least
:data:`MUST_PICK_MARGIN` (5 points: "within a few points", as the rulings put it for the
gods). An edge that is only detectable is not a must-pick: with enough games every card
that is not exactly average would clear the statistical bar alone, and a draft game has
better and worse cards by design. The module is pure apart from its process pool: no
printing, no files.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Any

from meadhall.arena import wilson
from meadhall.bots import make_bot
from meadhall.core.errors import MeadhallError
from meadhall.core.game import MAX_DECISIONS
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.games.bloodrage_valhalla.content import Content
from meadhall.games.bloodrage_valhalla.state import BloodRageState
from meadhall.parallel import run_games

#: The actions that put a card of the hand into play.
PLAY_KINDS = frozenset({"upgrade", "quest", "play"})
#: The key of seats that owned no monster at the end.
NO_MONSTER = "(none)"
#: How far above the fair share (in win rate) an entry must be, besides its
#: Bonferroni-corrected interval lying above the fair share, to count as a must-pick.
MUST_PICK_MARGIN = 0.05


@dataclass(frozen=True)
class BalanceConfig:
    """What to play: the game (Blood Rage: Valhalla), the bot specs, how many games and how."""

    game: str
    bots: tuple[str, ...]
    games: int
    players: int = 4
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 1
    jobs: int = 1


@dataclass
class SeatRow:
    """One seat of one finished game."""

    seat: int
    bot: str
    order: int  # turn order in Age 1: 0 = the first player
    place: int
    glory: int
    favoured: list[str]  # the god(s) whose cards it drafted most (several on a tie)
    drafted_by_god: dict[str, int]  # god cards drafted, per god of the game
    drafted: list[str]  # every card drafted (its pick: actions), in order
    played: list[str]  # cards played (upgrade:, quest:, play: actions), in order
    monsters: list[str]  # monsters owned at the end of the game

    @property
    def won(self) -> bool:
        """Place 1, shared or not."""
        return self.place == 1


@dataclass
class GameRow:
    """One self-play game."""

    index: int
    seed: int
    gods: list[str]  # the gods of Ages 1-3
    monsters_in_play: list[str]
    first: int  # the first player of Age 1
    seats: list[SeatRow]
    seconds: float = 0.0
    decisions: int = 0
    error: str | None = None


def game_seed(config: BalanceConfig, index: int) -> int:
    """The seed of game ``index`` (derived like :func:`meadhall.arena.deal_seed`; one deal per game)."""
    return config.seed * 1_000_003 + index


def lineup(index: int, bots: Sequence[str], players: int) -> list[str]:
    """The bot specs by seat for game ``index``, rotated over the seats as in the arena."""
    return [bots[(index + seat) % len(bots)] for seat in range(players)]


def favoured_gods(drafted_by_god: Mapping[str, int]) -> list[str]:
    """The gods with the most cards drafted (all tied gods; every god if none was drafted)."""
    if not drafted_by_god:
        return []
    most = max(drafted_by_god.values())
    return sorted(god for god, count in drafted_by_god.items() if count == most)


def seat_rows(state: BloodRageState, first: int, bots: Sequence[str]) -> list[SeatRow]:
    """The per-seat rows of a finished game, from its history and final position."""
    content = state.config.content
    n = state.num_players
    drafted: list[list[str]] = [[] for _ in range(n)]
    played: list[list[str]] = [[] for _ in range(n)]
    for seat, action in state.history():
        if action.kind == "pick":
            drafted[seat].append(action.a)
        elif action.kind in PLAY_KINDS and action.a in content.cards:
            played[seat].append(action.a)
    places = state.ranking()
    rows = []
    for seat in range(n):
        by_god = dict.fromkeys(state.gods, 0)
        for card in drafted[seat]:
            god = content.cards[card].god
            if god is not None:
                by_god[god] = by_god.get(god, 0) + 1
        rows.append(
            SeatRow(
                seat=seat,
                bot=bots[seat],
                order=(seat - first) % n,
                place=places[seat],
                glory=state.clans[seat].glory,
                favoured=favoured_gods(by_god),
                drafted_by_god=by_god,
                drafted=drafted[seat],
                played=played[seat],
                monsters=list(state.clans[seat].owned_monsters),
            )
        )
    return rows


def play_game(config: BalanceConfig, index: int) -> GameRow:
    """Play game ``index`` to the end with the configured bots in every seat."""
    game = get_game(config.game)
    seed = game_seed(config, index)
    position = game.new_game(players=config.players, seed=seed, options=dict(config.options))
    state = position
    if not isinstance(state, BloodRageState):
        raise MeadhallError(f"balance reports know Blood Rage: Valhalla only, not {game.info.title}")
    first = state.first
    seats = lineup(index, config.bots, config.players)
    bots = [make_bot(spec) for spec in seats]
    rngs = [Rng(seed * 7919 + seat) for seat in range(config.players)]
    decisions = 0
    started = time.perf_counter()
    error = None
    try:
        while not state.is_terminal():
            if decisions >= MAX_DECISIONS:
                raise MeadhallError(f"the game did not end in {MAX_DECISIONS} decisions")
            seat = state.to_move()[0]
            legal = position.legal_actions(seat)
            action = bots[seat].choose(game, position.view(seat), legal, rngs[seat])
            position.apply(seat, action)
            decisions += 1
    except Exception as failure:  # a broken game is reported and left out of the statistics
        error = f"{type(failure).__name__}: {failure}"
    return GameRow(
        index=index,
        seed=seed,
        gods=list(state.gods),
        monsters_in_play=list(state.monsters_in_play),
        first=first,
        seats=seat_rows(state, first, seats),
        seconds=round(time.perf_counter() - started, 3),
        decisions=decisions,
        error=error,
    )


def run(
    config: BalanceConfig,
    progress: Callable[[GameRow, int], None] | None = None,
) -> tuple[list[GameRow], bool]:
    """Play every game (in ``config.jobs`` processes); the results and whether Ctrl-C stopped the run."""
    return run_games(play_game, config, config.games, config.jobs, progress)


# Statistics ----------------------------------------------------------------------------


def interval(successes: float, trials: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson interval of :func:`meadhall.arena.wilson`, for a possibly fractional sample size.

    A seat whose favourite is a tie between gods adds a fraction of a sample to each.
    """
    whole = round(trials)
    if whole == trials:
        return wilson(successes, whole, z)
    return wilson(successes, trials, z)  # type: ignore[arg-type]  # the formula holds for any size > 0


def min_samples(games: int) -> int:
    """Samples an entry needs to count in a verdict: max(20, games / 20)."""
    return max(20, games // 20)


def bonferroni_z(tests: int) -> float:
    """The one-sided z of a 2.5% false-alarm chance shared among ``tests`` tests."""
    return NormalDist().inv_cdf(1 - 0.025 / max(1, tests))


@dataclass
class Entry:
    """One row of a category: its samples (seat-games, maybe fractional), wins and win rate."""

    key: str
    samples: float
    wins: float
    win_rate: float
    low: float
    high: float
    lead: float  # win rate - fair share
    mean_glory: float
    suspect: bool  # the whole 95% interval lies above the fair share
    extra: dict[str, float] = field(default_factory=dict)
    must_pick: bool = False  # see Verdict.must_picks


@dataclass
class Verdict:
    """What a category says: the spread of its win rates and its must-pick suspects."""

    entries: int  # entries with enough samples
    spread: float  # max - min win rate among them
    best: str | None
    worst: str | None
    suspects: list[str]  # interval entirely above the fair share (95%)
    strict_suspects: list[str]  # the same with a Bonferroni-corrected interval
    expected_false_alarms: float  # suspects expected by chance alone if all were fair
    note: str = ""
    must_picks: list[str] = field(default_factory=list)  # strict suspects at least MUST_PICK_MARGIN ahead


@dataclass
class Category:
    """One table of the report."""

    name: str
    title: str
    entries: list[Entry]
    verdict: Verdict


@dataclass
class CardEntry:
    """One card: how often it is drafted and played, and the win rates that go with it."""

    card: str
    name: str
    god: str | None
    kind: str
    in_deck: int  # games whose deck held it
    drafted: int  # seats that drafted it
    pick_rate: float  # drafted / in_deck
    played: int  # seats that played it (drafted, or drawn by an effect)
    played_wins: int
    played_rate: float
    low: float  # the 95% interval of the drafted win rate (judged)
    high: float
    lead: float  # drafted win rate minus the fair share
    suspect: bool
    strict_suspect: bool
    above_played: bool  # the played rate's 95% interval lies above the win rate of an average played card
    unplayed: int  # drafted but not played
    unplayed_wins: int
    unplayed_rate: float
    drafted_rate: float  # win rate of all seats that drafted it (judged)
    drafted_wins: int = 0
    must_pick: bool = False  # a strict suspect at least MUST_PICK_MARGIN ahead (see Verdict)


@dataclass
class Summary:
    """Every statistic of a balance run."""

    games: int  # finished games without errors, the ones counted
    errors: int
    players: int
    fair_share: float
    mean_win_rate: float  # above the fair share by the shared first places
    shared_wins: int  # games with a shared first place
    mean_glory: float
    min_samples: int
    categories: list[Category]
    cards: list[CardEntry]
    top_cards: list[str]
    card_verdict: Verdict
    played_card_win_rate: float  # of the seats that played a card, over all cards played


class Tally:
    """Seat-games, wins and score per key (a seat may count for several keys, with weights).

    ``score`` reads a seat row's score (Blood Rage: Glory; Valda: followers); an entry's
    ``mean_glory`` is the mean of that score.
    """

    def __init__(self, score: Callable[[Any], float] = lambda seat: seat.glory) -> None:
        self.score = score
        self.samples: dict[str, float] = defaultdict(float)
        self.wins: dict[str, float] = defaultdict(float)
        self.glory: dict[str, float] = defaultdict(float)

    def add(self, key: str, weight: float, seat: Any) -> None:
        """Count ``seat`` (anything with ``won`` and a score) for ``key``."""
        self.samples[key] += weight
        self.wins[key] += weight * seat.won
        self.glory[key] += weight * self.score(seat)

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
                    mean_glory=self.glory.get(key, 0.0) / samples if samples else 0.0,
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
    name: str, title: str, entries: list[Entry], fair: float, needed: float, note: str = "", exclude: Iterable[str] = ()
) -> Category:
    """A category of the report: its entries judged (``exclude``: keys shown but not judged)."""
    items = [(e.key, e.samples, e.wins, e.win_rate) for e in entries]
    result = verdict(items, fair, needed, note, exclude)
    for entry in entries:
        entry.must_pick = entry.key in result.must_picks
    return Category(name, title, entries, result)


def summarize(
    rows: Sequence[GameRow], players: int, content: Content, top: int = 10, needed: int | None = None
) -> Summary:
    """The balance report of finished games (games with an error are counted but left out)."""
    good = [row for row in rows if row.error is None]
    fair = 1.0 / players
    needed = min_samples(len(good)) if needed is None else needed
    seats = [seat for row in good for seat in row.seats]

    favoured, in_game, monsters, by_seat, by_order, by_bot = (Tally() for _ in range(6))
    monster_drafted = Tally()
    monster_of = {card.id: card.monster for card in content.cards.values() if card.monster is not None}
    god_picks: dict[str, int] = Counter()
    all_god_picks: dict[str, int] = Counter()
    for row in good:
        game_picks = sum(sum(seat.drafted_by_god.values()) for seat in row.seats)
        for god in row.gods:
            all_god_picks[god] += game_picks
            god_picks[god] += sum(seat.drafted_by_god.get(god, 0) for seat in row.seats)
        for seat in row.seats:
            for god in seat.favoured:
                favoured.add(god, 1.0 / len(seat.favoured), seat)
            for god in row.gods:
                in_game.add(god, 1.0, seat)
            for monster in seat.monsters or [NO_MONSTER]:
                monsters.add(monster, 1.0, seat)
            for monster in sorted({monster_of[c] for c in seat.drafted if c in monster_of}):
                monster_drafted.add(monster, 1.0, seat)
            by_seat.add(str(seat.seat), 1.0, seat)
            by_order.add(str(seat.order), 1.0, seat)
            by_bot.add(seat.bot, 1.0, seat)

    god_keys = sorted(set(favoured.samples) | set(in_game.samples))
    in_game_entries = in_game.entries(fair, god_keys)
    for entry in in_game_entries:
        entry.extra["games"] = entry.samples / players
        entry.extra["pick_share"] = god_picks[entry.key] / all_god_picks[entry.key] if all_god_picks[entry.key] else 0
    glory_values = [e.mean_glory for e in in_game_entries if e.samples >= needed]
    glory_spread = max(glory_values) - min(glory_values) if glory_values else 0.0
    seat_keys = [str(s) for s in range(players)]
    categories = [
        category_of("favoured_god", "Win rate by favoured god", favoured.entries(fair, god_keys), fair, needed),
        category_of(
            "god_in_game",
            "Win rate by god in the game",
            in_game_entries,
            fair,
            needed,
            f"every seat counts, so win rates stay near the fair share; average Glory spread {glory_spread:.1f}",
        ),
        category_of("monster_drafted", "Win rate by monster drafted", monster_drafted.entries(fair), fair, needed),
        category_of(
            "monster",
            "Win rate by monster owned at the end (for information)",
            monsters.entries(fair),
            fair,
            needed,
            "not judged: owning a monster follows from the Rage to play its card",
            exclude=[NO_MONSTER],
        ),
        category_of("seat", "Win rate by seat", by_seat.entries(fair, seat_keys), fair, needed),
        category_of(
            "order",
            "Win rate by turn order in Age 1 (0 = first player)",
            by_order.entries(fair, seat_keys),
            fair,
            needed,
        ),
    ]
    if len(by_bot.samples) > 1:
        categories.append(category_of("bot", "Win rate by bot", by_bot.entries(fair), fair, needed))

    cards, card_verdict, top_cards, played_rate = _card_stats(good, content, fair, needed, top)
    wins = sum(seat.won for seat in seats)
    return Summary(
        games=len(good),
        errors=len(rows) - len(good),
        players=players,
        fair_share=fair,
        mean_win_rate=wins / len(seats) if seats else 0.0,
        shared_wins=sum(1 for row in good if sum(seat.won for seat in row.seats) > 1),
        mean_glory=sum(seat.glory for seat in seats) / len(seats) if seats else 0.0,
        min_samples=needed,
        categories=categories,
        cards=cards,
        top_cards=top_cards,
        card_verdict=card_verdict,
        played_card_win_rate=played_rate,
    )


def _card_stats(
    rows: Sequence[GameRow], content: Content, fair: float, needed: int, top: int
) -> tuple[list[CardEntry], Verdict, list[str], float]:
    in_deck: Counter[str] = Counter()
    drafted: Counter[str] = Counter()
    drafted_wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    played_wins: Counter[str] = Counter()
    unplayed: Counter[str] = Counter()
    unplayed_wins: Counter[str] = Counter()
    monster_cards = {card.monster: card.id for card in content.cards.values() if card.god is None}
    for row in rows:
        for card in content.cards.values():
            if card.god is not None and card.god in row.gods and not card.rainbow:
                in_deck[card.id] += 1
        for monster in row.monsters_in_play:
            if monster in monster_cards:
                in_deck[monster_cards[monster]] += 1
        for seat in row.seats:
            for card_id in set(seat.drafted):
                drafted[card_id] += 1
                drafted_wins[card_id] += seat.won
            for card_id in set(seat.played):
                played[card_id] += 1
                played_wins[card_id] += seat.won
            # A card may be played without being drafted: effects draw cards from the deck.
            for card_id in set(seat.drafted) - set(seat.played):
                unplayed[card_id] += 1
                unplayed_wins[card_id] += seat.won
    entries = []
    for card_id in sorted(set(drafted) | set(played)):
        info = content.cards.get(card_id)
        n_played, n_drafted = played[card_id], drafted[card_id]
        rate = drafted_wins[card_id] / n_drafted if n_drafted else 0.0
        low, high = interval(drafted_wins[card_id], n_drafted)
        entries.append(
            CardEntry(
                card=card_id,
                name=info.name if info else card_id,
                god=info.god if info else None,
                kind=info.kind if info else "?",
                in_deck=in_deck[card_id],
                drafted=n_drafted,
                pick_rate=n_drafted / in_deck[card_id] if in_deck[card_id] else 0.0,
                played=n_played,
                played_wins=played_wins[card_id],
                played_rate=played_wins[card_id] / n_played if n_played else 0.0,
                low=low,
                high=high,
                lead=rate - fair,
                suspect=n_drafted > 0 and low > fair,
                strict_suspect=False,
                above_played=False,
                unplayed=unplayed[card_id],
                unplayed_wins=unplayed_wins[card_id],
                unplayed_rate=unplayed_wins[card_id] / unplayed[card_id] if unplayed[card_id] else 0.0,
                drafted_rate=rate,
                drafted_wins=drafted_wins[card_id],
            )
        )
    # Judged: the win rate of the seats that drafted a card, against the fair share. Seats
    # that play many cards win more often, so the played rate is only compared with the
    # win rate of an average played card, for information.
    total = sum(played.values())
    played_rate = sum(played_wins.values()) / total if total else 0.0
    items = [(e.card, float(e.drafted), float(e.drafted_wins), e.drafted_rate) for e in entries]
    ranked = sorted((e for e in entries if e.drafted >= needed), key=lambda e: (-e.drafted_rate, -e.drafted, e.card))
    above = [
        e.card
        for e in sorted(entries, key=lambda e: (-e.played_rate, e.card))
        if e.played >= needed and interval(e.played_wins, e.played)[0] > played_rate
    ]
    note = (
        f"judged by the win rate of the seats that drafted a card; when played, the seat of an average "
        f"played card wins {_pct(played_rate)}, played-rate intervals above that: {', '.join(above) or 'none'}"
    )
    card_verdict = verdict(items, fair, needed, note)
    strict = set(card_verdict.strict_suspects)
    for entry in entries:
        entry.strict_suspect = entry.card in strict
        entry.must_pick = entry.card in card_verdict.must_picks
        entry.above_played = entry.card in above
    return entries, card_verdict, [e.card for e in ranked[:top]], played_rate


# Output ----------------------------------------------------------------------------------


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _samples(value: float) -> str:
    return f"{value:.0f}" if value == round(value) else f"{value:.1f}"


def _points(value: float) -> str:
    return f"{100 * value:+.1f}"


def table(header: Sequence[str], lines: Sequence[Sequence[str]], markdown: bool = False) -> str:
    """Rows as an aligned text table (first column left, the rest right) or a Markdown table."""
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        out.extend("| " + " | ".join(line) + " |" for line in lines)
        return "\n".join(out)
    widths = [max(len(header[i]), *(len(line[i]) for line in lines)) for i in range(len(header))]
    out = ["  ".join(h.ljust(widths[i]) if i == 0 else h.rjust(widths[i]) for i, h in enumerate(header))]
    for line in lines:
        out.append("  ".join(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(line)))
    return "\n".join(out)


#: What the must-picks of a category are called, by the table's flag ("AHEAD": none can be).
MUST_WORDS = {"MUST-PICK": "must-picks", "MUST-BUILD": "must-builds"}


def flag_of(must: bool, strict: bool, suspect: bool, flag: str) -> str:
    """The flag column: ``flag`` for a must-pick, ``ahead!`` / ``ahead?`` for an edge with / without correction."""
    if must and flag in MUST_WORDS:
        return flag
    return "ahead!" if strict else "ahead?" if suspect else ""


def verdict_line(label: str, result: Verdict, fair: float, flag: str = "MUST-PICK") -> str:
    """One line: the spread, the must-picks (or must-builds) and the entries ahead in a category.

    ``flag`` is the category's flag: ``MUST-PICK``, ``MUST-BUILD`` or ``AHEAD`` (a seat or
    a bot is not picked: it can only be ahead).
    """
    if not result.entries:
        return f"verdict ({label}): {result.note}"
    spread = (
        f"spread {100 * result.spread:.1f} points over {result.entries} entries "
        f"(best {result.best}, worst {result.worst})"
    )
    parts = [spread]
    if flag in MUST_WORDS:
        words = MUST_WORDS[flag]
        parts.append(
            f"{words} (ahead after the Bonferroni correction and by {100 * MUST_PICK_MARGIN:.0f} points or more): "
            + (", ".join(result.must_picks) or "none")
        )
    if result.suspects:
        strict = ", ".join(result.strict_suspects) or "none"
        parts.append(
            f"ahead (95% interval above the {_pct(fair)} fair share): {', '.join(result.suspects)}"
            f" [~{result.expected_false_alarms:.1f} expected by chance; Bonferroni-corrected: {strict}]"
        )
    else:
        parts.append("none ahead")
    if result.note:
        parts.append(result.note)
    return f"verdict ({label}): " + "; ".join(parts)


def category_block(
    category: Category,
    *,
    fair: float,
    needed: int,
    score_name: str,
    flag: str,
    markdown: bool,
    extra: tuple[int, list[str], Callable[[Entry], list[str]]] | None = None,
    judged: Callable[[Entry], bool] = lambda entry: True,
) -> list[str]:
    """One category as lines: its title, its table and its verdict.

    ``extra`` = (column index, headers, values of an entry) adds columns; ``judged``
    says which entries may carry the ``flag`` (a suspect with enough samples).
    """
    header = ["key", "seat-games", "wins", "win rate", "95% CI", "vs fair", f"avg {score_name}", "flag"]
    if extra is not None:
        header[extra[0] : extra[0]] = extra[1]
    lines = []
    for e in category.entries:
        line = [
            e.key,
            _samples(e.samples),
            _samples(e.wins),
            _pct(e.win_rate),
            f"{_pct(e.low)}-{_pct(e.high)}",
            _points(e.lead),
            f"{e.mean_glory:.1f}",
            flag_of(e.must_pick, e.key in category.verdict.strict_suspects, e.suspect, flag)
            if e.suspect and e.samples >= needed and judged(e)
            else "",
        ]
        if extra is not None:
            line[extra[0] : extra[0]] = extra[2](e)
        lines.append(line)
    title = f"### {category.title}" if markdown else f"{category.title}:"
    return [
        "",
        title,
        "",
        table(header, lines, markdown) if lines else "(no data)",
        "",
        verdict_line(category.name.replace("_", " "), category.verdict, fair, flag),
    ]


def format_report(summary: Summary, markdown: bool = False) -> str:
    """The whole report as text (or Markdown) tables with a verdict line under each."""
    fair = summary.fair_share
    out = [
        f"{summary.games} games, {summary.players} players"
        + (f" ({summary.errors} with errors left out)" if summary.errors else "")
        + f"; fair share {_pct(fair)}, mean win rate {_pct(summary.mean_win_rate)}"
        + f" ({summary.shared_wins} shared first places); mean Glory {summary.mean_glory:.1f};"
        + f" entries need {summary.min_samples} samples for a verdict"
    ]
    for category in summary.categories:
        god_table = category.name == "god_in_game"
        out += category_block(
            category,
            fair=fair,
            needed=summary.min_samples,
            score_name="Glory",
            # Gods, monsters and cards are picked; seats, bots and owners are not, they are just ahead.
            flag="MUST-PICK" if category.name in ("favoured_god", "god_in_game", "monster_drafted") else "AHEAD",
            markdown=markdown,
            extra=(
                1,
                ["games", "pick share"],
                lambda e: [_samples(e.extra.get("games", 0.0)), _pct(e.extra.get("pick_share", 0.0))],
            )
            if god_table
            else None,
            judged=lambda e: e.key != NO_MONSTER,
        )
    by_card = {entry.card: entry for entry in summary.cards}
    header = [
        "card", "god", "kind", "drafted", "pick rate", "win rate when drafted", "95% CI", "vs fair",
        "played", "win rate when played", "vs played avg", "drafted, not played", "flag",
    ]  # fmt: skip
    lines = []
    for card_id in summary.top_cards:
        c = by_card[card_id]
        flag = flag_of(c.must_pick, c.strict_suspect, c.suspect, "MUST-PICK")
        lines.append(
            [
                f"{c.card} ({c.name})",
                c.god or "monster",
                c.kind,
                str(c.drafted),
                _pct(c.pick_rate),
                _pct(c.drafted_rate),
                f"{_pct(c.low)}-{_pct(c.high)}",
                _points(c.lead),
                str(c.played),
                _pct(c.played_rate),
                _points(c.played_rate - summary.played_card_win_rate),
                f"{_pct(c.unplayed_rate)} of {c.unplayed}" if c.unplayed else "-",
                flag,
            ]
        )
    title = (
        f"Top {len(summary.top_cards)} cards by win rate when drafted (drafted at least {summary.min_samples} times)"
    )
    out += ["", f"### {title}" if markdown else f"{title}:", ""]
    out.append(table(header, lines, markdown) if lines else "(no card was drafted often enough yet)")
    out += ["", verdict_line("cards", summary.card_verdict, fair, "MUST-PICK")]
    return "\n".join(out)


def to_json(
    config: BalanceConfig,
    rows: Sequence[GameRow],
    summary: Summary,
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
        "summary": {
            key: value
            for key, value in asdict(summary).items()
            if key not in ("categories", "cards", "top_cards", "card_verdict")
        },
        "categories": {category.name: asdict(category) for category in summary.categories},
        "cards": {
            "top": summary.top_cards,
            "verdict": asdict(summary.card_verdict),
            "all": [asdict(card) for card in summary.cards],
        },
        "games": [asdict(row) for row in rows],
    }
