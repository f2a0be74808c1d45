"""Völuspá's score breakdown: each seat's points by round and by the kind of line that scored.

Read from the ``scored`` events of the game (:func:`meadhall.core.breakdown.replayed_events`):
each carries the points of one placed tile and the lines that earned them, as the
terminal's ``explain`` words them (a row, a column, a Sea Serpent's span across gaps, the
tiles around a Hel or a Dwarf, a tile scoring alone).
"""

from __future__ import annotations

from typing import Any

from meadhall.core.breakdown import ScoreTable, replayed_events, section
from meadhall.games.voluspa.words import WORDS

#: The kinds of scored lines (``board.py``'s details), in the order shown, with their words.
LINE_WORDS = {
    "row": "Rows",
    "column": "Columns",
    "span": "Sea Serpent spans (across gaps)",
    "neighbours": "Tiles around a Hel or a Dwarf",
    "single": "Tiles scoring alone",
}


def breakdown(state: Any) -> ScoreTable:
    """Points by round (each seat's turns, the first round first) and by kind of line, for a finished game."""
    players = state.num_players
    totals = [int(score) for score in state.scores()]
    turn = 1
    by_round: dict[int, list[int]] = {}
    by_line = {kind: [0] * players for kind in LINE_WORDS}
    for event in replayed_events(state):
        if event.kind == "turn":
            turn = int(event.data["turn"])
        elif event.kind == "scored":
            seat = int(event.data["seat"])
            points = int(event.data["points"])
            round_points = by_round.setdefault((turn - 1) // players + 1, [0] * players)
            round_points[seat] += points
            for line in event.data.get("lines") or []:
                by_line[str(line["kind"])][seat] += int(line["points"])
    notes = WORDS.result(state.view(None))["notes"]
    return {
        "title": "Where the points came from",
        "sections": [
            section("Points by kind of line", [(words, by_line[kind]) for kind, words in LINE_WORDS.items()]),
            section(
                "Points by round",
                [
                    (f"Round {number}", by_round.get(number, [0] * players))
                    for number in range(1, max(by_round, default=0) + 1)
                ],
                zeros=True,
            ),
        ],
        "totals": totals,
        "notes": notes,
    }
