"""Blood Rage: Valhalla's score breakdown: each clan's Glory by where it came from.

Read from the ``glory`` events of the game (:func:`meadhall.core.breakdown.replayed_events`):
each says why the Glory came (the words the game's log shows), which names its source
here; Glory a card took from a clan is counted against that clan. Glory given at the start
(the ``starting-glory`` option) comes from the options.
"""

from __future__ import annotations

from typing import Any

from meadhall.core.breakdown import ScoreTable, replayed_events, section
from meadhall.games.bloodrage_valhalla.phases import START_GLORY
from meadhall.games.bloodrage_valhalla.words import WORDS

#: The sources of Glory, in the order shown, with their words.
SOURCE_WORDS = {
    "start": "Glory at the start (earlier games)",
    "pillage": "Pillage (region rewards and gods' favour)",
    "battle": "Battles won",
    "cards": "Battle cards revealed",
    "defeat": "Battles lost (cards and upgrades)",
    "taken": "Glory taken by other clans' cards",
    "quest": "Quests",
    "valor": "Prove Valor (figures in the Feast Hall)",
    "monster": "Monsters and upgrades",
    "stats": "Clan stats at the end (legendary bonuses)",
    "other": "Other card effects",
}


def source_of(why: str) -> str:
    """The source of Glory a ``glory`` event's ``why`` names (the game's own words for it)."""
    if why.startswith("legendary "):
        return "stats"
    if why.startswith("Prove Valor"):
        return "valor"
    if why in ("quest fulfilled", "quest reward", "quest"):
        return "quest"
    if why == "battle won":
        return "battle"
    if why in ("battle lost", "lost the battle", "defeat upgrade"):
        return "defeat"
    if why.endswith("'s reward") or why.endswith("'s favour") or why == "contest won":
        return "pillage"
    if " revealed" in why:
        return "cards"
    if why.endswith(" was killed") or why.endswith(" summoned") or why == "killed anywhere":
        return "monster"
    return "other"


def breakdown(state: Any) -> ScoreTable:
    """Glory by source for a finished game, each clan a column."""
    players = state.num_players
    by_source = {source: [0] * players for source in SOURCE_WORDS}
    for seat, placing in enumerate(state.config.starting_glory):
        by_source["start"][seat] += START_GLORY.get(int(placing), 0)
    for event in replayed_events(state):
        if event.kind != "glory":
            continue
        seat, amount = int(event.data["seat"]), int(event.data["amount"])
        by_source[source_of(str(event.data["why"]))][seat] += amount
        victim = event.data.get("from")
        if victim is not None:
            by_source["taken"][int(victim)] -= amount
    return {
        "title": "Where the Glory came from",
        "sections": [section("Glory by source", [(words, by_source[key]) for key, words in SOURCE_WORDS.items()])],
        "totals": [int(score) for score in state.scores()],
        "notes": WORDS.result(state.view(None))["notes"],
    }
