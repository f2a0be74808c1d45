"""The end of a game in the game's own terms: where each seat's score came from.

A game that can say where its points came from implements :meth:`Game.breakdown
<meadhall.core.game.Game.breakdown>`, which reads a finished state and returns a
:class:`ScoreTable`: sections of rows (sources: a turn, a kind of line, battles, quests,
a god's conversions...), one number per seat in each row, and the seats' totals. Every
section marked ``adds_up`` sums, seat by seat, to the totals, which are the game's final
scores (a test checks this over many random games of every game and preset); other
sections say what a tie-break counted (Valda's buildings). Labels and notes are the
game's words, with seat placeholders as in :mod:`meadhall.core.words`.

The breakdown is read from the events the engine produced: :func:`replayed_events`
replays the state's history from its seed and returns every event of the game (all
audiences: the breakdown is shown only once the game is over, and a game words only what
its end makes public). Hosts (the server's end-of-game page, the terminal, replays) show
the table as it is; they add no words of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from meadhall.core.game import Event, GameState


class ScoreRow(TypedDict):
    """One source of points: its label and what it gave each seat (by seat)."""

    label: str
    points: list[int]


class ScoreSection(TypedDict):
    """Rows under one title (``Points by turn``); ``adds_up``: the rows sum to the totals, seat by seat."""

    title: str
    rows: list[ScoreRow]
    adds_up: bool


class ScoreTable(TypedDict):
    """A finished game's score breakdown: sections of sources, each seat's total, and notes (tie-breaks)."""

    title: str
    sections: list[ScoreSection]
    totals: list[int]
    notes: list[str]


def replayed_events(state: GameState[Any]) -> list[Event]:
    """Every event of ``state``'s game from the deal to now: its history replayed from its seed.

    Pure: the game is set up again with the state's seats, seed and options and each
    recorded action applied in order, as the record of a game is replayed.
    """
    game = state.game
    fresh, events = game.deal(players=state.num_players, seed=state.seed, options=state.options)
    for seat, action in state.history():
        events.extend(fresh.apply(seat, action))
    return events


def section(
    title: str, rows: Sequence[tuple[str, Sequence[int]]], *, adds_up: bool = True, zeros: bool = False
) -> ScoreSection:
    """A section from ``(label, points by seat)`` pairs; rows of all zeros left out, unless ``zeros`` (rounds)."""
    kept: list[ScoreRow] = [{"label": label, "points": list(points)} for label, points in rows if zeros or any(points)]
    return {"title": title, "rows": kept, "adds_up": adds_up}


def mismatches(table: ScoreTable) -> list[str]:
    """Where a table does not add up: each ``adds_up`` section whose rows do not sum to the totals (empty: it does)."""
    found: list[str] = []
    totals = table["totals"]
    for part in table["sections"]:
        if not part["adds_up"]:
            continue
        sums = [sum(row["points"][seat] for row in part["rows"]) for seat in range(len(totals))]
        if sums != totals:
            found.append(f"{part['title']}: rows sum to {sums}, totals are {totals}")
        for row in part["rows"]:
            if len(row["points"]) != len(totals):
                found.append(f"{part['title']}: row {row['label']!r} has {len(row['points'])} seats")
    return found
