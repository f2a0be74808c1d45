"""Valda's score breakdown: each seat's followers by where they came from, and its buildings (the tie-break).

Read from the ``followers`` events of the game (:func:`meadhall.core.breakdown.replayed_events`):
each gain or loss says why (a god's ability in the followers phase, a temple, a locked
god area, a card or a god weapon; a loss is an attack or a die). Buildings do not score:
they break a tie on followers, so their section is shown beside the followers and does not
add up to them.
"""

from __future__ import annotations

from typing import Any

from meadhall.core.breakdown import ScoreTable, replayed_events, section
from meadhall.games.valda.words import WORDS, names_for


def breakdown(state: Any) -> ScoreTable:
    """Followers by source and buildings by kind for a finished game, each seat a column."""
    players = state.num_players
    content = state.config.content
    names = names_for(content)
    gods = list(content.gods)
    by_god = {god: [0] * players for god in gods}
    temples, locks, cards, lost = ([0] * players for _ in range(4))
    for event in replayed_events(state):
        if event.kind != "followers":
            continue
        seat, change, why = int(event.data["seat"]), int(event.data["change"]), str(event.data["why"])
        if change < 0:
            lost[seat] += change
        elif why in by_god:
            by_god[why][seat] += change
        elif why.startswith("a temple of "):
            temples[seat] += change
        elif why.startswith("locking "):
            locks[seat] += change
        else:
            cards[seat] += change
    followers = [
        *[(f"{names.god(god)}'s ability", by_god[god]) for god in gods],
        ("Temples built", temples),
        ("God areas locked", locks),
        ("Cards and god weapons", cards),
        ("Followers lost (attacks and dice)", lost),
    ]
    seats = state.players
    buildings = [
        ("Mines", [p.mines for p in seats]),
        ("Blood drills", [p.drills for p in seats]),
        ("Temples", [sum(p.temples.values()) for p in seats]),
        ("All buildings (the tie-break)", [p.buildings() for p in seats]),
    ]
    return {
        "title": "Where the followers came from",
        "sections": [
            section("Followers by source", followers),
            section("Buildings: a tie on followers goes to the most", buildings, adds_up=False),
        ],
        "totals": [int(score) for score in state.scores()],
        "notes": WORDS.result(state.view(None))["notes"],
    }
