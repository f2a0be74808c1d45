"""What a game's balance report counts: the protocol between a game and ``meadhall.lab.balance``.

A balance report plays seeded bot games against each other (self-play) and asks whether
some choice wins too often: a god whose cards a seat drafts, a god area a seat builds in.
Which choices count is the game's business; playing the games, counting, intervals,
verdicts and the written report are the lab's. A game that has a report returns a
:class:`BalanceSpec` from :meth:`meadhall.core.game.Game.balance_spec`:

* :attr:`BalanceSpec.facts` reads a finished game (its first and last positions) into
  :class:`GameFacts`: JSON data about the game and each seat, in the game's own words
  (the cards a seat drafted, the temples it built). These are the report's per-game
  records, written as they are.
* :class:`CategorySpec` says, for one table of win rates, which keys a seat counts for
  (its favoured god, every god area it built in, ...), read from those facts.
* :class:`ChoiceSpec` (optional) describes components that are offered, chosen and
  maybe used (cards drafted, then played): a table of win rates by what was chosen.
* :class:`WhatIfSpec` (optional) names actions whose effect is measured by playing the
  game again from that moment without them (Valda's god weapons).

Everything here is pure: functions of a game's own positions and facts, no I/O, no
statistics. The words are the game's (the table headers and titles of its report).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from meadhall.core.game import Action, GameState


class SeatFacts(NamedTuple):
    """One seat of a finished game, as its game reads it."""

    order: int  #: its place in the turn order at the start: 0 = the seat that plays first
    score: int  #: its score at the end (its Glory, its followers)
    facts: dict[str, Any]  #: what it chose and held, as JSON data in the game's words


class GameFacts(NamedTuple):
    """A finished game, as its game reads it: facts about the game and one entry per seat."""

    facts: dict[str, Any]  #: about the whole game (the gods in it, the start player), JSON data
    seats: list[SeatFacts]


class FinishedSeat(Protocol):
    """A seat of a finished game as the report keeps it (the lab's record of it)."""

    @property
    def facts(self) -> Mapping[str, Any]:
        """The seat's facts (:attr:`SeatFacts.facts`)."""
        ...


class FinishedGame(Protocol):
    """A finished game as the report keeps it: its facts and its seats."""

    @property
    def facts(self) -> Mapping[str, Any]:
        """The game's facts (:attr:`GameFacts.facts`)."""
        ...

    @property
    def seats(self) -> Sequence[FinishedSeat]:
        """Its seats, by seat number."""
        ...


class Must(NamedTuple):
    """What an entry far ahead of the fair share is called: the flag word and its plural."""

    word: str  #: the flag in the tables, e.g. ``MUST-PICK``
    plural: str  #: in the verdict line, e.g. ``must-picks``


#: A component a seat should not be made to take (a god's cards, a monster, a card).
MUST_PICK = Must("MUST-PICK", "must-picks")
#: A place a seat should not be made to build in (a god area).
MUST_BUILD = Must("MUST-BUILD", "must-builds")

#: The keys a seat counts for in a category, each with its weight (a seat may count a
#: fraction for several keys, e.g. half for each of two tied gods): ``keys(game facts,
#: seat facts)``.
KeysOf = Callable[[Mapping[str, Any], Mapping[str, Any]], Iterable[tuple[str, float]]]


@dataclass(frozen=True)
class ColumnSpec:
    """An extra column of a category's table, computed from every finished game counted."""

    header: str  #: the column's header
    name: str  #: its name among the entry's extras in the JSON
    value: Callable[[Sequence[FinishedGame], str], float]  #: the value for a key, from the games
    percent: bool = False  #: shown as a percentage (else as a count)


@dataclass(frozen=True)
class CategorySpec:
    """One table of the report: win rates of the seats by the keys they count for."""

    name: str  #: the table's name in the JSON (its verdict line reads it with spaces)
    title: str  #: the table's title
    keys: KeysOf  #: which keys a seat counts for, with weights
    must: Must | None = None  #: what an entry far ahead is called; ``None``: it can only be "ahead"
    #: Said under the verdict; ``{score_spread:.1f}`` in it is replaced by the spread of
    #: the average scores among the entries with enough samples.
    note: str = ""
    unjudged: frozenset[str] = frozenset()  #: keys shown but never judged, such as ``(none)``
    #: Categories with the same listing show the same keys: every key any of them counts,
    #: in order, with or without samples (gods of the game beside favoured gods).
    listing: str | None = None
    columns: tuple[ColumnSpec, ...] = ()  #: extra columns
    columns_at: int = 1  #: where the extra columns go among the standard ones


class ChoiceWords(NamedTuple):
    """The words of a choices table, e.g. cards drafted (chosen) and played (used)."""

    noun: str  #: one component: ``card``
    plural: str  #: ``cards``
    group: str  #: what groups them: ``god``
    ungrouped: str  #: shown for a component in no group: ``monster``
    offered: str  #: JSON name of the count of games that offered it: ``in_deck``
    chosen: str  #: ``drafted``
    choice: str  #: the choice as a noun, for its rate: ``pick``
    used: str  #: ``played``
    unused: str  #: ``unplayed``


class Description(NamedTuple):
    """A component as a choices table shows it."""

    name: str  #: its name (the key itself when the game does not know it)
    group: str | None  #: its group (a card's god), ``None`` for none
    kind: str  #: its kind (battle, upgrade, quest; ``?`` when unknown)


@dataclass(frozen=True)
class ChoiceSpec:
    """Components a game offers, a seat chooses (judged) and then uses or not (shown)."""

    words: ChoiceWords
    offered: Callable[[Mapping[str, Any]], Iterable[str]]  #: from game facts: the keys the game offered
    chosen: Callable[[Mapping[str, Any]], Iterable[str]]  #: from seat facts: the keys it chose
    used: Callable[[Mapping[str, Any]], Iterable[str]]  #: from seat facts: the keys it used
    describe: Callable[[str], Description]
    must: Must = MUST_PICK


class WhatIfWords(NamedTuple):
    """The words of a what-if table, e.g. ``god weapon`` / ``weapon``."""

    noun: str  #: ``god weapon``
    plural: str  #: ``god weapons``
    short: str  #: ``weapon``
    short_plural: str  #: ``weapons``: also the name of the plays in the JSON


@dataclass(frozen=True)
class WhatIfSpec:
    """Actions whose effect on the result is measured by playing on without them.

    When a seat takes such an action, the position before it is kept; after the game,
    it is played again from there with the same bots, the seat choosing among its legal
    actions that are not such actions. The action *decided* the game if the winners change.
    """

    words: WhatIfWords
    key: Callable[[Action], str | None]  #: the option an action plays, or ``None`` for other actions
    options: Mapping[str, str]  #: every option the table lists, with its name


@dataclass(frozen=True)
class BalanceSpec:
    """Everything a game says about its balance report."""

    #: Reads a finished game: ``facts(first position, last position)``.
    facts: Callable[[GameState[Any], GameState[Any]], GameFacts]
    categories: tuple[CategorySpec, ...]  #: the game's own tables, before by seat, turn order and bot
    score_key: str  #: the score's name in the JSON: ``glory``
    score_name: str  #: the score's name in the tables: ``Glory``
    order_title: str  #: the title of the table by turn order
    players: int  #: seats per game unless asked otherwise
    options: Mapping[str, Any] = field(default_factory=dict)  #: options added unless given (a preset)
    choices: ChoiceSpec | None = None
    what_ifs: WhatIfSpec | None = None
